// Issue #34: the lesson's SCORM 1.2 package (dist/scorm/<lesson>.zip, written
// by every release build) in an LMS. The test plays the LMS: it serves the
// package's files under a prefix of its own (Moodle's /pluginfile.php/…),
// with no fallback page, and launches it in a page that provides the SCORM
// 1.2 API from scorm-again (the runtime LMS plugins use), which posts every
// commit to the test's server. Interactions are write-only in SCORM 1.2: they
// are read from what was committed, not through LMSGetValue. scorm-again
// accepts longer values than SCORM 1.2 does, so SCORM 1.2's limits (4,096
// characters of suspend data, 255 of a response) are checked here.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, rmSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { createServer } from 'node:http';
import { inflateRawSync } from 'node:zlib';
import { join, dirname, extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import { launch, stopLab, blank, SLUG } from './harness.mjs';
import { ANSWERS, GOALS } from './answers.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const dist = process.env.LAB_DIST || join(here, '..', '..', 'dist');
const PREFIX = '/pluginfile.php/42/mod_scorm/content/1/';

/** The entries of a zip (name → bytes): its central directory, each entry stored or deflated. */
function unzip(buf) {
  let end = buf.length - 22;
  while (end >= 0 && buf.readUInt32LE(end) !== 0x06054b50) end--;
  assert.ok(end >= 0, 'a zip has an end of central directory');
  const count = buf.readUInt16LE(end + 10);
  let at = buf.readUInt32LE(end + 16);
  const files = new Map();
  for (let i = 0; i < count; i++) {
    assert.equal(buf.readUInt32LE(at), 0x02014b50);
    const method = buf.readUInt16LE(at + 10);
    const size = buf.readUInt32LE(at + 20);
    const nameLen = buf.readUInt16LE(at + 28), extraLen = buf.readUInt16LE(at + 30), commentLen = buf.readUInt16LE(at + 32);
    const local = buf.readUInt32LE(at + 42);
    const name = buf.toString('utf8', at + 46, at + 46 + nameLen);
    const dataAt = local + 30 + buf.readUInt16LE(local + 26) + buf.readUInt16LE(local + 28);
    const raw = buf.subarray(dataAt, dataAt + size);
    files.set(name, method === 8 ? inflateRawSync(raw) : Buffer.from(raw));
    at += 46 + nameLen + extraLen + commentLen;
  }
  return files;
}

const pkg = () => unzip(readFileSync(join(dist, 'scorm', `${SLUG}.zip`)));

const TYPES = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.wasm': 'application/wasm', '.css': 'text/css',
  '.svg': 'image/svg+xml', '.xml': 'application/xml', '.png': 'image/png' };

/** The LMS: the player page (the API, and the package in an iframe), the package under PREFIX, the commits. */
function lms(files) {
  const state = { initial: {}, launch: 'index.html', commits: [], missing: [] };
  const api = readFileSync(createRequire(import.meta.url).resolve('scorm-again/scorm12'));
  const server = createServer((req, res) => {
    const path = decodeURIComponent(req.url.split('?')[0]);
    if (req.method === 'POST' && path === '/commit') {
      let body = '';
      req.on('data', (c) => { body += c; });
      req.on('end', () => {
        state.commits.push(JSON.parse(body));
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end('{"result":true,"errorCode":0}');
      });
      return;
    }
    if (path === '/favicon.ico') {
      res.writeHead(204);
      return res.end();
    }
    if (path === '/lib/scorm12.js') {
      res.writeHead(200, { 'content-type': 'text/javascript' });
      return res.end(api);
    }
    if (path === '/mod/scorm/player.php') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      return res.end(`<!doctype html><html lang="es"><head><meta charset="utf-8"><title>Curso</title>
        <script src="/lib/scorm12.js"></script></head><body>
        <script>
          // The scores the package posts to the page around it (sensei-lab:score), beside the LMS's.
          window.scores = [];
          window.addEventListener('message', (e) => { if (e.data && e.data.type === 'sensei-lab:score') window.scores.push(e.data); });
          window.API = new Scorm12API({ lmsCommitUrl: '/commit', dataCommitFormat: 'flattened', autocommit: false, logLevel: 5 });
          window.API.loadFromFlattenedJSON(${JSON.stringify(state.initial)});
        </script>
        <iframe id="sco" src="${PREFIX}${state.launch}" style="width:1200px;height:860px;border:0"></iframe></body></html>`);
    }
    const f = path.startsWith(PREFIX) ? files.get(path.slice(PREFIX.length)) : undefined;
    if (!f) {
      state.missing.push(path);
      res.writeHead(404);
      return res.end();
    }
    // The lab's code held back (as on a slow network) while `state.hold` is a promise.
    const held = extname(path) === '.wasm' && state.hold ? state.hold : Promise.resolve();
    held.then(() => {
      res.writeHead(200, { 'content-type': TYPES[extname(path)] ?? 'application/octet-stream' });
      res.end(f);
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ server, state, base: `http://127.0.0.1:${server.address().port}` })));
}

before(launch);
after(stopLab);

test('the package: a SCORM 1.2 manifest with one organization, one item, one SCO launching index.html, and every file listed', () => {
  const files = pkg();
  const xml = files.get('imsmanifest.xml').toString('utf8');
  assert.match(xml, /<schemaversion>1\.2<\/schemaversion>/);
  assert.match(xml, /<schema>ADL SCORM<\/schema>/);
  assert.equal(xml.match(/<organization\b/g).length, 1);
  assert.equal(xml.match(/<item\b/g).length, 1);
  assert.equal(xml.match(/<resource\b/g).length, 1);
  const org = xml.match(/<organizations default="([^"]+)">\s*<organization identifier="([^"]+)">/);
  assert.equal(org[1], org[2], 'the default organization is the one there is');
  const item = xml.match(/<item identifier="[^"]+" identifierref="([^"]+)"/);
  const res = xml.match(/<resource identifier="([^"]+)" type="webcontent" adlcp:scormtype="sco" href="index.html">/);
  assert.ok(item && res, 'an item that refers to a SCO launching index.html');
  assert.equal(item[1], res[1]);
  assert.match(xml, /<title>Timeouts, reintentos e idempotencia<\/title>/);
  assert.match(xml, /<adlcp:masteryscore>80<\/adlcp:masteryscore>/);
  const listed = [...xml.matchAll(/<file href="([^"]+)"\/>/g)].map((m) => m[1]).sort();
  const inZip = [...files.keys()].filter((f) => f !== 'imsmanifest.xml').sort();
  assert.deepEqual(listed, inZip);
  assert.ok(inZip.includes('index.html') && inZip.some((f) => f.endsWith('.wasm')));
  // No service worker and no absolute asset paths in the launch page.
  const page = files.get('index.html').toString('utf8');
  assert.doesNotMatch(page, /sensei-offline|sw\.js|rel="manifest"/);
  assert.doesNotMatch(page, /(src|href)="\/[^/]/);
  assert.match(page, /<meta name="sensei-lab-package" content="scorm" data-lesson="timeouts-reintentos-idempotencia" data-class="0" data-mastery="80" data-solutions="always" \/>/);
});

/** The launched lab, its frame ready. */
async function launchIn(page, base) {
  await page.goto(`${base}/mod/scorm/player.php`);
  const frame = await (await page.waitForSelector('#sco')).contentFrame();
  await frame.waitForSelector('#app[data-ready]', { timeout: 60_000 });
  return frame;
}

/** Waits for the `n`th commit and returns it. */
async function commitNo(state, n) {
  for (let i = 0; i < 200 && state.commits.length < n; i++) await new Promise((r) => setTimeout(r, 50));
  assert.equal(state.commits.length, n, `commit ${n}`);
  return state.commits[n - 1];
}

/** The interactions a commit carries: n → { id, type, student_response, result, time }. */
function interactions(commit) {
  const out = [];
  for (const [k, v] of Object.entries(commit)) {
    const m = k.match(/^cmi\.interactions\.(\d+)\.(id|type|student_response|result|time)$/);
    if (m) (out[Number(m[1])] ??= {})[m[2]] = v;
  }
  return out.filter(Boolean);
}

/** Fills each part of exercise `n` in `frame` (`typed`: part id → text; others a long text or the first option) and checks it. */
async function answerExercise(frame, n, typed = {}) {
  const ex = frame.locator(`#exercise-${n}`);
  for (const part of await ex.locator('.part').all()) {
    const id = await part.getAttribute('data-part');
    const radio = part.locator('input[type=radio]');
    if (await radio.count()) await radio.first().check();
    else await part.locator('input.answer').fill(typed[id] ?? `no estoy seguro, ${'creo que es más o menos así '.repeat(12)}`);
  }
  await ex.locator('button[type=submit]').click();
}

/** Checks the task `key` in `frame`: a prediction after «Predecir», a goal as it stands (after «Empezar» if it has one). */
async function answerTask(frame, key, typed) {
  const box = frame.locator(`section.task[data-task="${key}"]`);
  await box.scrollIntoViewIfNeeded();
  const start = box.locator('button.task-start');
  if (await start.count()) await start.click();
  if (typed !== null) await box.locator('input.answer').fill(typed);
  await box.locator('button.task-check').click();
  await frame.waitForFunction((k) => ['right', 'wrong'].includes(document.querySelector(`section.task[data-task="${k}"]`).dataset.state), key);
}

/** The interactions commit `n` added to the one before it (a commit carries the session's so far). */
function added(state, n, first = 1) {
  const before = n > first ? interactions(state.commits[n - 2]).length : 0;
  return interactions(state.commits[n - 1]).slice(before);
}

const shareOf = (right, total) => { const t = Math.floor((right * 1000) / total); return t % 10 ? `${Math.floor(t / 10)}.${t % 10}` : `${t / 10}`; };

test('launched by an LMS: status, score, an interaction per part, suspend data within SCORM 1.2\'s limits, and progress that follows the student', async (t) => {
  const { server, state, base } = await lms(pkg());
  t.after(() => { server.closeAllConnections?.(); server.close(); });
  const { page, problems } = await blank({ width: 1280, height: 900 });
  t.after(() => page.close());
  await page.emulateMedia({ reducedMotion: 'reduce' });
  const refused = [];
  page.on('console', (m) => { if (/plataforma no aceptó/.test(m.text())) refused.push(m.text()); });

  // Session 1: opened, it is «incomplete»; nothing committed until a check.
  let frame = await launchIn(page, base);
  assert.equal(await page.evaluate(() => window.API.cmi.core.lesson_status), 'incomplete');
  assert.equal(state.commits.length, 0);
  // Every part and every task, as the learner sees them: the score's whole.
  const total = await frame.locator('section.exercise .part').count() + await frame.locator('section.task').count();
  assert.equal(await frame.locator('section.task').count(), 15);
  // Exercise 4 (the lesson's numbers), its first two parts by hand: 2 layers
  // that each try 3 times make 3² = 9 attempts, 9 × 500 = 4,500 a second.
  await answerExercise(frame, 4, { a1: '9', a2: '4,500' });
  let c = await commitNo(state, 1);
  const ex4 = interactions(c);
  assert.equal(ex4.length, await frame.locator('#exercise-4 .part').count(), 'one interaction per part checked');
  assert.deepEqual(ex4.slice(0, 2).map((i) => [i.id, i.type, i.student_response, i.result]),
    [['ej4-v0-a1', 'fill-in', '9', 'correct'], ['ej4-v0-a2', 'fill-in', '4,500', 'correct']]);
  for (const i of ex4) {
    assert.match(i.time, /^\d\d:\d\d:\d\d$/);
    assert.ok(['correct', 'wrong', 'unanticipated', 'neutral'].includes(i.result), i.result);
    assert.ok(['fill-in', 'choice', 'true-false'].includes(i.type), i.type);
  }
  assert.equal(c['cmi.core.lesson_status'], 'incomplete');
  const rightEx4 = ex4.filter((i) => i.result === 'correct').length;
  assert.equal(c['cmi.core.score.raw'], shareOf(rightEx4, total));
  assert.equal(c['cmi.core.score.min'], '0');
  assert.equal(c['cmi.core.score.max'], '100');
  // The herd's task, right: one more commit.
  await answerTask(frame, ANSWERS.herd[0], ANSWERS.herd[2]);
  c = await commitNo(state, 2);
  assert.deepEqual(added(state, 2).map((i) => [i.id, i.student_response, i.result]), [['tarea-herd_el-doble', '700', 'correct']]);
  assert.equal(c['cmi.core.score.raw'], shareOf(rightEx4 + 1, total));
  // Leaving: the session's time, «suspend» (not done), one commit.
  await page.goto('about:blank');
  c = await commitNo(state, 3);
  // A CMITimespan (scorm-again keeps it as HH:MM:SS.SS): the time the session lasted, more than none.
  assert.match(c['cmi.core.session_time'], /^\d{2,4}:\d\d:\d\d(\.\d{1,2})?$/);
  const [h, m, sec] = c['cmi.core.session_time'].split(':').map(Number);
  assert.ok(h * 3600 + m * 60 + sec > 0, c['cmi.core.session_time']);
  assert.equal(c['cmi.core.exit'], 'suspend');
  assert.equal(c['cmi.core.lesson_status'], 'incomplete');
  const suspended = c['cmi.suspend_data'];
  assert.ok(suspended && JSON.parse(suspended).version === 2, 'the progress is in the suspend data');

  // Session 2, maybe on another computer: the LMS gives back the suspend data
  // (and now a mastery score of its own, 25 %).
  state.initial = { 'cmi.suspend_data': suspended, 'cmi.core.lesson_status': 'incomplete', 'cmi.core.entry': 'resume',
    'cmi.student_data.mastery_score': '25' };
  frame = await launchIn(page, base);
  // The last answers typed come back, the wrong ones too; the task is «ya resuelta».
  assert.equal(await frame.inputValue('#exercise-4-a1'), '9');
  const wrongPart = await frame.locator('#exercise-4 .part').nth(2).getAttribute('data-part');
  assert.match(await frame.inputValue(`#exercise-4-${wrongPart}`), /^no estoy seguro, creo que/);
  assert.match(await frame.textContent('section.task[data-task="herd/el-doble"] .task-before'), /Ya lo resolviste/);
  // The browser's own storage is not where it lives (session 1 wrote nothing there either).
  assert.equal(await frame.evaluate(() => localStorage.getItem('sensei-lab.progress')), null);
  let n = 3;
  const first = n + 1;
  for (const k of [1, 2, 3, 5, 6, 7, 8, 9]) {
    await answerExercise(frame, k);
    c = await commitNo(state, ++n);
    assert.equal(c['cmi.core.lesson_status'], 'incomplete');
    assert.equal(added(state, n, first).length, await frame.locator(`#exercise-${k} .part`).count(), `exercise ${k}: one interaction per part`);
  }
  for (const [widget, [key, , right]] of Object.entries(ANSWERS)) {
    if (widget === 'herd') continue;
    await answerTask(frame, key, right);
    await commitNo(state, ++n);
    assert.equal(added(state, n, first).length, 1, key);
  }
  for (const [key] of Object.values(GOALS)) {
    await answerTask(frame, key, null);
    await commitNo(state, ++n);
  }
  await answerTask(frame, 'hedging/cola-corta', null);
  c = await commitNo(state, ++n);
  // Every part checked once: one interaction for each (session 1's, then session 2's).
  const all = [...interactions(state.commits[2]), ...interactions(c)];
  const ids = new Set(all.map((i) => i.id));
  assert.equal(all.length, total);
  assert.equal(ids.size, total);
  const right = new Set(all.filter((i) => i.result === 'correct').map((i) => i.id)).size;
  // The 13 predictions and findings answered right, exercise 4's two parts: at least 15 of the whole.
  assert.ok(right >= 15, `${right}`);
  assert.equal(c['cmi.core.score.raw'], shareOf(right, total));
  assert.equal(c['cmi.core.lesson_status'], Number(c['cmi.core.score.raw']) >= 25 ? 'passed' : 'failed');
  assert.ok(right * 100 >= 25 * total, `${right} of ${total}`);
  assert.equal(c['cmi.core.lesson_status'], 'passed');
  // SCORM 1.2's limits, on everything committed.
  for (const commit of state.commits) {
    assert.ok((commit['cmi.suspend_data'] ?? '').length <= 4096);
    for (const i of interactions(commit)) {
      assert.ok(i.student_response.length <= 255, i.student_response);
      assert.match(i.id, /^[A-Za-z0-9_-]{1,255}$/);
    }
  }
  const longest = Math.max(...all.map((i) => i.student_response.length));
  assert.ok(longest > 100, `long typed answers were sent (${longest} characters)`);
  // Leaving, done: no «suspend».
  await page.goto('about:blank');
  c = await commitNo(state, ++n);
  assert.equal(c['cmi.core.exit'], '');
  assert.deepEqual(state.missing, [], 'every file the lab asked for is in the package');
  assert.deepEqual(refused, []);
  assert.deepEqual(problems, []);
});

test('in the package, the lab\'s routes are in the fragment; no service worker; without an LMS it keeps progress in the browser', async (t) => {
  const { server, state, base } = await lms(pkg());
  t.after(() => { server.closeAllConnections?.(); server.close(); });
  const { page, problems } = await blank({ width: 1280, height: 900 });
  t.after(() => page.close());
  // A widget's page by its fragment, straight from the package (no LMS around it).
  await page.goto(`${base}${PREFIX}index.html#/lecciones/${SLUG}/widgets/herd?clients=2000`);
  await page.waitForSelector('#app[data-ready]');
  await page.waitForSelector('#widget-herd');
  assert.equal(await page.inputValue('#herd-clients'), '2000');
  assert.equal(await page.locator('button.insert').count(), 0, 'nothing to embed from inside a package');
  // Its link back to the lesson stays on the launch page.
  const back = await page.getAttribute('a.brand, .crumb a, a[href*="#/lecciones/"]', 'href');
  assert.ok(back.startsWith(`${PREFIX}index.html#/`), back);
  // A control moved: its state goes into the fragment, the path stays.
  await page.fill('#herd-clients', '3000');
  await page.press('#herd-clients', 'Enter');
  await page.waitForFunction(() => /clients=3000/.test(location.hash));
  assert.equal(new URL(page.url()).pathname, `${PREFIX}index.html`);
  // Reloaded, as an LMS reloads its launch page: the same.
  await page.reload();
  await page.waitForSelector('#app[data-ready]');
  assert.equal(await page.inputValue('#herd-clients'), '3000');
  assert.deepEqual(await page.evaluate(async () => (await navigator.serviceWorker?.getRegistrations?.() ?? []).length), 0);
  assert.deepEqual(state.missing, []);
  assert.deepEqual(problems, []);
});

test('a package for a class: its exercises open in the class\'s variant and are counted there; without a mastery score, none in the manifest', async (t) => {
  const out = join(here, '..', '..', 'target', `scorm-clase-17-${process.pid}.zip`);
  execFileSync('node', [join(here, '..', '..', 'scripts', 'scorm.mjs'), dist, '--class', '17', '--mastery', 'none', '--out', out], { stdio: 'ignore' });
  const files = unzip(readFileSync(out));
  rmSync(out, { force: true });
  assert.doesNotMatch(files.get('imsmanifest.xml').toString('utf8'), /masteryscore/);
  const { server, state, base } = await lms(files);
  t.after(() => { server.closeAllConnections?.(); server.close(); });
  const { page, problems } = await blank({ width: 1280, height: 900 });
  t.after(() => page.close());
  const frame = await launchIn(page, base);
  // Exercises with numbers in variant 17; exercise 1 has none.
  await frame.waitForSelector('#exercise-4[data-variant="17"]');
  assert.equal(await frame.getAttribute('#exercise-1', 'data-variant'), '0');
  await answerExercise(frame, 4);
  const c = await commitNo(state, 1);
  assert.ok(interactions(c).every((i) => i.id.startsWith('ej4-v17-')), JSON.stringify(interactions(c).map((i) => i.id)));
  assert.equal(c['cmi.core.lesson_status'], 'incomplete');
  assert.deepEqual(problems, []);
});

// Issue #43: an LMS may serve the package uncompressed (1.2 MB of wasm):
// the lesson is in the package's page, as that package shows it, and can be
// read before the code arrives; then each piece wakes as on the site.
test('the package\'s page carries the lesson, in its class\'s variants, read before the code arrives; then it wakes as islands', async (t) => {
  const out = join(here, '..', '..', 'target', `scorm-clase-17-page-${process.pid}.zip`);
  execFileSync('node', [join(here, '..', '..', 'scripts', 'scorm.mjs'), dist, '--class', '17', '--solutions', 'never', '--out', out], { stdio: 'ignore' });
  const files = unzip(readFileSync(out));
  rmSync(out, { force: true });
  const html = files.get('index.html').toString('utf8');
  assert.match(html, new RegExp(`<div id="app" data-route="/lecciones/${SLUG}"><!--`));
  // Its links stay on the launch page, wherever the LMS serves it: the lab's path in the fragment.
  const hrefs = [...html.slice(html.indexOf('<div id="app"')).matchAll(/<a [^>]*href="([^"]*)"/g)].map((m) => m[1]);
  assert.ok(hrefs.length > 20, `${hrefs.length} links`);
  assert.deepEqual(hrefs.filter((h) => !/^(#|https?:)/.test(h)), []);
  assert.ok(hrefs.includes(`#/lecciones/${SLUG}/ejercicio-4#ejercicio-4`), hrefs.join(' '));
  assert.doesNotMatch(html, /Para docentes<\/a>/);
  const { server, state, base } = await lms(files);
  t.after(() => { server.closeAllConnections?.(); server.close(); });
  let release;
  state.hold = new Promise((ok) => { release = ok; });
  const { page, problems } = await blank({ width: 390, height: 844 });
  t.after(() => page.close());
  await page.goto(`${base}/mod/scorm/player.php`);
  const frame = await (await page.waitForSelector('#sco')).contentFrame();
  // Before the code: the lesson's text, its figures, and exercise 4 in variant 17 with the package's rule for solutions.
  await frame.waitForSelector('#exercise-4[data-variant="17"]');
  assert.equal(await frame.getAttribute('#app', 'data-start'), null, 'nothing woken yet');
  assert.match(await frame.textContent('main h1, #app h1'), /Timeouts, reintentos e idempotencia/);
  assert.ok(await frame.locator('#widget-herd svg').count() > 0, 'the herd\'s chart, prerendered');
  const before = await frame.textContent('#exercise-4 .exercise-statement, #exercise-4 p');
  release();
  await frame.waitForSelector('#app[data-ready]', { timeout: 60_000 });
  assert.equal(await frame.getAttribute('#app', 'data-start'), 'islands');
  assert.equal(await frame.getAttribute('#exercise-4', 'data-variant'), '17');
  assert.equal(await frame.textContent('#exercise-4 .exercise-statement, #exercise-4 p'), before);
  // Awake: it answers as the package's exercise does, and the LMS hears it.
  await answerExercise(frame, 4);
  const c = await commitNo(state, 1);
  assert.ok(interactions(c).every((i) => i.id.startsWith('ej4-v17-')), JSON.stringify(interactions(c).map((i) => i.id)));
  assert.deepEqual(state.missing, []);
  assert.deepEqual(problems, []);
});

// Issue #42: credit only for what was found. Exercise 4's answers, worked
// out by hand from the lesson (2 layers that each try 3 times: 3² = 9,
// × 500 = 4,500 a second; 4 layers that try twice: 2⁴ = 16, × 500 = 8,000),
// typed after its solution was opened, and the herd's 700 typed after a wrong
// prediction showed it, are right on the page and in their interactions, and
// add nothing to the score the LMS and the page around it hear.
const EX4_WRONG = { a1: '7', a2: '1', b1: '3', b2: '2' };
const EX4_RIGHT = { a1: '9', a2: '4,500', b1: '16', b2: '8,000' };

/** Types `typed` (part id → text) into exercise `n` and presses «Comprobar». */
async function typeExercise(frame, n, typed) {
  for (const [id, text] of Object.entries(typed)) await frame.fill(`#exercise-${n}-${id}`, text);
  await frame.locator(`#exercise-${n} button[type=submit]`).click();
}

const solutionButton = (frame, n) => frame.locator(`#exercise-${n} button:text-matches("solución paso a paso")`);

test('a solution opened, then answered right, leaves the score where it was; a task\'s shown answer likewise; the page says so before', async (t) => {
  const { server, state, base } = await lms(pkg());
  t.after(() => { server.closeAllConnections?.(); server.close(); });
  const { page, problems } = await blank({ width: 1280, height: 900 });
  t.after(() => page.close());
  await page.emulateMedia({ reducedMotion: 'reduce' });
  const frame = await launchIn(page, base);
  const total = await frame.locator('section.exercise .part').count() + await frame.locator('section.task').count();
  const ex = frame.locator('#exercise-4');

  // All wrong: 0.
  await typeExercise(frame, 4, EX4_WRONG);
  let c = await commitNo(state, 1);
  assert.deepEqual(interactions(c).map((i) => i.result), ['wrong', 'wrong', 'wrong', 'wrong']);
  assert.equal(c['cmi.core.score.raw'], '0');
  // Before the solution opens, the page says what opening it costs.
  assert.match(await ex.locator('[data-figure="reveal-warning"]').textContent(), /lo que aún no tienes bien ya no sumará a tu calificación/);
  await solutionButton(frame, 4).click();
  await ex.locator('[data-figure="solution"]').waitFor();
  assert.equal(await ex.locator('[data-figure="reveal-warning"]').count(), 0);
  // Opening it is kept at once: which parts were revealed, in the suspend data.
  c = await commitNo(state, 2);
  assert.equal(c['cmi.core.score.raw'], '0');
  assert.deepEqual(JSON.parse(c['cmi.suspend_data']).exercises['4']['0'].revealed, ['a1', 'a2', 'b1', 'b2']);
  // The solution's answers, typed: right on the page and in each interaction, the score unchanged.
  await typeExercise(frame, 4, EX4_RIGHT);
  c = await commitNo(state, 3);
  assert.deepEqual(added(state, 3).map((i) => [i.id, i.student_response, i.result]),
    [['ej4-v0-a1', '9', 'correct'], ['ej4-v0-a2', '4,500', 'correct'], ['ej4-v0-b1', '16', 'correct'], ['ej4-v0-b2', '8,000', 'correct']]);
  assert.equal(await ex.locator('.part.is-right').count(), 4);
  assert.equal(c['cmi.core.score.raw'], '0');
  assert.match(await ex.locator('[data-figure="summary"]').textContent(), /4 de 4 bien; 4 después de ver la solución, sin sumar/);
  // The page around the package heard the same: nothing right that counts, 4 revealed.
  let scores = await page.evaluate(() => window.scores);
  assert.deepEqual(scores.filter((m) => m.exercise === 4).map((m) => [m.right, m.total, m.revealed]), [[0, 4, undefined], [0, 4, 4]]);

  // The herd's task: a wrong 425, and the box said before what a shown answer costs.
  const key = 'herd/el-doble';
  const box = frame.locator(`section.task[data-task="${key}"]`);
  await box.scrollIntoViewIfNeeded();
  await box.locator('button.task-start').click();
  assert.match(await box.locator('[data-figure="reveal-warning"]').textContent(), /ya no sumará a tu calificación/);
  await box.locator('input.answer').fill('425');
  await box.locator('button.task-check').click();
  await frame.waitForFunction((k) => document.querySelector(`section.task[data-task="${k}"]`).dataset.state === 'wrong', key);
  // The verdict shows the answer (the lesson's 700).
  assert.match(await box.locator('.task-verdict').innerText(), /700/);
  c = await commitNo(state, 4);
  assert.equal(c['cmi.core.score.raw'], '0');
  // «Predecir otra vez» with 700: right, recorded as right, and no credit.
  await box.locator('button.task-start').click();
  await box.locator('input.answer').fill('700');
  await box.locator('button.task-check').click();
  await frame.waitForFunction((k) => document.querySelector(`section.task[data-task="${k}"]`).dataset.state === 'right', key);
  c = await commitNo(state, 5);
  assert.deepEqual(added(state, 5).map((i) => [i.id, i.student_response, i.result]), [['tarea-herd_el-doble', '700', 'correct']]);
  assert.equal(c['cmi.core.score.raw'], '0');
  assert.match(await box.locator('[data-figure="no-credit"]').textContent(), /ya no suma a tu calificación: habías visto la respuesta/);
  scores = await page.evaluate(() => window.scores);
  assert.deepEqual(scores.filter((m) => m.task === key).map((m) => [m.right, m.revealed]), [[0, undefined], [0, 1]]);
  // A task found at once still counts: 4 layers, each call 1 + 3 attempts, 4⁴ = 256 at the bottom.
  const layers = frame.locator('section.task[data-task="layers/cuatro-capas"]');
  await layers.scrollIntoViewIfNeeded();
  await layers.locator('button.task-start').click();
  await layers.locator('input.answer').fill('4^4');
  await layers.locator('button.task-check').click();
  await frame.waitForFunction(() => document.querySelector('section.task[data-task="layers/cuatro-capas"]').dataset.state === 'right');
  c = await commitNo(state, 6);
  assert.equal(c['cmi.core.score.raw'], shareOf(1, total));
  const saved = JSON.parse(c['cmi.suspend_data']);
  assert.equal(saved.tasks[key].revealed, true);
  assert.equal(saved.tasks['layers/cuatro-capas'].revealed, undefined);
  assert.ok(c['cmi.suspend_data'].length <= 4096);
  assert.deepEqual(state.missing, []);
  assert.deepEqual(problems, []);
});

test('packages whose solutions open only once every part was checked, or never: the page says why', async (t) => {
  for (const [suffix, setting] of [['-soluciones-al-comprobar', 'checked'], ['-sin-soluciones', 'never']]) {
    const files = unzip(readFileSync(join(dist, 'scorm', `${SLUG}${suffix}.zip`)));
    assert.match(files.get('index.html').toString('utf8'), new RegExp(`data-solutions="${setting}"`));
    const { server, state, base } = await lms(files);
    const { page, problems } = await blank({ width: 1280, height: 900 });
    try {
      const frame = await launchIn(page, base);
      const ex = frame.locator('#exercise-4');
      // One part answered: not yet (or never).
      await typeExercise(frame, 4, { a1: '7' });
      await commitNo(state, 1);
      const why = await ex.locator('[data-figure="solution-closed"]').textContent();
      if (setting === 'checked') {
        assert.match(why, /cuando hayas comprobado una respuesta en cada parte/);
        assert.equal(await solutionButton(frame, 4).isDisabled(), true);
        // Every part answered and checked: it opens.
        await typeExercise(frame, 4, EX4_WRONG);
        await commitNo(state, 2);
        assert.equal(await ex.locator('[data-figure="solution-closed"]').count(), 0);
        await solutionButton(frame, 4).click();
        await ex.locator('[data-figure="solution"]').waitFor();
      } else {
        assert.match(why, /no hay solución paso a paso: tu docente la dejó fuera/);
        assert.equal(await solutionButton(frame, 4).isVisible(), false);
        await typeExercise(frame, 4, EX4_WRONG);
        await commitNo(state, 2);
        assert.equal(await solutionButton(frame, 4).isVisible(), false);
        assert.equal(await ex.locator('[data-figure="solution"]').count(), 0);
        // Nor on the printable sheet, inside the package.
        await frame.evaluate((slug) => { location.hash = `#/imprimir/${slug}?solutions=1`; location.reload(); }, SLUG);
        await frame.waitForSelector('#app[data-ready] .print-page');
        assert.equal(await frame.locator('.print-solution').count(), 0);
      }
      assert.deepEqual(problems, [], setting);
    } finally {
      await page.close();
      server.closeAllConnections?.();
      server.close();
    }
  }
});
