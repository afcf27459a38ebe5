// Issue #42, «the smaller ones»: each finding a learner and an instructor
// made, replayed step by step as they made it, and seen fixed. The herd's
// 700 is the lesson's `simular(False, cupo=100)` (tests/tasks.rs runs it);
// C01's pod is 19 in flight for 16 places, 3/19 = 15.79 % (by hand).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startLab, stopLab, open, device, SLUG, WIDGETS } from './harness.mjs';

before(startLab);
after(stopLab);

const HERD = `/lecciones/${SLUG}/widgets/herd`;
const PHONE = { width: 390, height: 844, dpr: 3 };

/** «Predecir», `typed`, «Comprobar» in task `key`: its state and what its verdict says. */
async function predict(page, key, typed) {
  const box = page.locator(`section.task[data-task="${key}"]`);
  await box.locator('button.task-start.primary').click();
  await page.waitForFunction((k) => document.querySelector(`section.task[data-task="${k}"]`).dataset.state === 'predicting', key);
  await box.locator('input.answer').fill(typed);
  await box.locator('button.task-check').click();
  await page.waitForFunction((k) => document.querySelector(`section.task[data-task="${k}"] .task-verdict`), key);
  return { state: await box.getAttribute('data-state'), text: await box.locator('.task-verdict').innerText() };
}

test('1. an exact prediction is «Correcto»; «se acerca» only for one merely within the tolerance', async () => {
  const exact = await open(HERD);
  const yes = await predict(exact.page, 'herd/el-doble', '700');
  assert.equal(yes.state, 'right', yes.text);
  assert.match(yes.text, /✓ Correcto/);
  assert.doesNotMatch(yes.text, /se acerca/);
  const near = await open(HERD);
  // 710 of 700: within the task's 2 %, not the figure.
  const close = await predict(near.page, 'herd/el-doble', '710');
  assert.equal(close.state, 'right', close.text);
  assert.match(close.text, /se acerca \(dentro de la tolerancia\)/);
  assert.doesNotMatch(close.text, /Correcto/);
  assert.deepEqual([...exact.problems, ...near.problems], []);
  await exact.page.close();
  await near.page.close();
});

test('2. «700 clientes» is taken, and a refusal gives an example that fits the question', async () => {
  const { page, problems } = await open(HERD);
  // While typing, what is read: 700.
  const box = page.locator('section.task[data-task="herd/el-doble"]');
  await box.locator('button.task-start.primary').click();
  await page.waitForFunction(() => document.querySelector('section.task[data-task="herd/el-doble"]').dataset.state === 'predicting');
  await box.locator('input.answer').fill('700 clientes');
  await page.waitForFunction(() => /700/.test(document.querySelector('section.task[data-task="herd/el-doble"] .part-read').textContent));
  await box.locator('button.task-check').click();
  await page.waitForFunction(() => document.querySelector('section.task[data-task="herd/el-doble"]').dataset.state === 'right');
  assert.match(await box.locator('.task-verdict').innerText(), /✓ Correcto/);
  await page.close();
  // Something that is not a number: the example counts clients, of the question's size.
  const again = await open(HERD);
  const refused = again.page.locator('section.task[data-task="herd/el-doble"]');
  await refused.locator('button.task-start.primary').click();
  await again.page.waitForFunction(() => document.querySelector('section.task[data-task="herd/el-doble"]').dataset.state === 'predicting');
  await refused.locator('input.answer').fill('setecientos');
  await refused.locator('button.task-check').click();
  await again.page.waitForFunction(() => /No entendí/.test(document.querySelector('section.task[data-task="herd/el-doble"] .task-said').textContent));
  const said = await refused.locator('.task-said').innerText();
  assert.match(said, /No entendí «setecientos»; se esperaba un número de clientes, por ejemplo 300 \(o 300 clientes\)\./);
  assert.doesNotMatch(said, /64|4³|4\^3/);
  assert.deepEqual([...problems, ...again.problems], []);
  await again.page.close();
});

/** The command line's text, and the moment the player stands at. */
const cli = (page, widget) => page.evaluate((w) => ({
  code: document.querySelector(`#widget-${w} .cli code`).textContent,
  t: document.querySelector(`#widget-${w} .player`).dataset.tMs,
  moment: document.querySelector(`#widget-${w} .player .moment`).textContent,
}), widget);

test('3. the command line follows the player (485 ms, not 0) and keeps every --flag whole on a phone', async () => {
  const { page, problems } = await device(`${HERD}?jitter=decorrelated&clients=2000&capacity=100&cap-ms=1000&retries=7&seed=11&t-ms=0`, PHONE);
  assert.match((await cli(page, 'herd')).code, /--t-ms 0$/);
  // Dragged to 485 ms and still held (no «change» yet): the moment is live, not kept.
  await page.$eval('#herd-time', (el) => {
    el.value = '485';
    el.dispatchEvent(new Event('input', { bubbles: true }));
  });
  await page.waitForFunction(() => document.querySelector('#widget-herd .player').dataset.tMs === '485');
  let now = await cli(page, 'herd');
  assert.match(now.moment, /^485 ms de /);
  assert.match(now.code, /--t-ms 485$/);
  assert.doesNotMatch(now.code, /--t-ms 0\b/);
  // Playing: at every frame read, the command line's moment is the player's.
  await page.selectOption('#herd-speed', { label: '¼×' });
  await page.click('#herd-play');
  for (let i = 0; i < 5; i++) {
    await page.waitForTimeout(150);
    now = await cli(page, 'herd');
    assert.equal(now.code.match(/--t-ms (\d+)$/)?.[1], now.t, JSON.stringify(now));
  }
  await page.click('#herd-play');
  await page.waitForFunction(() => document.querySelector('#widget-herd .player').dataset.playing === 'false');
  now = await cli(page, 'herd');
  assert.equal(now.code.match(/--t-ms (\d+)$/)?.[1], now.t);
  // At 390 px the line wraps, but never inside a flag and its value (`--jitter` at its hyphen).
  const pieces = await page.$$eval('#widget-herd .cli code .cli-word', (words) => words.map((w) => {
    const range = document.createRange();
    range.selectNodeContents(w);
    const tops = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
    return { text: w.textContent, lines: tops.size, top: Math.round(w.getBoundingClientRect().top) };
  }));
  assert.ok(pieces.some((p) => p.text === '--jitter decorrelated'), JSON.stringify(pieces));
  assert.ok(new Set(pieces.map((p) => p.top)).size > 1, 'the command wraps on a phone');
  for (const p of pieces) assert.equal(p.lines, 1, `«${p.text}» is cut across lines`);
  // Copied, it is the command as typed: ASCII hyphens, one space between words.
  const copied = await page.evaluate(() => {
    const sel = window.getSelection();
    sel.removeAllRanges();
    const range = document.createRange();
    range.selectNodeContents(document.querySelector('#widget-herd .cli code'));
    sel.addRange(range);
    return sel.toString();
  });
  assert.equal(copied, now.code);
  assert.match(copied, /^sensei-lab herd --/);
  for (const piece of ['--jitter decorrelated', '--clients 2000', '--capacity 100', '--cap-ms 1000', '--retries 7', '--seed 11']) {
    assert.ok(copied.includes(` ${piece}`), `${piece} in «${copied}»`);
  }
  assert.doesNotMatch(copied, /[\u2010\u2011\u00ad]/);
  assert.deepEqual(problems, []);
  await page.context().close();
});

test('3. every played widget\'s command line is at its player\'s moment', async () => {
  for (const [widget, key] of [['storm', 't-ms'], ['breaker', 't-ms'], ['shedding', 't-ms'], ['inflight', 't-ms'], ['clocks', 't-ms'], ['chain', 't-ms'], ['store', 'line']]) {
    const { page, problems } = await open(`/lecciones/${SLUG}/widgets/${widget}`);
    await page.click(`#${widget}-restart`);
    await page.waitForFunction((w) => document.querySelector(`#widget-${w} .player`).dataset.tMs === '0', widget);
    await page.click(`#${widget}-step`);
    await page.click(`#${widget}-step`);
    await page.waitForFunction((w) => document.querySelector(`#widget-${w} .player`).dataset.tMs !== '0', widget);
    const now = await cli(page, widget);
    const shown = key === 'line' ? String(Math.floor(Number(now.t) / 1000)) : now.t;
    assert.equal(now.code.match(new RegExp(`--${key} (\\d+)`))?.[1], shown, `${widget}: ${JSON.stringify(now)}`);
    assert.deepEqual(problems, [], widget);
    await page.close();
  }
});

/** Pixels of `canvas` that are the herd's blue, and its orange (its columns, its clients). */
const hues = (page, selector) => page.$eval(selector, (canvas) => {
  const { width, height } = canvas;
  const px = canvas.getContext('2d').getImageData(0, 0, width, height).data;
  let blue = 0, orange = 0;
  for (let i = 0; i < px.length; i += 4) {
    const [r, g, b] = [px[i], px[i + 1], px[i + 2]];
    if (b > r + 60 && b > g + 20) blue++;
    if (r > 200 && g > 80 && g < 200 && b < 150 && r - b > 90) orange++;
  }
  return { blue, orange };
});

test('4. «sin jitter» is one colour in both of the herd\'s charts, whichever jitter is chosen', async () => {
  // The herd's task sets no jitter: «sin jitter» alone, on the chart and on the stage.
  const { page, problems } = await open(`${HERD}?jitter=none&capacity=100&t-ms=300`);
  const drawn = () => page.waitForFunction(() => {
    const all = [...document.querySelectorAll('#widget-herd .chart canvas')];
    return all.length === 2 && all.every((c) => c.dataset.draws);
  });
  await drawn();
  const chart = await hues(page, '#widget-herd .chart canvas');
  const stage = await hues(page, '#widget-herd .stage .chart canvas');
  assert.ok(chart.orange > 100 && chart.blue === 0, `the chart: ${JSON.stringify(chart)}`);
  assert.ok(stage.orange > 20 && stage.blue === 0, `the stage: ${JSON.stringify(stage)}`);
  // With full jitter beside it: «sin jitter» still orange, «full jitter» blue (its stage too).
  await page.goto(page.url().split('?')[0] + '?jitter=full&t-ms=300');
  await page.waitForSelector('#app[data-ready]');
  await drawn();
  const both = await hues(page, '#widget-herd .chart canvas');
  const full = await hues(page, '#widget-herd .stage .chart canvas');
  assert.ok(both.orange > 100 && both.blue > 100, `the chart: ${JSON.stringify(both)}`);
  assert.ok(full.blue > 20 && full.orange === 0, `the stage: ${JSON.stringify(full)}`);
  assert.deepEqual(problems, []);
  await page.close();
});

test('5. no «Insertar» inside an embed (a widget, an exercise, a section); the lesson keeps it', async () => {
  for (const path of [`/embed/${SLUG}/widgets/herd`, `/embed/${SLUG}/ejercicios/4`, `/embed/${SLUG}/la-manada`]) {
    const { page, problems } = await open(path);
    assert.equal(await page.locator('button.insert').count(), 0, path);
    assert.doesNotMatch(await page.textContent('body'), /Insertar/, path);
    assert.deepEqual(problems, [], path);
    await page.close();
  }
  const { page } = await open(HERD);
  assert.equal(await page.locator('#widget-herd button.insert').count(), 1);
  await page.close();
});

test('6. greyed fields and answer fields: every placeholder fits its field, at 390 px', async () => {
  const { page, problems } = await device(`/lecciones/${SLUG}`, PHONE);
  // Every control in sight, the folded ones too.
  await page.$$eval('details.more-controls', (ds) => ds.forEach((d) => { d.open = true; }));
  // The storm's budget is off by default: its field greyed («sin presupuesto» said above it).
  assert.equal(await page.locator('#widget-storm input[type="number"]:disabled').count() > 0, true);
  const cut = await page.$$eval('input[placeholder]', (inputs) => {
    const ctx = document.createElement('canvas').getContext('2d');
    return inputs.filter((el) => el.placeholder && el.getBoundingClientRect().width > 0).map((el) => {
      const s = getComputedStyle(el);
      ctx.font = `${s.fontStyle} ${s.fontWeight} ${s.fontSize} ${s.fontFamily}`;
      const room = el.clientWidth - parseFloat(s.paddingLeft) - parseFloat(s.paddingRight);
      return { id: el.id || el.className, text: el.placeholder, need: ctx.measureText(el.placeholder).width, room, disabled: el.disabled };
    }).filter((f) => f.need > f.room);
  });
  assert.deepEqual(cut, []);
  assert.deepEqual(problems, []);
  await page.context().close();
});

/** The player's readout, as it says its moment and its end. */
const readout = (page, widget) => page.textContent(`#widget-${widget} .player .moment`);

/** Each side of «X de Y» in the same unit: ms and ms, s and s, a time of day, a line. */
function oneUnit(said) {
  const m = said.match(/^(\S+) (ms|s) de (\S+) (ms|s)$/);
  if (m) return m[2] === m[4];
  return /^\d\d:\d\d:\d\d(\.\d+)? de \d\d:\d\d:\d\d(\.\d+)?$/.test(said) || /^línea \d+ de \d+$/.test(said);
}

test('7. the storm\'s readout keeps one unit from 7.833 s to 10.333 s of 40 s, and so does every player', async () => {
  const { page, problems } = await open(`/lecciones/${SLUG}/widgets/storm`);
  for (const [t, said] of [[7833, '7.833 s de 40 s'], [10333, '10.333 s de 40 s']]) {
    await page.$eval('#storm-time', (el, v) => {
      el.value = String(v);
      el.dispatchEvent(new Event('input', { bubbles: true }));
      el.dispatchEvent(new Event('change', { bubbles: true }));
    }, t);
    await page.waitForFunction((v) => document.querySelector('#widget-storm .player').dataset.tMs === String(v), t);
    assert.equal(await readout(page, 'storm'), said);
  }
  await page.close();
  for (const widget of ['herd', 'storm', 'breaker', 'shedding', 'inflight', 'clocks', 'chain', 'store']) {
    const p = await open(`/lecciones/${SLUG}/widgets/${widget}`);
    const seen = [await readout(p.page, widget)];
    await p.page.click(`#${widget}-restart`);
    for (let i = 0; i < 6; i++) {
      seen.push(await readout(p.page, widget));
      await p.page.click(`#${widget}-step`);
    }
    seen.push(await readout(p.page, widget));
    for (const s of seen) assert.ok(oneUnit(s), `${widget}: «${s}»`);
    problems.push(...p.problems);
    await p.page.close();
  }
  assert.deepEqual(problems, []);
});

test('8. the breaker\'s counts say the moment they are of: the last whole second before the one shown', async () => {
  const { page, problems } = await open(`/lecciones/${SLUG}/widgets/breaker?t-ms=15300`);
  const rows = () => page.$$eval('#widget-breaker table.figures tr', (trs) => Object.fromEntries(trs.map((tr) => {
    const td = tr.querySelector('td[data-figure]');
    return td ? [td.dataset.figure, { label: tr.querySelector('th').textContent, value: td.textContent }] : null;
  }).filter(Boolean)));
  // 15.3 s after 11:59:50 is 12:00:05.3; the counts are of the seconds finished, to 12:00:05.
  let r = await rows();
  assert.match(r.state.label, /12:00:05\.3/);
  for (const key of ['calls', 'timeouts', 'fallbacks-so-far']) {
    assert.match(r[key].label, /^hasta las 12:00:05, /, key);
  }
  const before = r.calls.value;
  // Later within that second: the same counts, said of the same 12:00:05.
  await page.goto(page.url().split('?')[0] + '?t-ms=15900');
  await page.waitForSelector('#app[data-ready]');
  r = await rows();
  assert.match(r.calls.label, /^hasta las 12:00:05, /);
  assert.equal(r.calls.value, before);
  // The next whole second: said of 12:00:06.
  await page.goto(page.url().split('?')[0] + '?t-ms=16000');
  await page.waitForSelector('#app[data-ready]');
  r = await rows();
  assert.match(r.calls.label, /^hasta las 12:00:06, /);
  assert.deepEqual(problems, []);
  await page.close();
});

/** Records every text a canvas writes: a chart's marks are drawn, not laid out. */
const RECORD_CANVAS_TEXT = () => {
  window.__drawn = [];
  const fill = CanvasRenderingContext2D.prototype.fillText;
  CanvasRenderingContext2D.prototype.fillText = function (text, ...rest) {
    window.__drawn.push(String(text));
    return fill.call(this, text, ...rest);
  };
};

test('a pinned run above the chart\'s range is marked «↑ hasta», as the live line is, not drawn flat along the top', async () => {
  // A storm in four layers that retry (its attempts climb far above its capacity), pinned; then a
  // calm setting (no retries): the pinned storm is now above the live run's axis.
  const { page, problems } = await open(`/lecciones/${SLUG}/widgets/storm?layers=4`, undefined, RECORD_CANVAS_TEXT);
  await page.waitForSelector('#widget-storm .chart[data-sum]');
  await page.click('#storm-pin');
  await page.waitForFunction(() => document.querySelector('#storm-pin').textContent === 'Quitar la corrida fijada');
  await page.evaluate(() => { window.__drawn = []; });
  await page.fill('#storm-retries', '0');
  await page.press('#storm-retries', 'Enter');
  await page.waitForFunction(() => new URLSearchParams(location.search).get('retries') === '0');
  await page.waitForFunction(() => window.__drawn.some((t) => /^↑ hasta [\d,]+ \/s \(corrida fijada\)$/.test(t)), null, { timeout: 15000 });
  // The live run, calm, is within its range: no mark of its own.
  assert.equal((await page.evaluate(() => window.__drawn)).filter((t) => t.startsWith('↑ hasta') && !/corrida fijada/.test(t)).length, 0);
  assert.deepEqual(problems, []);
  await page.close();
});

test('the widget list is the lab\'s', () => {
  for (const w of ['herd', 'storm', 'breaker', 'store']) assert.ok(WIDGETS.includes(w), w);
});
