// Robustness in the browser (issue #8): what a learner sees when the lab breaks.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startLab, stopLab, open } from './harness.mjs';

const LESSON = '/lecciones/timeouts-reintentos-idempotencia';
before(startLab);
after(stopLab);

test('a panic shows a Spanish panel with a reload link and the report, not a dead page', async () => {
  const { page, problems } = await open(`${LESSON}/widgets/herd?clients=2000`);
  await page.waitForSelector('#widget-herd canvas[data-draws]');
  assert.equal(await page.locator('#panic-panel').count(), 0);
  // The test hook panics inside the wasm module, as a bug would.
  const thrown = await page.evaluate(() => {
    try { window.wasmBindings.senseiLabPanicTest(); return null; } catch (e) { return String(e); }
  });
  assert.ok(thrown, 'the panic reaches JavaScript as an exception');
  const panel = page.locator('#panic-panel');
  await panel.waitFor();
  assert.equal(await panel.getAttribute('role'), 'alert');
  assert.equal(await panel.locator('h2').textContent(), 'Algo salió mal en el laboratorio');
  assert.match(await panel.textContent(), /sigue guardado en este navegador/);
  // Reloading is a plain link to the same page (no script needed after a panic) and it has the focus.
  const reload = panel.locator('a.button');
  assert.equal(await reload.textContent(), 'Recargar la página');
  assert.equal(await reload.getAttribute('href'), page.url());
  assert.equal(await page.evaluate(() => document.activeElement.textContent), 'Recargar la página');
  // The report carries the panic's message, as text.
  assert.match(await panel.locator('pre.panic-report').textContent(), /prueba del panel de error[\s\S]*página: http/);
  assert.equal(await panel.locator('pre.panic-report *').count(), 0);
  // The console got it too (the harness records it): exactly the expected panic.
  assert.ok(problems.some((p) => p.includes('panic: ') && p.includes('prueba del panel de error')));
  // Following the link brings the lab back, with the widget's state from the URL.
  await reload.click();
  await page.waitForSelector('#widget-herd canvas[data-draws]');
  assert.equal(await page.locator('#panic-panel').count(), 0);
  assert.equal(await page.inputValue('#widget-herd input.number >> nth=0'), '2000');
  await page.close();
});

test('the page carries a Content-Security-Policy that blocks eval and inline scripts, and the lab breaks none of it', async () => {
  const violations = [];
  const { page, problems } = await open(`${LESSON}`, undefined, () => {
    document.addEventListener('securitypolicyviolation', (e) => {
      window.__csp = window.__csp || [];
      window.__csp.push(`${e.violatedDirective} ${e.blockedURI}`);
    });
  });
  await page.waitForFunction(() => document.querySelectorAll('canvas[data-draws]').length > 5);
  const policy = await page.getAttribute('meta[http-equiv="Content-Security-Policy"]', 'content');
  assert.match(policy, /default-src 'self'/);
  assert.match(policy, /script-src 'self' 'sha256-[A-Za-z0-9+/=]+' 'wasm-unsafe-eval'/);
  assert.doesNotMatch(policy, /unsafe-inline|'unsafe-eval'/);
  // The whole lesson rendered (every widget, the storm's key included) without one violation.
  violations.push(...(await page.evaluate(() => window.__csp || [])));
  assert.deepEqual(violations, []);
  // What an attacker would need is refused: eval, and a script added inline.
  // (Playwright's own evaluate is exempt from the page's CSP, so eval is tried from a timer's string.)
  await page.evaluate(() => { setTimeout('window.__evaluated = true', 0); });
  await page.waitForTimeout(100);
  assert.equal(await page.evaluate(() => window.__evaluated === true), false);
  await page.evaluate(() => {
    const s = document.createElement('script');
    s.textContent = 'window.__injected = true';
    document.body.append(s);
  });
  assert.equal(await page.evaluate(() => window.__injected === true), false);
  assert.ok((await page.evaluate(() => window.__csp || [])).some((v) => v.startsWith('script-src')));
  // Chromium reports the refused script on the console; nothing else went wrong.
  assert.deepEqual(problems.filter((p) => !/Content Security Policy/.test(p)), []);
  await page.close();
});

test('storage that is full: the answer is still marked, the page says it could not save, and nothing else is lost', async () => {
  const full = () => {
    // Another app's data on the same origin, then a storage with no room left.
    localStorage.setItem('otra-app', 'sus datos');
    const setItem = Storage.prototype.setItem;
    Storage.prototype.setItem = function (k, v) {
      if (String(k).startsWith('sensei-lab')) throw new DOMException('full', 'QuotaExceededError');
      return setItem.call(this, k, v);
    };
  };
  const { page, problems } = await open(`${LESSON}/ejercicio-4`, undefined, full);
  await page.waitForSelector('#exercise-4');
  await page.fill('#exercise-4-a1', '9');
  await page.click('#exercise-4 button:text("Comprobar")');
  assert.match(await page.textContent('#exercise-4 [data-part="a1"] .part-mark'), /✓ Bien/);
  assert.match(await page.textContent('main'), /No se pudo guardar tu avance/);
  assert.equal(await page.evaluate(() => localStorage.getItem('otra-app')), 'sus datos');
  // The widgets go on working.
  await page.goto(page.url().replace(/\/lecciones\/.*/, `${LESSON}/widgets/herd?clients=3000`));
  await page.waitForSelector('#widget-herd canvas[data-draws]');
  assert.deepEqual(problems, []);
  await page.close();
});

test('every chart has its data as a table, opened on demand, by mouse or keyboard', async () => {
  const { page, problems } = await open(`${LESSON}/widgets/herd`);
  await page.waitForSelector('#widget-herd canvas[data-draws]');
  const details = page.locator('#widget-herd details.chart-data');
  assert.equal(await details.locator('table').count(), 0, 'built only when opened');
  await details.locator('summary').focus();
  await page.keyboard.press('Enter');
  const table = details.locator('table.chart-table');
  await table.waitFor();
  const head = await table.locator('thead th').allTextContents();
  assert.deepEqual([...head].sort(), ['desde (ms)', 'full jitter', 'sin jitter']);
  const col = head.indexOf('sin jitter');
  // The lesson's wave: 1,000 attempts in the window at 200 ms without jitter.
  const rows = await table.locator('tbody tr').evaluateAll((trs) => trs.map((tr) => [...tr.children].map((td) => td.textContent)));
  assert.ok(rows.some((r) => r[0] === '200' && r[col] === '1,000'));
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => !document.querySelector('#widget-herd details.chart-data table'));
  assert.deepEqual(problems, []);
  await page.close();
});
