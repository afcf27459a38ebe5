// Issue #33: each scenario played in time. The herd's player: ▶/⏸, steps,
// the time slider, a link with `t-ms`; the same moment is the same frame
// however it is reached (the chart's and the stage's data fingerprints and
// the figures), and the figures at a moment are the lesson's, by hand.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startLab, stopLab, open, SLUG } from './harness.mjs';

before(startLab);
after(stopLab);

const HERD = `/lecciones/${SLUG}/widgets/herd`;

/** What the widget shows at its moment: the player's moment, both charts' data, the figures. */
async function frame(page) {
  return page.evaluate(() => {
    const w = document.querySelector('#widget-herd');
    return {
      t: w.querySelector('.player').dataset.tMs,
      chart: w.querySelector('.chart').dataset.sum,
      stage: w.querySelector('.stage .chart')?.dataset.sum ?? null,
      figures: [...w.querySelectorAll('td[data-figure]')].map((td) => `${td.dataset.figure}=${td.textContent}`).join(' '),
    };
  });
}

const settled = (page) => page.waitForFunction(() => document.querySelector('#widget-herd .player')?.dataset.playing === 'false');

/** The time slider moved to `t` and let go, as a learner drags it. */
async function scrub(page, t) {
  await page.$eval('#herd-time', (el, v) => {
    el.value = String(v);
    el.dispatchEvent(new Event('input', { bubbles: true }));
    el.dispatchEvent(new Event('change', { bubbles: true }));
  }, t);
  await page.waitForFunction((v) => document.querySelector('#widget-herd .player').dataset.tMs === String(v), t);
  await page.waitForFunction((v) => new URLSearchParams(location.search).get('t-ms') === String(v), t);
}

test('the herd: it opens at its end, plays, pauses, steps, and the same moment is the same frame', async () => {
  const { page, problems } = await open(HERD);
  // At its end, as the lesson says it (and the prerendered page shows it): no marks, nothing playing.
  const end = await frame(page);
  assert.equal(end.t, '1410');
  assert.equal(end.stage, null);
  assert.match(end.figures, /served=150 served=1,000 gave_up=850 gave_up=0/);
  assert.equal(await page.textContent('#widget-herd .player .moment'), '1,410 ms de 1,410 ms');
  // ▶ replays from the start; ⏸ keeps the moment in the URL. (At ¼×: the run
  // lasts 1.4 s at 1×, and a slow machine's pause may come after its end.)
  await page.selectOption('#herd-speed', { label: '¼×' });
  await page.click('#herd-play');
  await page.waitForFunction(() => document.querySelector('#widget-herd .player').dataset.playing === 'true');
  // (From its start: ▶ found it at its end, 1,410 ms.)
  await page.waitForFunction(() => { const t = Number(document.querySelector('#widget-herd .player').dataset.tMs); return t > 100 && t < 1410; });
  await page.click('#herd-play');
  await settled(page);
  const paused = await frame(page);
  assert.ok(Number(paused.t) > 0 && Number(paused.t) < 1410, paused.t);
  await page.waitForFunction((t) => new URLSearchParams(location.search).get('t-ms') === t, paused.t);
  assert.ok(paused.stage, 'the clients are drawn as marks');
  // A step goes to the end of the next window with attempts (a multiple of 10 ms).
  await page.click('#herd-step');
  await page.waitForFunction((t) => document.querySelector('#widget-herd .player').dataset.tMs !== t, paused.t);
  const stepped = await frame(page);
  assert.ok(Number(stepped.t) > Number(paused.t) && Number(stepped.t) % 10 === 0, stepped.t);
  // Back to the paused moment by the slider: the same frame.
  await scrub(page, Number(paused.t));
  assert.deepEqual(await frame(page), paused);
  // Scrubbed to 210 ms, the end of the first wave's window: «sin jitter», all 1,000 came
  // back at 200 ms (the lesson's «tope de 200») and the server took its 50.
  await scrub(page, 210);
  const wave = await frame(page);
  assert.match(wave.figures, /served=50 /);
  assert.match(wave.figures, /waiting=950 /);
  assert.match(wave.figures, /peak=1,000 /);
  assert.match(wave.figures, /attempts=1,000 /);
  // The keyboard: End, then Home, then → (the first window with attempts ends after 0).
  await page.focus('#herd-play');
  await page.keyboard.press('End');
  await page.waitForFunction(() => document.querySelector('#widget-herd .player').dataset.tMs === '1410');
  await page.keyboard.press('Home');
  await page.waitForFunction(() => document.querySelector('#widget-herd .player').dataset.tMs === '0');
  assert.match((await frame(page)).figures, /attempts=0 attempts=0/);
  // Space plays and pauses (once per press, not again by the button's own click).
  await page.keyboard.press('Space');
  await page.waitForFunction(() => document.querySelector('#widget-herd .player').dataset.playing === 'true');
  await page.waitForTimeout(300);
  await page.keyboard.press('Space');
  await settled(page);
  assert.ok(Number((await frame(page)).t) > 0);
  // Played to its end, it stops there and keeps the end.
  await page.selectOption('#herd-speed', { label: '8×' });
  await page.click('#herd-play');
  await page.waitForFunction(() => new URLSearchParams(location.search).get('t-ms') === '1410', null, { timeout: 10000 });
  await settled(page);
  // A link with that moment opens at it, with the same frame.
  await scrub(page, Number(paused.t));
  const again = await open(`${HERD}?t-ms=${paused.t}`);
  await again.page.waitForSelector('#widget-herd .stage .chart[data-sum]');
  assert.deepEqual(await frame(again.page), paused);
  // «Reiniciar» goes to the start; «Volver a los valores de la lección» to the end.
  await page.click('#herd-restart');
  await page.waitForFunction(() => document.querySelector('#widget-herd .player').dataset.tMs === '0');
  await page.click('#widget-herd button.reset');
  await page.waitForFunction(() => document.querySelector('#widget-herd .player').dataset.tMs === '1410');
  assert.deepEqual(problems, []);
  assert.deepEqual(again.problems, []);
  await page.close();
  await again.page.close();
});

test('the herd: a moment past the run says so; at 100,000 clients a mark stands for 100', async () => {
  const { page, problems } = await open(`${HERD}?t-ms=5000`);
  await page.waitForFunction(() => /pasa del final de la corrida \(1,410 ms\)/.test(document.querySelector('#widget-herd .results')?.textContent));
  const big = await open(`${HERD}?clients=100000&t-ms=300`);
  await big.page.waitForSelector('#widget-herd .stage .chart[data-sum]');
  await big.page.click('#widget-herd .stage summary');
  assert.match(await big.page.textContent('#widget-herd .stage table caption'), /cada punto son 100/);
  assert.deepEqual(problems, []);
  assert.deepEqual(big.problems, []);
  await page.close();
  await big.page.close();
});

test('a number typed while the herd plays stays in its field until Enter sends it', async () => {
  const { page, problems } = await open(HERD);
  await page.selectOption('#herd-speed', { label: '¼×' });
  await page.click('#herd-play');
  await page.waitForFunction(() => { const t = Number(document.querySelector('#widget-herd .player').dataset.tMs); return t > 0 && t < 1410; });
  // Typed, not yet sent: the widget redraws on every frame, and the text stays.
  await page.fill('#herd-clients', '500');
  const t0 = await page.$eval('#widget-herd .player', (p) => p.dataset.tMs);
  // (At ¼× the run lasts 5.6 s: it is still playing, redrawn frame after frame.)
  await page.waitForFunction((t) => Number(document.querySelector('#widget-herd .player').dataset.tMs) > Number(t) + 50, t0);
  assert.equal(await page.$eval('#widget-herd .player', (p) => p.dataset.playing), 'true');
  assert.equal(await page.inputValue('#herd-clients'), '500');
  await page.press('#herd-clients', 'Enter');
  await page.waitForFunction(() => new URLSearchParams(location.search).get('clients') === '500');
  assert.equal(await page.inputValue('#herd-clients'), '500');
  assert.deepEqual(problems, []);
  await page.close();
});

/** A widget's moment as the player and the page show it: the player's moment, the chart's data, the figures. */
async function frameOf(page, id) {
  return page.evaluate((id) => {
    const w = document.querySelector(`#widget-${id}`);
    return {
      t: w.querySelector('.player').dataset.tMs,
      // The chart's data, or a script's lines shown (the store has no chart).
      chart: w.querySelector('.chart')?.dataset.sum ?? w.querySelector('[data-rows]')?.dataset.rows,
      figures: [...w.querySelectorAll('td[data-figure], [data-figure="store"]')].map((td) => `${td.dataset.figure}=${td.textContent}`).join(' '),
    };
  }, id);
}

/** The widget's time slider dragged to `t` and let go. */
async function scrubTo(page, id, t, key = 't-ms', kept = String(t)) {
  await page.$eval(`#${id}-time`, (el, v) => {
    el.value = String(v);
    el.dispatchEvent(new Event('input', { bubbles: true }));
    el.dispatchEvent(new Event('change', { bubbles: true }));
  }, t);
  await page.waitForFunction(([id, v]) => document.querySelector(`#widget-${id} .player`).dataset.tMs === String(v), [id, t]);
  await page.waitForFunction(([k, v]) => new URLSearchParams(location.search).get(k) === v, [key, kept]);
}

/** Every player the same way: it opens at its end, plays, pauses, steps
 * forward and back, and the same moment is the same frame by the slider and
 * by a link. Returns the page, scrubbed to nothing in particular. */
async function playerRoundTrip(id, end, key = 't-ms', unit = 1) {
  const path = `/lecciones/${SLUG}/widgets/${id}`;
  const { page, problems } = await open(path);
  const opened = await frameOf(page, id);
  assert.equal(opened.t, String(end));
  // At ¼×, so that the pause lands in the middle of the run however slow the machine
  // (at 1× the store's four lines take four seconds, and a pause may find it ended).
  await page.selectOption(`#${id}-speed`, { label: '¼×' });
  await page.click(`#${id}-play`);
  await page.waitForFunction((id) => document.querySelector(`#widget-${id} .player`).dataset.playing === 'true', id);
  // Played from its start: past its first moment (a script's moment is kept
  // in whole lines: past the first one), and no longer at its end, where ▶ found it.
  await page.waitForFunction(([id, past, end]) => {
    const t = Number(document.querySelector(`#widget-${id} .player`).dataset.tMs);
    return t > past && t < end;
  }, [id, unit > 1 ? 1.5 * unit : 0, end]);
  await page.click(`#${id}-play`);
  await page.waitForFunction((id) => document.querySelector(`#widget-${id} .player`).dataset.playing === 'false', id);
  const paused = await frameOf(page, id);
  assert.ok(Number(paused.t) > 0 && Number(paused.t) < end, paused.t);
  assert.notEqual(paused.chart, opened.chart, 'the chart is the run so far');
  await page.waitForFunction(([k, v]) => new URLSearchParams(location.search).get(k) === v, [key, String(Number(paused.t) / unit)]);
  // A step forward, then one back, lands on stops around the paused moment.
  await page.click(`#${id}-step`);
  await page.waitForFunction(([id, t]) => document.querySelector(`#widget-${id} .player`).dataset.tMs !== t, [id, paused.t]);
  const stepped = await frameOf(page, id);
  assert.ok(Number(stepped.t) > Number(paused.t), stepped.t);
  await page.click(`#${id}-back`);
  await page.waitForFunction(([id, t]) => document.querySelector(`#widget-${id} .player`).dataset.tMs !== t, [id, stepped.t]);
  assert.ok(Number((await frameOf(page, id)).t) < Number(stepped.t));
  // The paused moment again, by the slider: the same frame.
  await scrubTo(page, id, Number(paused.t), key, String(Number(paused.t) / unit));
  assert.deepEqual(await frameOf(page, id), paused);
  // And by a link.
  const again = await open(`${path}?${key}=${Number(paused.t) / unit}`);
  await again.page.waitForFunction(([id, t]) => document.querySelector(`#widget-${id} .player`)?.dataset.tMs === t, [id, paused.t]);
  await again.page.waitForSelector(`#widget-${id} :is(.chart[data-sum], [data-rows])`);
  assert.deepEqual(await frameOf(again.page, id), paused);
  // The keyboard: End and Home.
  await page.focus(`#${id}-play`);
  await page.keyboard.press('End');
  await page.waitForFunction(([id, e]) => document.querySelector(`#widget-${id} .player`).dataset.tMs === String(e), [id, end]);
  await page.keyboard.press('Home');
  await page.waitForFunction((id) => document.querySelector(`#widget-${id} .player`).dataset.tMs === '0', id);
  assert.deepEqual(again.problems, []);
  await again.page.close();
  return { page, problems };
}

test('the storm: played, stepped and scrubbed; before the outage nothing is retried', async () => {
  const { page, problems } = await playerRoundTrip('storm', 40000);
  // At 5 s the outage starts: until then the server (75/s) keeps up with 50/s, so no retries.
  await scrubTo(page, 'storm', 5000);
  const before = await frameOf(page, 'storm');
  assert.match(before.figures, /retries=0 /);
  // Once the outage has passed, the retries are there.
  await scrubTo(page, 'storm', 12000);
  assert.doesNotMatch((await frameOf(page, 'storm')).figures, /retries=0 /);
  // A step is one of the 120 buckets of 333.3 ms, ending on whole ms.
  await page.click('#storm-step');
  await page.waitForFunction(() => document.querySelector('#widget-storm .player').dataset.tMs === '12334');
  // A screen reader hears the moment and its figures when the player stops on it, not while it plays.
  const live = () => page.textContent('#widget-storm .player [aria-live]');
  assert.match(await live(), /^A los 12\.3 s: [\d,]+ requests nuevas, [\d,]+ intentos al servidor/);
  await page.click('#storm-play');
  await page.waitForFunction(() => document.querySelector('#widget-storm .player').dataset.playing === 'true');
  assert.equal((await live()).trim(), '');
  await page.click('#storm-play');
  assert.deepEqual(problems, []);
  await page.close();
});

test('the breaker: played on the clock; at 12:00:05 it has cost 2,500 timeouts, then it opens', async () => {
  // The run starts a window (10 s) before the fall, at 11:59:50, and ends at 12:01:20.
  const { page, problems } = await playerRoundTrip('breaker', 90000);
  assert.equal(await page.textContent('#widget-breaker .player .moment'), '11:59:50 de 12:01:20');
  // 12:00:00: 500 × 10 requests so far, none failed yet.
  await scrubTo(page, 'breaker', 10000);
  let f = (await frameOf(page, 'breaker')).figures;
  assert.match(f, /calls=5,000 /);
  assert.match(f, /timeouts=0 /);
  // 12:00:05: the lesson's «500 × 5 = ≈ 2,500» waited their timeout; it opens at 12:00:05.08.
  await scrubTo(page, 'breaker', 15000);
  f = (await frameOf(page, 'breaker')).figures;
  assert.match(f, /state=cerrado /);
  assert.match(f, /timeouts=2,500 /);
  await page.click('#breaker-step');
  await page.waitForFunction(() => document.querySelector('#widget-breaker .player').dataset.tMs === '16000');
  assert.match((await frameOf(page, 'breaker')).figures, /state=abierto /);
  assert.deepEqual(problems, []);
  await page.close();
});

test('load shedding: played by the second; at 10 s the server that sheds has served ≈ 100 a second in time', async () => {
  const { page, problems } = await playerRoundTrip('shedding', 20000);
  await scrubTo(page, 'shedding', 10000);
  const f = (await frameOf(page, 'shedding')).figures;
  // The queue without a cap never says 503; the one that sheds does, and keeps
  // the lesson's «≈ 100 por segundo a tiempo» (its capacity): ≈ 1,000 by 10 s.
  assert.match(f, /rejected-so-far=0 rejected-so-far=[1-9]/);
  const good = Number(f.match(/goodput-so-far=[\d,]+ goodput-so-far=([\d,]+)/)[1].replace(/,/g, ''));
  assert.ok(good > 900 && good <= 1000, `${good}`);
  assert.deepEqual(problems, []);
  await page.close();
});

test('one pod in flight: played a stretch at a time; by 950 ms, 16 of every 19 served (the lesson\'s 19 against 16 places)', async () => {
  const { page, problems } = await playerRoundTrip('inflight', 10000);
  // 100 requests a second to the pod, each holding its place 190 ms: 19 in flight
  // wanted, 16 places. Every 190 ms, 16 are served and 3 get a 503; by 950 ms
  // (5 × 190), 95 arrived: 80 served, 15 refused, 16 in flight. By hand.
  await scrubTo(page, 'inflight', 950);
  const f = (await frameOf(page, 'inflight')).figures;
  assert.match(f, /inflight-now=16 /);
  assert.match(f, /served-so-far=80 /);
  assert.match(f, /rejected-so-far=15 /);
  assert.deepEqual(problems, []);
  await page.close();
});

test('three clocks: played piece by piece; the read clock starts over at every piece, the total one does not', async () => {
  // The lesson's call: connected at 1 ms, a piece every 9 s, endless; the total clock (30 s) ends it.
  const { page, problems } = await playerRoundTrip('clocks', 30000);
  // Just before the first piece (9,001 ms): 10,000 − 8,999 ms of silence left on the read clock.
  await scrubTo(page, 'clocks', 9000);
  let f = (await frameOf(page, 'clocks')).figures;
  assert.match(f, /pieces=0 /);
  assert.match(f, /read-left=faltan 1,001 ms /);
  // A step is the next event: the piece, and the read clock is back to its 10 s.
  await page.click('#clocks-step');
  await page.waitForFunction(() => document.querySelector('#widget-clocks .player').dataset.tMs === '9001');
  f = (await frameOf(page, 'clocks')).figures;
  assert.match(f, /pieces=1 /);
  assert.match(f, /read-left=faltan 10 s /);
  assert.match(f, /connect-left=se detuvo al conectar /);
  // The last millisecond: three pieces in, the total clock about to fire.
  await scrubTo(page, 'clocks', 29999);
  f = (await frameOf(page, 'clocks')).figures;
  assert.match(f, /pieces=3 /);
  assert.match(f, /total-left=faltan 1 ms/);
  assert.deepEqual(problems, []);
  await page.close();
});

test('the deadline chain: played hop by hop; without cancelling, the zombie work grows after the 504', async () => {
  const { page, problems } = await playerRoundTrip('chain', 300);
  // The lesson's chain at 100 ms: the photo took 70, the queue 20; Triton computes, 150 ms of the deadline left.
  await scrubTo(page, 'chain', 100);
  let f = (await frameOf(page, 'chain')).figures;
  assert.match(f, /caller-now=espera /);
  assert.match(f, /gateway-now=espera a Triton /);
  assert.match(f, /triton-now=la computa /);
  assert.match(f, /deadline-left=quedan 150 ms /);
  // A slow photo (160 ms), a long queue (100 ms) and no cancelling: the gateway gives up at
  // 160 + min(150, 250 − 160) = 250 ms; Triton computes from 260 to 320 for nobody. By hand, at 280 ms:
  // 10 ms in the queue and 20 of computing, 30 ms of zombie work.
  const late = await open(`/lecciones/${SLUG}/widgets/chain?prep-ms=160&queue-ms=100&cancel=off&t-ms=280`);
  await late.page.waitForSelector('#widget-chain td[data-figure="zombie-so-far"]');
  f = (await frameOf(late.page, 'chain')).figures;
  assert.match(f, /caller-now=recibió un 504 y muestra el selector /);
  assert.match(f, /triton-now=la computa \(para nadie\) /);
  assert.match(f, /zombie-so-far=30 ms /);
  assert.deepEqual(problems, []);
  assert.deepEqual(late.problems, []);
  await page.close();
  await late.page.close();
});

test('the idempotency store: played a line at a time; the expired key is forgotten before the late retry', async () => {
  // The lesson's program: 4 lines, all at 0 s (the script has no clock of its own): a line a step.
  const { page, problems } = await playerRoundTrip('store', 4000, 'line', 1000);
  assert.equal(await page.textContent('#widget-store .player .moment'), 'línea 0 de 4');
  await page.close();
  // Exercise 9's expired key, after its 4th line (24 h 0 min 1 s): the store is empty, one refund made.
  const late = await open(`/lecciones/${SLUG}/widgets/store?scenario=expired&line=4`);
  await late.page.waitForSelector('#widget-store [data-rows="4"]');
  assert.match(await late.page.textContent('#widget-store [data-figure="store"]'), /a los 24 h 0 min 1 s: vacío/);
  assert.equal(await late.page.locator('#widget-store table.store-steps tbody tr').count(), 4);
  // Two more steps: the late retry finds no key, and the refund is made again.
  await late.page.click('#store-step');
  await late.page.click('#store-step');
  await late.page.waitForFunction(() => new URLSearchParams(location.search).get('line') === '6');
  assert.match(await late.page.textContent('#widget-store [data-figure="store"]'), /reembolso #2/);
  assert.deepEqual(problems, []);
  assert.deepEqual(late.problems, []);
  await late.page.close();
});

/** What the store's page shows: the player's moment, the table's rows, the verdict, and whether a note says the moment is past the end. */
async function storeShows(page) {
  return page.evaluate(() => {
    const w = document.querySelector('#widget-store');
    return {
      moment: w.querySelector('.player .moment').textContent,
      rows: w.querySelectorAll('table.store-steps tbody tr').length,
      verdict: w.querySelector('[data-figure="performed"]').textContent,
      pastEnd: /pasa del final/.test(w.querySelector('.results').textContent),
    };
  });
}

const query = (page, key) => page.evaluate((k) => new URLSearchParams(location.search).get(k), key);

test('the store\'s own steps are lines of its script: ◁ walks back through them, a step after the end is shown at once, a link replays them (#42)', async () => {
  const STORE = `/lecciones/${SLUG}/widgets/store`;
  // The first case, «publicar sin llave, se pierde la respuesta», and «otro intento, misma llave»
  // (no key was ever sent: a third attempt without one): six lines, three posts.
  const { page, problems } = await open(STORE);
  await page.click('#widget-store button[data-step="same-key"]');
  await page.waitForFunction(() => new URLSearchParams(location.search).get('steps') === 'same-key');
  await page.waitForFunction(() => document.querySelector('#widget-store .player .moment').textContent === 'línea 6 de 6');
  let s = await storeShows(page);
  assert.equal(s.rows, 6);
  assert.match(s.verdict, /se hizo 3 veces/);
  // ◁: the fifth line of the same script; the table and the verdict with it, and no note.
  await page.click('#store-back');
  await page.waitForFunction(() => new URLSearchParams(location.search).get('line') === '5');
  await page.waitForFunction(() => document.querySelector('#widget-store .player .moment').textContent === 'línea 5 de 6');
  s = await storeShows(page);
  assert.deepEqual({ rows: s.rows, pastEnd: s.pastEnd }, { rows: 5, pastEnd: false });
  assert.match(s.verdict, /se hizo 2 veces/);
  assert.equal(await query(page, 'steps'), 'same-key');
  assert.match(await page.textContent('#widget-store .cli code'), /--steps same-key/);
  // ◁ again, and ▷ back: line 4 (two posts), then 5.
  await page.click('#store-back');
  await page.waitForFunction(() => new URLSearchParams(location.search).get('line') === '4');
  assert.deepEqual((await storeShows(page)).rows, 4);
  assert.match((await storeShows(page)).verdict, /se hizo 2 veces/);
  await page.click('#store-step');
  await page.waitForFunction(() => new URLSearchParams(location.search).get('line') === '5');
  const fifth = await storeShows(page);
  assert.equal(fifth.moment, 'línea 5 de 6');
  // A link replays the step, at that line.
  const again = await open(`${STORE}?steps=same-key&line=5`);
  await again.page.waitForSelector('#widget-store [data-rows="5"]');
  assert.deepEqual(await storeShows(again.page), fifth);
  // The second finding: played to its end (line 4), then «otro intento, sin llave»: its end at once.
  const played = await open(STORE);
  await played.page.selectOption('#store-speed', { label: '8×' });
  await played.page.click('#store-play');
  await played.page.waitForFunction(() => new URLSearchParams(location.search).get('line') === '4'
    && document.querySelector('#widget-store .player').dataset.playing === 'false', null, { timeout: 15000 });
  await played.page.click('#widget-store button[data-step="no-key"]');
  await played.page.waitForFunction(() => new URLSearchParams(location.search).get('steps') === 'no-key');
  await played.page.waitForFunction(() => document.querySelector('#widget-store .player .moment').textContent === 'línea 6 de 6');
  s = await storeShows(played.page);
  assert.equal(s.rows, 6);
  assert.match(s.verdict, /se hizo 3 veces/);
  assert.equal(await query(played.page, 'line'), null);
  // «deshacer»: the case's own script, at its end.
  await played.page.click('#widget-store .presets button:text("deshacer")');
  await played.page.waitForFunction(() => new URLSearchParams(location.search).get('steps') === null);
  await played.page.waitForFunction(() => document.querySelector('#widget-store .player .moment').textContent === 'línea 4 de 4');
  assert.match((await storeShows(played.page)).verdict, /se hizo 2 veces/);
  for (const p of [page, again.page, played.page]) await p.close();
  assert.deepEqual(problems, []);
  assert.deepEqual(again.problems, []);
  assert.deepEqual(played.problems, []);
});

test('injected while it plays: a fork keeps its past (#42); the storm\'s outages and spikes add up, a link replays them, the replaced future stays as a ghost, and a run can be pinned', async () => {
  const STORM = `/lecciones/${SLUG}/widgets/storm`;
  // The finding: at 15 s the outage at 5 s has become a storm; «Tirar el servidor ahora» there
  // used to redraw 0–15 s calm. Now the run up to 15 s is exactly what was watched.
  const { page, problems } = await open(`${STORM}?t-ms=10000`);
  await page.waitForSelector('#widget-storm td[data-figure="attempts"]');
  const at10 = (await frameOf(page, 'storm')).figures;
  await scrubTo(page, 'storm', 15000);
  const at15 = (await frameOf(page, 'storm')).figures;
  await page.click('#storm-outage');
  await page.waitForFunction(() => new URLSearchParams(location.search).get('inject') === 'outage@15000+3000');
  assert.equal(new URL(page.url()).searchParams.get('t-ms'), '15000');
  // The trigger set is still there, at 5 s; the past is as watched, at 15 s and before.
  assert.equal(new URL(page.url()).searchParams.get('trigger-at-ms'), null);
  assert.equal((await frameOf(page, 'storm')).figures, at15);
  assert.doesNotMatch(await page.textContent('#widget-storm .results'), /ya no ocurre/);
  assert.match(await page.textContent('#widget-storm .chart-key'), /sin el cambio \(tenue\)/);
  assert.match(await page.textContent('#widget-storm .controls'), /a los 15,000 ms: el servidor se detiene, durante 3,000 ms/);
  await scrubTo(page, 'storm', 10000);
  assert.equal((await frameOf(page, 'storm')).figures, at10);
  // A spike at 12 s too: both kept, in order of time; a link replays them.
  await scrubTo(page, 'storm', 12000);
  await page.click('#storm-spike');
  await page.waitForFunction(() => new URLSearchParams(location.search).get('inject') === 'spike@12000+3000,outage@15000+3000');
  await scrubTo(page, 'storm', 10000);
  assert.equal((await frameOf(page, 'storm')).figures, at10);
  await scrubTo(page, 'storm', 20000);
  const played = await frameOf(page, 'storm');
  const again = await open(`${STORM}?inject=spike%4012000%2B3000%2Coutage%4015000%2B3000&t-ms=20000`);
  await again.page.waitForSelector('#widget-storm .chart[data-sum]');
  assert.equal((await frameOf(again.page, 'storm')).figures, played.figures);
  // The command line says the same.
  assert.match(await again.page.textContent('#widget-storm .cli code'), /--inject spike@12000\+3000,outage@15000\+3000/);
  // «Quitar la última» takes the last one away.
  await page.click('#storm-inject button');
  await page.waitForFunction(() => new URLSearchParams(location.search).get('inject') === 'spike@12000+3000');
  // «Fijar esta corrida»: kept while a setting changes, until it is taken away.
  await page.click('#storm-pin');
  await page.waitForFunction(() => document.querySelector('#storm-pin').textContent === 'Quitar la corrida fijada');
  await page.fill('#storm-retries', '0');
  await page.press('#storm-retries', 'Enter');
  await page.waitForFunction(() => new URLSearchParams(location.search).get('retries') === '0');
  assert.match(await page.textContent('#widget-storm .chart-key'), /corrida fijada \(tenue\)/);
  await page.click('#storm-pin');
  await page.waitForFunction(() => !/corrida fijada/.test(document.querySelector('#widget-storm .chart-key').textContent));
  assert.deepEqual(problems, []);
  assert.deepEqual(again.problems, []);
  await page.close();
  await again.page.close();
});

test('injected in the breaker: Triton, back at 12:00:30, falls again at the moment shown; the run before it is kept and the breaker opens again about 5 s later', async () => {
  const BREAKER = `/lecciones/${SLUG}/widgets/breaker`;
  // 50 s into the run: 12:00:40, Triton up again since 12:00:30 and the breaker closed.
  const { page, problems } = await open(`${BREAKER}?recover-s=30&t-ms=50000`);
  await page.waitForSelector('#widget-breaker td[data-figure="state"]');
  const before = (await frameOf(page, 'breaker')).figures;
  assert.match(before, /state=cerrado /);
  await page.click('#breaker-fall');
  await page.waitForFunction(() => new URLSearchParams(location.search).get('inject') === 'fall@50000');
  // Nothing before 12:00:40 changed: the same figures there, the first fall still at 12:00:00.
  assert.equal((await frameOf(page, 'breaker')).figures, before);
  assert.match(await page.textContent('#widget-breaker .widget-title'), /Triton se cae a las 12:00:00/);
  // The replaced future, faint on the chart: in its data too.
  await page.click('#widget-breaker .chart-data summary');
  assert.match(await page.textContent('#widget-breaker .chart-data table'), /llegan a Triton \(sin el cambio\)/);
  // The lesson's arithmetic again: half the 10 s window failing, with 20 calls, at ≈ 12:00:45.
  await scrubTo(page, 'breaker', 57000);
  const f = (await frameOf(page, 'breaker')).figures;
  assert.match(f, /state=abierto /);
  assert.match(await page.textContent('#widget-breaker .transitions'), /12:00:45[.0-9]*: abierto/);
  // While Triton is down, there is nothing to drop: the button says so.
  assert.equal(await page.$eval('#breaker-fall', (b) => b.disabled), true);
  // A link replays it.
  const again = await open(`${BREAKER}?recover-s=30&inject=fall%4050000&t-ms=57000`);
  await again.page.waitForSelector('#widget-breaker td[data-figure="state"]');
  assert.equal((await frameOf(again.page, 'breaker')).figures, f);
  assert.deepEqual(problems, []);
  assert.deepEqual(again.problems, []);
  await page.close();
  await again.page.close();
});

test('with reduced motion nothing plays by itself; a step and the slider still work', async () => {
  const { page, problems } = await open(`/lecciones/${SLUG}/widgets/storm?t-ms=0`);
  await page.emulateMedia({ reducedMotion: 'reduce' });
  await page.reload();
  await page.waitForSelector('#app[data-ready] #storm-step');
  await page.waitForTimeout(800);
  assert.equal(await page.$eval('#widget-storm .player', (e) => `${e.dataset.tMs} ${e.dataset.playing}`), '0 false');
  await page.click('#storm-step');
  await page.waitForFunction(() => document.querySelector('#widget-storm .player').dataset.tMs === '334');
  await scrubTo(page, 'storm', 20000);
  assert.deepEqual(problems, []);
  await page.close();
});
