// Offline and installable (issue #23): the service worker (static/sw.js,
// written into the build by scripts/offline.mjs) and its registration
// (static/sensei-offline.js). After one visit the lab works without a
// network on any of its routes; a new build reaches a returning learner whole,
// never a page of one build with the wasm of another.
//
// The server here is the test's own (tests/browser/serve.mjs over a folder
// the test can swap, as a host deploying a new build), so it also counts the
// requests that reach it: none while the browser is offline.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { cp, mkdtemp, readFile, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { launch, stopLab, context, watch, SLUG } from './harness.mjs';
import { serve } from './serve.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const repo = join(here, '..', '..');
const DIST = process.env.LAB_DIST || join(repo, 'dist');
const LESSON = `/lecciones/${SLUG}`;

let tmp, A, B, DEV, root, server, base, requests = 0;

/** Another build: the same code under new hashed names, its page, policy, version and worker made again by the build's own scripts. */
async function rebuilt(from, to) {
  await cp(from, to, { recursive: true });
  const stem = (await readdir(to)).find((f) => f.endsWith('_bg.wasm')).replace('_bg.wasm', '');
  const hash = stem.slice('sensei-lab-'.length);
  const other = `sensei-lab-${[...hash].reverse().join('')}`;
  // The glue and the wasm keep their bytes (the page's integrity attributes still hold), under new names.
  await rename(join(to, `${stem}.js`), join(to, `${other}.js`));
  await rename(join(to, `${stem}_bg.wasm`), join(to, `${other}_bg.wasm`));
  const page = (await readFile(join(to, 'index.html'), 'utf8'))
    .replace(/\n\s*<meta http-equiv="Content-Security-Policy"[^>]*\/>/, '')
    .replace(/\n\s*<meta name="sensei-lab-version"[^>]*\/>/, '')
    .replaceAll(stem, other);
  await writeFile(join(to, 'index.html'), page);
  execFileSync('node', [join(repo, 'scripts', 'csp.mjs'), join(to, 'index.html')]);
  execFileSync('node', [join(repo, 'scripts', 'offline.mjs'), to]);
  await cp(join(to, 'index.html'), join(to, '404.html'));
}

before(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'lab-offline-'));
  A = join(tmp, 'a');
  B = join(tmp, 'b');
  DEV = join(tmp, 'dev');
  await cp(DIST, A, { recursive: true });
  await rebuilt(A, B);
  // A page as trunk serve gives it: no version in it.
  await cp(A, DEV, { recursive: true });
  const page = (await readFile(join(DEV, 'index.html'), 'utf8')).replace(/\n\s*<meta name="sensei-lab-version"[^>]*\/>/, '');
  await writeFile(join(DEV, 'index.html'), page);
  root = A;
  server = await serve(() => root, 0);
  server.on('request', () => { requests += 1; });
  base = `http://127.0.0.1:${server.address().port}`;
  await launch();
});

after(async () => {
  await stopLab();
  server?.closeAllConnections?.();
  server?.close();
  if (tmp) await rm(tmp, { recursive: true, force: true });
});

/** The page's own build, and what it runs: the wasm its page names and every wasm it fetched. */
async function build(page) {
  return page.evaluate(() => ({
    version: document.querySelector('meta[name=sensei-lab-version]')?.content,
    named: document.querySelector('link[rel=preload][as=fetch]').href,
    fetched: [...new Set(performance.getEntriesByType('resource').map((e) => e.name).filter((n) => n.endsWith('.wasm')))],
  }));
}

const versionOf = async (dir) => (await readFile(join(dir, 'index.html'), 'utf8')).match(/sensei-lab-version" content="([0-9a-f]+)"/)[1];
const wasmOf = async (dir) => (await readdir(dir)).find((f) => f.endsWith('_bg.wasm'));

/** Waits until a worker controls the page (its files all cached), and gives that worker's version. */
async function controlled(page) {
  return page.evaluate(async () => {
    const sw = navigator.serviceWorker;
    await sw.ready;
    if (!sw.controller) await new Promise((ok) => sw.addEventListener('controllerchange', ok, { once: true }));
    return new Promise((ok) => {
      const ch = new MessageChannel();
      ch.port1.onmessage = (e) => ok(e.data);
      sw.controller.postMessage('sensei-lab:version', [ch.port2]);
    });
  });
}

const caches = (page) => page.evaluate(async () => (await caches.keys()).filter((k) => k.startsWith('sensei-lab ')));

/** One page of the lab, drawn: its heading, and a live chart where it has one. */
async function shows(page, path, { heading, chart = true }) {
  await page.goto(base + path);
  await page.waitForSelector('main');
  if (heading) await page.waitForSelector(`main :is(h1, h2, h3):text("${heading}")`);
  if (chart) await page.waitForSelector('main canvas[data-draws]');
}

test('after one visit, every route works offline: sections, widgets, exercises, embeds, print', async () => {
  root = A;
  const ctx = await context();
  const page = await ctx.newPage();
  const problems = watch(page);
  await shows(page, `${LESSON}/la-manada`, { heading: 'El problema de la manada' });
  assert.equal(await controlled(page), await versionOf(A));
  assert.deepEqual(await caches(page), [`sensei-lab ${base}/ ${await versionOf(A)}`]);

  await ctx.setOffline(true);
  const seen = requests;
  await page.reload();
  await page.waitForSelector('main canvas[data-draws]');
  await shows(page, `${LESSON}/widgets/herd`, { heading: 'La manada' });
  // The widget is live: a change re-runs the core and redraws.
  const draws = Number(await page.getAttribute('#widget-herd canvas', 'data-draws'));
  await page.fill('#herd-clients', '2000');
  await page.press('#herd-clients', 'Enter');
  await page.waitForFunction((n) => Number(document.querySelector('#widget-herd canvas').getAttribute('data-draws')) > n, draws);
  // An exercise's page has no chart: it is live when the core marks an answer.
  await shows(page, `${LESSON}/ejercicios/1`, { heading: 'Ejercicio 1', chart: false });
  await page.click('#exercise-1 button:text("Comprobar")');
  await page.waitForSelector('#exercise-1 [data-figure="summary"]');
  assert.match(await page.textContent('#exercise-1 [data-figure="summary"]'), /sin respuesta/);
  await shows(page, `/embed/${SLUG}/widgets/storm`, {});
  await shows(page, `/imprimir/${SLUG}`, { chart: false });
  await page.waitForSelector('main :text("Ejercicio 9")');
  await shows(page, '/una/ruta/que/no/existe', { chart: false });
  assert.equal(requests, seen, 'nothing reached the server while offline');
  const b = await build(page);
  assert.equal(b.version, await versionOf(A));
  assert.deepEqual(problems, []);
  await ctx.close();
});
