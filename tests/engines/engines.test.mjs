// The lab in the three browser engines learners use: Chromium (Chrome, Edge),
// Firefox (Gecko) and WebKit (Safari's engine), each driven through classic
// WebDriver by one client (selenium-webdriver) against Debian's drivers:
// chromedriver, geckodriver with firefox-esr, and WebKitWebDriver with
// WebKitGTK's MiniBrowser (under xvfb-run, see ./lab). The Playwright suite in
// tests/browser/ goes deeper in Chromium; this one keeps the basics true
// everywhere: every page loads without an error, a widget re-runs on input,
// a player plays, pauses, steps and scrubs back to the same frame, a
// prediction is hidden until committed and marked, an exercise is answered
// and marked, an embed takes its height, and after one visit the service
// worker serves the lab with its server stopped.
//
// Classic WebDriver has no console capture: the test server adds one small
// script of its own origin to every page (`/__lab-errors.js`), which records
// errors, rejections and console.error, so the page's CSP stays as strict as
// in production ('self' covers it).
//
//   LAB_ENGINES=chromium,firefox,webkit node --test tests/engines/
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { spawn, execFileSync } from 'node:child_process';
import { cp, mkdtemp, readFile, writeFile, rm } from 'node:fs/promises';
import { tmpdir, homedir } from 'node:os';
import { join, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Builder, By, Key, until } from 'selenium-webdriver';
import chrome from 'selenium-webdriver/chrome.js';
import firefox from 'selenium-webdriver/firefox.js';
import { serve } from '../browser/serve.mjs';
import { SLUG, WIDGETS } from '../browser/harness.mjs';
import { ANSWERS } from '../browser/answers.mjs';

// The herd's task, answered wrong and right (the same answers as the browser tests').
const [, WRONG, RIGHT] = ANSWERS.herd;

const here = dirname(fileURLToPath(import.meta.url));
const DIST = process.env.LAB_DIST || join(here, '..', '..', 'dist');
const ENGINES = (process.env.LAB_ENGINES || 'chromium,firefox,webkit').split(',').filter(Boolean);
const LESSON = `/lecciones/${SLUG}`;

const ERRORS_JS = `// Test only: what a classic WebDriver cannot read from the console.
(() => {
  const seen = (window.__labErrors = []);
  // Not an error of the lab's: Firefox checks which of the lesson's widgets
  // are near the screen (\`content-visibility: auto\`) through the resize
  // observers' loop, and says so when a widget coming into view resizes a
  // chart's box in that loop; the chart gets its size a frame later (the
  // widgets' redraws are checked below). Only that exact notice is left out.
  const BENIGN = 'ResizeObserver loop completed with undelivered notifications.';
  addEventListener('error', (e) => { if (e.message !== BENIGN) seen.push('error: ' + (e.message || e.type)); });
  addEventListener('unhandledrejection', (e) => seen.push('rejection: ' + String(e.reason)));
  const original = console.error;
  console.error = (...args) => { seen.push('console.error: ' + args.join(' ')); original.apply(console, args); };
})();
`;

let dir, server, base;

before(async () => {
  // A copy of the build whose pages load the error recorder first.
  dir = await mkdtemp(join(tmpdir(), 'lab-engines-'));
  await cp(DIST, dir, { recursive: true });
  await writeFile(join(dir, '__lab-errors.js'), ERRORS_JS);
  // (The learner's shell, and the instructors' build's: «Para docentes».)
  for (const page of ['index.html', '404.html', `docentes/${SLUG}/index.html`]) {
    const html = await readFile(join(dir, page), 'utf8').catch(() => null);
    if (html) await writeFile(join(dir, page), html.replace('<head>', '<head><script src="/__lab-errors.js"></script>'));
  }
  // The page changed: its service worker's list (the page's hash, the build's version) made again for it.
  execFileSync('node', [join(here, '..', '..', 'scripts', 'finish.mjs'), dir]);
  server = await serve(dir, 0);
  base = `http://127.0.0.1:${server.address().port}`;
});

after(async () => {
  server?.close();
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** A port nobody listens on, for a driver we start ourselves. */
function freePort() {
  return new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => { const p = s.address().port; s.close(() => resolve(p)); });
  });
}

async function startWebKit() {
  const port = await freePort();
  const proc = spawn('WebKitWebDriver', [`--port=${port}`], { stdio: 'ignore' });
  for (let i = 0; i < 100; i++) {
    const up = await fetch(`http://127.0.0.1:${port}/status`).then((r) => r.ok).catch(() => false);
    if (up) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  const driver = await new Builder()
    .usingServer(`http://127.0.0.1:${port}`)
    .withCapabilities({
      browserName: 'MiniBrowser',
      'webkitgtk:browserOptions': {
        binary: '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser',
        args: ['--automation'],
      },
    })
    .build();
  return { driver, stop: () => proc.kill() };
}

async function startDriver(engine) {
  if (engine === 'chromium') {
    const options = new chrome.Options()
      .setChromeBinaryPath('/usr/bin/chromium')
      .addArguments('--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
        '--disable-background-networking', '--disable-component-update', '--disable-sync', '--window-size=1280,900');
    const service = new chrome.ServiceBuilder('/usr/bin/chromedriver');
    const driver = await new Builder().forBrowser('chrome').setChromeOptions(options).setChromeService(service).build();
    return { driver, stop: () => {} };
  }
  if (engine === 'firefox') {
    const options = new firefox.Options().setBinary('/usr/bin/firefox-esr').addArguments('-headless')
      .setPreference('browser.shell.checkDefaultBrowser', false);
    const service = new firefox.ServiceBuilder(process.env.GECKODRIVER || join(homedir(), '.cargo', 'bin', 'geckodriver'));
    const driver = await new Builder().forBrowser('firefox').setFirefoxOptions(options).setFirefoxService(service).build();
    return { driver, stop: () => {} };
  }
  if (engine === 'webkit') return startWebKit();
  throw new Error(`unknown engine ${engine}`);
}

/** Opens a path and waits for the app to answer (`#app[data-ready]`: hydrated or rendered); returns the page's recorded errors so far. */
async function open(driver, path) {
  await driver.get(base + path);
  try {
    await driver.wait(until.elementLocated(By.css('#app[data-ready]')), 30_000);
  } catch (e) {
    // Which page, and what it says of itself, for the next time this happens (once in CI, WebKit).
    const said = await driver.executeScript(`const app = document.getElementById('app');
      return { url: location.href, start: app?.dataset.start ?? null, route: app?.dataset.route ?? null,
        errors: window.__labErrors ?? null, panic: !!document.getElementById('panic-panel'), state: document.readyState }`).catch((x) => String(x));
    throw new Error(`${path}: not ready after 30 s: ${JSON.stringify(said)} (${e.message})`);
  }
  return driver.executeScript('return window.__labErrors || ["the error recorder did not load"]');
}

const errors = (driver) => driver.executeScript(
  'return (window.__labErrors || ["the error recorder did not load"]).concat(document.getElementById("panic-panel") ? ["the panic panel"] : [])');

const draws = (driver, widget) =>
  driver.executeScript(`return Number(document.querySelector('#widget-${widget} canvas')?.dataset.draws || 0)`);

for (const engine of ENGINES) {
  test(`${engine}: every page loads, a widget re-runs, an exercise is marked, an embed takes its height`, async (t) => {
    const { driver, stop } = await startDriver(engine);
    t.after(async () => { await driver.quit().catch(() => {}); stop(); });

    await t.test('the error recorder records', async () => {
      await open(driver, LESSON);
      // (An error thrown by the driver's own script is not the page's in
      // every engine: the page's error event is sent as an uncaught one is.)
      await driver.executeScript('console.error("prueba"); window.dispatchEvent(new ErrorEvent("error", { message: "lanzado" }));');
      await driver.sleep(100);
      const seen = await errors(driver);
      assert.ok(seen.some((e) => /prueba/.test(e)) && seen.some((e) => /^error: lanzado/.test(e)), JSON.stringify(seen));
    });

    await t.test('every page loads (a prerendered one wakes) without an error', async () => {
      const paths = [
        LESSON, `${LESSON}/la-manada`, ...WIDGETS.map((w) => `${LESSON}/widgets/${w}`),
        `${LESSON}/ejercicios/2`, `/embed/${SLUG}/widgets/herd`, `/imprimir/${SLUG}?class=17&solutions=1`,
        `/docentes/${SLUG}`, '/no-existe',
      ];
      for (const path of paths) {
        await open(driver, path);
        // Give the widgets their first run and draw.
        await driver.sleep(150);
        assert.deepEqual(await errors(driver), [], `${engine} ${path}`);
        // The build's page for that address, without a query: kept and woken (a lesson's and a
        // piece's as islands, ui::islands; the print view and «Para docentes» hydrated whole); else rendered.
        const start = await driver.findElement(By.css('#app')).getAttribute('data-start');
        const kept = /^\/(imprimir|docentes)\//.test(path) ? 'hydrate' : 'islands';
        assert.equal(start, path.includes('?') || path === '/no-existe' ? 'render' : kept, `${engine} ${path}`);
      }
      assert.match(await driver.findElement(By.css("main")).getText(), /No encontramos esa página/);
    });

    await t.test('a widget re-runs on input', async () => {
      await open(driver, `${LESSON}/widgets/herd`);
      await driver.wait(async () => (await draws(driver, 'herd')) >= 1, 20_000);
      const before = await draws(driver, 'herd');
      const clients = await driver.findElement(By.css('#herd-clients'));
      // Select what is there and type over it, then leave the field: every
      // engine commits a number input on blur (WebKitWebDriver's clear()
      // leaves a number input as it was).
      await clients.sendKeys(Key.chord(Key.CONTROL, 'a'), '2000', Key.TAB);
      if ((await driver.executeScript('return document.querySelector("#herd-clients").value')) !== '2000') {
        // WebKitWebDriver types nothing over a number input's selection:
        // set it as typing would, with the events a browser sends.
        await driver.executeScript(`const el = document.querySelector('#herd-clients'); el.focus(); el.value = '2000';
          el.dispatchEvent(new Event('input', { bubbles: true })); el.dispatchEvent(new Event('change', { bubbles: true })); el.blur();`);
      }
      await driver.wait(async () => (await draws(driver, 'herd')) > before, 20_000, `${engine}: the herd did not redraw`);
      assert.deepEqual(await errors(driver), []);
    });

    await t.test('a player plays, pauses and steps, and the moment scrubbed back to is the same frame', async () => {
      await open(driver, `${LESSON}/widgets/herd`);
      const player = "document.querySelector('#widget-herd .player')";
      const frame = () => driver.executeScript(`const w = document.querySelector('#widget-herd');
        return JSON.stringify({ t: w.querySelector('.player').dataset.tMs, chart: w.querySelector('.chart').dataset.sum,
          stage: w.querySelector('.stage .chart')?.dataset.sum ?? null,
          figures: [...w.querySelectorAll('td[data-figure]')].map((td) => td.dataset.figure + '=' + td.textContent).join(' ') });`);
      const tMs = async () => Number(await driver.executeScript(`return ${player}.dataset.tMs`));
      const press = async (css) => {
        const el = await driver.findElement(By.css(css));
        await driver.executeScript('arguments[0].scrollIntoView({block: "center"})', el);
        await el.click();
      };
      await driver.wait(async () => (await tMs()) === 1410, 20_000, `${engine}: the herd does not open at its end`);
      // At ¼×: the run lasts 5.6 s, and the pause lands inside it.
      await driver.executeScript(`const s = document.querySelector('#herd-speed');
        s.value = [...s.options].find((o) => o.textContent === '¼×').value; s.dispatchEvent(new Event('change', { bubbles: true }));`);
      await press('#herd-play');
      await driver.wait(async () => { const t = await tMs(); return t > 100 && t < 1410; }, 20_000, `${engine}: ▶ did not play`);
      await press('#herd-play');
      await driver.wait(() => driver.executeScript(`return ${player}.dataset.playing === 'false'`), 10_000);
      const paused = JSON.parse(await frame());
      assert.ok(Number(paused.t) > 0 && Number(paused.t) < 1410 && paused.stage, JSON.stringify(paused));
      await press('#herd-step');
      await driver.wait(async () => (await tMs()) !== Number(paused.t), 10_000, `${engine}: the step did not move`);
      const stepped = await tMs();
      assert.ok(stepped > Number(paused.t) && stepped % 10 === 0, String(stepped));
      // The slider dragged back to the paused moment: the same frame.
      await driver.executeScript(`const el = document.querySelector('#herd-time'); el.value = '${paused.t}';
        el.dispatchEvent(new Event('input', { bubbles: true })); el.dispatchEvent(new Event('change', { bubbles: true }));`);
      await driver.wait(async () => (await tMs()) === Number(paused.t), 10_000);
      await driver.wait(async () => (await frame()) === JSON.stringify(paused), 10_000, `${engine}: not the same frame`);
      // A link with the moment opens there: 210 ms, the first wave's window (the lesson's 50 served of 1,000).
      await open(driver, `${LESSON}/widgets/herd?t-ms=210`);
      await driver.wait(async () => (await tMs()) === 210, 20_000);
      const wave = JSON.parse(await frame());
      assert.match(wave.figures, /served=50 /);
      assert.match(wave.figures, /waiting=950 /);
      assert.deepEqual(await errors(driver), []);
    });

    await t.test('a prediction hides the results until committed; it is marked wrong, then right, and the run plays', async () => {
      await open(driver, `${LESSON}/widgets/herd`);
      const task = 'section.task[data-task="herd/el-doble"]';
      const state = () => driver.executeScript(`return document.querySelector('${task}').dataset.state`);
      const veiled = () => driver.executeScript('return document.querySelector("#widget-herd").classList.contains("veiled")');
      const press = async (el) => {
        await driver.executeScript('arguments[0].scrollIntoView({block: "center"})', el);
        await el.click();
      };
      /** As a learner: «Predecir» where it is offered, the answer typed, «Comprobar». */
      const predict = async (typed) => {
        const start = await driver.findElements(By.css(`${task} button.task-start.primary`));
        if (start.length) {
          await press(start[0]);
          await driver.wait(async () => (await state()) === 'predicting', 10_000, `${engine}: «Predecir» did not start`);
          assert.equal(await veiled(), true, 'the results are hidden until the prediction is committed');
        }
        const field = await driver.findElement(By.css(`${task} input.answer`));
        await field.clear();
        await field.sendKeys(typed);
        await press(await driver.findElement(By.css(`${task} button.task-check`)));
        try {
          await driver.wait(async () => ['right', 'wrong'].includes(await state()), 10_000);
        } catch (e) {
          const seen = await driver.executeScript(`const b = document.querySelector('${task}');
            return JSON.stringify({ state: b.dataset.state, typed: b.querySelector('input.answer')?.value, said: b.querySelector('.task-verdict')?.textContent })`);
          throw new Error(`${engine}: «${typed}» was not marked: ${seen}`, { cause: e });
        }
        return state();
      };
      const played = () => driver.wait(() => driver.executeScript(`const p = document.querySelector('#widget-herd .player');
        return p.dataset.tMs === '1410' && p.dataset.playing === 'false'`), 30_000, `${engine}: the run did not play to its end`);
      assert.equal(await predict(WRONG), 'wrong');
      assert.equal(await veiled(), false, 'committed: the results are shown');
      // Watched to its end, as a learner would before trying again.
      await played();
      assert.equal(await predict(RIGHT), 'right');
      await played();
      assert.match(await driver.findElement(By.css('#widget-herd td[data-figure="gave_up"]')).getText(), /^700$/);
      assert.deepEqual(await errors(driver), []);
    });

    await t.test('an exercise is answered and marked, with what was read', async () => {
      await open(driver, `${LESSON}/ejercicios/4`);
      const a1 = await driver.wait(until.elementLocated(By.css('#exercise-4-a1')), 20_000);
      await a1.sendKeys('3^2');
      await driver.findElement(By.css('#exercise-4-a2')).sendKeys('4,500');
      const check = await driver.findElement(By.xpath('//button[normalize-space()="Comprobar"]'));
      await driver.executeScript('arguments[0].scrollIntoView({block: "center"})', check);
      await check.click();
      const part = await driver.findElement(By.css('[data-part="a1"]'));
      await driver.wait(async () => /Bien/.test(await part.getText()), 10_000, `${engine}: no mark`);
      assert.match(await part.getText(), /Leí: 9/);
      assert.match(await driver.findElement(By.css('[data-part="a2"]')).getText(), /Bien/);
      assert.deepEqual(await errors(driver), []);
    });

    await t.test('after one visit the service worker serves the lab with the server gone', async (st) => {
      // An origin of its own (another port), whose server stops once the worker has the build.
      const own = await serve(dir, 0);
      const at = `http://127.0.0.1:${own.address().port}`;
      await driver.get(`${at}${LESSON}/widgets/herd`);
      await driver.wait(until.elementLocated(By.css('#app[data-ready]')), 30_000);
      if (!(await driver.executeScript('return !!navigator.serviceWorker'))) {
        own.closeAllConnections?.();
        own.close();
        st.skip(`${engine}: no service workers in this browser as driven here`);
        return;
      }
      await driver.wait(() => driver.executeScript('return navigator.serviceWorker.controller?.state === "activated"'), 30_000,
        `${engine}: no service worker took over`);
      own.closeAllConnections?.();
      await new Promise((r) => own.close(r));
      await driver.get(`${at}${LESSON}/ejercicios/4`);
      await driver.wait(until.elementLocated(By.css('#exercise-4-a1')), 30_000);
      await driver.get(`${at}${LESSON}/la-manada`);
      // The section's widget, brought into view as a reader scrolls to it (a
      // widget off screen is not laid out: `content-visibility: auto`).
      await driver.wait(until.elementLocated(By.css('#app[data-ready] #widget-herd canvas')), 30_000, `${engine}: offline, no herd`);
      await driver.executeScript('document.querySelector("#widget-herd").scrollIntoView({block: "center"})');
      try {
        await driver.wait(async () => (await draws(driver, 'herd')) >= 1, 30_000);
      } catch (e) {
        // Say how far the page got.
        const state = await driver.executeScript(`const app = document.getElementById('app'), c = document.querySelector('#widget-herd canvas');
          return JSON.stringify({ start: app?.dataset.start, ready: app?.dataset.ready, url: location.href,
            canvas: c && [c.width, c.height, c.dataset.draws], controlled: !!navigator.serviceWorker?.controller })`).catch(String);
        throw new Error(`${engine}: offline, the herd did not draw: ${state}`, { cause: e });
      }
      assert.deepEqual(await errors(driver), []);
    });

    await t.test('an embed takes the height of its content', async () => {
      // A course page of another origin (another port) with the resize script.
      const host = createServer((req, res) => {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
        res.end(`<!doctype html><html lang="es"><body><h1>Mi curso</h1>
          <iframe id="w" src="${base}/embed/${SLUG}/widgets/budget" style="border:0;width:100%" height="120"></iframe>
          <script src="${base}/sensei-embed.js"></script></body></html>`);
      });
      await new Promise((r) => host.listen(0, '127.0.0.1', r));
      t.after(() => { host.closeAllConnections?.(); host.close(); });
      await driver.get(`http://127.0.0.1:${host.address().port}/curso`);
      await driver.wait(async () => Number(await driver.findElement(By.css('#w')).getAttribute('height')) > 300, 30_000,
        `${engine}: the iframe kept its 120 px`);
    });
  });
}
