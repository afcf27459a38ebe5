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
import { cp, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { createHash } from 'node:crypto';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { launch, stopLab, context, watch, axe, SLUG } from './harness.mjs';
import { serve } from './serve.mjs';
import { buildOf } from '../../scripts/sizes.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const repo = join(here, '..', '..');
const DIST = process.env.LAB_DIST || join(repo, 'dist');
const LESSON = `/lecciones/${SLUG}`;

let tmp, A, B, DEV, root, server, base, requests = 0, hanging = false;

/** Another build: the same code under new hashed names, its page, policy, version and worker made again by the build's own scripts. */
async function rebuilt(from, to) {
  await cp(from, to, { recursive: true });
  // The learner's build (the page's; the instructors' build beside it keeps its names).
  const stem = (await readFile(join(to, 'index.html'), 'utf8')).match(/'\/(sensei-lab-[0-9a-f]+)_bg\.wasm'/)[1];
  const hash = stem.slice('sensei-lab-'.length);
  const other = `sensei-lab-${[...hash].reverse().join('')}`;
  // The runtime keeps its bytes under a new name; the glue and the split loader, which name
  // each other, name the new ones (and the page's integrity attributes follow).
  await rename(join(to, `${stem}_bg.wasm`), join(to, `${other}_bg.wasm`));
  for (const suffix of ['.js', '_split.js']) {
    const text = (await readFile(join(to, `${stem}${suffix}`), 'utf8')).replaceAll(stem, other);
    await rm(join(to, `${stem}${suffix}`));
    await writeFile(join(to, `${other}${suffix}`), text);
  }
  const sri = async (f) => `sha384-${createHash('sha384').update(await readFile(join(to, f))).digest('base64')}`;
  let page = (await readFile(join(to, 'index.html'), 'utf8'))
    .replace(/\n\s*<meta http-equiv="Content-Security-Policy"[^>]*\/>/, '')
    .replaceAll(stem, other);
  for (const f of [`${other}.js`, `${other}_split.js`]) {
    page = page.replace(new RegExp(`(href="[^"]*/${f}" crossorigin="anonymous" integrity=")[^"]+"`), `$1${await sri(f)}"`);
  }
  await writeFile(join(to, 'index.html'), page);
  execFileSync('node', [join(repo, 'scripts', 'finish.mjs'), to]);
}

before(async () => {
  tmp = await mkdtemp(join(tmpdir(), 'lab-offline-'));
  A = join(tmp, 'a');
  B = join(tmp, 'b');
  DEV = join(tmp, 'dev');
  await cp(DIST, A, { recursive: true });
  await rebuilt(A, B);
  // A page as trunk serve gives it: no version in it, nothing prerendered.
  await cp(A, DEV, { recursive: true });
  for (const d of ['lecciones', 'embed', 'imprimir', '404.html']) await rm(join(DEV, d), { recursive: true });
  const page = (await readFile(join(DEV, 'index.html'), 'utf8'))
    .replace(/\n\s*<meta name="sensei-lab-version"[^>]*\/>/, '')
    .replace(/<div id="app"[\s\S]*<\/div>(\s*<\/body>)/, '<div id="app"></div>$1');
  await writeFile(join(DEV, 'index.html'), page);
  root = A;
  // While `hanging`, a page asked for by a navigation gets no answer (its files still do).
  server = await serve(() => root, 0, '', (req) => hanging && (req.headers['sec-fetch-mode'] === 'navigate' || req.headers.accept?.startsWith('text/html')));
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

/** The page's own build, and what it runs: the runtime its page names and every runtime it
 *  fetched (a build's pieces are named by their contents, the same in two builds of the same code). */
async function build(page) {
  return page.evaluate(() => ({
    version: document.querySelector('meta[name=sensei-lab-version]')?.content,
    named: document.querySelector('link[rel=preload][as=fetch]').href,
    fetched: [...new Set(performance.getEntriesByType('resource').map((e) => e.name).filter((n) => n.endsWith('_bg.wasm')))],
  }));
}

const versionOf = async (dir) => (await readFile(join(dir, 'index.html'), 'utf8')).match(/sensei-lab-version" content="([0-9a-f]+)"/)[1];
// The learner's wasm, the one the build's page loads (the instructors' build is beside it).
const wasmOf = async (dir) => (await readFile(join(dir, 'index.html'), 'utf8')).match(/'\/(sensei-lab-[0-9a-f]+_bg\.wasm)'/)[1];

/** Waits until a worker controls the page (its files all cached), and gives that worker's version. */
async function controlled(page) {
  await page.evaluate(async () => {
    const sw = navigator.serviceWorker;
    await sw.ready;
    if (!sw.controller) await new Promise((ok) => sw.addEventListener('controllerchange', ok, { once: true }));
  });
  return controller(page);
}

/** Polls `check` (in Node) until it gives true. */
async function until(check, what, ms = 20_000) {
  for (const end = Date.now() + ms; Date.now() < end; await new Promise((ok) => setTimeout(ok, 100))) {
    if (await check()) return;
  }
  throw new Error(`still not ${what} after ${ms} ms`);
}

/** The version of the worker that controls the page now (null when none does). */
const controller = (page) => page.evaluate(() => new Promise((ok) => {
  const sw = navigator.serviceWorker.controller;
  if (!sw) return ok(null);
  const ch = new MessageChannel();
  ch.port1.onmessage = (e) => ok(e.data);
  sw.postMessage('sensei-lab:version', [ch.port2]);
}));

test('the worker keeps the learner\'s build, not the instructors\' (only «Para docentes» and the package load it)', async () => {
  const listed = Object.keys(JSON.parse((await readFile(join(A, 'sw.js'), 'utf8')).match(/const BUILD = (\{.*\});/)[1]).files);
  const teachers = await readFile(join(A, 'docentes', SLUG, 'index.html'), 'utf8');
  const theirs = teachers.match(/'\/(sensei-lab-[0-9a-f]+_bg\.wasm)'/)[1];
  assert.notEqual(theirs, await wasmOf(A));
  assert.ok(listed.includes(await wasmOf(A)));
  assert.ok(!listed.includes(theirs) && !listed.includes(theirs.replace('_bg.wasm', '.js')), 'the instructors\' build is not kept offline');
  // Every module of the learner's build (its runtime, each piece's code): offline after one visit, every page works.
  const learner = buildOf(A, await readFile(join(A, 'index.html'), 'utf8'));
  assert.ok(Object.keys(learner.pieces).length > 15, 'a split build');
  assert.deepEqual(learner.all.filter((f) => !listed.includes(f)), [], 'modules not kept offline');
  const instructors = buildOf(A, teachers).runtime;
  assert.deepEqual(instructors.filter((f) => listed.includes(f)), [], 'the instructors\' runtime kept offline');
});

const caches = (page) => page.evaluate(async () => (await caches.keys()).filter((k) => k.startsWith('sensei-lab ')));

/** One page of the lab, drawn: its heading, and a live chart where it has one. */
async function shows(page, path, { heading, chart = true }) {
  await page.goto(base + path);
  await page.waitForSelector('#app[data-ready]');
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
  // Installable: Chromium reads the manifest without an error and finds nothing missing.
  const cdp = await ctx.newCDPSession(page);
  const manifest = await cdp.send('Page.getAppManifest');
  assert.deepEqual(manifest.errors, []);
  assert.equal(manifest.url, `${base}/manifest.webmanifest`);
  const app = JSON.parse(manifest.data);
  assert.equal(app.name, 'Sensei Lab: Timeouts, reintentos e idempotencia');
  assert.equal(app.lang, 'es-MX');
  // (A Playwright context is an off-the-record profile, where Chromium never offers to install: that one is not the lab's.)
  const { installabilityErrors } = await cdp.send('Page.getInstallabilityErrors');
  assert.deepEqual(installabilityErrors.filter((e) => e.errorId !== 'in-incognito'), []);
  for (const icon of app.icons) {
    assert.equal((await fetch(new URL(icon.src, `${base}/`))).headers.get('content-type'), icon.type, icon.src);
  }

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
  // «Para docentes» is the instructors' build, which is not kept offline: the page says so.
  await shows(page, `/docentes/${SLUG}`, { heading: 'Para docentes', chart: false });
  assert.match(await page.textContent('main'), /no se guarda para usarla sin conexión/);
  assert.equal(requests, seen, 'nothing reached the server while offline');
  const b = await build(page);
  assert.equal(b.version, await versionOf(A));
  assert.deepEqual(problems, []);
  await ctx.close();
});

test('a new build: the next visit gets it whole, and an open page of the old one says «Hay una versión nueva»', async () => {
  root = A;
  const ctx = await context();
  const old = await ctx.newPage();
  const problems = watch(old);
  await shows(old, `${LESSON}/widgets/herd`, { heading: 'La manada' });
  const [vA, vB] = [await versionOf(A), await versionOf(B)];
  assert.equal(await controlled(old), vA);

  // The page the worker took over is kept.
  await until(() => old.evaluate(async (url) => !!(await (await caches.open((await caches.keys())[0])).match(url)), `${base}${LESSON}/widgets/herd`), 'the page kept');
  // The host deploys build B. The learner opens the page they saw in another tab: A's, kept
  // by A's worker, at once (refreshed behind it: B's copy is not kept in A's cache), and it
  // says «Hay una versión nueva».
  root = B;
  const again = await ctx.newPage();
  watch(again, problems);
  await shows(again, `${LESSON}/widgets/herd`, { heading: 'La manada' });
  assert.equal((await build(again)).version, vA);
  await again.locator('.update-notice[role=status]').waitFor();
  await again.close();
  // A page they had not seen comes from the network: B's, whole.
  const next = await ctx.newPage();
  watch(next, problems);
  await shows(next, `${LESSON}/widgets/storm`, { heading: 'Cada capa multiplica' });
  // B's page, and B's wasm only (the network gave the page; A's cache has none of B's files).
  assert.deepEqual(await build(next), { version: vB, named: `${base}/${await wasmOf(B)}`, fetched: [`${base}/${await wasmOf(B)}`] });
  // Its worker installs and, being this page's build, takes over at once.
  await until(async () => (await controller(next)) === vB
    && next.evaluate(() => navigator.serviceWorker.controller.state === 'activated'), 'controlled by B, activated');
  assert.deepEqual(await caches(next), [`sensei-lab ${base}/ ${vB}`], 'A\'s cache deleted once B took over');
  assert.equal(await next.locator('.update-notice').count(), 0, 'B\'s own page has nothing to announce');

  // The tab still running A is told, and still works meanwhile.
  const notice = old.locator('.update-notice[role=status]');
  await notice.waitFor();
  assert.match(await notice.textContent(), /Hay una versión nueva/);
  const draws = Number(await old.getAttribute('#widget-herd canvas', 'data-draws'));
  await old.fill('#herd-clients', '1500');
  await old.press('#herd-clients', 'Enter');
  await old.waitForFunction((n) => Number(document.querySelector('#widget-herd canvas').dataset.draws) > n, draws);
  assert.equal((await build(old)).version, vA);
  // «Recargar»: B, whole.
  await Promise.all([old.waitForEvent('load'), old.click('.update-notice button:text("Recargar")')]);
  await old.waitForSelector('#widget-herd canvas[data-draws]');
  assert.deepEqual(await build(old), { version: vB, named: `${base}/${await wasmOf(B)}`, fetched: [`${base}/${await wasmOf(B)}`] });
  // The learner's state came back with the page (it is in the URL).
  assert.equal(await old.inputValue('#herd-clients'), '1500');

  // And offline, B from B's cache.
  await ctx.setOffline(true);
  await old.reload();
  await old.waitForSelector('#widget-herd canvas[data-draws]');
  assert.deepEqual(await build(old), { version: vB, named: `${base}/${await wasmOf(B)}`, fetched: [`${base}/${await wasmOf(B)}`] });
  assert.deepEqual(problems, []);
  await ctx.close();
});

test('the only tab, still on the old build: the new one waits (old cache kept) until «Recargar»', async () => {
  root = A;
  const ctx = await context({ width: 390, height: 844 });
  const page = await ctx.newPage();
  const problems = watch(page);
  await shows(page, `${LESSON}/la-manada`, { heading: 'El problema de la manada' });
  const [vA, vB] = [await versionOf(A), await versionOf(B)];
  assert.equal(await controlled(page), vA);

  // B is deployed while the page is open; the page looks for it (as it does when it is seen again, or back online).
  root = B;
  await page.evaluate(async () => { await (await navigator.serviceWorker.getRegistration()).update(); });
  const notice = page.locator('.update-notice[role=status]');
  await notice.waitFor();
  assert.match(await notice.textContent(), /^Hay una versión nueva de Sensei Lab\. Recarga la página para usarla\./);
  // Readable and reachable (axe-core, WCAG 2.1 A and AA, as tests/browser/pages.test.mjs runs it).
  assert.deepEqual((await axe(page, '.update-notice')).map((v) => `${v.impact} ${v.id}`), []);
  // B waits: A still controls the page, and A's cache is still there beside B's.
  assert.equal(await controlled(page), vA);
  assert.deepEqual((await caches(page)).sort(), [`sensei-lab ${base}/ ${vA}`, `sensei-lab ${base}/ ${vB}`].sort());
  assert.equal(await page.evaluate(async () => !!(await navigator.serviceWorker.getRegistration()).waiting), true);

  // «Recargar»: B takes over, then the page reloads with B whole.
  await Promise.all([page.waitForEvent('load'), page.click('.update-notice button:text("Recargar")')]);
  await page.waitForSelector('main canvas[data-draws]');
  assert.deepEqual(await build(page), { version: vB, named: `${base}/${await wasmOf(B)}`, fetched: [`${base}/${await wasmOf(B)}`] });
  assert.equal(await controlled(page), vB);
  assert.deepEqual(await caches(page), [`sensei-lab ${base}/ ${vB}`]);
  assert.deepEqual(problems, []);
  await ctx.close();
});

test('«Ahora no»: the page keeps its build; the next visit gets the new one', async () => {
  root = A;
  const ctx = await context();
  let page = await ctx.newPage();
  const problems = watch(page);
  await shows(page, `${LESSON}/widgets/herd`, { heading: 'La manada' });
  const [vA, vB] = [await versionOf(A), await versionOf(B)];
  assert.equal(await controlled(page), vA);
  root = B;
  await page.evaluate(async () => { await (await navigator.serviceWorker.getRegistration()).update(); });
  await page.locator('.update-notice[role=status]').waitFor();
  await page.click('.update-notice button:text("Ahora no")');
  assert.equal(await page.locator('.update-notice').isVisible(), false);
  await page.evaluate(async () => { await (await navigator.serviceWorker.getRegistration()).update(); });
  await page.waitForTimeout(300);
  assert.equal(await page.locator('.update-notice').isVisible(), false, 'not asked again on this page');
  assert.equal((await build(page)).version, vA);
  assert.equal(await controller(page), vA);
  // The learner closes the tab and comes back another day, offline: B, from B's cache.
  await page.close();
  await ctx.setOffline(true);
  page = await ctx.newPage();
  watch(page, problems);
  await shows(page, `${LESSON}/widgets/herd`, { heading: 'La manada' });
  assert.deepEqual(await build(page), { version: vB, named: `${base}/${await wasmOf(B)}`, fetched: [`${base}/${await wasmOf(B)}`] });
  assert.equal(await controller(page), vB);
  assert.deepEqual(await caches(page), [`sensei-lab ${base}/ ${vB}`]);
  assert.deepEqual(problems, []);
  await ctx.close();
});

test('a worker that finds another build\'s files on the server is refused: no cache ever mixes two builds', async () => {
  // A's page and A's sw.js, but by the time the worker fetches the files the host serves B
  // (B's page, and no longer A's wasm): the hashes do not match, the worker is not installed.
  root = A;
  const swA = await readFile(join(A, 'sw.js'));
  const ctx = await context();
  let fetched = false;
  await ctx.route('**/sw.js', (route) => {
    root = B;
    fetched = true;
    return route.fulfill({ body: swA, contentType: 'text/javascript' });
  });
  const page = await ctx.newPage();
  const problems = watch(page);
  await shows(page, `${LESSON}/widgets/herd`, { heading: 'La manada' });
  // A first worker that fails to install takes its registration with it.
  await until(async () => fetched && !(await page.evaluate(() => navigator.serviceWorker.getRegistration())), 'refused');
  assert.equal(await page.evaluate(() => navigator.serviceWorker.controller), null);
  assert.deepEqual(await caches(page), []);
  // The page itself is A's, whole, and works.
  assert.deepEqual(await build(page), { version: await versionOf(A), named: `${base}/${await wasmOf(A)}`, fetched: [`${base}/${await wasmOf(A)}`] });
  assert.deepEqual(problems, []);
  await ctx.close();
});

test('trunk serve\'s page (no version) registers no worker, and removes one a release build left', async () => {
  root = A;
  const ctx = await context();
  const page = await ctx.newPage();
  const problems = watch(page);
  await shows(page, `${LESSON}/widgets/herd`, { heading: 'La manada' });
  await controlled(page);
  root = DEV;
  // The worker serves the page it kept (the release build's) at once; when it
  // asks the network for that page's copy, it finds a development server's:
  // it leaves, with its caches, and takes the open page to the network's copy.
  await page.reload();
  let last;
  await until(async () => {
    try {
      last = await page.evaluate(async () => ({
        version: document.querySelector('meta[name=sensei-lab-version]')?.content ?? null,
        controlled: !!navigator.serviceWorker.controller,
        registrations: (await navigator.serviceWorker.getRegistrations()).length,
        drawn: !!document.querySelector('#widget-herd canvas[data-draws]'),
      }));
      return last.version === null && !last.controlled && last.registrations === 0 && last.drawn;
    } catch {
      return false; // the page is being navigated
    }
  }, 'on the development page, without a worker', 40_000).catch((e) => { throw new Error(`${e.message}: ${JSON.stringify(last)}`); });
  assert.deepEqual(await caches(page), []);
  // A fresh look at the dev page: no worker at all.
  const fresh = await ctx.newPage();
  watch(fresh, problems);
  await shows(fresh, `${LESSON}/widgets/herd`, { heading: 'La manada' });
  await fresh.waitForTimeout(500);
  assert.equal(await fresh.evaluate(() => navigator.serviceWorker.controller), null);
  assert.equal(await fresh.evaluate(async () => (await navigator.serviceWorker.getRegistrations()).length), 0);
  assert.deepEqual(problems, []);
  await ctx.close();
});

test('under a sub-path (/cursos/lab/): the worker\'s scope is the base, and the lab works offline there', async (t) => {
  const dir = join(repo, 'target', 'dist-sub');
  if (!existsSync(join(dir, 'sw.js'))) {
    t.skip('target/dist-sub (with its sw.js) is built by ./lab test');
    return;
  }
  const sub = await serve(dir, 0, '/cursos/lab');
  t.after(() => { sub.closeAllConnections?.(); sub.close(); });
  const at = `http://127.0.0.1:${sub.address().port}/cursos/lab`;
  const ctx = await context();
  const page = await ctx.newPage();
  const problems = watch(page);
  await page.goto(`${at}/lecciones/${SLUG}/widgets/storm`);
  await page.waitForSelector('#widget-storm canvas[data-draws]');
  assert.equal(await controlled(page), await versionOf(dir));
  assert.equal(await page.evaluate(async () => (await navigator.serviceWorker.getRegistration()).scope), `${at}/`);
  assert.equal(await page.evaluate(() => fetch('manifest.webmanifest').then((r) => r.json()).then((m) => new URL(m.start_url, document.baseURI).href)), `${at}/`);
  await ctx.setOffline(true);
  await page.goto(`${at}/lecciones/${SLUG}/widgets/herd`);
  await page.waitForSelector('#widget-herd canvas[data-draws]');
  await page.goto(`${at}/embed/${SLUG}/ejercicios/4`);
  await page.waitForSelector('#exercise-4');
  assert.deepEqual(problems, []);
  await ctx.close();
});

test('a second visit: a page seen before comes from the worker at once, its text and route as prerendered, the network\'s copy kept behind it', async () => {
  root = A;
  const ctx = await context();
  await ctx.addInitScript(() => document.addEventListener('DOMContentLoaded', () => {
    window.__arrived = { route: document.getElementById('app')?.dataset.route ?? null, text: document.getElementById('app')?.textContent.length ?? 0 };
  }));
  const page = await ctx.newPage();
  const problems = watch(page);
  await shows(page, `${LESSON}/widgets/herd`, { heading: 'La manada' });
  await controlled(page);
  // The first visit came before the worker: the worker keeps it once it takes the page over.
  const kept = (path) => page.evaluate(async (url) => !!(await (await caches.open((await caches.keys())[0])).match(url)), `${base}${path}`);
  await until(() => kept(`${LESSON}/widgets/herd`), 'the first page kept');
  // A page seen through the worker is kept from the network's copy.
  await shows(page, `${LESSON}/widgets/storm?seed=7`, { heading: 'Cada capa multiplica' });
  await until(() => kept(`${LESSON}/widgets/storm`), 'the next page kept');
  // Now the network hangs: the page still comes, at once, as it was prerendered (not the
  // home page's shell after 3 s), and works, with its state from the address.
  hanging = true;
  try {
    await page.goto(base + `${LESSON}/widgets/herd/?clients=2000`, { waitUntil: 'commit' });
    await page.waitForSelector('#app[data-ready]');
    assert.deepEqual(await page.evaluate(() => window.__arrived.route), `${LESSON}/widgets/herd`);
    assert.ok(await page.evaluate(() => window.__arrived.text) > 1000);
    await page.waitForSelector('#widget-herd canvas[data-draws]');
    assert.equal(await page.inputValue('#herd-clients'), '2000');
  } finally {
    hanging = false;
  }
  assert.deepEqual(problems, []);
  await ctx.close();
});

test('a connection that hangs: after 3 s the cached page, and for another address none of the home page\'s text', async () => {
  root = A;
  const ctx = await context();
  // What the page shows when its document is parsed: the app's root as it came.
  await ctx.addInitScript(() => document.addEventListener('DOMContentLoaded', () => {
    window.__arrived = { route: document.getElementById('app')?.dataset.route ?? null, text: document.getElementById('app')?.textContent.length ?? 0 };
  }));
  const page = await ctx.newPage();
  const problems = watch(page);
  await shows(page, `${LESSON}/widgets/herd`, { heading: 'La manada' });
  await controlled(page);
  hanging = true;
  try {
    const t0 = Date.now();
    await page.goto(base + `${LESSON}/widgets/storm`, { waitUntil: 'commit', timeout: 15_000 });
    await page.waitForSelector('#app[data-ready]', { timeout: 15_000 });
    const waited = Date.now() - t0;
    assert.ok(waited >= 2_900 && waited < 10_000, `the cached page came after ${waited} ms`);
    // The cached page is the home page's: it came without its prerendered text, and the app drew the address's page.
    assert.deepEqual(await page.evaluate(() => window.__arrived), { route: null, text: 0 });
    await page.waitForSelector('main.piece-page #widget-storm canvas[data-draws]');
    assert.match(await page.title(), /^Tormenta de reintentos/);
  } finally {
    hanging = false;
  }
  assert.deepEqual(problems, []);
  await ctx.close();
});

/** A copy of build `from` whose worker is told of Save-Data (Chromium tells a worker so by `navigator.connection.saveData`). */
async function saving(from, to) {
  await cp(from, to, { recursive: true });
  const sw = await readFile(join(to, 'sw.js'), 'utf8');
  await writeFile(join(to, 'sw.js'), sw.replace("'use strict';", "'use strict';\nObject.defineProperty(self.navigator, 'connection', { value: { saveData: true } });"));
  return Object.keys(JSON.parse(sw.match(/const BUILD = (\{.*\});/)[1]).files);
}

test('Save-Data: nothing is fetched ahead; offline covers what the learner used; an update waits for its files', async () => {
  const [SA, SB] = [join(tmp, 'save-a'), join(tmp, 'save-b')];
  const listed = await saving(A, SA);
  const listedB = await saving(B, SB);
  // A host that lets the browser keep what it fetched (as hosts do for hashed files).
  const asked = [];
  let dir = SA;
  const host = await serve(() => dir, 0, '', () => false, 'max-age=3600');
  host.on('request', (req) => asked.push(req.url));
  const at = `http://127.0.0.1:${host.address().port}`;
  const ctx = await context();
  try {
    const page = await ctx.newPage();
    const problems = watch(page);
    await page.goto(`${at}${LESSON}/widgets/herd`);
    await page.waitForSelector('#widget-herd canvas[data-draws]');
    const [vA, vB] = [await versionOf(A), await versionOf(B)];
    assert.equal(await controlled(page), vA);
    const loaded = new Set(await page.evaluate(() => performance.getEntriesByType('resource').map((e) => new URL(e.name).pathname.slice(1))));
    const kept = async (version) => page.evaluate(async (name) => {
      const cache = await caches.open(name);
      return (await cache.keys()).map((r) => new URL(r.url).pathname);
    }, `sensei-lab ${at}/ ${version}`);
    await until(async () => (await kept(vA)).includes(`${LESSON}/widgets/herd`), 'the page kept');
    const files = (await kept(vA)).map((p) => p.slice(1)).filter((p) => listed.includes(p));
    // What the page loaded is kept (its wasm among it); nothing it did not load was fetched.
    assert.ok(files.includes(await wasmOf(A)), `${files}`);
    for (const f of files) assert.ok(loaded.has(f) || asked.includes(`/${f}`), `${f} kept, not loaded by the page`);
    assert.ok(!files.includes(''), 'the home page was not fetched ahead');
    const ahead = asked.filter((u) => u === '/' || u === '/index.html' || (listed.includes(u.slice(1)) && !loaded.has(u.slice(1))));
    assert.deepEqual(ahead, [], 'asked of the network ahead of use');
    assert.ok(listed.length > files.length, 'with Save-Data, less than the whole build');
    // Offline, the page used works. Another address gets the kept page as its shell, but
    // the code of what it shows was never fetched (Save-Data): it says so, and «Reintentar»,
    // back online, brings it.
    await ctx.setOffline(true);
    await page.reload();
    await page.waitForSelector('#widget-herd canvas[data-draws]');
    await page.goto(`${at}${LESSON}/widgets/breaker`);
    await page.waitForSelector('.piece-arriving[role=alert] button');
    await ctx.setOffline(false);
    await page.click('.piece-arriving[role=alert] button');
    await page.waitForSelector('#widget-breaker canvas[data-draws]');

    // The host deploys build B. Its worker, with Save-Data, finds none of B's own files on the
    // device: it does not take over, and A, whole, stays in charge (offline too).
    dir = SB;
    asked.length = 0;
    await page.goto(`${at}${LESSON}/widgets/herd`);
    await page.waitForSelector('#widget-herd canvas[data-draws]');
    await page.evaluate(async () => (await navigator.serviceWorker.getRegistration()).update().catch(() => {}));
    await page.waitForTimeout(1500);
    assert.equal(await controller(page), vA);
    assert.ok(!asked.some((u) => listedB.includes(u.slice(1)) && u.endsWith('.wasm')), `B's wasm fetched ahead: ${asked}`);
    await ctx.setOffline(true);
    await page.reload();
    await page.waitForSelector('#widget-herd canvas[data-draws]');
    assert.equal((await build(page)).version, vA);
    await ctx.setOffline(false);
    // A page not kept comes from the network: B's, with B's files, which the browser keeps;
    // now B's worker finds them and installs, and the page says so.
    await page.goto(`${at}${LESSON}/widgets/storm`);
    await page.waitForSelector('#widget-storm canvas[data-draws]');
    assert.equal((await build(page)).version, vB);
    await until(async () => (await page.evaluate(async () => !!(await navigator.serviceWorker.getRegistration())?.waiting)) || (await controller(page)) === vB, 'B installed');
    assert.ok((await kept(vB)).includes(`/${await wasmOf(B)}`), 'B\'s wasm kept from what the page loaded');
    assert.deepEqual(problems.filter((p) => !/ERR_INTERNET_DISCONNECTED|Failed to load resource/.test(p)), []);
  } finally {
    await ctx.close();
    host.closeAllConnections?.();
    host.close();
  }
});
