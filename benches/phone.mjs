// The lab as a learner on a phone opens it (issue 23's measure): Chromium at
// 390×844, 3×, touch; network 1.6 Mbps down / 750 kbps up, 150 ms round trip;
// CPU slowed 4×; cache off; the release build in dist/ served gzipped by this
// script's own static server, as any static host serves it. For the lesson
// page, a widget's page and an embed: first contentful paint, the first
// paragraph of text visible, the first chart drawn (its widget interactive),
// and the layout shift (CLS) until then. Median (and range) of five cold loads;
// then five warm ones, from the service worker: a first visit (not measured,
// not slowed) leaves the build in the worker's cache, and the second visit,
// slowed the same way and still without the HTTP cache, gets its page from the
// network (the worker's network first) and every other file from the
// worker's cache.
//
// Usage: node benches/phone.mjs [--runs N] [--cold | --warm]   (./lab build first)
// A measurement, never an assertion: this is not a test.
import { createServer } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import { gzipSync } from 'node:zlib';
import { extname, join, normalize, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { types } from '../tests/browser/serve.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = resolve(process.env.LAB_DIST || join(root, 'dist'));
const arg = (name, dflt) => (process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : dflt);
const RUNS = Number(arg('--runs', 5));
const SLUG = 'timeouts-reintentos-idempotencia';

const gz = new Map();
const server = createServer(async (req, res) => {
  const url = new URL(req.url, 'http://127.0.0.1');
  let path = normalize(join(dist, decodeURIComponent(url.pathname)));
  if (!path.startsWith(dist)) return res.writeHead(403).end();
  // A route's prerendered page (`dir/index.html`), else the page a host falls back to.
  let info = await stat(path).catch(() => null);
  if (info?.isDirectory()) { path = join(path, 'index.html'); info = await stat(path).catch(() => null); }
  if (!info) path = join(dist, 'index.html');
  if (!gz.has(path)) gz.set(path, gzipSync(await readFile(path), { level: 9 }));
  const gzip = /\bgzip\b/.test(req.headers['accept-encoding'] || '');
  const body = gzip ? gz.get(path) : await readFile(path);
  res.writeHead(200, {
    'content-type': types[extname(path)] || 'application/octet-stream',
    ...(gzip ? { 'content-encoding': 'gzip' } : {}),
    'cache-control': 'no-store',
  });
  res.end(body);
});
await new Promise((r) => server.listen(0, '127.0.0.1', r));
const base = `http://127.0.0.1:${server.address().port}`;

const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
    '--disable-component-update', '--disable-sync'],
});

// In the page, from its first moment: layout shifts, and when the first
// paragraph with text appears in the main column.
const OBSERVE = () => {
  window.__phone = { cls: 0, text: null, fcp: null };
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

async function once(path, warm) {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 3, isMobile: true, hasTouch: true });
  if (warm) await firstVisit(context, path);
  const page = await context.newPage();
  await page.addInitScript(OBSERVE);
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false, latency: 150, downloadThroughput: (1.6 * 1024 * 1024) / 8, uploadThroughput: (750 * 1024) / 8,
  });
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
  await page.goto(base + path, { waitUntil: 'commit' });
  await page.waitForFunction(() => performance.getEntriesByName('chart-drawn').length > 0, null, { timeout: 120_000 });
  // The paint that shows the chart may come a frame after it is drawn.
  await page.waitForFunction(() => window.__phone.fcp !== null, null, { timeout: 10_000 }).catch(() => {});
  const r = await page.evaluate(() => ({
    fcp: window.__phone.fcp,
    text: window.__phone.text,
    chart: performance.getEntriesByName('chart-drawn')[0].startTime,
    cls: window.__phone.cls,
    // Whether the wasm came from the worker (its entry then has a workerStart).
    wasmFromWorker: performance.getEntriesByType('resource').some((e) => e.name.endsWith('.wasm') && e.workerStart > 0),
  }));
  await context.close();
  if (r.wasmFromWorker !== warm) throw new Error(`${path}: the wasm ${warm ? 'did not come' : 'came'} from the service worker`);
  return r;
}

const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]; };
const fmt = (xs, d = 0) => xs.some((x) => x === null) ? '—' : `${median(xs).toFixed(d)} (${Math.min(...xs).toFixed(d)}–${Math.max(...xs).toFixed(d)})`;

const PAGES = [`/lecciones/${SLUG}`, `/lecciones/${SLUG}/widgets/herd`, `/embed/${SLUG}/widgets/storm`];
const KINDS = [['cold', 'cold loads'], ['warm', 'warm loads from the service worker (second visit)']]
  .filter(([kind]) => !process.argv.includes(kind === 'cold' ? '--warm' : '--cold'));
try {
  for (const [kind, what] of KINDS) {
    console.log(`\n## Phone profile: 390×844 at 3×, 1.6 Mbps / 150 ms, CPU 4×, cache off, gzipped (${RUNS} ${what}, median (range))\n`);
    console.log('| page | first contentful paint ms | first paragraph in the DOM ms | first chart drawn ms | CLS |');
    console.log('|---|---:|---:|---:|---:|');
    for (const path of PAGES) {
      const runs = [];
      for (let i = 0; i < RUNS; i++) runs.push(await once(path, kind === 'warm'));
      console.log(`| \`${path}\` | ${fmt(runs.map((r) => r.fcp))} | ${fmt(runs.map((r) => r.text))} | ${fmt(runs.map((r) => r.chart))} | ${fmt(runs.map((r) => r.cls), 3)} |`);
    }
  }
} finally {
  await browser.close();
  server.close();
}
