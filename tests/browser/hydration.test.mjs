// Prerendered pages (`sensei-lab prerender`): every page of the build is
// hydrated, not rendered again, when opened at its own address; a query, a
// host's fallback page or saved progress still give the right page; with
// JavaScript off, the text, the figures and the links are there.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, statSync } from 'node:fs';
import { join, dirname, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startLab, stopLab, context, noScriptContext, watch, url, SLUG } from './harness.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const DIST = process.env.LAB_DIST || join(here, '..', '..', 'dist');
const LESSON = `/lecciones/${SLUG}`;

before(startLab);
after(stopLab);

/** Every prerendered page of the build, as the address that serves it. */
function addresses(dir = DIST) {
  return readdirSync(dir).sort().flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return addresses(path);
    return name === 'index.html' ? [`/${relative(DIST, dir)}`.replace(/\/$/, '') || '/'] : [];
  });
}

// Before any script: the first element of the prerendered page gets a mark
// that only the same DOM node (kept by hydration) still carries afterwards.
const MARK = () => document.addEventListener('DOMContentLoaded', () => {
  const first = document.querySelector('#app > *:not(script)') || document.querySelector('#app *');
  if (first) { first.__prerendered = true; window.__first = first; }
  window.__hadPage = !!document.querySelector('#app[data-route] main');
});

/** A fresh context's page that marks the prerendered DOM (`MARK`) and records errors. */
async function markedPage() {
  const ctx = await context();
  await ctx.addInitScript(MARK);
  const page = await ctx.newPage();
  return { ctx, page, problems: watch(page) };
}

/**
 * Opens `address` and waits until its page is awake: every piece
 * (`#app[data-ready]`), or with `near`, the pieces near the screen only (a
 * section's page is the lesson's, every piece of which wakes on the lesson's
 * own page: here what differs, its place, is what is checked).
 */
async function visit(page, address, { near = false } = {}) {
  await page.goto(url(address));
  try {
    if (near) {
      await page.waitForSelector('#app[data-start]', { timeout: 30_000 });
      // Each host in view woken (a host is `display: contents`: its piece's box is
      // its first element's, as the waking code measures it), and the table of
      // contents, the one piece a section's page shows otherwise (its section marked).
      await page.waitForFunction(() => {
        const seen = [...document.querySelectorAll('#app [data-island]')].filter((h) => {
          const r = (h.firstElementChild ?? h).getBoundingClientRect();
          return r.height > 0 && r.bottom > 0 && r.top < innerHeight;
        });
        return seen.length > 0 && seen.every((h) => h.hasAttribute('data-awake'))
          && !!document.querySelector('#app [data-island^="toc:"][data-awake]');
      }, null, { timeout: 30_000 });
    } else {
      await page.waitForSelector('#app[data-ready]', { timeout: 30_000 });
    }
  } catch (e) {
    // Say which page never answered, and how far it got.
    const state = await page.evaluate(() => ({
      readyState: document.readyState,
      start: document.getElementById('app')?.dataset.start,
      panic: !!document.getElementById('panic-panel'),
      controlled: !!navigator.serviceWorker?.controller,
    })).catch((err) => String(err));
    throw new Error(`${address} never set #app[data-ready]: ${JSON.stringify(state)}`, { cause: e });
  }
  return page.evaluate(() => ({
    hadPage: window.__hadPage,
    kept: !!(window.__first && window.__first.isConnected && window.__first.__prerendered),
    panic: !!document.getElementById('panic-panel'),
    title: document.title,
    start: document.getElementById('app').dataset.start,
  }));
}

test('every prerendered page wakes at its address (a lesson\'s as islands), without an error', async () => {
  const all = addresses();
  // The lesson, its print view, every section, widget and exercise alone and embedded.
  assert.ok(all.length > 150, `${all.length} pages`);
  const { ctx, page, problems } = await markedPage();
  for (const address of all) {
    const section = /^\/lecciones\/[^/]+\/[^/]+$/.test(address);
    const seen = await visit(page, address, { near: section });
    // A lesson's page (its text, or a section of it) and a piece's (a widget, an exercise, alone
    // or embedded; a section embedded) wake as islands (ui::islands); the print view and «Para
    // docentes» are hydrated whole.
    const start = /^\/(imprimir|docentes)\//.test(address) ? 'hydrate' : 'islands';
    assert.deepEqual(seen.hadPage && seen.kept && !seen.panic && seen.start === start, true, `${address}: ${JSON.stringify(seen)}`);
    assert.deepEqual(problems, [], address);
  }
  await ctx.close();
});

test('a query, a fallback page or another route: rendered, right, without an error', async () => {
  const { ctx, page, problems } = await markedPage();
  const cases = [
    // A widget's state in the address: its page, the lesson's, an embed.
    [`${LESSON}/widgets/herd?clients=2000`, '#widget-herd [data-figure="gave_up"]', '850'],
    [`${LESSON}?widget=herd&herd.clients=2000`, '#widget-herd [data-figure="gave_up"]', '850'],
    [`/embed/${SLUG}/widgets/herd?clients=2000`, '#widget-herd [data-figure="gave_up"]', '850'],
    // A variant, a class's version on paper.
    [`${LESSON}/ejercicios/4?exercise=4&variant=17`, '[data-exercise="4"][data-variant="17"]', null],
    [`/imprimir/${SLUG}?class=17&solutions=1`, 'main', null],
    // An address the build has no page for: the host's fallback (index.html) renders the missing page.
    ['/no-existe', 'main.not-found', null],
  ];
  for (const [address, selector, notText] of cases) {
    const seen = await visit(page, address);
    assert.equal(seen.kept, false, `${address}: rendered, not hydrated`);
    assert.equal(seen.start, 'render', address);
    assert.equal(seen.panic, false, address);
    await page.waitForSelector(selector);
    if (notText) assert.notEqual(await page.textContent(selector), notText, `${address}: the query is applied`);
    assert.deepEqual(problems, [], address);
  }
  await ctx.close();
});

test('a host that answers a missing address with 404.html: that page hydrates', async () => {
  const ctx = await context();
  await ctx.addInitScript(MARK);
  await ctx.route('**/esto-no-existe', (r) => r.fulfill({ status: 404, path: join(DIST, '404.html'), contentType: 'text/html' }));
  const page = await ctx.newPage();
  const problems = watch(page);
  const seen = await visit(page, '/esto-no-existe');
  assert.equal(seen.kept, true);
  assert.match(seen.title, /Página no encontrada/);
  assert.match(await page.textContent('main'), /No encontramos esa página/);
  // The browser's own line about the status, and nothing else.
  assert.deepEqual(problems.filter((p) => !/status of 404/.test(p)), []);
  await ctx.close();
});

test('saved progress comes in after hydration', async () => {
  const { ctx, page, problems } = await markedPage();
  await visit(page, `${LESSON}/ejercicios/2`);
  await page.fill('#exercise-2-w1', '100');
  await page.click('#exercise-2 button:text("Comprobar")');
  await page.waitForSelector('#exercise-2 .part.is-right');
  // Back another day: the page the build wrote (no student in it) is hydrated, then the answer comes back, marked.
  const seen = await visit(page, `${LESSON}/ejercicios/2`);
  assert.equal(seen.kept, true);
  await page.waitForFunction(() => document.querySelector('#exercise-2-w1').value === '100');
  assert.match(await page.textContent('#exercise-2 [data-part="w1"] .part-mark'), /✓ Bien/);
  // And the lesson's summary counts it.
  assert.equal((await visit(page, LESSON)).kept, true);
  await page.waitForFunction(() => /1 de 7 partes bien/.test(document.querySelector('[data-progress="2"]')?.textContent));
  assert.deepEqual(problems, []);
  await ctx.close();
});

test('with JavaScript off: the text, the figures at the lesson\'s values, working links', async () => {
  const off = await noScriptContext();
  const page = await off.newPage();
  await page.goto(url('/'));
  assert.match(await page.textContent('main'), /Sin jitter, los 1,000 llegan en la misma ventana/);
  assert.ok(await page.isVisible('.noscript-note'));
  // The herd's figures, as the lesson's Python prints them: 150 served and 850 giving up without jitter.
  assert.equal(await page.textContent('#widget-herd [data-figure="served"]'), '150');
  assert.equal(await page.textContent('#widget-herd [data-figure="gave_up"]'), '850');
  // A link of the contents opens that section's own page, scrolled to it; a widget's page has its title.
  await Promise.all([page.waitForURL(`**${LESSON}/la-manada#la-manada`), page.click(`nav a[href="${LESSON}/la-manada#la-manada"]`)]);
  assert.match(await page.title(), /^El problema de la manada · /);
  const top = await page.evaluate(() => document.getElementById('la-manada').getBoundingClientRect().top);
  assert.ok(top >= -1 && top < 150, `the section's heading at ${top} px`);
  await page.goto(url(`${LESSON}/widgets/breaker`));
  assert.match(await page.title(), /^Circuit breaker · /);
  assert.ok((await page.textContent('#widget-breaker')).length > 200);
  await off.close();
});
