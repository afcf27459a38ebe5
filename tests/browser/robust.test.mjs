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
