// Instructors embed pieces of the lab: routes, embed mode, resize script, score messages, print view.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startLab, stopLab, open, blank, url, hostPage } from './harness.mjs';

const SLUG = 'timeouts-reintentos-idempotencia';
before(startLab);
after(stopLab);

test('a host page embeds two pieces: they take their height, and the score comes back', async (t) => {
  const { page, problems } = await blank();
  t.after(() => page.close());
  const host = await hostPage(`<h1>Mi curso</h1>
      <iframe id="w" src="${url(`/embed/${SLUG}/widgets/budget`)}" style="border:0;width:100%" height="120"></iframe>
      <iframe id="e" src="${url(`/embed/${SLUG}/ejercicios/4`)}" style="border:0;width:100%" height="120"></iframe>
      <script>window.scores = []; window.addEventListener('message', (e) => { if (e.data && e.data.type === 'sensei-lab:score') scores.push(e.data); });
        document.addEventListener('sensei-lab:score', (e) => { window.relayed = e.detail; });</script>
      <script src="${url('/sensei-embed.js')}"></script>`);
  t.after(() => { host.closeAllConnections?.(); host.close(); });
  await page.goto(`http://127.0.0.1:${host.address().port}/curso`);
  for (const id of ['w', 'e']) {
    try {
      await page.waitForFunction((id) => Number(document.getElementById(id).getAttribute('height')) > 300, id, { timeout: 15_000 });
    } catch (e) {
      const f = await (await page.$(`#${id}`)).contentFrame();
      const info = f ? await f.evaluate(() => [location.href, document.documentElement.scrollHeight, document.body.innerText.slice(0, 80)]).catch((x) => String(x)) : 'no frame';
      throw new Error(`${id}: height ${await page.getAttribute(`#${id}`, 'height')}; frame ${JSON.stringify(info)}; problems ${JSON.stringify(problems)}; script ${await page.evaluate(() => !!window.__senseiLabEmbed)}`);
    }
    const frame = (await page.$(`#${id}`)).contentFrame();
    const f = await frame;
    // The content may still grow (a chart drawn, a font loaded): the iframe follows it.
    let given = 0, content = -100;
    for (let i = 0; i < 50 && Math.abs(given - content) > 2; i++) {
      content = await f.evaluate(() => document.documentElement.scrollHeight);
      given = Number(await page.getAttribute(`#${id}`, 'height'));
      if (Math.abs(given - content) > 2) await page.waitForTimeout(100);
    }
    assert.ok(Math.abs(given - content) <= 2, `${id}: iframe ${given} px for ${content} px of content`);
    // The embed view shows no navigation, and links back to the lesson.
    assert.equal(await f.locator('.site-header, nav.toc').count(), 0);
    assert.match(await f.getAttribute('.embed-back a', 'href'), new RegExp(`/lecciones/${SLUG}/`));
  }
  const ex = await (await page.$('#e')).contentFrame();
  await ex.fill('#exercise-4-a1', '9');
  await ex.fill('#exercise-4-a2', '4,500');
  await ex.click('button:text("Comprobar")');
  await page.waitForFunction(() => window.scores.length === 1);
  const score = await page.evaluate(() => window.scores[0]);
  // Version 2 (since the widgets' tasks): version 1's fields, unchanged.
  assert.deepEqual(score, { type: 'sensei-lab:score', version: 2, lesson: SLUG, exercise: 4, variant: 0, right: 2, total: 4 });
  assert.equal((await page.evaluate(() => window.relayed)).right, 2, 'the resize script passes the score on as a DOM event');
  // A widget's task: the same message with `task` beside `exercise`'s place.
  const w = await (await page.$('#w')).contentFrame();
  await w.click('section.task button.task-start');
  await w.fill('section.task input.answer', '50');
  await w.click('section.task button.task-check');
  await page.waitForFunction(() => window.scores.length === 2);
  assert.deepEqual(await page.evaluate(() => window.scores[1]),
    { type: 'sensei-lab:score', version: 2, lesson: SLUG, task: 'budget/falla-el-40', right: 1, total: 1 });
  assert.equal((await page.evaluate(() => window.relayed)).task, 'budget/falla-el-40');
  assert.deepEqual(problems, []);
});

test('every widget and exercise has its own route; a deep link restores a widget', async () => {
  const { page, problems } = await open(`/lecciones/${SLUG}/widgets/storm?retry-in=bottom&budget-pct=10`);
  await page.waitForSelector('#widget-storm');
  assert.match(await page.textContent('#widget-storm [data-figure="verdict"]'), /^Se recupera/);
  assert.equal(await page.locator('figure.widget').count(), 1);
  // «Insertar» gives the iframe code in the current state.
  await page.click('#widget-storm button.insert');
  const code = await page.inputValue('#widget-storm .embed-panel textarea');
  assert.match(code, new RegExp(`<iframe src="http://127\\.0\\.0\\.1:\\d+/embed/${SLUG}/widgets/storm\\?retry-in=bottom&budget-pct=10"`));
  assert.match(code, /<script src="http:\/\/127\.0\.0\.1:\d+\/sensei-embed\.js" defer><\/script>/);
  await page.close();
  const ex = await open(`/lecciones/${SLUG}/ejercicios/7`);
  assert.match(await ex.page.textContent('#exercise-7 [data-figure="statement"]'), /Triton se cae entero a las 12:00:00/);
  assert.match(await ex.page.getAttribute('.back a', 'href'), /ejercicio-7$/);
  assert.deepEqual([...problems, ...ex.problems], []);
  await ex.page.close();
});

test('a class variant for everyone, and the print view', async () => {
  const a = await open(`/lecciones/${SLUG}/ejercicios/4?class=17`);
  const statement = await a.page.textContent('#exercise-4 [data-figure="statement"]');
  assert.match(statement, /3 capas que reintentan 4 veces/); // `sensei-lab exercise 4 --variant 17`
  const p = await open(`/imprimir/${SLUG}?class=17&solutions=1`);
  assert.equal(await p.page.locator('.print-exercise').count(), 9);
  assert.equal(await p.page.textContent('.print-exercise[data-exercise="4"] p'), statement);
  assert.match(await p.page.textContent('.print-exercise[data-exercise="4"] .print-solution'), /5³ = 125/);
  await p.page.emulateMedia({ media: 'print' });
  assert.equal(await p.page.locator('.print-controls').isVisible(), false);
  const pdf = await p.page.pdf({ format: 'A4' });
  assert.ok(pdf.length > 10_000);
  assert.deepEqual([...a.problems, ...p.problems], []);
  await a.page.close();
  await p.page.close();
});

test('deployable under a sub-path: the same build works from /cursos/lab/', async (t) => {
  const { serve } = await import('./serve.mjs');
  const { existsSync } = await import('node:fs');
  const dir = new URL('../../target/dist-sub/', import.meta.url).pathname;
  if (!existsSync(dir)) {
    t.skip('target/dist-sub is built by ./lab test');
    return;
  }
  const server = await serve(dir, 0, '/cursos/lab');
  t.after(() => { server.closeAllConnections?.(); server.close(); });
  const base = `http://127.0.0.1:${server.address().port}/cursos/lab`;
  const { page, problems } = await blank();
  await page.goto(`${base}/lecciones/${SLUG}/widgets/storm?breaker=on`);
  await page.waitForSelector('#widget-storm [data-figure="verdict"]');
  assert.match(await page.textContent('#widget-storm [data-figure="verdict"]'), /^Se recupera/);
  // Links of the lab keep the sub-path.
  // (A section's link names its element too, so that the browser scrolls to it before the app.)
  assert.equal(await page.getAttribute('.back a', 'href'), `/cursos/lab/lecciones/${SLUG}/cada-capa-multiplica#cada-capa-multiplica`);
  await page.click('.back a');
  await page.waitForSelector('#cada-capa-multiplica');
  assert.match(page.url(), /\/cursos\/lab\/lecciones\/timeouts-reintentos-idempotencia\/cada-capa-multiplica$/);
  await page.click('#widget-storm button.insert');
  assert.match(await page.inputValue('#widget-storm .embed-panel textarea'), /\/cursos\/lab\/embed\/timeouts-reintentos-idempotencia\/widgets\/storm" title="Sensei Lab: Tormenta de reintentos"/);
  // Its own link too, with its state (a widget's state on the lesson page has its id in front).
  await page.check('#widget-storm input[name="storm-breaker"][value="on"]');
  await page.waitForURL(/\?widget=storm&storm\.breaker=on$/);
  await page.click('#widget-storm button.insert');
  await page.click('#widget-storm button.insert');
  assert.equal(await page.inputValue('#widget-storm input.embed-link'), `${base}/lecciones/${SLUG}/widgets/storm?breaker=on`);
  assert.equal(await page.title(), 'Cada capa multiplica · Timeouts, reintentos e idempotencia · Sensei Lab');
  assert.deepEqual(problems, []);
  await page.close();
});

test('back and forward move between sections', async () => {
  const { page, problems } = await open(`/lecciones/${SLUG}`);
  // The lab's links change the page without loading it again.
  await page.evaluate(() => { window.__samePage = true; });
  await page.click('nav.toc a:text("Backoff y jitter")');
  await page.waitForURL(/\/backoff-y-jitter$/);
  assert.equal(await page.evaluate(() => window.__samePage), true);
  await page.click('nav.toc a:text("Idempotencia: repetir sin daño")');
  await page.waitForURL(/\/idempotencia$/);
  await page.goBack();
  await page.waitForURL(/\/backoff-y-jitter$/);
  await page.goBack();
  await page.waitForURL(new RegExp(`/lecciones/${SLUG}$`));
  await page.goForward();
  await page.waitForURL(/\/backoff-y-jitter$/);
  // The section is on screen, not merely in the URL.
  await page.waitForFunction(() => Math.abs(document.getElementById('backoff-y-jitter').getBoundingClientRect().top) < 200);
  assert.equal(await page.evaluate(() => window.__samePage), true);
  // A link clicked with a modifier (a new tab, a new window) is the browser's:
  // this page stays where it is.
  const before = page.url();
  const [popup] = await Promise.all([
    page.context().waitForEvent('page', { timeout: 5000 }).catch(() => null),
    page.click('nav.toc a:text("Idempotencia: repetir sin daño")', { modifiers: ['Shift'] }),
  ]);
  assert.equal(page.url(), before);
  if (popup) await popup.close();
  assert.deepEqual(problems, []);
  await page.close();
});
