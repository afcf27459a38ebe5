// Links that land (issue #23): a link with widgets' states opens at the one
// touched last, with every state; older `?widget=` links still do; «Insertar»
// gives a piece's own link and iframe; each page has its own title.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startLab, stopLab, open, url, SLUG, WIDGET_NAMES } from './harness.mjs';

const LESSON = `/lecciones/${SLUG}`;
const LAB = 'Timeouts, reintentos e idempotencia · Sensei Lab';

before(startLab);
after(stopLab);

const drawn = (page, widget) =>
  page.waitForFunction((w) => Number(document.querySelector(`#widget-${w} canvas`)?.dataset.draws) >= 1, widget);

/** Whether the widget's chart (or, without one, the widget) is wholly in the view, and how far down the page is. */
async function landed(page, widget) {
  return page.evaluate((w) => {
    const el = document.querySelector(`#widget-${w} canvas`) || document.getElementById(`widget-${w}`);
    const r = el.getBoundingClientRect();
    return { inView: r.top >= 0 && r.bottom <= window.innerHeight, top: Math.round(r.top), scrollY: Math.round(window.scrollY) };
  }, widget);
}

/** Waits until the widget's chart is in the view (the page scrolls after it renders). */
async function waitLanded(page, widget) {
  await drawn(page, widget);
  try {
    await page.waitForFunction((w) => {
      const r = (document.querySelector(`#widget-${w} canvas`) || document.getElementById(`widget-${w}`)).getBoundingClientRect();
      return r.top >= 0 && r.bottom <= window.innerHeight;
    }, widget, { timeout: 5000 });
  } catch {
    assert.fail(`#widget-${widget} not in the view: ${JSON.stringify(await landed(page, widget))}`);
  }
  // And it stays there once the page has settled.
  await page.waitForTimeout(500);
  const where = await landed(page, widget);
  assert.ok(where.inView && where.scrollY > 2000, `#widget-${widget}: ${JSON.stringify(where)}`);
}

test('a link with a widget’s state opens at that widget, with the state', async () => {
  for (const viewport of [{ width: 1280, height: 900 }, { width: 390, height: 844 }]) {
    const { page, problems } = await open(`/?widget=herd&herd.clients=2000`, viewport);
    await waitLanded(page, 'herd');
    assert.equal(await page.inputValue('#herd-clients'), '2000');
    assert.match(await page.textContent('#widget-herd .widget-title'), /La manada: 2,000 clientes que fallan juntos/);
    // The other widgets are at the lesson's values.
    assert.equal(await page.textContent('#widget-inflight td[data-figure="pod_demand"]'), '19 contra 16');
    assert.deepEqual(problems, []);
    await page.close();
  }
});

test('two widgets’ states survive in one link, which lands on the one touched last', async () => {
  const { page, problems } = await open(LESSON);
  await drawn(page, 'herd');
  await page.fill('#herd-clients', '2000');
  await page.press('#herd-clients', 'Enter');
  await page.waitForURL(/\?widget=herd&herd\.clients=2000$/);
  await page.check('#widget-storm input[name="storm-breaker"][value="on"]');
  await page.waitForURL(/\?widget=storm&herd\.clients=2000&storm\.breaker=on$/);
  const link = new URL(page.url());
  await page.close();

  const again = await open(link.pathname + link.search);
  await waitLanded(again.page, 'storm');
  assert.match(await again.page.textContent('#widget-storm [data-figure="verdict"]'), /^Se recupera/);
  assert.equal(await again.page.inputValue('#herd-clients'), '2000');
  // Back to the lesson's values: that widget's keys leave the link, the other's stay.
  await again.page.click('#widget-storm button.reset');
  await again.page.waitForURL(/\?widget=storm&herd\.clients=2000$/);
  assert.deepEqual([...problems, ...again.problems], []);
  await again.page.close();
});

test('older links (`?widget=herd&clients=2000`) still land, and keep their state beside a new one', async () => {
  const { page, problems } = await open(`/?widget=herd&clients=2000`);
  await waitLanded(page, 'herd');
  assert.equal(await page.inputValue('#herd-clients'), '2000');
  await page.check('#widget-storm input[name="storm-breaker"][value="on"]');
  await page.waitForURL(/\?widget=storm&herd\.clients=2000&storm\.breaker=on$/);
  await page.close();
  // An older link to a section, with a widget of a later one.
  const zombie = await open(`${LESSON}/trabajo-zombi?widget=chain&prep-ms=160`);
  await waitLanded(zombie.page, 'chain');
  assert.equal(await zombie.page.textContent('#widget-chain td[data-figure="call_timeout"]'), 'min(150, 90) = 90 ms');
  // An exercise's variant lands on the exercise.
  const ex = await open(`/?exercise=4&variant=17`);
  await ex.page.waitForFunction(() => {
    const r = document.getElementById('exercise-4')?.getBoundingClientRect();
    return r && r.top >= 0 && r.top < 120; // under the sticky header's room (scroll-padding-top)
  });
  assert.match(await ex.page.textContent('#exercise-4 [data-figure="statement"]'), /3 capas que reintentan 4 veces/);
  assert.deepEqual([...problems, ...zombie.problems, ...ex.problems], []);
  await zombie.page.close();
  await ex.page.close();
});

test('«Insertar» on the lesson page: the widget’s own link and iframe, in their current state', async () => {
  const { page, problems } = await open(`${LESSON}/la-manada?widget=storm&herd.clients=2000&storm.breaker=on`);
  await drawn(page, 'herd');
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: url('') });
  await page.click('#widget-herd button.insert');
  const own = url(`${LESSON}/widgets/herd?clients=2000`);
  assert.equal(await page.inputValue('#widget-herd .embed-panel input.embed-link'), own);
  await page.click('#widget-herd button.copy-link');
  assert.equal(await page.textContent('#widget-herd button.copy-link'), 'Copiado');
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), own);
  const code = await page.inputValue('#widget-herd .embed-panel textarea');
  assert.ok(code.startsWith(`<iframe src="${url(`/embed/${SLUG}/widgets/herd?clients=2000`)}" title="Sensei Lab: La manada" `), code);
  await page.click('#widget-herd button.copy-code');
  assert.equal(await page.evaluate(() => navigator.clipboard.readText()), code);
  assert.equal(await page.textContent('#widget-herd button.copy-link'), 'Copiar enlace');
  // The other widget's link holds only its own state.
  await page.click('#widget-storm button.insert');
  assert.equal(await page.inputValue('#widget-storm input.embed-link'), url(`${LESSON}/widgets/storm?breaker=on`));
  // A section's code, by its heading; an exercise's, by its number.
  await page.click('#backoff-y-jitter .section-head button.insert');
  assert.match(await page.inputValue('#backoff-y-jitter .section-head textarea'), /title="Sensei Lab: Backoff y jitter"/);
  await page.click('#exercise-3 button.insert');
  assert.match(await page.inputValue('#exercise-3 textarea'), /\/embed\/timeouts-reintentos-idempotencia\/ejercicios\/3" title="Sensei Lab: Ejercicio 3"/);
  await page.close();
  // The link opens the widget alone, as it was.
  const alone = await open(new URL(own).pathname + new URL(own).search);
  await drawn(alone.page, 'herd');
  assert.equal(await alone.page.inputValue('#herd-clients'), '2000');
  assert.equal(await alone.page.locator('figure.widget').count(), 1);
  // Alone, the widget keeps its state with its own keys.
  await alone.page.fill('#herd-clients', '3000');
  await alone.page.press('#herd-clients', 'Enter');
  await alone.page.waitForURL(new RegExp(`/widgets/herd\\?clients=3000$`));
  assert.deepEqual([...problems, ...alone.problems], []);
  await alone.page.close();
});

test('every kind of page has its own title, also after moving within the lab', async () => {
  const { page, problems } = await open(LESSON);
  assert.equal(await page.title(), LAB);
  await page.click('nav.toc a:text("Backoff y jitter")');
  await page.waitForURL(/\/backoff-y-jitter$/);
  await page.waitForFunction((t) => document.title === t, `Backoff y jitter · ${LAB}`);
  await page.goBack();
  await page.waitForFunction((t) => document.title === t, LAB);
  const titles = {
    '/': LAB,
    [`${LESSON}/la-manada`]: `El problema de la manada · ${LAB}`,
    [`${LESSON}/widgets/herd`]: `La manada · ${LAB}`,
    [`/embed/${SLUG}/widgets/failure`]: `¿Reintentarías? · ${LAB}`,
    [`${LESSON}/ejercicios/3`]: `Ejercicio 3 · ${LAB}`,
    [`/embed/${SLUG}/ejercicios/9`]: `Ejercicio 9 · ${LAB}`,
    [`/embed/${SLUG}/conceptos`]: `Tarjetas de conceptos · ${LAB}`,
    [`/imprimir/${SLUG}`]: `Ejercicios para imprimir · ${LAB}`,
    [`${LESSON}/widgets/nada`]: 'Página no encontrada · Sensei Lab',
    '/no-existe': 'Página no encontrada · Sensei Lab',
  };
  for (const [path, title] of Object.entries(titles)) {
    await page.goto(url(path));
    await page.waitForSelector('#app[data-ready]');
    await page.waitForFunction((t) => document.title === t, title, { timeout: 5000 })
      .catch(async () => assert.fail(`${path}: «${await page.title()}», expected «${title}»`));
  }
  // The registry's list (sensei-lab scenarios --json): at least the lesson's 15.
  assert.ok(Object.keys(WIDGET_NAMES).length >= 15, Object.keys(WIDGET_NAMES).join(' '));
  assert.deepEqual(problems, []);
  await page.close();
});
