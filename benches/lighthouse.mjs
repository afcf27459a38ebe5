// Lighthouse 12.2.3 (mobile: its default, a mid-range phone with 4× CPU
// slowdown and slow 4G, simulated) on the lesson and a widget's page of the
// release build in dist/, served as a host with the build's precompressed
// files serves it (benches/precompressed.mjs), in Debian's Chromium. Prints
// one row per run and the median per page: performance, LCP, TBT, CLS, speed
// index, and the accessibility, best practices and SEO scores.
//
// Usage: node benches/lighthouse.mjs [--runs N] [--page lesson|widget]   (./lab build first; not in CI)
// A measurement, never an assertion.
import lighthouse from 'lighthouse';
import * as chromeLauncher from 'chrome-launcher';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { servePrecompressed } from './precompressed.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = resolve(process.env.LAB_DIST || join(root, 'dist'));
const arg = (name, dflt) => (process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : dflt);
const RUNS = Number(arg('--runs', 3));
const SLUG = 'timeouts-reintentos-idempotencia';
const PAGES = [['lesson', `/lecciones/${SLUG}`], ['widget', `/lecciones/${SLUG}/widgets/herd`]]
  .filter(([name]) => !arg('--page', null) || name === arg('--page', null));

const { server, base } = await servePrecompressed(dist);
const median = (xs) => { const s = [...xs].sort((a, b) => a - b); return s[Math.floor(s.length / 2)]; };
console.log('| page | run | performance | LCP ms | TBT ms | CLS | speed index ms | accessibility | best practices | SEO |');
console.log('|---|---|---:|---:|---:|---:|---:|---:|---:|---:|');
try {
  for (const [name, path] of PAGES) {
    const rows = [];
    for (let i = 0; i < RUNS; i++) {
      const profile = mkdtempSync(join(tmpdir(), 'lab-lh-'));
      const chrome = await chromeLauncher.launch({
        chromePath: process.env.CHROMIUM || '/usr/bin/chromium',
        userDataDir: profile,
        chromeFlags: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
          '--disable-background-networking', '--disable-component-update', '--disable-sync'],
      });
      try {
        const { lhr } = await lighthouse(base + path, { port: chrome.port, output: 'json', logLevel: 'error' });
        const a = lhr.audits;
        const c = lhr.categories;
        const r = {
          perf: Math.round(c.performance.score * 100),
          lcp: a['largest-contentful-paint'].numericValue,
          tbt: a['total-blocking-time'].numericValue,
          cls: a['cumulative-layout-shift'].numericValue,
          si: a['speed-index'].numericValue,
          a11y: Math.round(c.accessibility.score * 100),
          bp: Math.round(c['best-practices'].score * 100),
          seo: Math.round(c.seo.score * 100),
          // What kept accessibility, best practices or SEO under 100.
          failed: ['accessibility', 'best-practices', 'seo'].flatMap((k) => c[k].auditRefs)
            .filter((ref) => ref.weight > 0 && a[ref.id].score !== null && a[ref.id].score < 1)
            .map((ref) => ref.id),
        };
        rows.push(r);
        console.log(`| \`${path}\` | ${i + 1} | ${r.perf} | ${r.lcp.toFixed(0)} | ${r.tbt.toFixed(0)} | ${r.cls.toFixed(3)} | ${r.si.toFixed(0)} | ${r.a11y} | ${r.bp} | ${r.seo} |${r.failed.length ? ` not full marks: ${[...new Set(r.failed)].join(', ')}` : ''}`);
      } finally {
        await chrome.kill();
        rmSync(profile, { recursive: true, force: true });
      }
    }
    const m = (k, d = 0) => median(rows.map((r) => r[k])).toFixed(d);
    console.log(`| \`${path}\` | **median** | **${m('perf')}** | **${m('lcp')}** | **${m('tbt')}** | ${m('cls', 3)} | ${m('si')} | ${m('a11y')} | ${m('bp')} | ${m('seo')} |`);
  }
} finally {
  server.close();
}
