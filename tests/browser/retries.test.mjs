// The retry calculators in headless Chromium.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startLab, stopLab, open } from './harness.mjs';

const LESSON = '/lecciones/timeouts-reintentos-idempotencia';
before(startLab);
after(stopLab);

const drawn = (page, widget) =>
  page.waitForFunction((w) => Number(document.querySelector(`#widget-${w} canvas`)?.dataset.draws) >= 1, widget);

test('backoff calculator: exercise 2, and without the cap', async () => {
  const { page, problems } = await open(`${LESSON}/duplicar-la-espera`);
  await drawn(page, 'backoff');
  const maxes = await page.$$eval('#widget-backoff td[data-figure="max"]', (tds) => tds.map((t) => t.firstChild.textContent));
  assert.deepEqual(maxes, ['100 ms', '200 ms', '400 ms', '800 ms', '1,000 ms']);
  assert.equal(await page.textContent('#widget-backoff td[data-figure="total_max"]'), '2,500 ms');
  assert.equal(await page.textContent('#widget-backoff td[data-figure="total_mean"]'), '1,250 ms');
  await page.locator('#widget-backoff .control:has(#backoff-cap-ms) input[type=checkbox]').uncheck();
  await page.waitForFunction(() => document.querySelector('#widget-backoff td[data-figure="total_max"]').textContent === '3,100 ms');
  assert.deepEqual(problems, []);
  await page.close();
});

test('each layer multiplies: the table, exercise 4, one layer only', async () => {
  const { page, problems } = await open(`${LESSON}/cada-capa-multiplica`);
  const table = await page.$$eval('table[data-table="layers"] tbody td:last-child', (tds) => tds.map((t) => t.textContent));
  assert.deepEqual(table, ['1', '4 = 4¹', '16 = 4²', '64 = 4³']);
  await drawn(page, 'layers');
  assert.match(await page.textContent('#widget-layers [data-figure="bottom"]'), /= 64 intentos por request: 32,000 por segundo/);
  await page.fill('#layers-layers', '2');
  await page.press('#layers-layers', 'Enter');
  await page.fill('#layers-retries', '2');
  await page.press('#layers-retries', 'Enter');
  await page.waitForFunction(() => /= 9 intentos por request: 4,500 por segundo/.test(document.querySelector('#widget-layers [data-figure="bottom"]').textContent));
  assert.deepEqual(problems, []);
  await page.close();
});

test('retry budget: 100 wanted against 50 allowed', async () => {
  const { page, problems } = await open(`${LESSON}/presupuesto`);
  await drawn(page, 'budget');
  assert.match(await page.textContent('#widget-budget [data-figure="wanted"]'), /mandaría 100 reintentos por segundo; el presupuesto permite 0\.1 × 500 = 50\./);
  assert.deepEqual(problems, []);
  await page.close();
});

test('what each failure says: the rebuilt table', async () => {
  const { page, problems } = await open(`${LESSON}/que-dice-cada-falla`);
  const rows = await page.$$eval('table[data-table="failures"] tbody tr', (trs) =>
    trs.map((tr) => [tr.children[0].textContent, tr.children[2].className]));
  assert.equal(rows.length, 13);
  assert.deepEqual(rows[0], ['Conexión rechazada', 'advice yes']);
  assert.deepEqual(rows.find((r) => r[0].startsWith('422')), ['422 Unprocessable Content', 'advice no']);
  assert.deepEqual(rows.find((r) => r[0] === 'Timeout'), ['Timeout', 'advice careful']);
  assert.deepEqual(problems, []);
  await page.close();
});

test('¿reintentarías?: exercise 1, and a malformed Retry-After', async () => {
  const { page, problems } = await open(`${LESSON}/retry-after`);
  const decision = () => page.textContent('#widget-failure [data-figure="decision"]');
  const expect = [
    ['(a) conexión rechazada', /^Sí, mejor contra otra réplica/],
    ['(b) un 422', /^No:/],
    ['(c) 429, batch', /^Sí, después de al menos 2 s/],
    ['(d) 429, camino de Ana', /^No: esperar 2 s no cabe en los 300 ms/],
    ['(e) un 413', /^No: la request es demasiado grande/],
  ];
  for (const [preset, want] of expect) {
    await page.locator('#widget-failure button.preset', { hasText: preset }).click();
    await page.waitForFunction((src) => new RegExp(src).test(document.querySelector('#widget-failure [data-figure="decision"]').textContent), want.source);
    assert.match(await decision(), want);
  }
  await page.locator('#widget-failure button.preset', { hasText: '(c) 429, batch' }).click();
  await page.fill('#failure-retry-after', 'pronto');
  await page.waitForFunction(() => /se ignora/.test(document.querySelector('#widget-failure [data-figure="decision"]').textContent));
  await page.fill('#failure-retry-after', 'Wed, 02 Dec 2026 12:00:05 GMT');
  await page.waitForFunction(() => /al menos 5 s/.test(document.querySelector('#widget-failure [data-figure="decision"]').textContent));
  assert.deepEqual(problems, []);
  await page.close();
});

test('circuit breaker: exercise 7', async () => {
  const { page, problems } = await open(`${LESSON}/circuit-breaker`);
  await page.waitForFunction(() => Number(document.querySelector('#widget-breaker canvas')?.dataset.draws) >= 1);
  assert.equal(await page.textContent('#widget-breaker td[data-figure="opened"]'), '12:00:05');
  assert.equal(await page.textContent('#widget-breaker td[data-figure="fallbacks"]'), '15,000');
  const steps = await page.$$eval('#widget-breaker [data-figure="transitions"] li', (lis) => lis.map((l) => l.textContent));
  assert.deepEqual(steps.slice(0, 3), ['12:00:05: abierto', '12:00:35: semiabierto', '12:00:35: abierto']);
  // When Triton comes back at 12:00:20, the probes at 12:00:35 succeed and it closes.
  await page.locator('#widget-breaker .control:has(#breaker-recover-s) input[type=checkbox]').check();
  await page.fill('#breaker-recover-s', '20');
  await page.press('#breaker-recover-s', 'Enter');
  await page.waitForFunction(() => [...document.querySelectorAll('#widget-breaker [data-figure="transitions"] li')].some((l) => /cerrado/.test(l.textContent)));
  assert.deepEqual(problems, []);
  await page.close();
});
