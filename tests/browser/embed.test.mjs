// Instructors embed pieces of the lab: routes, embed mode, resize script, score messages, print view.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startLab, stopLab, open, blank, url, hostPage, WIDGETS } from './harness.mjs';

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

/** Waits until iframe `id` on `page` is as tall as its content (within 2 px), the content allowed to settle. */
async function fitted(page, id, what) {
  const f = await (await page.$(`#${id}`)).contentFrame();
  let given = 0, content = -100;
  for (let i = 0; i < 100 && Math.abs(given - content) > 2; i++) {
    content = await f.evaluate(() => document.documentElement.scrollHeight);
    given = await page.$eval(`#${id}`, (el) => el.getBoundingClientRect().height);
    if (Math.abs(given - content) > 2) await page.waitForTimeout(100);
  }
  assert.ok(Math.abs(given - content) <= 2, `${what}: iframe ${given} px for ${content} px of content`);
  return { f, height: given };
}

test('Canvas: a page that posts nothing hears lti.frameResize, and a frame sized by it fits its content', async (t) => {
  const { page, problems } = await blank();
  t.after(() => page.close());
  // What Canvas does with the message (an object, or its JSON string), and nothing else: no script of ours.
  const host = await hostPage(`<h1>Canvas</h1>
      <iframe id="w" src="${url(`/embed/${SLUG}/widgets/herd`)}" style="border:0;width:100%;height:150px"></iframe>
      <script>window.heard = []; window.other = [];
        window.addEventListener('message', (e) => {
          let d = e.data;
          if (typeof d === 'string') { try { d = JSON.parse(d); } catch (x) { return; } }
          if (!d || d.subject !== 'lti.frameResize') { window.other.push(d); return; }
          window.heard.push(d);
          const f = [...document.querySelectorAll('iframe')].find((f) => f.contentWindow === e.source);
          const h = Number(d.height);
          if (f && h > 0) f.style.height = h + 'px';
        });</script>`);
  t.after(() => { host.closeAllConnections?.(); host.close(); });
  await page.goto(`http://127.0.0.1:${host.address().port}/curso`);
  await page.waitForFunction(() => window.heard.length > 0);
  const { height } = await fitted(page, 'w', 'lti.frameResize');
  assert.ok(height > 400, `${height}`);
  const last = await page.evaluate(() => window.heard.at(-1));
  assert.deepEqual(Object.keys(last).sort(), ['height', 'subject']);
  assert.equal(typeof last.height, 'number');
  assert.equal(last.height, Math.round(height));
  // Our own messages are still there, unchanged, beside Canvas's.
  assert.ok(await page.evaluate(() => window.other.some((d) => d && d.type === 'sensei-lab:height' && d.version === 1)));
  assert.deepEqual(problems, []);
});

test('H5P: a page that plays h5p-resizer.js\'s part resizes the piece, and again when it grows', async (t) => {
  const { page, problems } = await blank();
  t.after(() => page.close());
  // The host's part of H5P's resizer protocol, as h5p-resizer.js plays it
  // (the npm package h5p-standalone does not carry that script).
  const host = await hostPage(`<h1>H5P</h1>
      <iframe id="e" src="${url(`/embed/${SLUG}/ejercicios/4`)}" style="border:0;width:100%;height:150px"></iframe>
      <script>window.log = [];
        const handlers = {
          hello(iframe, data, respond) { iframe.style.width = '100%'; respond('hello'); },
          prepareResize(iframe, data, respond) {
            if (iframe.clientHeight !== data.scrollHeight || data.scrollHeight !== data.clientHeight) {
              iframe.style.height = data.clientHeight + 'px';
              respond('resizePrepared');
            }
          },
          resize(iframe, data) { iframe.style.height = data.scrollHeight + 'px'; },
        };
        window.addEventListener('message', (event) => {
          if (!event.data || event.data.context !== 'h5p') return;
          const iframe = [...document.getElementsByTagName('iframe')].find((f) => f.contentWindow === event.source);
          if (!iframe) return;
          window.log.push(event.data.action);
          const h = handlers[event.data.action];
          if (h) h(iframe, event.data, (action, data = {}) => { data.action = action; data.context = 'h5p'; event.source.postMessage(data, event.origin); });
        });
        for (const f of document.getElementsByTagName('iframe')) f.contentWindow.postMessage({ context: 'h5p', action: 'ready' }, '*');
      </script>`);
  t.after(() => { host.closeAllConnections?.(); host.close(); });
  await page.goto(`http://127.0.0.1:${host.address().port}/curso`);
  await page.waitForFunction(() => window.log.includes('resize'));
  const first = await fitted(page, 'e', 'H5P');
  assert.ok(first.height > 300, `${first.height}`);
  const log = await page.evaluate(() => window.log);
  assert.equal(log[0], 'hello', 'the piece says hello first');
  assert.ok(log.indexOf('prepareResize') > 0 && log.indexOf('resize') > log.indexOf('prepareResize'), log.join(' '));
  // It grows (the marks and the summary after «Comprobar»): the frame follows.
  await first.f.fill('#exercise-4-a1', '7');
  await first.f.click('button:text("Comprobar")');
  await first.f.waitForSelector('[data-figure="summary"]');
  const after = await fitted(page, 'e', 'H5P, after a check');
  assert.ok(after.height > first.height, `${after.height} after ${first.height}`);
  assert.deepEqual(problems, []);
});

test('an exercise embedded without its solution (solutions=0): no worked solution to open; «Insertar» writes it', async (t) => {
  const { page, problems } = await open(`/embed/${SLUG}/ejercicios/4?solutions=0`);
  t.after(() => page.close());
  await page.fill('#exercise-4-a1', '9');
  await page.click('button:text("Comprobar")');
  await page.waitForSelector('[data-figure="summary"]');
  assert.equal(await page.locator('button:text("Ver la solución paso a paso")').isVisible(), false);
  assert.equal(await page.locator('[data-figure="solution"]').count(), 0);
  // The same piece without it: the solution opens once checked.
  const plain = await open(`/embed/${SLUG}/ejercicios/4`);
  t.after(() => plain.page.close());
  await plain.page.fill('#exercise-4-a1', '9');
  await plain.page.click('button:text("Comprobar")');
  await plain.page.click('button:text("Ver la solución paso a paso")');
  await plain.page.waitForSelector('[data-figure="solution"]');
  // «Insertar» on the lesson's exercise: the code asks for it when told to.
  const lesson = await open(`/lecciones/${SLUG}/ejercicios/4`);
  t.after(() => lesson.page.close());
  await lesson.page.click('#exercise-4 button.insert');
  assert.doesNotMatch(await lesson.page.inputValue('#exercise-4 .embed-panel textarea'), /solutions=0/);
  await lesson.page.check('#exercise-4 .embed-panel input.without-solution');
  assert.match(await lesson.page.inputValue('#exercise-4 .embed-panel textarea'), /src="[^"]*\/embed\/[^"]*ejercicios\/4\?solutions=0"/);
  assert.deepEqual([...problems, ...plain.problems, ...lesson.problems], []);
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

test('«Para docentes»: every widget with its tasks and every exercise, previews loaded when opened, the class\'s sheets, the SCORM package', async () => {
  const { page, problems } = await open(`/lecciones/${SLUG}`);
  // Each build's runtime (its pieces' modules are named by their contents, and may be the same in both).
  const wasms = () => page.evaluate(() => performance.getEntriesByType('resource').filter((e) => e.name.endsWith('_bg.wasm')).map((e) => e.name.split('/').pop()));
  const [learner] = await wasms();
  await page.click('header a.for-teachers');
  await page.waitForFunction((s) => location.pathname.endsWith(`/docentes/${s}`), SLUG);
  await page.waitForSelector('#app[data-ready] .teachers-page');
  assert.equal(await page.title(), 'Para docentes · Timeouts, reintentos e idempotencia · Sensei Lab');
  // The learner's build has no «Para docentes»: the browser loaded the page, and with it the instructors' build.
  assert.match(await page.evaluate(() => performance.getEntriesByType('navigation')[0].name), new RegExp(`/docentes/${SLUG}$`));
  const theirs = await wasms();
  assert.equal(theirs.length, 1);
  assert.notEqual(theirs[0], learner);
  assert.equal(await page.locator('[data-piece^="widget/"]').count(), WIDGETS.length);
  assert.equal(await page.locator('[data-piece^="exercise/"]').count(), 9);
  assert.equal(await page.locator('.teachers-task').count(), 15);
  // Nothing loads until a preview is opened.
  assert.equal(await page.locator('iframe').count(), 0);
  await page.click('[data-piece="widget/herd"] .preview-toggle');
  const frame = await (await page.waitForSelector('[data-piece="widget/herd"] iframe')).contentFrame();
  await frame.waitForSelector('#app[data-ready] #widget-herd');
  assert.equal(await page.locator('iframe').count(), 1);
  // «Insertar» gives the piece's code.
  await page.click('[data-piece="exercise/4"] button.insert');
  assert.match(await page.inputValue('[data-piece="exercise/4"] textarea'), new RegExp(`/embed/${SLUG}/ejercicios/4"`));
  // The class's variant: its sheet, its key, its link.
  await page.fill('#teachers-class', '17');
  await page.press('#teachers-class', 'Enter');
  await page.waitForFunction(() => /class=17$/.test(document.querySelector('a.class-sheet').getAttribute('href')));
  assert.match(await page.getAttribute('a.class-key', 'href'), new RegExp(`/imprimir/${SLUG}\\?class=17&solutions=1$`));
  assert.match(await page.getAttribute('a.class-lesson', 'href'), new RegExp(`/lecciones/${SLUG}\\?class=17$`));
  // The package is there to download: a zip.
  const zip = await page.request.get(new URL(await page.getAttribute('a.scorm-download', 'href'), page.url()).href);
  assert.equal(zip.status(), 200);
  assert.equal((await zip.body()).readUInt32LE(0), 0x04034b50);
  // Back to the lesson from there: the instructors' build renders it (it has every page).
  await page.click('header a.crumb');
  await page.waitForSelector('#app[data-ready] #widget-herd canvas[data-draws]');
  assert.match(page.url(), new RegExp(`/lecciones/${SLUG}$`));
  assert.deepEqual(problems, []);
  await page.close();
});

test('«Para docentes» from a lesson the app rendered (a class\'s link): the browser loads it too', async () => {
  const { page, problems } = await open(`/lecciones/${SLUG}?class=17`);
  await page.waitForSelector('#app[data-start="render"][data-ready]');
  await page.click('header a.for-teachers');
  await page.waitForSelector('#app[data-ready] .teachers-page');
  assert.match(await page.evaluate(() => performance.getEntriesByType('navigation')[0].name), new RegExp(`/docentes/${SLUG}$`));
  // A lesson that is not there, under /docentes/ (the host's fallback page, the learner's build): not found.
  await page.goto(url(`/docentes/otra-leccion`));
  await page.waitForSelector('#app[data-ready] main.not-found');
  assert.match(await page.textContent('main'), /No encontramos esa página/);
  assert.deepEqual(problems, []);
  await page.close();
});
