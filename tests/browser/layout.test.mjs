// Issue #23, parts 2 and 3: a widget in a learner's hands. On a phone (390 px
// at 3×), a small phone (320 px at 2×) and in an 800 px iframe, moving any
// control of any widget leaves its chart (or, for a widget without one, its
// verdict) in view, not covered, and the control itself in view; the page
// never scrolls sideways; every control is a 44 px touch target; charts are
// drawn at the screen's pixel ratio; a logarithmic slider moves one round
// value per arrow key, said in words.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startLab, stopLab, device, blank, hostPage, url, SLUG, WIDGETS } from './harness.mjs';

before(startLab);
after(stopLab);

const PHONES = [{ width: 390, height: 844, dpr: 3 }, { width: 320, height: 568, dpr: 2 }];

/** The widget's charts drawn (each canvas at least once), or none to draw. */
async function drawn(scope) {
  await scope.waitForFunction(() => [...document.querySelectorAll('figure.widget canvas')]
    .every((c) => Number(c.dataset.draws) >= 1), null, { timeout: 20_000 });
}

/** What must stay in view: the widget's first chart, or its verdict. */
const PINNED = 'figure.widget .chart-pin, figure.widget:not(:has(.chart-pin)) .results > .verdict';

for (const size of PHONES) {
  test(`${size.width} px: every widget's chart stays in view of each control it moves`, async () => {
    const report = [];
    for (const id of WIDGETS) {
      const { page, problems } = await device(`/lecciones/${SLUG}/widgets/${id}`, size);
      await drawn(page);
      // A phone widens its layout viewport to fit what is too wide: the
      // screen's width is the measure, not the window's.
      const wide = await page.evaluate(() => Math.max(window.innerWidth, document.documentElement.scrollWidth));
      if (wide > size.width) report.push(`${id}: the page is ${wide} px wide on a ${size.width} px screen`);
      // Each canvas's backing store is its CSS size at the screen's ratio.
      for (const c of await page.locator('figure.widget canvas').all()) {
        const [w, cw, h, ch] = await c.evaluate((el) => [el.width, el.clientWidth, el.height, el.clientHeight]);
        if (w !== Math.round(cw * size.dpr) || h !== Math.round(ch * size.dpr)) {
          report.push(`${id}: canvas ${w}×${h} for ${cw}×${ch} CSS px at ${size.dpr}×`);
        }
      }
      const controls = page.locator('figure.widget :is(input, select):visible:not([disabled]):not([type=checkbox]):not([type=radio]), figure.widget .segment:visible');
      const n = await controls.count();
      if (n === 0) report.push(`${id}: no control found`);
      for (let i = 0; i < n; i++) {
        const control = controls.nth(i);
        // The learner scrolls down to the control (it ends at the bottom of the screen).
        await control.evaluate((el) => el.scrollIntoView({ block: 'end', behavior: 'instant' }));
        await page.waitForTimeout(30);
        const pin = await page.locator(PINNED).first().boundingBox();
        const box = await control.boundingBox();
        const name = await control.evaluate((el) => el.id || el.getAttribute('aria-label') || el.textContent.trim());
        // A control inside the pinned element (a player's, under its chart) is in view with it.
        const inside = await control.evaluate((el, sel) => !!el.closest(sel), PINNED);
        const below = inside || pin.y + pin.height <= box.y + 1;
        // A task's field moves nothing (its answer is checked on «Comprobar»): only its size counts.
        const task = await control.evaluate((el) => !!el.closest('section.task'));
        if (!task && (pin.y < -1 || !below || box.y + box.height > size.height + 1)) {
          report.push(`${id} «${name}»: chart ${Math.round(pin.y)}–${Math.round(pin.y + pin.height)}, control ${Math.round(box.y)}–${Math.round(box.y + box.height)} of ${size.height}`);
        }
        if (box.height < 43.5) report.push(`${id} «${name}»: a touch target ${box.height.toFixed(1)} px tall`);
      }
      if (problems.length) report.push(`${id}: ${problems.join('; ')}`);
      await page.context().close();
    }
    assert.deepEqual(report, []);
  });
}

test('moving a slider redraws its chart while both stay in view', async () => {
  const { page, problems } = await device(`/lecciones/${SLUG}/widgets/inflight`, PHONES[0]);
  await drawn(page);
  // A parameter's slider (not the player's time slider).
  const slider = page.locator('#widget-inflight .control input[type=range]').last();
  await slider.evaluate((el) => el.scrollIntoView({ block: 'end', behavior: 'instant' }));
  const canvas = page.locator('#widget-inflight canvas');
  const draws = Number(await canvas.getAttribute('data-draws'));
  await slider.focus();
  await page.keyboard.press('ArrowRight');
  await page.waitForFunction((d) => Number(document.querySelector('#widget-inflight canvas').dataset.draws) > d, draws);
  const c = await canvas.boundingBox();
  const s = await slider.boundingBox();
  assert.ok(c.y >= 0 && c.y + c.height <= s.y, `chart ${c.y}–${c.y + c.height}, slider at ${s.y}`);
  assert.ok(s.y + s.height <= 844);
  assert.deepEqual(problems, []);
  await page.context().close();
});

test('a logarithmic slider moves one round value per arrow key, said in words', async () => {
  const { page, problems } = await device(`/lecciones/${SLUG}/widgets/herd`, { width: 1280, height: 900 });
  await drawn(page);
  const slider = (key) => page.locator(`#widget-herd .control:has(#herd-${key}) input[type=range]`);
  const number = (key) => page.locator(`#herd-${key}`);
  for (const [key, start, steps] of [
    ['clients', '1000', ['1100', '1200', '1300', '1400', '1500', '1600']],
    ['base-ms', '100', ['110', '120', '130', '140', '150', '160']],
  ]) {
    assert.equal(await number(key).inputValue(), start);
    await slider(key).focus();
    for (const want of steps) {
      await page.keyboard.press('ArrowRight');
      await page.waitForFunction(([k, v]) => document.getElementById(`herd-${k}`).value === v, [key, want]);
    }
    await page.keyboard.press('ArrowLeft');
    await page.waitForFunction(([k, v]) => document.getElementById(`herd-${k}`).value === v, [key, steps.at(-2)]);
  }
  assert.equal(await slider('clients').getAttribute('aria-valuetext'), '1,500');
  assert.equal(await slider('base-ms').getAttribute('aria-valuetext'), '150 ms');
  assert.deepEqual(problems, []);
  await page.context().close();
});

test('charts follow the pixel ratio and the width of their box', async () => {
  for (const dpr of [1, 2, 3]) {
    const { page } = await device(`/lecciones/${SLUG}/widgets/breaker`, { width: 1280, height: 900, dpr });
    await drawn(page);
    const [w, cw] = await page.locator('#widget-breaker canvas').evaluate((c) => [c.width, c.clientWidth]);
    assert.equal(w, Math.round(cw * dpr), `at ${dpr}×`);
    // The window narrows: the chart is drawn again at its new width.
    await page.setViewportSize({ width: 700, height: 900 });
    await page.waitForFunction((dpr) => {
      const c = document.querySelector('#widget-breaker canvas');
      return c.width === Math.round(c.clientWidth * dpr) && c.clientWidth < 640;
    }, dpr);
    await page.context().close();
  }
});

test('in an 800 px iframe each widget puts its controls beside its chart', async () => {
  const report = [];
  for (const id of WIDGETS) {
    const host = await hostPage(`<h1>Mi curso</h1>
      <iframe id="f" src="${url(`/embed/${SLUG}/widgets/${id}`)}" style="border:0;width:800px" height="200" title="Sensei Lab"></iframe>
      <script src="${url('/sensei-embed.js')}"></script>`);
    const { page } = await blank({ width: 1280, height: 900 });
    await page.goto(`http://127.0.0.1:${host.address().port}/`);
    const frame = await (await page.waitForSelector('#f')).contentFrame();
    await frame.waitForSelector('#app[data-ready]');
    await drawn(frame);
    // The first control starts beside the pinned element, not under it.
    const pin = await frame.locator(PINNED).first().boundingBox();
    const first = await frame.locator('figure.widget .controls').first().boundingBox();
    const stacked = await frame.locator('figure.widget.stacked').count();
    // A widget of a wide table (the store's steps) keeps its controls above
    // its verdict, both in one screen of the host page.
    const ok = stacked ? pin.y + pin.height - first.y <= 900
      : first.y < pin.y + pin.height && first.x + first.width <= pin.x + 1;
    if (!ok) report.push(`${id}: controls at (${first.x}, ${first.y}), chart at (${pin.x}, ${pin.y})`);
    await page.close();
    host.closeAllConnections?.();
    host.close();
  }
  assert.deepEqual(report, []);
});
