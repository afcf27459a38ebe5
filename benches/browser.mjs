// The browser side of the performance figures (docs/PERFORMANCE.md), on a
// release build in dist/ (`./lab build` first), in headless Chromium:
//
//  1. first load: brotli and gzipped size of the wasm, JS and CSS, and the time from
//     navigation to the first chart drawn (lesson page and a widget's page);
//  2. every widget: ≥ 50 changes of its controls, the time from the input
//     event to the last chart redrawn (performance marks "chart-drawn"),
//     p50 and p95, at the lesson's values and at the largest parameters,
//     plus a drag at 60 Hz at the largest parameters (how many runs, how long
//     the page is busy, how late the last value is drawn);
//  3. the herd core as wasm against the lesson's CPython, same inputs, same
//     figures (python3 scripts/herd-vs-python.py --python-only);
//  4. the storm's and hedging's cores alone as wasm (their widgets' heaviest
//     part), at the lesson's values and a few of the widget benchmark's changes.
//
// Usage: node benches/browser.mjs [--only sizes|load|widgets|herd|cores] [--widget ID] [--changes N] [--verbose]
// (--verbose: every change of the widgets' part, its control, value and ms)
// Timings are measurements, never assertions: this is not a test.
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { execFileSync } from 'node:child_process';
import { firstLoad } from '../scripts/sizes.mjs';
import { startLab, stopLab, open, SLUG, WIDGETS } from '../tests/browser/harness.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = process.env.LAB_DIST || join(root, 'dist');
const arg = (name, dflt) => (process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : dflt);
const only = arg('--only', null);
const CHANGES = Number(arg('--changes', 50));
const want = (part) => !only || only === part;
const verbose = process.argv.includes('--verbose');
const IDLE_MS = Number(arg('--idle-ms', 1000));

const pct = (xs, p) => {
  if (!xs.length) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)];
};
const ms = (x) => (Number.isFinite(x) ? x.toFixed(1) : '—');
// A short time to three significant digits (0.0164, 0.283, 10.8), as scripts/herd-vs-python.py prints it.
const ms3 = (x) => (Number.isFinite(x) && x > 0 ? x.toFixed(Math.max(0, 2 - Math.floor(Math.log10(x)))) : '—');

function sizes() {
  const rows = firstLoad(dist);
  console.log('\n## First load: sizes (brotli 11 and gzip -9, as the build precompresses them)\n');
  console.log('| file | bytes | brotli | gzipped |\n|---|---:|---:|---:|');
  const n = (x) => x.toLocaleString('en');
  for (const r of rows) console.log(`| ${r.kind} | ${n(r.bytes)} | ${n(r.br)} | ${n(r.gzip)} |`);
  const total = rows.reduce((a, r) => a + r.gzip, 0);
  const totalBr = rows.reduce((a, r) => a + r.br, 0);
  console.log(`| **total** | | **${n(totalBr)}** (${(totalBr / 1024).toFixed(0)} KiB) | **${n(total)}** (${(total / 1024).toFixed(0)} KiB) |`);
}

/** Navigation start → first "chart-drawn" mark, fastest and median of n fresh loads. */
async function firstChart(path, n = 5) {
  const times = [];
  for (let i = 0; i < n; i++) {
    const { page } = await open(path);
    await page.waitForFunction(() => performance.getEntriesByName('chart-drawn').length > 0, null, { timeout: 30000 });
    times.push(await page.evaluate(() => performance.getEntriesByName('chart-drawn')[0].startTime));
    await page.close();
  }
  return { min: Math.min(...times), p50: pct(times, 50) };
}

async function load() {
  console.log('\n## First load: navigation to first chart drawn (localhost, 5 fresh loads)\n');
  console.log('| page | fastest ms | median ms |\n|---|---:|---:|');
  for (const path of [`/lecciones/${SLUG}`, `/lecciones/${SLUG}/widgets/herd`, `/embed/${SLUG}/widgets/storm`]) {
    const t = await firstChart(path);
    console.log(`| \`${path}\` | ${ms(t.min)} | ${ms(t.p50)} |`);
  }
}

// In the page: change one control and wait until its charts are redrawn.
// Returns the ms from just before the input event to the last "chart-drawn"
// mark it caused (null if the change drew nothing).
const CHANGE = async ([index, value, kind]) => {
  const controls = [...document.querySelectorAll('main input[type=range]:not([disabled]), main input[type=radio]')];
  const el = controls[index % controls.length];
  const t0 = performance.now();
  if (kind === 'radio') {
    // The next option of its group (clicking the checked one changes nothing).
    const group = [...document.querySelectorAll(`main input[type=radio][name="${el.name}"]`)];
    group[(group.findIndex((r) => r.checked) + 1) % group.length].click();
  } else {
    el.value = String(value);
    el.dispatchEvent(new Event('input', { bubbles: true }));
    el.dispatchEvent(new Event('change', { bubbles: true }));
  }
  // Wait until no chart has been drawn for 60 ms (a widget may draw two).
  let last = null;
  for (;;) {
    await new Promise((r) => setTimeout(r, 20));
    const marks = performance.getEntriesByName('chart-drawn').filter((m) => m.startTime > t0);
    const newest = marks.length ? marks[marks.length - 1].startTime : null;
    if (newest !== null && newest === last && performance.now() - newest > 60) {
      // How much of it was drawing (plotters on the canvas) rather than simulating.
      const starts = performance.getEntriesByName('chart-draw-start').filter((m) => m.startTime > t0);
      const draw = marks.reduce((a, m, i) => a + (starts[i] ? m.startTime - starts[i].startTime : 0), 0);
      return [newest - t0, draw];
    }
    if (newest === null && performance.now() - t0 > 300) return null;
    last = newest;
  }
};

/** The controls of a widget page: [{index, kind, min, max, value}]. */
const controlsOf = (page) => page.evaluate(() =>
  [...document.querySelectorAll('main input[type=range]:not([disabled]), main input[type=radio]')].map((el, index) => ({
    index, kind: el.type, min: Number(el.min || 0), max: Number(el.max || 0), value: Number(el.value),
    name: el.name || el.id || el.getAttribute('aria-label') || '',
  })));

async function drive(page, controls, changes, around, from = 0) {
  const times = [];
  const draws = [];
  let none = 0;
  for (let i = from; i < from + changes; i++) {
    const c = controls[i % controls.length];
    // Around the start value: a few slider steps up (2 % of its range, at least
    // one), then back; down instead near the top. One step of a logarithmic
    // slider often maps to the same value, which would draw nothing.
    const base = around(c);
    const step = Math.max(1, Math.round((c.max - c.min) * 0.02));
    const up = base + step <= c.max ? base + step : base - step;
    const value = Math.floor(i / controls.length) % 2 === 0 ? up : base;
    const t = await page.evaluate(CHANGE, [c.index, value, c.kind]);
    if (t === null) none++; else { times.push(t[0]); draws.push(t[1]); }
    if (verbose) console.log(`  ${c.name || c.index} ${c.kind === 'radio' ? '(next option)' : `= ${value}`}: ${t === null ? 'no chart' : `${ms(t[0])} ms (drawing ${ms(t[1])})`}`);
  }
  return { times, draws, none };
}

/** A drag at 60 Hz at the largest parameters: 30 input events 16 ms apart. */
const DRAG = async ([index, from]) => {
  const el = [...document.querySelectorAll('main input[type=range]:not([disabled])')][index];
  if (!el) return null;
  const marksBefore = performance.getEntriesByName('chart-drawn').length;
  // How long the page could not answer: the lateness of each 16 ms timer.
  let longest = 0;
  const t0 = performance.now();
  let lastInput = t0;
  for (let i = 0; i < 30; i++) {
    const asked = performance.now();
    await new Promise((r) => setTimeout(r, 16));
    longest = Math.max(longest, performance.now() - asked - 16);
    // Between the top and 5 % below it, so that every input changes the value.
    el.value = String(from - (i % 2) * Math.max(1, Math.round((Number(el.max) - Number(el.min)) * 0.05)));
    lastInput = performance.now();
    el.dispatchEvent(new Event('input', { bubbles: true }));
  }
  // Settled: no new chart for a second (a run at the largest parameters
  // takes a few hundred ms, so a shorter wait could stop between two runs).
  const settled = async () => {
    let seen = -1;
    for (;;) {
      await new Promise((r) => setTimeout(r, 1000));
      const n = performance.getEntriesByName('chart-drawn').length;
      if (n === seen) return;
      seen = n;
    }
  };
  await settled();
  const marks = performance.getEntriesByName('chart-drawn').slice(marksBefore);
  const lastDraw = marks.length ? marks[marks.length - 1].startTime : NaN;
  return { draws: marks.length, longestTask: longest, lastInputToDraw: lastDraw - lastInput, total: lastDraw - t0 };
};

async function widgets() {
  console.log(`\n## Widgets: input event → chart redrawn (${CHANGES} changes each, headless Chromium)\n`);
  console.log('| widget | controls (changes that drew) | first pass (cold): first, slowest ms | lesson p50 ms | lesson p95 ms | of which drawing p50 | largest p50 ms | largest p95 ms | drag at largest (30 inputs at 60 Hz): runs, longest unresponsive ms, last input → drawn ms |');
  console.log('|---|---:|---|---:|---:|---:|---:|---:|---|');
  for (const id of WIDGETS.filter((w) => !arg('--widget', null) || w === arg('--widget', null))) {
    const { page, problems } = await open(`/lecciones/${SLUG}/widgets/${id}`);
    await page.waitForFunction(() => performance.getEntriesByName('chart-drawn').length > 0, null, { timeout: 30000 }).catch(() => {});
    let controls = await controlsOf(page);
    if (!controls.length) { console.log(`| ${id} | 0 | — | — | — | — | — | — | — |`); await page.close(); continue; }
    // One pass over the controls first, timed apart: the page's first changes
    // run code the engine has not optimised yet (V8 compiles wasm with a
    // baseline compiler first and optimises what runs often), which is what a
    // learner's first touch costs; the 50 changes after it are the steady state.
    await page.waitForTimeout(IDLE_MS);
    const cold = await drive(page, controls, controls.length, (c) => c.value);
    const lesson = await drive(page, controls, CHANGES, (c) => c.value, controls.length);
    await page.close();
    // The largest parameters: every slider at its top.
    const big = await open(`/lecciones/${SLUG}/widgets/${id}`);
    await big.page.waitForFunction(() => performance.getEntriesByName('chart-drawn').length > 0, null, { timeout: 30000 }).catch(() => {});
    controls = await controlsOf(big.page);
    for (const c of controls.filter((c) => c.kind === 'range')) await big.page.evaluate(CHANGE, [c.index, c.max, 'range']);
    controls = await controlsOf(big.page);
    const largest = await drive(big.page, controls, CHANGES, (c) => (c.kind === 'range' ? c.max : c.value));
    const ranges = controls.filter((c) => c.kind === 'range');
    const drag = ranges.length ? await big.page.evaluate(DRAG, [0, ranges[0].max]) : null;
    const dragText = drag ? `${drag.draws} runs, ${ms(drag.longestTask)}, ${ms(drag.lastInputToDraw)}` : '—';
    console.log(`| ${id} | ${controls.length} (${lesson.times.length}/${CHANGES}) | ${ms(cold.times[0])}, ${ms(Math.max(...cold.times))} | ${ms(pct(lesson.times, 50))} | ${ms(pct(lesson.times, 95))} | ${ms(pct(lesson.draws, 50))} | ${ms(pct(largest.times, 50))} | ${ms(pct(largest.times, 95))} | ${dragText} |`);
    if (problems.length || big.problems.length) console.log(`  problems: ${[...problems, ...big.problems].join('; ')}`);
    await big.page.close();
  }
}

/** A widget's page, once its benchmark hook (`senseiLabTime`, src/ui/bench.rs) is there. */
async function hookPage(id) {
  const { page } = await open(`/lecciones/${SLUG}/widgets/${id}`);
  await page.waitForFunction(() => window.wasmBindings && window.wasmBindings.senseiLabTime);
  return page;
}

/** One core timed in the page: `senseiLabTime(scenario, query, batches)` parsed. */
const timeCore = (page, scenario, query, batches) =>
  page.evaluate(async ([s, q, n]) => JSON.parse(await window.wasmBindings.senseiLabTime(s, q, n)), [scenario, query, batches]);

async function herd() {
  console.log('\n## The herd core as wasm (Chromium) against the lesson\'s CPython\n');
  const page = await hookPage('herd');
  console.log('| clients | jitter | figures (served/gave up/peak/attempts) | same | CPython ms | wasm ms | × faster |');
  console.log('|---:|:---:|---|---|---:|---:|---:|');
  for (const clients of [1000, 10000, 100000]) {
    for (const jitter of [false, true]) {
      // Row by row, CPython then wasm, so both meet the machine in the same state.
      const [r] = execFileSync('python3', [join(root, 'scripts', 'herd-vs-python.py'), '--python-only', '--repeat', '5',
        '--clients', String(clients), '--jitter', jitter ? 'full' : 'none'], { encoding: 'utf8' })
        .trim().split('\n').map((l) => JSON.parse(l));
      const query = `clients=${clients}&jitter=${jitter ? 'full' : 'none'}`;
      // Batches of at least 5 ms; the fastest batch's mean, as CPython's fastest of 5 runs.
      const w = await timeCore(page, 'herd', query, clients >= 100000 ? 5 : 20);
      const same = w.served === r.served && w.gave_up === r.gave_up && w.peak === r.peak && w.attempts === r.attempts;
      console.log(`| ${clients.toLocaleString('en')} | ${jitter ? 'sí' : 'no'} | ${r.served}/${r.gave_up}/${r.peak}/${r.attempts} | ${same ? 'idénticas' : 'DISTINTAS'} | ${ms3(r.elapsed_ms)} | ${ms3(w.elapsed_ms)} | ${(r.elapsed_ms / w.elapsed_ms).toFixed(0)} |`);
      if (!same) process.exitCode = 1;
    }
  }
  await page.close();
}

async function cores() {
  console.log('\n## The storm\'s and hedging\'s cores as wasm (Chromium), one run\n');
  const page = await hookPage('storm');
  console.log('| scenario | parameters | wasm ms (fastest batch\'s mean) | runs per batch |');
  console.log('|---|---|---:|---:|');
  const rows = [
    ['storm', ''], ['storm', 'rps=58'], ['storm', 'retries=4'], ['storm', 'capacity=70'],
    ['hedging', ''], ['hedging', 'pause-ms=1000'], ['hedging', 'reads=110000'],
  ];
  for (const [scenario, query] of rows) {
    const w = await timeCore(page, scenario, query, 20);
    console.log(`| ${scenario} | ${query || 'la lección'} | ${ms3(w.elapsed_ms)} | ${w.runs} |`);
  }
  await page.close();
}

if (want('sizes')) sizes();
await startLab();
try {
  if (want('load')) await load();
  if (want('herd')) await herd();
  if (want('cores')) await cores();
  if (want('widgets')) await widgets();
} finally {
  await stopLab();
}
