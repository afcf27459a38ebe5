// The exercises answered in the page, in headless Chromium.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startLab, stopLab, open, url } from './harness.mjs';

const LESSON = '/lecciones/timeouts-reintentos-idempotencia';
before(startLab);
after(stopLab);

const markOf = (page, n, part) => page.textContent(`#exercise-${n} [data-part="${part}"] .part-mark`);

test('exercise 2: marked part by part, the solution after checking, kept after a reload', async () => {
  const { page, problems } = await open(`${LESSON}/ejercicio-2`);
  const solution = page.locator('#exercise-2 button:text("Ver la solución paso a paso")');
  assert.equal(await solution.isDisabled(), true, 'pencil first: no solution before checking');
  const answers = { w1: '100', w2: '200 ms', w3: '0.4 s', w4: '800', w5: '', max: '3,100', mean: 'mucho' };
  for (const [part, text] of Object.entries(answers)) await page.fill(`#exercise-2-${part}`, text);
  await page.click('#exercise-2 button:text("Comprobar")');
  await page.waitForSelector('#exercise-2 [data-figure="summary"]');
  assert.equal(await page.textContent('#exercise-2 [data-figure="summary"]'), '4 de 7 bien; 1 sin respuesta.');
  assert.match(await markOf(page, 2, 'w3'), /✓ Bien/);
  assert.match(await markOf(page, 2, 'w5'), /Sin respuesta/);
  assert.match(await markOf(page, 2, 'max'), /✗ No\. Olvidaste el tope/);
  assert.match(await markOf(page, 2, 'mean'), /^No entendí «mucho»; se esperaba un número de milisegundos/);
  await solution.click();
  assert.match(await page.textContent('#exercise-2 [data-figure="solution"]'), /Máximo total: 100 \+ 200 \+ 400 \+ 800 \+ 1,000 = 2,500 ms\./);
  // The progress summary heard about it.
  await page.waitForFunction(() => /4 de 7 partes bien/.test(document.querySelector('[data-progress="2"]')?.textContent));
  await page.reload();
  // Awake (its code fetched, the saved answers read), not only prerendered.
  await page.waitForSelector('[data-island="exercise:2"][data-awake]');
  assert.equal(await page.inputValue('#exercise-2-w3'), '0.4 s');
  assert.match(await markOf(page, 2, 'w3'), /✓ Bien/);
  assert.equal(await markOf(page, 2, 'max'), '');
  assert.match(await page.textContent('[data-progress="2"]'), /4 de 7 partes bien/);
  assert.deepEqual(problems, []);
  await page.close();
});

test('exercise 6: «≈ 36» is right, Little upside down is named', async () => {
  const { page, problems } = await open(`${LESSON}/ejercicio-6`);
  await page.fill('#exercise-6-demand', '227');
  await page.fill('#exercise-6-served', '≈ 36');
  await page.fill('#exercise-6-rejected', '64%');
  await page.check('#exercise-6 input[name="exercise-6-caller"][value="c"]');
  await page.click('#exercise-6 button:text("Comprobar")');
  await page.waitForSelector('#exercise-6 [data-figure="summary"]');
  assert.match(await markOf(page, 6, 'demand'), /al revés/);
  assert.match(await markOf(page, 6, 'served'), /✓ Bien/);
  assert.match(await markOf(page, 6, 'caller'), /✓ Bien/);
  assert.deepEqual(problems, []);
  await page.close();
});

test('another version: other numbers, in the URL, and a link reproduces it', async () => {
  const { page, problems } = await open(`${LESSON}/ejercicio-4`);
  const lesson = await page.textContent('#exercise-4 [data-figure="statement"]');
  await page.click('#exercise-4 button:text("Otra versión")');
  await page.waitForFunction(() => document.querySelector('#exercise-4').dataset.variant !== '0');
  const variant = await page.getAttribute('#exercise-4', 'data-variant');
  assert.match(page.url(), new RegExp(`exercise=4&variant=${variant}$`));
  const statement = await page.textContent('#exercise-4 [data-figure="statement"]');
  assert.notEqual(statement, lesson);
  const again = await open(`${LESSON}/ejercicio-4?exercise=4&variant=${variant}`);
  assert.equal(await again.page.textContent('#exercise-4 [data-figure="statement"]'), statement);
  await again.page.click('#exercise-4 button:text("Volver a los números de la lección")');
  assert.equal(await again.page.textContent('#exercise-4 [data-figure="statement"]'), lesson);
  assert.deepEqual([...problems, ...again.problems], []);
  await page.close();
  await again.page.close();
});

test('corrupt stored progress is set aside with a notice', async () => {
  const { page, problems } = await open(`${LESSON}/ejercicios`);
  await page.evaluate(() => localStorage.setItem('sensei-lab.progress', '{esto no es json'));
  await page.reload();
  await page.waitForSelector('#app[data-ready]');
  assert.match(await page.textContent('.progress-summary'), /no se pudo leer\. Lo apartamos/);
  assert.equal(await page.evaluate(() => localStorage.getItem('sensei-lab.progress.apartado')), '{esto no es json');
  assert.deepEqual(problems, []);
  await page.close();
});

test('review questions: «lo sabía» is kept; concept cards and the terms that open them', async () => {
  const { page, problems } = await open(`${LESSON}/pregunta-3`);
  await page.click('#pregunta-3 summary:text("Ver respuesta")');
  await page.click('[data-review="3"] button:text("Lo sabía")');
  assert.equal(await page.getAttribute('[data-review="3"] button:text("Lo sabía")', 'aria-pressed'), 'true');
  await page.reload();
  // Kept: once its piece is awake (it reads the saved answer when it wakes).
  await page.click('#pregunta-3 summary:text("Ver respuesta")');
  await page.waitForSelector('[data-review="3"] button[aria-pressed="true"]:text("Lo sabía")');
  await page.close();

  const cards = await open(`${LESSON}/conceptos`);
  assert.equal(await cards.page.locator('.concept-card').count(), 18);
  assert.match(await cards.page.textContent('#concepto-presupuesto-de-reintentos'), /≈ 10 %/);
  await cards.page.close();

  const text = await open(`${LESSON}/backoff-y-jitter`);
  const term = text.page.locator('#la-manada button.term[data-concept="jitter"]').first();
  await term.click();
  assert.equal(await term.getAttribute('aria-expanded'), 'true');
  assert.match(await text.page.textContent('#la-manada .term-card'), /^Jitter: Azar en la espera/);
  assert.deepEqual([...problems, ...cards.problems, ...text.problems], []);
  await text.page.close();
});

test('a browser that refuses storage still works, and says it cannot save', async () => {
  const refuse = () => {
    Object.defineProperty(window, 'localStorage', { get() { throw new DOMException('blocked', 'SecurityError'); } });
  };
  const { page, problems } = await open(`${LESSON}/ejercicio-4`, undefined, refuse);
  await page.waitForSelector('#exercise-4');
  await page.fill('#exercise-4-a1', '9');
  await page.click('#exercise-4 button:text("Comprobar")');
  assert.match(await page.textContent('#exercise-4 [data-part="a1"] .part-mark'), /✓ Bien/);
  assert.match(await page.textContent('#exercise-4'), /no deja guardar/);
  assert.match(await page.textContent('.progress-summary'), /no deja guardar/);
  assert.deepEqual(problems, []);
  await page.close();
});

test('answers read as typed: powers, thousands, a % field, a thousands dot, echoed «Leí: …»', async () => {
  const { page, problems } = await open(`${LESSON}/ejercicios`);
  const fillAll = async (n, answers) => {
    for (const [part, text] of Object.entries(answers)) await page.fill(`#exercise-${n}-${part}`, text);
  };
  const check = async (n) => {
    await page.click(`#exercise-${n} button:text("Comprobar")`);
    await page.waitForSelector(`#exercise-${n} [data-figure="summary"]`);
  };
  // Exercise 4: (1 + 2)² = 9 and 2⁴ = 16 attempts, typed with ^ and **; thousands per second with k and mil.
  await fillAll(4, { a1: '3^2', a2: '4.5k', b1: '2**4', b2: '8 mil por segundo' });
  // Before checking, each field says what it read.
  assert.equal(await page.textContent('#exercise-4 [data-part="a2"] .part-read'), 'Leí: 4,500 por segundo');
  await check(4);
  assert.equal(await page.textContent('#exercise-4 [data-figure="summary"]'), '4 de 4 bien.');
  assert.equal(await markOf(page, 4, 'a1'), 'Leí: 9✓ Bien');
  assert.equal(await markOf(page, 4, 'b1'), 'Leí: 16✓ Bien');
  assert.equal(await markOf(page, 4, 'a2'), 'Leí: 4,500 por segundo✓ Bien');
  assert.equal(await markOf(page, 4, 'b2'), 'Leí: 8,000 por segundo✓ Bien');
  // Exercise 7: 15 mil requests right; 2.500 read as 2.5, and the hint asks.
  await fillAll(7, { a: '12:00:05', b: '2.500', c: '15 mil' });
  await check(7);
  assert.equal(await markOf(page, 7, 'a'), 'Leí: 12:00:05✓ Bien');
  assert.equal(await markOf(page, 7, 'b'), 'Leí: 2.5✗ No. ¿Quisiste escribir 2,500? Aquí el punto separa decimales.');
  assert.equal(await markOf(page, 7, 'c'), 'Leí: 15,000✓ Bien');
  await page.fill('#exercise-7-c', '15k');
  assert.equal(await page.textContent('#exercise-7 [data-part="c"] .part-read'), 'Leí: 15,000', 'an edited part reads again');
  // Exercise 8: a % field says so, and 0.09 there is 0.09 %.
  assert.match(await page.textContent('#exercise-8 [data-part="b1"] .part-label'), /\(en %\)$/);
  assert.equal(await page.textContent('#exercise-8 [data-part="b1"] .answer-unit'), '%');
  await fillAll(8, { b1: '0.09', b3: '0.05' });
  await page.check('#exercise-8 input[name="exercise-8-c1"][value="no"]');
  await check(8);
  assert.equal(await markOf(page, 8, 'b1'), 'Leí: 0.09 %✓ Bien');
  assert.equal(await markOf(page, 8, 'b3'), 'Leí: 0.05 %✗ No. ¿Quisiste escribir 5 %? Aquí un número solo ya es un porcentaje.');
  assert.equal(await markOf(page, 8, 'c1'), 'Leí: no✓ Bien');
  // Exercise 2: a letter is never dropped.
  await fillAll(2, { w1: '2500x', w5: '1k', max: '2.5k ms' });
  await check(2);
  assert.match(await markOf(page, 2, 'w1'), /^No entendí «x»; se esperaba un número de milisegundos/);
  assert.equal(await markOf(page, 2, 'w5'), 'Leí: 1,000 ms✓ Bien');
  assert.equal(await markOf(page, 2, 'max'), 'Leí: 2,500 ms✓ Bien');
  assert.deepEqual(problems, []);
  await page.close();
});

test('a variant the URL cannot give is said, and the printed key ticks the right options', async () => {
  const bad = await open(`${LESSON}/ejercicio-4?exercise=4&variant=-1`);
  await bad.page.waitForSelector('#exercise-4');
  assert.equal(await bad.page.textContent('#exercise-4 [data-figure="url-note"]'),
    'La versión «-1» no existe (van de 0 a 999,999); se muestran los números de la lección.');
  assert.equal(await bad.page.getAttribute('#exercise-4', 'data-variant'), '0');
  await bad.page.close();
  const big = await open(`${LESSON}/ejercicio-6?class=2000000`);
  await big.page.waitForSelector('#exercise-6');
  assert.match(await big.page.textContent('#exercise-6 [data-figure="url-note"]'), /«2000000» no existe .*se muestra la 999,999\./);
  assert.equal(await big.page.getAttribute('#exercise-6', 'data-variant'), '999999');
  await big.page.close();

  const key = await open(`/imprimir/timeouts-reintentos-idempotencia?class=17&solutions=1`);
  await key.page.waitForSelector('.print-exercise');
  for (const n of [1, 3, 5, 6, 7, 8, 9]) {
    const parts = await key.page.locator(`.print-exercise[data-exercise="${n}"] .print-options`).count();
    const ticked = await key.page.locator(`.print-exercise[data-exercise="${n}"] [data-answer="true"]`).count();
    assert.ok(parts > 0 && ticked === parts, `exercise ${n}: ${ticked} of ${parts} ticked`);
  }
  assert.match(await key.page.textContent('.print-exercise[data-exercise="9"] [data-answer="true"]'), /^☑ b\) el orquestador/);
  const paper = await open(`/imprimir/timeouts-reintentos-idempotencia?class=abc`);
  await paper.page.waitForSelector('.print-exercise');
  assert.equal(await paper.page.locator('[data-answer="true"]').count(), 0, 'no key without solutions');
  assert.match(await paper.page.textContent('[data-figure="url-note"]'), /La versión de la clase «abc» no es un número/);
  assert.deepEqual([...key.problems, ...paper.problems], []);
  await key.page.close();
  await paper.page.close();
});

test('a reload shows the last answers typed, the wrong ones too; «Repasar lo que fallé» opens the missed parts in a new variant', async () => {
  const { page, problems } = await open(`${LESSON}/ejercicio-4`);
  // By hand: 2 layers that each try 3 times, 3² = 9 attempts; 9 × 500 = 4,500 a second, not 4,000.
  await page.fill('#exercise-4-a1', '9');
  await page.fill('#exercise-4-a2', '4,000');
  await page.click('#exercise-4 button:text("Comprobar")');
  await page.waitForSelector('#exercise-4 [data-figure="summary"]');
  assert.match(await markOf(page, 4, 'a2'), /✗/);
  await page.reload();
  await page.waitForSelector('#app[data-ready]');
  await page.waitForFunction(() => document.querySelector('#exercise-4-a2')?.value === '4,000');
  assert.equal(await page.inputValue('#exercise-4-a1'), '9');
  assert.match(await markOf(page, 4, 'a1'), /✓ Bien/);
  // The summary lists what went wrong, to go over in other numbers.
  await page.waitForSelector('[data-progress="missed"] [data-missed="4"]');
  assert.match(await page.textContent('[data-missed="4"]'), /^Ejercicio 4: 1 parte \(.+\), con otros números$/);
  const href = new URL(await page.getAttribute('[data-missed="4"] a', 'href'), page.url());
  assert.equal(href.searchParams.get('repaso'), 'a2');
  const variant = Number(href.searchParams.get('variant'));
  assert.ok(variant >= 1, `${variant}`);
  await page.click('[data-missed="4"] a');
  await page.waitForSelector(`#exercise-4[data-variant="${variant}"]`);
  assert.match(await page.textContent('#exercise-4 [data-figure="review"]'), /^Para repasar: .+\.$/);
  assert.deepEqual(await page.$$eval('#exercise-4 .part.to-review', (ps) => ps.map((p) => p.dataset.part)), ['a2']);
  assert.deepEqual(problems, []);
  await page.close();
});
