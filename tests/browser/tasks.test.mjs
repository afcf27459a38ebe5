// Issue #33, «Predice y comprueba»: each widget's task answered wrong, then
// right, as a learner types; a prediction hides the widget's results until it
// is committed, then the run plays; a goal is checked at the widget's state.
// The right answers are worked out by hand in tests/tasks.rs (or by the
// lesson's own Python), never read off the lab.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startLab, stopLab, open, SLUG, WIDGETS } from './harness.mjs';
import { ANSWERS, GOALS } from './answers.mjs';

before(startLab);
after(stopLab);

test('every widget has a task', () => {
  assert.deepEqual([...Object.keys(ANSWERS), ...Object.keys(GOALS), 'hedging'].sort(), [...WIDGETS].sort());
});

const stateOf = (page, key) => page.getAttribute(`section.task[data-task="${key}"]`, 'data-state');

/** Types `typed` as the answer of task `key` and checks it; for a prediction, presses «Predecir» first. */
async function answer(page, key, typed) {
  const box = page.locator(`section.task[data-task="${key}"]`);
  const start = box.locator('button.task-start.primary');
  if (await start.count()) {
    await start.click();
    await page.waitForFunction((k) => document.querySelector(`section.task[data-task="${k}"]`).dataset.state === 'predicting', key);
  }
  await box.locator('input.answer').fill(typed);
  await box.locator('button.task-check').click();
  await page.waitForFunction((k) => ['right', 'wrong'].includes(document.querySelector(`section.task[data-task="${k}"]`).dataset.state), key);
  return { state: await stateOf(page, key), text: await box.locator('.task-verdict').innerText() };
}

for (const [widget, [key, wrong, right]] of Object.entries(ANSWERS)) {
  test(`${widget}: its task answered wrong, then right`, async () => {
    const { page, problems } = await open(`/lecciones/${SLUG}/widgets/${widget}`);
    const no = await answer(page, key, wrong);
    assert.equal(no.state, 'wrong', no.text);
    assert.match(no.text, /Leí: /);
    const yes = await answer(page, key, right);
    assert.equal(yes.state, 'right', yes.text);
    // Kept in the progress (schema version 2).
    const saved = JSON.parse(await page.evaluate(() => localStorage.getItem('sensei-lab.progress')));
    assert.equal(saved.version, 2);
    assert.equal(saved.tasks[key].right, true);
    assert.equal(saved.tasks[key].answer, right);
    // The results are in sight again.
    assert.equal(await page.locator(`#widget-${widget}.veiled`).count(), 0);
    // A later visit says it was solved.
    await page.reload();
    await page.waitForSelector('#app[data-ready]');
    await page.waitForFunction((k) => document.querySelector(`section.task[data-task="${k}"] .task-before`), key);
    assert.match(await page.textContent(`section.task[data-task="${key}"] .task-before`), /Ya lo resolviste/);
    assert.deepEqual(problems, []);
    await page.close();
  });
}

for (const [widget, [key, unmet, met]] of Object.entries(GOALS)) {
  test(`${widget}: its goal checked where it is not met, then where it is`, async () => {
    const { page, problems } = await open(`/lecciones/${SLUG}/widgets/${widget}${unmet}`);
    await page.click(`section.task[data-task="${key}"] button.task-check`);
    await page.waitForFunction((k) => document.querySelector(`section.task[data-task="${k}"]`).dataset.state === 'wrong', key);
    assert.match(await page.textContent(`section.task[data-task="${key}"] .task-verdict`), /Todavía no[\s\S]*✗/);
    await page.goto(page.url().split('?')[0] + met);
    await page.waitForSelector('#app[data-ready]');
    await page.click(`section.task[data-task="${key}"] button.task-check`);
    await page.waitForFunction((k) => document.querySelector(`section.task[data-task="${k}"]`).dataset.state === 'right', key);
    const text = await page.textContent(`section.task[data-task="${key}"] .task-verdict`);
    assert.match(text, /Lo lograste/);
    assert.doesNotMatch(text, /✗/);
    assert.deepEqual(problems, []);
    await page.close();
  });
}

test('the hedging goal: «Empezar» puts the copy at the p50 (not met), moving it back to the p95 meets it', async () => {
  const { page, problems } = await open(`/lecciones/${SLUG}/widgets/hedging`);
  const box = 'section.task[data-task="hedging/cola-corta"]';
  // At the lesson's values the goal already holds: it is checked from its own start.
  assert.equal(await page.locator(`${box} button.task-check`).count(), 0);
  await page.click(`${box} button.task-start`);
  await page.waitForFunction(() => new URLSearchParams(location.search).get('hedge-pct') === '50');
  await page.click(`${box} button.task-check`);
  await page.waitForFunction((b) => document.querySelector(b).dataset.state === 'wrong', box);
  assert.match(await page.textContent(`${box} .task-verdict`), /✗ La carga extra: 49\.9/);
  // Another state: the verdict of the old one goes.
  await page.fill('#hedging-hedge-pct', '95');
  await page.press('#hedging-hedge-pct', 'Enter');
  await page.waitForFunction(() => new URLSearchParams(location.search).get('hedge-pct') === null);
  await page.waitForFunction((b) => !document.querySelector(`${b} .task-verdict`), box);
  await page.click(`${box} button.task-check`);
  await page.waitForFunction((b) => document.querySelector(b).dataset.state === 'right', box);
  assert.doesNotMatch(await page.textContent(`${box} .task-verdict`), /✗/);
  assert.deepEqual(problems, []);
  await page.close();
});

test('«Cancelar» puts back what was shown before «Predecir»', async () => {
  const { page, problems } = await open(`/lecciones/${SLUG}/widgets/herd`);
  await page.click('section.task button.task-start');
  await page.waitForFunction(() => new URLSearchParams(location.search).get('capacity') === '100');
  assert.equal(await page.evaluate(() => document.activeElement?.classList.contains('answer')), true, 'the field has the focus');
  await page.click('section.task button:text("Cancelar")');
  await page.waitForFunction(() => new URLSearchParams(location.search).get('capacity') === null);
  assert.equal(await page.locator('#widget-herd.veiled').count(), 0);
  assert.deepEqual(problems, []);
  await page.close();
});

test('a prediction hides the results until it is committed; then the run plays from its start', async () => {
  const { page, problems } = await open(`/lecciones/${SLUG}/widgets/herd`);
  const key = 'herd/el-doble';
  const hidden = () => page.evaluate(() => getComputedStyle(document.querySelector('#widget-herd .results')).visibility === 'hidden'
    && document.querySelector('#widget-herd .widget-grid').inert);
  assert.equal(await hidden(), false);
  await page.click(`section.task[data-task="${key}"] button.task-start`);
  await page.waitForFunction(() => document.querySelector('#widget-herd').classList.contains('veiled'));
  assert.equal(await hidden(), true, 'figures, chart and player are hidden and out of reach');
  // The task's parameters are put in place (what the question is about stays in sight).
  await page.waitForFunction(() => new URLSearchParams(location.search).get('capacity') === '100');
  // Nothing typed, or text that is not a number: not a prediction, nothing is shown.
  await page.click(`section.task[data-task="${key}"] button.task-check`);
  await page.waitForFunction((k) => document.querySelector(`section.task[data-task="${k}"] .task-verdict`), key);
  assert.equal(await hidden(), true);
  await page.fill(`section.task[data-task="${key}"] input.answer`, 'muchos');
  await page.click(`section.task[data-task="${key}"] button.task-check`);
  assert.match(await page.textContent(`section.task[data-task="${key}"] .task-verdict`), /no se entendió|No entendí|se esperaba/i);
  assert.equal(await hidden(), true);
  // Committed: shown, and played from 0 to its end.
  await page.fill(`section.task[data-task="${key}"] input.answer`, '≈ 700');
  await page.click(`section.task[data-task="${key}"] button.task-check`);
  await page.waitForFunction(() => document.querySelector('#widget-herd .player').dataset.playing === 'true');
  assert.equal(await hidden(), false);
  await page.waitForFunction(() => document.querySelector('#widget-herd .player').dataset.playing === 'false', null, { timeout: 20_000 });
  assert.equal(await page.getAttribute('#widget-herd .player', 'data-t-ms'), '1410');
  assert.match(await page.textContent('#widget-herd td[data-figure="gave_up"]'), /^700$/);
  assert.equal(await stateOf(page, key), 'right');
  assert.deepEqual(problems, []);
  await page.close();
});

test('with reduced motion a committed prediction shows the whole run at once', async () => {
  const { page, problems } = await open(`/lecciones/${SLUG}/widgets/storm`);
  await page.emulateMedia({ reducedMotion: 'reduce' });
  // The storm's task is a finding (nothing hidden); the breaker's is a prediction.
  await page.goto(page.url().replace('/storm', '/breaker'));
  await page.waitForSelector('#app[data-ready]');
  await page.click('section.task button.task-start');
  await page.fill('section.task input.answer', '12:00:05.5');
  await page.click('section.task button.task-check');
  await page.waitForFunction(() => document.querySelector('section.task').dataset.state === 'right');
  assert.equal(await page.getAttribute('#widget-breaker .player', 'data-playing'), 'false');
  assert.equal(new URL(page.url()).searchParams.get('t-ms'), null, 'at its end, not at its start');
  assert.equal(await page.locator('#widget-breaker.veiled').count(), 0);
  assert.deepEqual(problems, []);
  await page.close();
});
