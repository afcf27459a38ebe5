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
  // ▶ replays from the start; ⏸ keeps the moment in the URL.
  await page.click('#herd-play');
  await page.waitForFunction(() => document.querySelector('#widget-herd .player').dataset.playing === 'true');
  await page.waitForFunction(() => Number(document.querySelector('#widget-herd .player').dataset.tMs) > 100);
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
