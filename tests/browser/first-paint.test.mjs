// The chart at first paint (issue 32): every chart is in the prerendered
// page, drawn by the build (src/chart/svg.rs) in the canvas's box; with
// JavaScript off it is there; once awake the canvas draws the same data with
// the same texts (axes, ticks, legend); nothing shifts; what the learner does
// before a piece is awake takes effect when it wakes (static/sensei-wake.js);
// a lesson's page wakes as islands, each piece on its own.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { startLab, stopLab, context, browserContext, noScriptContext, watch, url, SLUG, WIDGETS } from './harness.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const DIST = process.env.LAB_DIST || join(here, '..', '..', 'dist');
const LESSON = `/lecciones/${SLUG}`;
// The prerendered wide picture's width (src/chart/mod.rs, `boxes::WIDE`).
const WIDE = 561;

before(startLab);
after(stopLab);

/** The `data-sum` of every chart of a prerendered page, in its order, read from the build's file. */
function prerenderedSums(path) {
  const html = readFileSync(join(DIST, path.replace(/^\//, ''), 'index.html'), 'utf8');
  return [...html.matchAll(/<div data-h="\d+" data-sum="([0-9a-f]+)" class="chart"/g)].map((m) => m[1]);
}

test('with JavaScript off every chart of a page is there, in its box, narrow and wide', async () => {
  for (const [width, which] of [[390, 'narrow'], [1280, 'wide']]) {
    const ctx = await noScriptContext({ width, height: 900 });
    const page = await ctx.newPage();
    for (const path of [LESSON, ...WIDGETS.map((w) => `${LESSON}/widgets/${w}`)]) {
      await page.goto(url(path));
      const charts = await page.evaluate(() => [...document.querySelectorAll('.chart')].map((c) => {
        c.scrollIntoView();
        c.closest('figure')?.style.setProperty('content-visibility', 'visible');
        const shown = [...c.querySelectorAll('svg.pre')].filter((s) => getComputedStyle(s).display !== 'none');
        const box = c.querySelector('canvas').getBoundingClientRect();
        const svg = shown[0]?.getBoundingClientRect();
        return {
          shown: shown.map((s) => s.getAttribute('class')),
          texts: shown[0] ? shown[0].querySelectorAll('text').length : 0,
          marks: shown[0] ? shown[0].querySelectorAll('path, rect, circle').length : 0,
          same: !!svg && Math.abs(svg.width - box.width) < 1 && Math.abs(svg.height - box.height) < 1,
          after: getComputedStyle(c, '::after').content,
        };
      }));
      assert.ok(charts.length > 0 || !path.endsWith('/widgets/herd'), `${path}: no chart`);
      charts.forEach((c, i) => {
        assert.deepEqual(c.shown, [`pre ${which}`], `${path} chart ${i} at ${width} px: ${JSON.stringify(c)}`);
        assert.ok(c.texts >= 3 && c.marks >= 3, `${path} chart ${i}: an empty picture ${JSON.stringify(c)}`);
        assert.ok(c.same, `${path} chart ${i}: the picture is not in the canvas's box`);
        assert.ok(c.after === 'none' || c.after === 'normal', `${path} chart ${i}: still says ${c.after}`);
      });
    }
    await ctx.close();
  }
});

test('once awake, each chart shows the data and the texts the prerendered page drew', async () => {
  const ctx = await browserContext({ viewport: { width: 1280, height: 900 }, bypassCSP: true });
  await ctx.addInitScript((wide) => {
    // The texts of each canvas's latest drawing (each drawing begins by painting the whole canvas white).
    const fill = CanvasRenderingContext2D.prototype.fillText;
    CanvasRenderingContext2D.prototype.fillText = function (text, ...rest) {
      (this.canvas.__texts ??= []).push(String(text));
      return fill.call(this, text, ...rest);
    };
    const rect = CanvasRenderingContext2D.prototype.fillRect;
    CanvasRenderingContext2D.prototype.fillRect = function (x, y, ...rest) {
      if (x === 0 && y === 0) this.canvas.__texts = [];
      return rect.call(this, x, y, ...rest);
    };
    // Every chart at exactly the prerendered wide picture's width, so that the canvas lays out the same picture.
    document.addEventListener('DOMContentLoaded', () => {
      const style = document.createElement('style');
      style.textContent = `.chart { width: ${wide}px !important; }`;
      document.head.append(style);
    });
  }, WIDE);
  const page = await ctx.newPage();
  const problems = watch(page);
  for (const path of [LESSON, ...WIDGETS.map((w) => `${LESSON}/widgets/${w}`)]) {
    const sums = prerenderedSums(path);
    await page.goto(url(path));
    await page.waitForSelector('#app[data-ready]');
    const charts = await page.evaluate(async () => {
      const all = [...document.querySelectorAll('.chart')];
      for (const c of all) {
        c.closest('figure')?.style.setProperty('content-visibility', 'visible');
        c.scrollIntoView();
      }
      // Each canvas's latest drawing, once every canvas has drawn.
      for (let i = 0; i < 100 && !all.every((c) => c.querySelector('canvas').dataset.draws); i++) {
        await new Promise((r) => setTimeout(r, 50));
      }
      await new Promise((r) => requestAnimationFrame(() => setTimeout(r, 50)));
      return all.map((c) => {
        const canvas = c.querySelector('canvas');
        const svg = c.querySelector('svg.pre.wide');
        return {
          sum: c.dataset.sum,
          drawn: !!canvas.dataset.draws,
          hidden: !svg || getComputedStyle(svg).visibility === 'hidden',
          canvas: [...new Set(canvas.__texts ?? [])].sort(),
          svg: svg ? [...new Set([...svg.querySelectorAll('text')].map((t) => t.textContent))].sort() : null,
        };
      });
    });
    assert.equal(charts.length, sums.length, `${path}: charts`);
    charts.forEach((c, i) => {
      assert.equal(c.sum, sums[i], `${path} chart ${i}: the app's data is not the prerendered page's`);
      assert.ok(c.drawn && c.hidden, `${path} chart ${i}: the canvas did not take the picture's place`);
      assert.ok(c.svg, `${path} chart ${i}: the prerendered picture left before the chart changed`);
      assert.deepEqual(c.canvas, c.svg, `${path} chart ${i}: the canvas and the prerendered picture say different things`);
    });
  }
  assert.deepEqual(problems, []);
  await ctx.close();
});

test('nothing shifts from the first paint to the live chart, on a phone and a laptop', async () => {
  for (const viewport of [{ width: 390, height: 844 }, { width: 1280, height: 900 }]) {
    for (const path of [LESSON, `${LESSON}/widgets/herd`, `/embed/${SLUG}/widgets/storm`]) {
      const ctx = await context(viewport);
      await ctx.addInitScript(() => {
        window.__cls = 0;
        new PerformanceObserver((l) => { for (const e of l.getEntries()) if (!e.hadRecentInput) window.__cls += e.value; })
          .observe({ type: 'layout-shift', buffered: true });
      });
      const page = await ctx.newPage();
      await page.goto(url(path));
      await page.waitForSelector('#app[data-ready]');
      await page.waitForFunction(() => [...document.querySelectorAll('.chart canvas')].some((c) => c.dataset.draws));
      await page.waitForTimeout(300);
      const cls = await page.evaluate(() => window.__cls);
      assert.ok(cls < 0.005, `${path} at ${viewport.width} px: layout shift ${cls}`);
      await ctx.close();
    }
  }
});

/** A page whose wasm is held back until `release()`. */
async function heldBack(path, viewport = { width: 1280, height: 900 }) {
  const ctx = await context(viewport);
  let release;
  const gate = new Promise((r) => { release = r; });
  await ctx.route(/\.wasm$/, async (route) => { await gate; await route.continue(); });
  const page = await ctx.newPage();
  const problems = watch(page);
  await page.goto(url(path));
  await page.waitForSelector('main');
  return { ctx, page, problems, release };
}

test('on a lesson, what the learner does before waking is applied when the piece wakes', async () => {
  const { ctx, page, problems, release } = await heldBack(LESSON);
  assert.equal(await page.evaluate(() => document.getElementById('app').dataset.start ?? null), null);
  // A number typed and a choice made in the herd.
  const herd = page.locator('#widget-herd');
  await herd.scrollIntoViewIfNeeded();
  await herd.locator('input[type=number]#herd-clients').fill('2000');
  await herd.locator('input[type=number]#herd-clients').dispatchEvent('change');
  await herd.locator('label.segment:has(input[value=equal])').click();
  // An answer typed and «Comprobar» pressed in exercise 2.
  const ex = page.locator('#exercise-2');
  await ex.scrollIntoViewIfNeeded();
  await ex.locator('input[type=text]').first().fill('100');
  await ex.locator('button[type=submit]').click();
  // The pieces say they are waking, and that the change is coming.
  const says = await page.evaluate(() => getComputedStyle(document.querySelector('#widget-herd .widget-title'), '::after').content);
  assert.match(says, /Tu cambio se aplica/);
  assert.equal(await page.evaluate(() => location.search), '', 'nothing applied before waking');
  release();
  await page.waitForSelector('#app[data-ready]');
  await page.waitForFunction(() => Number(document.getElementById('app').dataset.replayed) >= 4, null, { timeout: 15_000 });
  await page.waitForFunction(() => location.search.includes('herd.clients=2000') && location.search.includes('herd.jitter=equal'));
  assert.equal(await page.evaluate(() => document.getElementById('app').dataset.start), 'islands');
  assert.equal(await herd.locator('input[type=number]#herd-clients').inputValue(), '2000');
  // The widget ran with them: its readout and its chart's data (the jitter's name in its key).
  assert.equal(await herd.locator('output[for=herd-clients]').textContent(), '2,000');
  assert.match(await herd.locator('canvas').getAttribute('aria-label'), /equal jitter/);
  // The answer was checked: its part has a mark.
  await page.waitForSelector('#exercise-2 .mark');
  assert.deepEqual(problems, []);
  await ctx.close();
});

test('on a widget\'s page, a slider moved before waking re-runs the chart when it wakes', async () => {
  const { ctx, page, problems, release } = await heldBack(`${LESSON}/widgets/herd`);
  const slider = page.locator('#widget-herd input[type=range]').first();
  const before = await slider.inputValue();
  await slider.fill(String(Number(before) + 3));
  release();
  await page.waitForSelector('#app[data-ready]');
  await page.waitForFunction(() => location.search.includes('clients='), null, { timeout: 15_000 });
  const draws = await page.evaluate(() => Number(document.querySelector('#widget-herd canvas').dataset.draws));
  assert.ok(draws >= 1);
  assert.notEqual(await slider.inputValue(), before);
  assert.deepEqual(problems, []);
  await ctx.close();
});

test('a lesson wakes as islands: every live piece on its own, and links go on without reloading', async () => {
  const ctx = await context({ width: 1280, height: 900 });
  const page = await ctx.newPage();
  const problems = watch(page);
  await page.goto(url(LESSON));
  await page.waitForSelector('#app[data-ready]');
  const seen = await page.evaluate(() => ({
    start: document.getElementById('app').dataset.start,
    hosts: document.querySelectorAll('[data-island]').length,
    awake: document.querySelectorAll('[data-island][data-awake]').length,
    widgets: document.querySelectorAll('[data-island^="widget:"]').length,
  }));
  assert.equal(seen.start, 'islands');
  assert.equal(seen.awake, seen.hosts);
  assert.equal(seen.widgets, WIDGETS.length);
  // A section of the same lesson: the page moves there, nothing reloads.
  await page.evaluate(() => { window.__same = true; });
  await page.locator('nav.toc a').nth(3).click();
  await page.waitForFunction(() => /\/lecciones\/[^/]+\/[^/]+$/.test(location.pathname));
  assert.equal(await page.evaluate(() => window.__same), true);
  // A concept's card, from a term in the text: the cards' section, at that card, kept in the address.
  const term = page.locator('#la-manada button.term[data-concept="jitter"]').first();
  await term.scrollIntoViewIfNeeded();
  await term.click();
  await page.locator('#la-manada .term-card a').first().click();
  await page.waitForFunction(() => location.pathname.endsWith('/conceptos') && location.hash === '#concepto-jitter');
  await page.waitForFunction(() => Math.abs(document.getElementById('concepto-jitter').getBoundingClientRect().top) < 200);
  assert.equal(await page.evaluate(() => window.__same), true);
  // Another page of the lab: the app renders it, still without a reload.
  await page.evaluate(() => {
    const a = document.createElement('a');
    a.href = document.querySelector('base').getAttribute('href') + 'lecciones/timeouts-reintentos-idempotencia/widgets/herd';
    a.id = 'go';
    a.textContent = 'ir';
    document.querySelector('main').prepend(a);
  });
  await page.click('#go');
  await page.waitForSelector('main.piece-page #widget-herd');
  assert.equal(await page.evaluate(() => window.__same), true);
  assert.equal(await page.evaluate(() => document.getElementById('app').dataset.start), 'render');
  await page.goBack();
  await page.waitForSelector('main.lesson #widget-storm');
  assert.deepEqual(problems, []);
  await ctx.close();
});
