// The whole lab, page by page (issue #8): every section, widget and exercise
// on its own page and embedded, the print view, the lesson and a missing page.
// Each must render without a console error, and axe-core (WCAG 2.1 A and AA
// rules) must find no serious or critical violation on it.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startLab, stopLab, open, device, axe, axeAsIs, SLUG, WIDGETS, WIDGET_NAMES } from './harness.mjs';

const LESSON = `/lecciones/${SLUG}`;
const EXERCISES = [1, 2, 3, 4, 5, 6, 7, 8, 9];

before(startLab);
after(stopLab);

/** axe's serious and critical violations on the page, as readable lines. */
async function seriousViolations(page) {
  return (await axe(page)).filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.impact} ${v.id}: ${v.targets.join(', ')}`);
}

async function settle(page) {
  // Charts drawn (if any) and the page quiet for a moment.
  await page.waitForLoadState('load');
  await page.waitForTimeout(400);
}

// A section's page is the whole lesson, scrolled to that section: axe checks
// the lesson once (`LESSON`), and each section's page is checked for errors
// and for its section being there.
// Each page's title too (`Route::title`): what it shows, the lesson, the lab.
const LAB = 'Timeouts, reintentos e idempotencia · Sensei Lab';
const sectionTitles = new Map();
function title(path) {
  const [, embed, piece, rest] = path.match(/^\/(?:(embed)\/[^/]+|lecciones\/[^/]+)(?:\/(widgets|ejercicios)(?=\/))?\/?(.*)$/) || [];
  if (path === '/no-existe') return 'Página no encontrada · Sensei Lab';
  if (path.startsWith('/imprimir/')) return `Ejercicios para imprimir · ${LAB}`;
  if (piece === 'widgets') return `${WIDGET_NAMES[rest]} · ${LAB}`;
  if (piece === 'ejercicios') return `Ejercicio ${rest} · ${LAB}`;
  if (rest) return `${sectionTitles.get(rest)} · ${LAB}`;
  return embed ? undefined : LAB;
}

async function visit(paths, { scheme = 'light', check = () => true, piece = false } = {}) {
  const report = [];
  const { page, problems } = await open('/');
  await page.emulateMedia({ colorScheme: scheme });
  for (const path of paths) {
    const before = problems.length;
    await page.goto(page.url().replace(/^(https?:\/\/[^/]+).*/, '$1') + path);
    const whole = check(path);
    if (whole || piece) {
      await page.waitForSelector('#app[data-ready]');
      await settle(page);
    } else {
      // A section's page: the lesson's, begun (its pieces wake on the lesson's page above, and in hydration.test.mjs).
      await page.waitForSelector('#app[data-start]');
    }
    const id = decodeURIComponent(path.split('/').pop());
    const bad = whole ? await seriousViolations(page)
      : piece || (await page.locator(`[id="${id}"]`).count()) ? [] : [`section #${id} is not on its page`];
    const errors = problems.slice(before);
    const want = title(path.split('?')[0]);
    if (await page.title() !== want) errors.push(`title «${await page.title()}», expected «${want}»`);
    if (bad.length || errors.length) report.push(`${path}\n  ${[...bad, ...errors].join('\n  ')}`);
  }
  await page.close();
  return report;
}

test('the lesson, every section on its own page, the print view and a missing page', async () => {
  const { page } = await open(LESSON);
  const sections = await page.$$eval('nav.toc li a', (as) => as.map((a) => new URL(a.href).pathname));
  for (const [id, text] of await page.$$eval('nav.toc li a', (as) => as.map((a) => [new URL(a.href).pathname.split('/').pop(), a.textContent]))) {
    sectionTitles.set(decodeURIComponent(id), text);
  }
  await page.close();
  assert.ok(sections.length >= 20, `sections in the table of contents: ${sections.length}`);
  const sectionPages = new Set(sections);
  const report = await visit([LESSON, ...sectionPages, `/imprimir/${SLUG}`, `/imprimir/${SLUG}?class=3&solutions=1`, '/no-existe'],
    { check: (path) => !sectionPages.has(path) });
  assert.deepEqual(report, []);
});

// Each piece is checked by axe on its own page; embedded, it is the same
// markup in another frame: every embed is opened (errors, title), and axe
// checks a sample of them (a player, a task, an exercise).
const AXED_EMBEDS = new Set([`/embed/${SLUG}/widgets/storm`, `/embed/${SLUG}/widgets/herd`, `/embed/${SLUG}/ejercicios/4`]);
test('every widget and exercise on its own page and embedded', async () => {
  const paths = [
    ...WIDGETS.flatMap((w) => [`${LESSON}/widgets/${w}`, `/embed/${SLUG}/widgets/${w}`]),
    ...EXERCISES.flatMap((n) => [`${LESSON}/ejercicios/${n}`, `/embed/${SLUG}/ejercicios/${n}`]),
  ];
  assert.deepEqual(await visit(paths, { check: (path) => !path.startsWith('/embed/') || AXED_EMBEDS.has(path), piece: true }), []);
});

test('the dark theme keeps the contrast too', async () => {
  const report = await visit([LESSON, `${LESSON}/widgets/storm`, `${LESSON}/ejercicios/6`], { scheme: 'dark' });
  assert.deepEqual(report, []);
});

// Lighthouse's accessibility audit runs axe on the page as it loaded: the
// widgets off screen are still skipped (`content-visibility: auto`), and a
// checker that measures them lays them out in their estimated height. The
// colours it reads must be the page's (it once read a widget's muted line
// over the next program's dark output: 2.38:1).
test('the lesson as a checker finds it on a phone, widgets off screen unrendered: no contrast failure', async () => {
  for (const width of [360, 412]) {
    const { page, problems } = await device(LESSON, { width, height: 823, dpr: 1.75 });
    const bad = (await axeAsIs(page, ['color-contrast'])).map((v) => `${v.id}: ${v.targets.join(', ')}`);
    assert.deepEqual(bad, [], `at ${width} px`);
    assert.deepEqual(problems, []);
    await page.context().close();
  }
});
