// The timeouts and capacity widgets in headless Chromium: each renders,
// shows the lesson's numbers at the lesson's values, and reacts to a control.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startLab, stopLab, open } from './harness.mjs';

const LESSON = '/lecciones/timeouts-reintentos-idempotencia';
before(startLab);
after(stopLab);

const figure = (page, widget, field) => page.textContent(`#widget-${widget} td[data-figure="${field}"]`);
const drawn = (page, widget) =>
  page.waitForFunction((w) => Number(document.querySelector(`#widget-${w} canvas`)?.dataset.draws) >= 1, widget);

test('tres relojes: a byte every 9 s; only the total timeout bounds the call', async () => {
  const { page, problems } = await open(`${LESSON}/tres-relojes`);
  await drawn(page, 'clocks');
  const verdict = page.locator('#widget-clocks [data-outcome]');
  assert.equal(await verdict.getAttribute('data-outcome'), 'total_timeout');
  assert.match(await verdict.textContent(), /timeout total a los 30 s/);
  // Without the total timeout, no clock fires: the wait has no end.
  await page.locator('#widget-clocks .control:has(#clocks-total-timeout-ms) input[type=checkbox]').uncheck();
  await page.waitForFunction(() => document.querySelector('#widget-clocks [data-outcome]').dataset.outcome === 'never_ends');
  assert.equal(await verdict.textContent(), 'Ningún reloj se dispara y la espera no tiene fin.');
  // A silence longer than the read timeout trips it.
  await page.fill('#clocks-gap-ms', '11000');
  await page.press('#clocks-gap-ms', 'Enter');
  await page.waitForFunction(() => document.querySelector('#widget-clocks [data-outcome]').dataset.outcome === 'read_timeout');
  assert.deepEqual(problems, []);
  await page.close();
});

test('lo que cuesta esperar de más: the table and the widget', async () => {
  const { page, problems } = await open(`${LESSON}/lo-que-cuesta-esperar`);
  const rows = await page.$$eval('table[data-table="inflight"] tbody tr', (trs) =>
    trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent)));
  assert.deepEqual(rows, [
    ['150 ms', '19', '16', '≈ 16 %', 'hasta 190 MB'],
    ['5 s', '504', '16', '≈ 97 %', 'hasta ≈ 5 GB'],
  ]);
  await drawn(page, 'inflight');
  assert.equal(await figure(page, 'inflight', 'service_inflight'), '75');
  assert.equal(await figure(page, 'inflight', 'pod_demand'), '19 contra 16');
  assert.equal(await figure(page, 'inflight', 'rejected'), '≈ 16 %');
  // Exercise 6: 400 ms.
  await page.fill('#inflight-timeout-ms', '400');
  await page.press('#inflight-timeout-ms', 'Enter');
  await page.waitForFunction(() => document.querySelector('#widget-inflight td[data-figure="pod_demand"]').textContent === '44 contra 16');
  assert.equal(await figure(page, 'inflight', 'rejected'), '≈ 64 %');
  assert.equal(await figure(page, 'inflight', 'served_per_s'), '≈ 36 por segundo');
  assert.match(await page.textContent('#widget-inflight .verdict'), /nadie la espera/);
  // Without the cap and with 5 s: 2,500 in the service, the photos do not fit in 1 GiB.
  await page.fill('#inflight-timeout-ms', '5000');
  await page.press('#inflight-timeout-ms', 'Enter');
  await page.locator('#widget-inflight .control:has(#inflight-max-inflight) input[type=checkbox]').uncheck();
  await page.waitForFunction(() => document.querySelector('#widget-inflight td[data-figure="service_inflight"]').textContent === '2,500');
  assert.match(await page.textContent('#widget-inflight .verdict'), /5,040 MB\) no caben en un pod de 1 GiB/);
  assert.deepEqual(problems, []);
  await page.close();
});

test('la cadena de C01: exercise 5, and the zombie that cancelling removes', async () => {
  const { page, problems } = await open(`${LESSON}/trabajo-zombi`);
  await drawn(page, 'chain');
  assert.equal(await figure(page, 'chain', 'call_timeout'), 'min(150, 180) = 150 ms');
  await page.fill('#chain-prep-ms', '160');
  await page.press('#chain-prep-ms', 'Enter');
  await page.waitForFunction(() => document.querySelector('#widget-chain td[data-figure="call_timeout"]').textContent === 'min(150, 90) = 90 ms');
  // Triton's queue is slow: the gateway gives up first; without cancelling, zombie work.
  await page.fill('#chain-queue-ms', '500');
  await page.press('#chain-queue-ms', 'Enter');
  await page.locator('#widget-chain fieldset:has-text("Cancelar hacia abajo") label.segment', { hasText: 'no' }).click();
  await page.waitForFunction(() => document.querySelector('#widget-chain td[data-figure="zombie"]').textContent !== 'ninguno');
  assert.equal(await figure(page, 'chain', 'first'), 'el gateway');
  assert.equal(await figure(page, 'chain', 'zombie'), '10 ms');
  await page.locator('#widget-chain fieldset:has-text("Cancelar hacia abajo") label.segment', { hasText: 'sí' }).click();
  await page.waitForFunction(() => document.querySelector('#widget-chain td[data-figure="zombie"]').textContent === 'ninguno');
  assert.deepEqual(problems, []);
  await page.close();
});

test('a link restores one widget and leaves the others at the lesson values', async () => {
  const { page, problems } = await open(`${LESSON}/trabajo-zombi?widget=chain&prep-ms=160`);
  await drawn(page, 'chain');
  assert.equal(await figure(page, 'chain', 'call_timeout'), 'min(150, 90) = 90 ms');
  assert.equal(await page.inputValue('#herd-clients'), '1000');
  assert.equal(await figure(page, 'inflight', 'pod_demand'), '19 contra 16');
  assert.deepEqual(problems, []);
  await page.close();
});

test('hedging: exercise 8 at the lesson values, and without hedging', async () => {
  const { page, problems } = await open(`${LESSON}/hedging`);
  await drawn(page, 'hedging');
  const cells = (field) => page.$$eval(`#widget-hedging td[data-figure="${field}"]`, (tds) => tds.map((t) => t.textContent));
  assert.deepEqual((await cells('p99'))[0], '800 ms');
  const p99 = Number((await cells('p99'))[1].replace(/[^0-9]/g, ''));
  assert.ok(Math.abs(p99 - 90) <= 5, `p99 with hedging: ${p99}`);
  assert.match(await page.textContent('#widget-hedging [data-figure="gpu"]'), /0\.9 × 1\.05 ≈ 94\.5 %/);
  assert.match(await page.textContent('#widget-hedging ul.arithmetic'), /0\.03 × 0\.03 = 0\.09 %/);
  assert.match(await page.textContent('#widget-hedging .widget-title'), /una segunda copia en el p95/);
  await page.locator('#widget-hedging .control:has(#hedging-hedge-pct) input[type=checkbox]').uncheck();
  await page.waitForFunction(() => document.querySelectorAll('#widget-hedging td[data-figure="p99"]').length === 1);
  // The frame says what is chosen: no second copy.
  assert.match(await page.textContent('#widget-hedging .widget-title'), /sin segunda copia/);
  assert.deepEqual(problems, []);
  await page.close();
});

test('load shedding: the unbounded queue ends late, shedding keeps goodput', async () => {
  const { page, problems } = await open(`${LESSON}/load-shedding`);
  await drawn(page, 'shedding');
  const cells = (field) => page.$$eval(`#widget-shedding td[data-figure="${field}"]`, (tds) => tds.map((t) => t.textContent));
  const [unbounded, shed] = await cells('last_goodput');
  assert.equal(unbounded, '0 /s');
  assert.ok(Number(shed.replace(/[^0-9]/g, '')) >= 90, shed);
  assert.equal((await cells('late'))[1], '0');
  // Below capacity nobody needs shedding.
  await page.fill('#shedding-rps', '60');
  await page.press('#shedding-rps', 'Enter');
  await page.waitForFunction(() => /no hace falta soltar nada/.test(document.querySelector('#widget-shedding .verdict').textContent));
  assert.deepEqual(problems, []);
  await page.close();
});

test('a deadline spent before the call: the gateway calls nobody and says so', async () => {
  const { page, problems } = await open(`${LESSON}/widgets/chain?prep-ms=260`);
  await drawn(page, 'chain');
  assert.match(await figure(page, 'chain', 'call_timeout'), /^ninguna llamada: recibir y preparar la foto tomó 260 ms, 10 ms más del deadline de 250 ms/);
  assert.equal(await page.locator('#widget-chain .verdict.bad[role="alert"]').count(), 0);
  assert.equal(await figure(page, 'chain', 'zombie'), 'ninguno');
  assert.deepEqual(problems, []);
  await page.close();
});
