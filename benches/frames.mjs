// Frame time while a scenario plays (issue #33): the herd at 1,000 clients and
// the storm at its defaults, each played at 1× from its start for a few
// seconds on its widget's page, on the phone profile (390×844, 3×, CPU slowed
// 4×) and unthrottled. Two figures per case:
//
// * **frame interval**: the time between one animation frame and the next
//   while it plays (what a learner sees: 16.7 ms is 60 frames a second; a
//   frame that takes longer than that to draw pushes the next one back);
// * **draw**: the time each chart takes to draw itself (the canvas's
//   `chart-draw-start` to `chart-drawn` marks; the herd draws two charts a
//   frame, its bars and its marks).
//
// p50 / p95 / worst of each. Usage: node benches/frames.mjs [--seconds S]
// (./lab build first). A measurement, never an assertion: this is not a test.
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { servePrecompressed } from './precompressed.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = resolve(process.env.LAB_DIST || join(root, 'dist'));
const arg = (name, dflt) => (process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : dflt);
const SECONDS = Number(arg('--seconds', 4));
const SLUG = 'timeouts-reintentos-idempotencia';

const { server, base } = await servePrecompressed(dist, { encodings: ['br', 'gzip'] });
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
  args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
    '--disable-component-update', '--disable-sync'],
});

const CASES = [
  ['la manada, 1,000 clientes', 'herd'],
  ['la tormenta, sus valores', 'storm'],
];
const PROFILES = [
  ['teléfono (CPU 4× más lenta)', 4],
  ['sin freno', 1],
];

const pct = (xs, p) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))] : NaN;
};
const ms = (v) => `${v.toFixed(1)} ms`;

const rows = [];
for (const [name, id] of CASES) {
  for (const [profile, rate] of PROFILES) {
    const context = await browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 3, isMobile: true, hasTouch: true });
    const page = await context.newPage();
    await page.goto(`${base}/lecciones/${SLUG}/widgets/${id}?t-ms=0`);
    await page.waitForSelector('#app[data-ready]');
    await page.waitForSelector(`#widget-${id} canvas[data-draws]`);
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate });
    // Frames and draws from the press of ▶ on.
    await page.evaluate(() => {
      performance.clearMarks();
      window.__frames = [];
      const tick = (t) => { window.__frames.push(t); window.__raf = requestAnimationFrame(tick); };
      window.__raf = requestAnimationFrame(tick);
    });
    await page.click(`#${id}-play`);
    await page.waitForTimeout(SECONDS * 1000);
    const { frames, draws } = await page.evaluate(() => {
      cancelAnimationFrame(window.__raf);
      const starts = performance.getEntriesByName('chart-draw-start');
      const ends = performance.getEntriesByName('chart-drawn');
      return {
        frames: window.__frames.slice(1).map((t, i) => t - window.__frames[i]),
        draws: starts.map((s, i) => (ends[i] ? ends[i].startTime - s.startTime : NaN)).filter((d) => !Number.isNaN(d)),
      };
    });
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
    await context.close();
    rows.push({ name, profile, frames, draws });
  }
}
await browser.close();
server.close();

console.log(`Frame time while playing (${SECONDS} s at 1× from the start, 390×844 at 3×)\n`);
console.log('| caso | perfil | intervalo entre cuadros p50 / p95 / peor | cuadros | dibujo de una gráfica p50 / p95 / peor | dibujos |');
console.log('|---|---|---|---|---|---|');
for (const r of rows) {
  const f = `${ms(pct(r.frames, 50))} / ${ms(pct(r.frames, 95))} / ${ms(Math.max(...r.frames))}`;
  const d = `${ms(pct(r.draws, 50))} / ${ms(pct(r.draws, 95))} / ${ms(Math.max(...r.draws))}`;
  console.log(`| ${r.name} | ${r.profile} | ${f} | ${r.frames.length} | ${d} | ${r.draws.length} |`);
}
