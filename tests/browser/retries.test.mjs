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
  // Two controls changed one right after the other: both count, whenever the
  // widget redraws (a change is applied to the state as it is when it lands).
  await page.fill('#layers-layers', '2');
  await page.press('#layers-layers', 'Enter');
  await page.fill('#layers-retries', '2');
  await page.press('#layers-retries', 'Enter');
  await page.waitForFunction(() => /= 9 intentos por request: 4,500 por segundo/.test(document.querySelector('#widget-layers [data-figure="bottom"]').textContent));
  // And one after the redraw of the other: the same.
  await page.fill('#layers-layers', '3');
  await page.press('#layers-layers', 'Enter');
  await page.waitForFunction(() => /= 27 intentos por request: 13,500 por segundo/.test(document.querySelector('#widget-layers [data-figure="bottom"]').textContent));
  await page.fill('#layers-retries', '3');
  await page.press('#layers-retries', 'Enter');
  await page.waitForFunction(() => /= 64 intentos por request: 32,000 por segundo/.test(document.querySelector('#widget-layers [data-figure="bottom"]').textContent));
  // Back at the lesson's values, the address says nothing of this widget.
  await page.waitForFunction(() => !/layers\.(layers|retries)=/.test(location.href));
  assert.deepEqual(problems, []);
  await page.close();
});

test('retry budget: 100 wanted against 50 allowed', async () => {
  const { page, problems } = await open(`${LESSON}/presupuesto`);
  await drawn(page, 'budget');
  assert.match(await page.textContent('#widget-budget [data-figure="wanted"]'), /mandaría 100 reintentos por segundo; el presupuesto permite 0\.1 × 500 = 50\./);
  // Under the chart, the chosen share itself, off the curve's 2 % grid: 0.25 + 0.25² = 31 %.
  assert.match(await page.textContent('#widget-budget [data-figure="here"]'), /^Con 20 % de fallas: carga extra 24 % sin presupuesto, 10 % con él/);
  await page.fill('#budget-failing-pct', '25');
  await page.press('#budget-failing-pct', 'Enter');
  await page.waitForFunction(() => /^Con 25 % de fallas: carga extra 31 % sin presupuesto/.test(document.querySelector('#widget-budget [data-figure="here"]').textContent));
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
  // It opens on Ana's path and a timeout: C01's rule, nobody retries there.
  await page.waitForFunction(() => /^No: en el camino interactivo nadie reintenta/.test(document.querySelector('#widget-failure [data-figure="decision"]')?.textContent));
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
  // Its state is a declaration like every other widget's: the same keys on the command line, a date quoted.
  await page.waitForFunction(() => /--retry-after 'Wed, 02 Dec 2026 12:00:05 GMT'/.test(document.querySelector('#widget-failure .cli code')?.textContent));
  assert.equal(await page.textContent('#widget-failure .cli code'),
    "sensei-lab failure --failure 429 --caller batch --retry-after 'Wed, 02 Dec 2026 12:00:05 GMT'");
  // A time left by hand, then another caller: the new caller's own again.
  await page.fill('#failure-left-ms', '1500');
  await page.press('#failure-left-ms', 'Enter');
  await page.waitForFunction(() => /--left-ms 1500/.test(document.querySelector('#widget-failure .cli code')?.textContent));
  await page.selectOption('#failure-caller', 'interactive');
  await page.waitForFunction(() => document.querySelector('#failure-left-ms').value === '300');
  await page.click('#widget-failure button.reset');
  await page.waitForFunction(() => /^No: en el camino interactivo nadie reintenta/.test(document.querySelector('#widget-failure [data-figure="decision"]')?.textContent));
  assert.equal(await page.inputValue('#failure-retry-after'), '');
  assert.deepEqual(problems, []);
  await page.close();
});

test('circuit breaker: exercise 7', async () => {
  const { page, problems } = await open(`${LESSON}/circuit-breaker`);
  await page.waitForFunction(() => Number(document.querySelector('#widget-breaker canvas')?.dataset.draws) >= 1);
  assert.equal(await page.textContent('#widget-breaker td[data-figure="opened"]'), '12:00:05.08');
  assert.equal(await page.textContent('#widget-breaker td[data-figure="fallbacks"]'), '15,000');
  const steps = await page.$$eval('#widget-breaker [data-figure="transitions"] li', (lis) => lis.map((l) => l.textContent));
  assert.deepEqual(steps.slice(0, 3), ['12:00:05.08: abierto', '12:00:35.08: semiabierto', '12:00:35.23: abierto']);
  // When Triton comes back at 12:00:20, the probes at 12:00:35 succeed and it closes.
  await page.locator('#widget-breaker .control:has(#breaker-recover-s) input[type=checkbox]').check();
  await page.fill('#breaker-recover-s', '20');
  await page.press('#breaker-recover-s', 'Enter');
  await page.waitForFunction(() => [...document.querySelectorAll('#widget-breaker [data-figure="transitions"] li')].some((l) => /cerrado/.test(l.textContent)));
  assert.deepEqual(problems, []);
  await page.close();
});

test('retry storm: every layer retrying stays overloaded; one layer with a budget recovers', async () => {
  const { page, problems } = await open(`${LESSON}/cada-capa-multiplica`);
  await drawn(page, 'storm');
  const verdict = () => page.textContent('#widget-storm [data-figure="verdict"]');
  assert.match(await verdict(), /^No se recupera: .*falla metaestable/);
  // The chart's key is text under the canvas.
  assert.match(await page.textContent('#widget-storm .chart-key'), /capacidad: 75 \/s/);
  await page.check('#widget-storm input[name="storm-retry-in"][value="bottom"]');
  await page.locator('#widget-storm .control:has(#storm-budget-pct) input[type=checkbox]').check();
  await page.fill('#storm-budget-pct', '10');
  await page.press('#storm-budget-pct', 'Enter');
  await page.waitForFunction(() => /^Se recupera/.test(document.querySelector('#widget-storm [data-figure="verdict"]').textContent));
  await page.waitForURL(/widget=storm&storm\.retry-in=bottom&storm\.budget-pct=10/);
  // A breaker alone also gets it out.
  await page.click('#widget-storm button.reset:text("Volver a los valores de la lección")');
  await page.waitForFunction(() => /^No se recupera/.test(document.querySelector('#widget-storm [data-figure="verdict"]').textContent));
  await page.check('#widget-storm input[name="storm-breaker"][value="on"]');
  await page.waitForFunction(() => /^Se recupera/.test(document.querySelector('#widget-storm [data-figure="verdict"]').textContent));
  assert.match(await page.textContent('#widget-storm .chart-key'), /plan B del breaker/);
  await page.click('#widget-storm button:text("Buscar el punto de quiebre")');
  assert.match(await page.textContent('#widget-storm [data-figure="tipping"]'), /Punto de quiebre: con un disparador de [\d.]+ s o más|no hay punto de quiebre/);
  assert.deepEqual(problems, []);
  await page.close();
});

test('idempotency store: the lesson program, exercise 9, and the learner going on', async () => {
  const { page, problems } = await open(`${LESSON}/llave-de-idempotencia`);
  const performed = () => page.textContent('#widget-store [data-figure="performed"]');
  assert.match(await performed(), /se hizo 2 veces/);
  assert.match(await page.textContent('#widget-store table tbody tr:last-child'), /200 · publicación #2/);
  await page.check('#widget-store input[name="store-scenario"][value="with-key"]');
  await page.waitForFunction(() => /una sola vez/.test(document.querySelector('#widget-store [data-figure="performed"]').textContent));
  assert.match(await page.textContent('#widget-store table tbody tr:last-child'), /200 · publicación #1/);
  // Exercise 9 (b): a retry while the first attempt still runs gets a conflict, or waits.
  await page.check('#widget-store input[name="store-scenario"][value="in-progress"]');
  await page.waitForFunction(() => /409 · en curso/.test(document.querySelector('#widget-store table').textContent));
  await page.check('#widget-store input[name="store-in-progress"][value="wait"]');
  await page.waitForFunction(() => /recibe la respuesta del intento 1/.test(document.querySelector('#widget-store table').textContent));
  // (c) the same key with another amount: an error.
  await page.check('#widget-store input[name="store-scenario"][value="other-amount"]');
  await page.waitForFunction(() => /422/.test(document.querySelector('#widget-store table').textContent));
  // The learner goes on: a new key for the same refund is another refund.
  await page.click('#widget-store button:text("otro intento, llave nueva")');
  await page.click('#widget-store button:text("avanzar 5 s")');
  await page.waitForFunction(() => /se hizo 2 veces/.test(document.querySelector('#widget-store [data-figure="performed"]').textContent));
  await page.click('#widget-store button:text("deshacer")');
  await page.click('#widget-store button:text("deshacer")');
  await page.waitForFunction(() => /una sola vez/.test(document.querySelector('#widget-store [data-figure="performed"]').textContent));
  assert.deepEqual(problems, []);
  await page.close();
});

test('degradation: the fallbacks counted by reason, the alert, and the silence', async () => {
  const { page, problems } = await open(`${LESSON}/degradacion`);
  await drawn(page, 'degradation');
  // Minute 10: (12,000 + 60 + 300 + 4 × 510) / 150,000 = 9.6 % of fallbacks over 5 min > 5 %.
  assert.match(await page.textContent('#widget-degradation [data-figure="verdict"]'), /^Alerta en el minuto 11/);
  await page.check('#widget-degradation input[name="degradation-metric"][value="off"]');
  await page.waitForSelector('#widget-degradation [data-figure="dashboard"]');
  assert.match(await page.textContent('#widget-degradation [data-figure="dashboard"]'), /100 %/);
  assert.match(await page.textContent('#widget-degradation [data-figure="verdict"]'), /^Nadie se entera/);
  assert.deepEqual(problems, []);
  await page.close();
});

test('fail-open or fail-closed, and the methods table', async () => {
  const { page, problems } = await open(`${LESSON}/abierto-o-cerrado`);
  const lesson = () => page.textContent('#widget-failmode [data-figure="lesson"]');
  assert.match(await lesson(), /^Igual que en la lección\. Para C06/);
  await page.check('#widget-failmode input[name="failmode-case"][value="payment"]');
  await page.waitForFunction(() => /^Lo contrario de la lección/.test(document.querySelector('#widget-failmode [data-figure="lesson"]').textContent));
  await page.check('#widget-failmode input[name="failmode-mode"][value="closed"]');
  await page.waitForFunction(() => /^Igual que en la lección\. Para un pago/.test(document.querySelector('#widget-failmode [data-figure="lesson"]').textContent));
  await page.close();
  const m = await open(`${LESSON}/metodos-http`);
  const rows = await m.page.$$eval('table[data-table="methods"] tbody tr', (trs) => trs.map((tr) => [...tr.children].map((td) => td.textContent)));
  assert.deepEqual(rows, [['GET', 'sí', 'sí'], ['HEAD', 'sí', 'sí'], ['OPTIONS', 'sí', 'sí'], ['PUT', 'no', 'sí'],
    ['DELETE', 'no', 'sí'], ['POST', 'no', 'no'], ['PATCH', 'no', 'no']]);
  assert.deepEqual([...problems, ...m.problems], []);
  await m.page.close();
});

test('¿reintentarías?: its state is in the URL, and a link restores it', async () => {
  const { page, problems } = await open(`${LESSON}/retry-after`);
  await page.click('#widget-failure button.preset:text("(c) 429, batch")');
  await page.waitForFunction(() => /widget=failure/.test(location.search));
  const query = await page.evaluate(() => location.search);
  assert.match(query, /failure=429/);
  assert.match(query, /caller=batch/);
  assert.match(query, /retry-after=2/);
  const decision = await page.textContent('#widget-failure [data-figure="decision"]');
  const again = await open(`${LESSON}/retry-after${query}`);
  assert.equal(await again.page.textContent('#widget-failure [data-figure="decision"]'), decision);
  assert.equal(await again.page.inputValue('#failure-retry-after'), '2');
  assert.deepEqual([...problems, ...again.problems], []);
  await page.close();
  await again.page.close();
});

test('a storm cut by its work budget says so, stops its chart there and concludes nothing', async () => {
  const { page, problems } = await open(`${LESSON}/widgets/storm?rps=1000&capacity=1500&duration-s=120`);
  await drawn(page, 'storm');
  const verdict = await page.textContent('#widget-storm [data-figure="verdict"]');
  assert.match(verdict, /^La corrida se cortó a los [\d.]+ s por el tope de trabajo: con estos datos no se puede decir si se recupera\.$/);
  assert.doesNotMatch(verdict, /metaestable|se recupera:/);
  assert.match(await page.textContent('#widget-storm [data-figure="run-notes"]'), /El tope de trabajo de esta simulación es de 650,000 intentos al servidor, y esta tormenta lo alcanzó a los [\d.]+ s de 120 s/);
  await page.click('#widget-storm button:text("Buscar el punto de quiebre")');
  assert.match(await page.textContent('#widget-storm [data-figure="tipping"]'), /Punto de quiebre: no se puede calcular/);
  assert.deepEqual(problems, []);
  await page.close();
});
