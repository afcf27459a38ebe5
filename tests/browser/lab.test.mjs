// End-to-end tests of the built lab (dist/) in headless Chromium, driven by
// Playwright (playwright-core, Debian's /usr/bin/chromium). Any console error
// or uncaught exception (a Rust panic included) fails the test that saw it.
// Run: node --test tests/browser/   (after `trunk build --release`)
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startLab, stopLab, open, url } from './harness.mjs';

const LESSON = '/lecciones/timeouts-reintentos-idempotencia';
before(startLab);
after(stopLab);

async function figures(page) {
  return page.$$eval('#widget-herd table.figures tbody tr', (rows) =>
    Object.fromEntries(rows.map((r) => [r.querySelector('th').textContent, [...r.querySelectorAll('td')].map((td) => td.textContent)])));
}

async function draws(page) {
  return Number(await page.getAttribute('#widget-herd canvas', 'data-draws'));
}

test('the lesson opens with its text, headings and table of contents', async () => {
  const { page, problems } = await open('/');
  assert.equal(await page.textContent('h1.lesson-title'), 'Timeouts, reintentos e idempotencia');
  assert.match(await page.title(), /Timeouts, reintentos e idempotencia/);
  const toc = await page.$$eval('nav.toc li a', (as) => as.map((a) => a.textContent));
  assert.ok(toc.includes('El problema de la manada'));
  assert.ok(toc.includes('Preguntas de repaso'));
  assert.equal(await page.locator('section.level-2').count(), 22); // the 21 parts of NOTES.md, and the rebuilt hedging section
  // Solutions stay closed until asked for, and only after a check.
  const show = page.locator('#exercise-2 button:text("Ver la solución paso a paso")');
  assert.equal(await show.isDisabled(), true);
  assert.equal(await page.locator('#exercise-2 [data-figure="solution"]').count(), 0);
  await page.click('#exercise-2 button:text("Comprobar")');
  await show.click();
  assert.match(await page.textContent('#exercise-2 [data-figure="solution"]'), /2,500 ms/);
  // Review answers stay folded too.
  assert.equal(await page.locator('#pregunta-1 details').getAttribute('open'), null);
  assert.deepEqual(problems, []);
  await page.close();
});

test('the two programs show the output the core computes, to the character', async () => {
  const { page, problems } = await open(`${LESSON}/la-manada`);
  const herd = await page.textContent('pre.output[data-output="herd"]');
  assert.equal(herd,
    'sin jitter: 150 atendidos, 850 se rinden, pico de 1000 en 10 ms, 2850 intentos\n' +
    'con jitter: 1000 atendidos, 0 se rinden, pico de 61 en 10 ms, 1061 intentos\n');
  const idem = await page.textContent('pre.output[data-output="idempotency"]');
  assert.equal(idem,
    "sin llave: publicación #2 · guardadas: ['Tenis naranjas', 'Tenis naranjas']\n" +
    "con llave: publicación #1 · guardadas: ['Tenis naranjas']\n");
  assert.match(await page.textContent('figure.program[data-program="manada.py"] code'), /def simular\(jitter, clientes=1000/);
  assert.deepEqual(problems, []);
  await page.close();
});

test('the herd widget re-runs and redraws on every change', async () => {
  const { page, problems } = await open(`${LESSON}/la-manada`);
  await page.waitForFunction(() => Number(document.querySelector('#widget-herd canvas')?.dataset.draws) >= 1);
  // At the lesson's values the widget shows the lesson's figures.
  assert.deepEqual(await figures(page), {
    'atendidos': ['150', '1,000'],
    'se rinden': ['850', '0'],
    'pico por ventana de 10 ms': ['1,000', '61'],
    'intentos': ['2,850', '1,061'],
  });
  const before = await page.$eval('#widget-herd canvas', (c) => c.toDataURL());
  const drawn = await draws(page);
  const title = () => page.textContent('#widget-herd .widget-title');
  assert.match(await title(), /La manada: mil clientes que fallan juntos/);

  // 2,000 clients (expected figures from tests/python/herd_reference.py).
  await page.fill('#herd-clients', '2000');
  await page.press('#herd-clients', 'Enter');
  await page.waitForFunction((n) => Number(document.querySelector('#widget-herd canvas').dataset.draws) > n, drawn);
  assert.deepEqual(await figures(page), {
    'atendidos': ['150', '1,991'],
    'se rinden': ['1,850', '9'],
    'pico por ventana de 10 ms': ['2,000', '142'],
    'intentos': ['5,850', '3,293'],
  });
  assert.notEqual(await page.$eval('#widget-herd canvas', (c) => c.toDataURL()), before, 'the chart changed');
  assert.match(await title(), /La manada: 2,000 clientes que fallan juntos/);
  // The state is in the URL (written just after the redraw).
  await page.waitForURL(/\?widget=herd&herd\.clients=2000/);

  // The logarithmic axis redraws the same data.
  const beforeLog = await draws(page);
  await page.locator('#widget-herd label.scale input').check();
  await page.waitForFunction((n) => Number(document.querySelector('#widget-herd canvas').dataset.draws) > n, beforeLog);
  assert.deepEqual((await figures(page))['intentos'], ['5,850', '3,293']);

  // Choosing "sin jitter" leaves a single column of figures.
  await page.locator('#widget-herd label.segment', { hasText: 'sin jitter' }).click();
  await page.waitForFunction(() => document.querySelectorAll('#widget-herd table.figures thead th').length === 2);
  assert.deepEqual((await figures(page))['intentos'], ['5,850']);

  // A slider drives the same run.
  const slider = page.locator('#widget-herd .control:has(#herd-retries) input[type=range]');
  await slider.focus();
  await page.keyboard.press('ArrowRight');
  // Changes are applied in a task of their own (coalesced), so wait for it.
  await page.waitForFunction(() => document.querySelector('#herd-retries').value === '4');
  assert.equal(await page.inputValue('#herd-retries'), '4');

  // Back to the lesson's values.
  await page.click('#widget-herd button.reset');
  assert.deepEqual((await figures(page))['pico por ventana de 10 ms'], ['1,000', '61']);
  assert.deepEqual(problems, []);
  await page.close();
});

test('a link restores the state, and out-of-range values are clamped with a note', async () => {
  const { page, problems } = await open(`${LESSON}/la-manada?widget=herd&clients=5000000&jitter=none&capacity=20`);
  await page.waitForSelector('#widget-herd .notes');
  assert.match(await page.textContent('#widget-herd .notes'),
    /Clientes: 5,000,000 está fuera del rango permitido \(1 a 100,000\); se usa 100,000\./);
  assert.equal(await page.inputValue('#herd-clients'), '100000');
  assert.equal(await page.inputValue('#herd-capacity'), '20');
  assert.equal(await page.locator('#widget-herd table.figures thead th').count(), 2);
  assert.deepEqual(problems, []);
  await page.close();
});

test('every section has its URL, and an unknown one says so', async () => {
  const { page, problems } = await open(`${LESSON}/presupuesto`);
  await page.waitForTimeout(200);
  const top = await page.$eval('#presupuesto', (el) => el.getBoundingClientRect().top);
  assert.ok(top >= 0 && top < 200, `the section is at the top of the view (top = ${top})`);
  assert.match(await page.getAttribute('nav.toc li.active a', 'href'), /\/presupuesto#presupuesto$/);
  await page.goto(url(`${LESSON}/no-existe`));
  await page.waitForSelector('main.not-found');
  assert.deepEqual(problems, []);
  await page.close();
});

test('usable at 390 px wide: nothing sticks out sideways', async () => {
  const { page, problems } = await open(`${LESSON}/la-manada`, { width: 390, height: 844 });
  await page.waitForFunction(() => Number(document.querySelector('#widget-herd canvas')?.dataset.draws) >= 1);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 0, `page is ${overflow}px wider than the screen`);
  const canvasWidth = await page.$eval('#widget-herd canvas', (c) => c.getBoundingClientRect().width);
  assert.ok(canvasWidth > 250 && canvasWidth <= 390, `chart width ${canvasWidth}`);
  assert.deepEqual(problems, []);
  await page.close();
});
