// Shared set-up of the browser tests: the built lab (dist/) on a free
// loopback port, and headless Chromium through playwright-core.
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:http';
import { execFileSync } from 'node:child_process';
import { chromium } from 'playwright-core';
import { serve } from './serve.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const dist = process.env.LAB_DIST || join(here, '..', '..', 'dist');
let server, browser, base;

export async function startLab() {
  server = await serve(dist, 0);
  base = `http://127.0.0.1:${server.address().port}`;
  await launch();
}

/** Only the browser, for a test that serves the lab itself (`context`, `watch`). */
export async function launch() {
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    // Playwright runs headless with a fresh, empty profile of its own.
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

export async function stopLab() {
  await browser?.close();
  server?.closeAllConnections?.();
  server?.close();
}

export const url = (path) => base + path;

export const SLUG = 'timeouts-reintentos-idempotencia';
/** The widgets, from the lab's one list (`src/scenario.rs`, `sensei-lab scenarios --json`):
 * their ids in order, and each one's Spanish name (its page's title and its iframe's). */
const SCENARIOS = JSON.parse(execFileSync('cargo', ['run', '--quiet', '--locked', '--bin', 'sensei-lab', '--', 'scenarios', '--json'],
  { cwd: join(here, '..', '..'), encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] }));
export const WIDGETS = SCENARIOS.map((s) => s.id);
export const WIDGET_NAMES = Object.fromEntries(SCENARIOS.map((s) => [s.id, s.name]));

/** Records a page's console errors and uncaught exceptions (a Rust panic included) into `problems`. */
export function watch(page, problems = []) {
  page.on('console', (m) => { if (m.type() === 'error') problems.push(`console.error: ${m.text()}`); });
  page.on('pageerror', (e) => problems.push(`uncaught: ${e.message}`));
  return problems;
}

/** A fresh browser context (its own service workers, caches and storage), for several pages at once. */
export function context(viewport = { width: 1280, height: 900 }) {
  return browser.newContext({ viewport });
}

/** A page that records console errors and uncaught exceptions (a Rust panic included). */
export async function open(path, viewport = { width: 1280, height: 900 }, init = null) {
  const page = await browser.newPage({ viewport });
  // A script to run before the page's own (e.g. a browser that refuses storage).
  if (init) await page.addInitScript(init);
  const problems = watch(page);
  await page.goto(base + path);
  await page.waitForSelector('#app[data-ready]');
  return { page, problems };
}

/** A page on a device: `width`×`height` CSS px at `dpr` device pixels per
 * CSS px, a touch screen below 800 px (a phone's or a tablet's), recording
 * errors like `open`. Close it with `page.context().close()`. */
export async function device(path, { width, height, dpr = 1 }) {
  const touch = width < 800;
  const context = await browser.newContext({ viewport: { width, height }, deviceScaleFactor: dpr, isMobile: touch, hasTouch: touch });
  const page = await context.newPage();
  const problems = watch(page);
  await page.goto(base + path);
  await page.waitForSelector('#app[data-ready]');
  return { page, problems };
}

/** An empty page (for a host page made by the test), recording errors like `open`. */
export async function blank(viewport = { width: 1100, height: 900 }) {
  const page = await browser.newPage({ viewport });
  return { page, problems: watch(page) };
}

/** A course page on another origin (another loopback port) whose body is
 * `body`, e.g. iframes of the lab. Close it with `closeAllConnections()` and `close()`. */
export function hostPage(body) {
  return new Promise((resolve) => {
    const server = createServer((req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(`<!doctype html><html lang="es"><body>${body}</body></html>`);
    });
    server.listen(0, '127.0.0.1', () => resolve(server));
  });
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** axe-core's WCAG 2.1 A and AA violations on the page, or inside `scope`
 * (a selector): `{ impact, id, targets }` each. */
export async function axe(page, scope = null) {
  // Playwright's evaluate is exempt from the page's CSP, which refuses inline scripts.
  if (!(await page.evaluate(() => !!window.axe))) await page.evaluate(axeSource);
  // The lesson's widgets off screen skip their rendering (`content-visibility: auto`), where axe
  // would read no colours: every one is rendered for the check, as it is when scrolled to.
  await page.evaluate(() => {
    for (const w of document.querySelectorAll('main.lesson figure.widget')) w.style.contentVisibility = 'visible';
  });
  return page.evaluate(async (scope) => {
    const r = await window.axe.run(scope ?? document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
    });
    return r.violations.map((v) => ({ impact: v.impact, id: v.id, targets: v.nodes.slice(0, 3).map((n) => n.target.join(' ')) }));
  }, scope);
}

/** axe-core's violations of `rules` on the page as it is, widgets off
 * screen left unrendered (as Lighthouse's accessibility audit runs it). */
export async function axeAsIs(page, rules) {
  if (!(await page.evaluate(() => !!window.axe))) await page.evaluate(axeSource);
  return page.evaluate(async (rules) => {
    const r = await window.axe.run(document, { runOnly: { type: 'rule', values: rules } });
    return r.violations.map((v) => ({ impact: v.impact, id: v.id, targets: v.nodes.slice(0, 3).map((n) => n.target.join(' ')) }));
  }, rules);
}

/** A browser context with JavaScript off (a reader, a crawler, a locked-down browser). */
/** A fresh browser context with Playwright's `options` (e.g. `bypassCSP` for a test's own style). */
export function browserContext(options) {
  return browser.newContext(options);
}

export function noScriptContext(viewport = { width: 1280, height: 900 }) {
  return browser.newContext({ viewport, javaScriptEnabled: false });
}
