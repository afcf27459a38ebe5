// A page carries only what it shows (issue 43): the release build's browser
// module is split per piece (scripts/split-build.sh), and a page fetches the
// runtime and the modules of the pieces it shows. Each fetched module is named
// by the split points that need it (the build's loader lists them), so a
// failure says which piece's code came where it should not.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startLab, stopLab, open, context, watch, url, SLUG, WIDGETS } from './harness.mjs';
import { buildOf, pointOf } from '../../scripts/sizes.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const DIST = process.env.LAB_DIST || join(here, '..', '..', 'dist');
const LESSON = `/lecciones/${SLUG}`;
const build = buildOf(DIST, readFileSync(join(DIST, 'index.html'), 'utf8'));

/** The split points that need each module of the build. */
const needs = new Map();
for (const [piece, files] of Object.entries(build.pieces)) {
  for (const f of files) needs.set(f, [...(needs.get(f) ?? []), piece]);
}

/** Room for every fetch in the page's resource timing (the lesson's are about 170; Chromium keeps 250). */
const ROOM = () => performance.setResourceTimingBufferSize(5000);

/** The build's modules and scripts `page` fetched, by name. */
const fetched = (page) => page.evaluate(() => performance.getEntriesByType('resource')
  .map((e) => e.name.split('/').pop()).filter((f) => /^sensei-lab-.*\.(wasm|js)$/.test(f)));

before(startLab);
after(stopLab);

test('the build is split: a runtime every page loads, and each piece\'s modules', () => {
  assert.equal(build.runtime.length, 3, `the glue, the runtime, the loader: ${build.runtime}`);
  for (const w of WIDGETS) assert.ok(build.pieces[w]?.length > 0, `${w} is a split point`);
  for (const p of ['exercises', 'page', 'app']) assert.ok(build.pieces[p]?.length > 0, `${p} is a split point`);
});

test('the herd\'s page fetches the runtime and the herd\'s code, no other widget\'s, nor the app', async () => {
  const { page, problems } = await open(`${LESSON}/widgets/herd`, undefined, ROOM);
  // Used: a control moved, the run played a moment, its task opened.
  await page.fill('#herd-clients', '2000');
  await page.press('#herd-clients', 'Tab');
  await page.waitForFunction(() => document.querySelector('#widget-herd [data-figure="gave_up"]')?.textContent !== '850');
  await page.click('#herd-play');
  await page.waitForTimeout(300);
  await page.click('#herd-play');
  await page.click('#widget-herd .task-start');
  const got = await fetched(page);
  const foreign = got.filter((f) => !build.runtime.includes(f) && !build.pieces.herd.includes(f))
    .map((f) => `${f} (needed by ${(needs.get(f) ?? ['nothing of this build']).join(', ')})`);
  assert.deepEqual(foreign, [], 'modules of other pieces fetched by the herd\'s page');
  for (const f of [...build.runtime, ...build.pieces.herd]) assert.ok(got.includes(f), `${f}: the herd's, not fetched`);
  assert.deepEqual(problems, []);
  await page.close();
});

test('an embed fetches its widget\'s code only; the lesson read through, every piece\'s but the app\'s', async () => {
  const { page: embed, problems } = await open(`/embed/${SLUG}/widgets/storm`, undefined, ROOM);
  const got = await fetched(embed);
  const foreign = got.filter((f) => !build.runtime.includes(f) && !build.pieces.storm.includes(f));
  assert.deepEqual(foreign.map((f) => `${f} (${needs.get(f)})`), [], 'modules of other pieces in the storm\'s embed');
  for (const f of [...build.runtime, ...build.pieces.storm]) assert.ok(got.includes(f), `${f}: the storm's, not fetched`);
  await embed.close();
  // The lesson's page wakes every piece (`#app[data-ready]`): each widget's modules, the exercises', the page's light pieces.
  const { page } = await open(LESSON, undefined, ROOM);
  const all = new Set(await fetched(page));
  for (const piece of [...WIDGETS, 'exercises', 'page']) {
    const missing = build.pieces[piece].filter((f) => !all.has(f));
    assert.deepEqual(missing, [], `${piece}'s modules, every piece awake`);
  }
  const app = build.pieces.app.filter((f) => all.has(f) && needs.get(f).length === 1);
  assert.deepEqual(app, [], 'the app\'s own module: a lesson woken as islands needs none');
  assert.deepEqual(problems, []);
  await page.close();
});

test('the lesson\'s pieces off screen fetch their code one at a time, after the pieces near the screen', async () => {
  const ctx = await context();
  // A slow network: each module 150 ms late (on loopback a fetch would end before the next began anyway).
  await ctx.route(/\.wasm$/, async (route) => {
    await new Promise((ok) => setTimeout(ok, 150));
    await route.continue();
  });
  const page = await ctx.newPage();
  await page.addInitScript(ROOM);
  const problems = watch(page);
  await page.goto(url(LESSON));
  await page.waitForSelector('#app[data-ready]', { timeout: 60_000 });
  const { hosts, fetches } = await page.evaluate(() => ({
    hosts: [...document.querySelectorAll('#app [data-island]')].map((h) => ({
      key: h.dataset.island,
      screens: (h.firstElementChild ?? h).getBoundingClientRect().top / innerHeight,
    })),
    fetches: performance.getEntriesByType('resource')
      .map((e) => ({ file: e.name.split('/').pop(), start: e.startTime, end: e.responseEnd })),
  }));
  // Near: within the screen below the first (the waking code's margin); far: beyond it (a piece at
  // the edge, either).
  // Each host's split point (the light pieces' code, `page`, comes with the first of them, near the top).
  const points = (which) => new Set(hosts.filter(which).map((h) => pointOf(h.key)).filter((p) => p !== 'page'));
  const near = points((h) => h.screens < 1.8);
  const edge = points((h) => h.screens >= 1.8 && h.screens <= 2.2);
  const far = [...points((h) => h.screens > 2.2)].filter((p) => !near.has(p) && !edge.has(p));
  assert.ok(near.size >= 1 && far.length >= 10, `pieces near the screen: ${[...near]}; far: ${far}`);
  const own = (point) => {
    const got = fetches.filter((f) => f.file === build.pieces[point][0]);
    assert.equal(got.length, 1, `${point}'s own module fetched once`);
    return { point, ...got[0] };
  };
  const nearDone = Math.max(...[...near].map((p) => own(p).end));
  const order = far.map(own).sort((a, b) => a.start - b.start);
  assert.ok(order[0].start >= nearDone, `${order[0].point}'s code asked for at ${order[0].start} ms, before the pieces near the screen had theirs (${nearDone} ms)`);
  for (let i = 1; i < order.length; i++) {
    assert.ok(order[i].start >= order[i - 1].end,
      `${order[i].point}'s code asked for at ${order[i].start.toFixed(0)} ms, while ${order[i - 1].point}'s was on its way (until ${order[i - 1].end.toFixed(0)} ms)`);
  }
  assert.deepEqual(problems, []);
  await ctx.close();
});
