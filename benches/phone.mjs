// The lab as a learner on a phone opens it (issues 23 and 32): Chromium at
// 390×844, 3×, touch; network 1.6 Mbps down / 750 kbps up, 150 ms round trip;
// CPU slowed 4×; cache off; the release build in dist/ served by this
// script's own static server as a static host serves the build's
// precompressed files (brotli where the browser takes it, else gzip). For the
// lesson page, a section's page, a widget's page and an embed: first
// contentful paint, the first paragraph of text visible, **chart visible**
// (the page's first chart, or the section's, painted: the build's picture
// since issue 32), **chart live** (its widget awake, a control moved, and the
// chart drawn again for the new value: the moment a learner's move is first
// answered), the bytes the page took over the network, and the layout
// shift (CLS) until then. Median (and range) of five cold loads; then five
// warm ones, from the service worker: a first visit (not measured, not
// slowed) leaves the build in the worker's cache, and the second visit,
// slowed the same way and still without the HTTP cache, gets its page from
// the network (the worker's network first) and every other file from the
// worker's cache.
//
// With `--tasks` (issue 43, «waking never blocks input»): instead, for each
// page, cold, the main thread's long tasks (over 50 ms, the Long Tasks API)
// from the first contentful paint until every piece is awake and 2 s more:
// how many, the longest, their blocking time (each one's time over 50 ms),
// and the pieces whose waking (ui::islands' `island-wake <piece>` marks) fell
// in a long task, with its length (a piece's mark is set where it is
// hydrated, after its code arrived); the longest that woke no piece (the
// page's parsing and layout, the runtime's instantiation) apart.
//
// Usage: node benches/phone.mjs [--runs N] [--cold | --warm | --tasks] [--page lesson|section|widget|embed] [--gzip]
// (./lab build first). A measurement, never an assertion: this is not a test.
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { servePrecompressed } from './precompressed.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = resolve(process.env.LAB_DIST || join(root, 'dist'));
const arg = (name, dflt) => (process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : dflt);
const RUNS = Number(arg('--runs', 5));
const SLUG = 'timeouts-reintentos-idempotencia';

// Only gzip, as a host without brotli (and every build before issue 32 was measured): `--gzip`.
const { server, stats, base } = await servePrecompressed(dist, { encodings: process.argv.includes('--gzip') ? ['gzip'] : ['br', 'gzip'] });

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
    '--disable-component-update', '--disable-sync'],
});

// In the page, from its first moment: layout shifts, when the first
// paragraph with text appears in the main column, when the target chart is
// painted (its box laid out with the build's picture or the canvas's drawing
// in it, at the next frame), and when it is live: as soon as its widget is
// awake (its island's data-awake, or the app's data-ready) a control is moved
// (a number field, by one) and the time is when the chart is drawn again.
const OBSERVE = (target) => {
  window.__phone = { cls: 0, text: null, fcp: null, visible: null, awake: null, live: null };
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) if (e.name === 'first-contentful-paint') window.__phone.fcp = e.startTime;
  }).observe({ type: 'paint', buffered: true });
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) if (!e.hadRecentInput) window.__phone.cls += e.value;
  }).observe({ type: 'layout-shift', buffered: true });
  const seen = () => {
    const p = document.querySelector('main p');
    if (p && p.textContent.trim().length > 20 && window.__phone.text === null) window.__phone.text = performance.now();
  };
  new MutationObserver(seen).observe(document, { childList: true, subtree: true });
  document.addEventListener('DOMContentLoaded', seen);
  let moved = null;
  const frame = () => {
    const w = window.__phone;
    const chart = document.querySelector(`${target} .chart`);
    if (chart && w.visible === null) {
      const canvas = chart.querySelector('canvas');
      const svg = [...chart.querySelectorAll('svg.pre')].find((s) => getComputedStyle(s).display !== 'none');
      if (chart.getBoundingClientRect().height > 0 && (canvas?.dataset.draws || svg)) w.visible = performance.now();
    }
    const widget = chart?.closest('figure.widget');
    const awake = widget && (document.getElementById('app')?.hasAttribute('data-ready')
      || widget.closest('[data-island]')?.hasAttribute('data-awake'));
    if (awake && w.awake === null && widget.querySelector('canvas')?.dataset.draws) {
      w.awake = performance.now();
      const field = widget.querySelector('input[type=number]:not(:disabled)');
      moved = Number(widget.querySelector('canvas').dataset.draws);
      field.value = String(Number(field.value) + 1);
      field.dispatchEvent(new Event('change', { bubbles: true }));
    }
    if (moved !== null && w.live === null && Number(widget.querySelector('canvas').dataset.draws) > moved) w.live = performance.now();
    if (w.live === null) requestAnimationFrame(frame);
  };
  requestAnimationFrame(frame);
};

// The first visit of a warm run: until the service worker controls the page
// (install done: the whole build in its cache) and has finished activating.
async function firstVisit(context, path) {
  const page = await context.newPage();
  await page.goto(base + path);
  for (let i = 0; ; i++) {
    const ready = await page.evaluate(() => navigator.serviceWorker.controller?.state === 'activated');
    if (ready) break;
    if (i > 600) throw new Error(`no service worker took over ${path}: is dist/ a ./lab build (with sw.js)?`);
    await page.waitForTimeout(100);
  }
  await page.close();
}

/** The phone profile on `page`: its network slowed, the HTTP cache off, the CPU 4× slower. */
async function phoneProfile(context, page) {
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false, latency: 150, downloadThroughput: (1.6 * 1024 * 1024) / 8, uploadThroughput: (750 * 1024) / 8,
  });
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
}

async function once({ path, target }, warm) {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 3, isMobile: true, hasTouch: true });
  if (warm) await firstVisit(context, path);
  const page = await context.newPage();
  await page.addInitScript(OBSERVE, target);
  await phoneProfile(context, page);
  stats.sent = 0;
  await page.goto(base + path, { waitUntil: 'commit' });
  await page.waitForFunction(() => window.__phone?.live !== null && window.__phone?.live !== undefined, null, { timeout: 120_000 });
  await page.waitForFunction(() => window.__phone.fcp !== null, null, { timeout: 10_000 }).catch(() => {});
  const r = await page.evaluate(() => ({
    ...window.__phone,
    // Whether the wasm came from the worker (its entry then has a workerStart).
    wasmFromWorker: performance.getEntriesByType('resource').some((e) => e.name.endsWith('.wasm') && e.workerStart > 0),
  }));
  r.kb = stats.sent / 1000;
  await context.close();
  if (r.wasmFromWorker !== warm) throw new Error(`${path}: the wasm ${warm ? 'did not come' : 'came'} from the service worker`);
  return r;
}

// Long tasks of a cold load (`--tasks`).
const TASKS = () => {
  window.__tasks = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) window.__tasks.push({ start: e.startTime, ms: e.duration });
  }).observe({ type: 'longtask', buffered: true });
};
async function tasks({ path }) {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 3, isMobile: true, hasTouch: true });
  const page = await context.newPage();
  await page.addInitScript(TASKS);
  await phoneProfile(context, page);
  await page.goto(base + path, { waitUntil: 'commit' });
  await page.waitForSelector('#app[data-ready]', { timeout: 180_000 });
  await page.waitForTimeout(2000);
  const r = await page.evaluate(() => {
    const fcp = performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? 0;
    const marks = performance.getEntriesByType('mark').filter((m) => m.name.startsWith('island-wake '));
    const long = window.__tasks.filter((t) => t.start + t.ms > fcp).map((t) => ({
      ...t,
      pieces: marks.filter((m) => m.startTime >= t.start && m.startTime <= t.start + t.ms).map((m) => m.name.slice('island-wake '.length)),
    }));
    return { fcp, long, woken: marks.length };
  });
  await context.close();
  return r;
}

const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]; };
const fmt = (xs, d = 0) => xs.some((x) => x === null) ? '—' : `${median(xs).toFixed(d)} (${Math.min(...xs).toFixed(d)}–${Math.max(...xs).toFixed(d)})`;

const PAGES = [
  { name: 'lesson', path: `/lecciones/${SLUG}`, target: '#widget-clocks' },
  { name: 'section', path: `/lecciones/${SLUG}/la-manada`, target: '#widget-herd' },
  { name: 'widget', path: `/lecciones/${SLUG}/widgets/herd`, target: '#widget-herd' },
  { name: 'embed', path: `/embed/${SLUG}/widgets/storm`, target: '#widget-storm' },
].filter((p) => !arg('--page', null) || p.name === arg('--page', null));
const KINDS = [['cold', 'cold loads'], ['warm', 'warm loads from the service worker (second visit)']]
  .filter(([kind]) => !process.argv.includes(kind === 'cold' ? '--warm' : '--cold'));
try {
  if (process.argv.includes('--tasks')) {
    console.log(`\n## Long tasks after the first paint, cold, phone profile (CPU 4×) (${RUNS} loads, median (range))\n`);
    console.log('| page | long tasks | blocking time ms | longest ms | longest waking no piece ms | pieces woken in a long task (its ms, each time) |');
    console.log('|---|---:|---:|---:|---:|---|');
    for (const p of PAGES) {
      const runs = [];
      for (let i = 0; i < RUNS; i++) runs.push(await tasks(p));
      const pieces = new Map();
      for (const r of runs) for (const t of r.long) for (const k of t.pieces) pieces.set(k, [...(pieces.get(k) ?? []), Math.round(t.ms)]);
      const named = [...pieces].sort((a, b) => Math.max(...b[1]) - Math.max(...a[1])).map(([k, ms]) => `${k} (${ms.join(', ')})`).join('; ');
      const longest = (ts) => Math.max(0, ...ts.map((t) => t.ms));
      console.log(`| \`${p.path}\` | ${fmt(runs.map((r) => r.long.length))} | ${fmt(runs.map((r) => r.long.reduce((a, t) => a + t.ms - 50, 0)))} | ${fmt(runs.map((r) => longest(r.long)))} | ${fmt(runs.map((r) => longest(r.long.filter((t) => !t.pieces.length))))} | ${named || '—'} |`);
    }
  }
  for (const [kind, what] of process.argv.includes('--tasks') ? [] : KINDS) {
    console.log(`\n## Phone profile: 390×844 at 3×, 1.6 Mbps / 150 ms, CPU 4×, cache off, ${process.argv.includes('--gzip') ? 'gzip' : 'brotli'} (${RUNS} ${what}, median (range))\n`);
    console.log('| page | first contentful paint ms | first paragraph ms | chart visible ms | chart live ms | KB over the network | CLS |');
    console.log('|---|---:|---:|---:|---:|---:|---:|');
    for (const p of PAGES) {
      const runs = [];
      for (let i = 0; i < RUNS; i++) runs.push(await once(p, kind === 'warm'));
      const visible = runs.map((r) => Math.max(r.visible, r.fcp ?? 0));
      console.log(`| \`${p.path}\` | ${fmt(runs.map((r) => r.fcp))} | ${fmt(runs.map((r) => r.text))} | ${fmt(visible)} | ${fmt(runs.map((r) => r.live))} | ${fmt(runs.map((r) => r.kb))} | ${fmt(runs.map((r) => r.cls), 3)} |`);
    }
  }
} finally {
  await browser.close();
  server.close();
}
