/* Sensei Lab: nothing a learner does before a piece is awake is lost.
 *
 * A prerendered page shows its widgets and exercises (charts included) long
 * before the wasm has arrived and woken them, and waking writes each
 * control's value back from the component's state. This script, small and
 * outside the wasm, keeps what the learner did meanwhile, in order: a value
 * set (a slider, a number, an answer typed, a choice, a box ticked) and a
 * press (a button, a «Comprobar», a summary). It marks the piece touched
 * (`data-waking`: the style sheet says its change is coming) and asks the
 * app to wake it first (`sensei-lab:wake`). Once the piece is awake (its
 * island's `data-awake`, ui::islands; or the whole app's `data-ready`,
 * ui::app::READY) it does it all again, one step per task, as the learner
 * did: a value is set and `input` and `change` are dispatched, a press is a
 * click; the components hear them as they hear the learner.
 *
 * Also: a section's page opened without its `#id` starts at the section
 * (the lesson's text is all there; the app does not walk it to scroll).
 * ARCHITECTURE.md, «Waking».
 */
(function () {
  'use strict';
  var app = document.getElementById('app');
  if (!app || app.hasAttribute('data-ready')) return;
  var PIECES = '.widget, .exercise, .knew-it, .progress-summary';
  var steps = [];
  var HOST = '[data-island]';
  var hostOf = function (el) { return el.closest(HOST); };
  // Whether what `el` belongs to is awake.
  var ready = function (el) {
    if (app.hasAttribute('data-ready')) return true;
    var host = el && hostOf(el);
    return !!host && host.hasAttribute('data-awake');
  };
  // What waits for waking: a control of a live piece (an island's, or a
  // widget's or an exercise's on a page the app hydrates whole). The rest of
  // the page (its text's folds and links) is the browser's, awake or not.
  var waits = function (el) { return !!el && app.contains(el) && !!(hostOf(el) || el.closest(PIECES)); };
  var isField = function (el) {
    return el instanceof HTMLInputElement || el instanceof HTMLSelectElement || el instanceof HTMLTextAreaElement;
  };
  function mark(el) {
    var piece = el.closest(PIECES) || hostOf(el);
    if (piece) piece.setAttribute('data-waking', '');
    // This one first.
    var host = hostOf(el);
    if (host) host.dispatchEvent(new CustomEvent('sensei-lab:wake', { bubbles: true }));
  }
  function keep(el) {
    var last = steps[steps.length - 1];
    var step = { el: el, kind: 'value', value: el.value, checked: el.checked, at: location.pathname };
    // A slider dragged is many inputs: one step, its last value.
    if (last && last.el === el && last.kind === 'value') steps[steps.length - 1] = step;
    else steps.push(step);
    mark(el);
  }
  function onValue(e) {
    if (isField(e.target) && waits(e.target) && !ready(e.target)) keep(e.target);
  }
  document.addEventListener('input', onValue, true);
  document.addEventListener('change', onValue, true);
  document.addEventListener('click', function (e) {
    if (!(e.target instanceof Element)) return;
    var el = e.target.closest('button, summary');
    if (!waits(el) || ready(el)) return;
    // Not now (a form would be sent, a fold toggled behind the app's back): when awake.
    e.preventDefault();
    e.stopPropagation();
    steps.push({ el: el, kind: 'click', at: location.pathname });
    mark(el);
  }, true);
  // Enter in an answer's field sends its form: kept as the press of its first button.
  document.addEventListener('submit', function (e) {
    if (!waits(e.target) || ready(e.target)) return;
    e.preventDefault();
    var button = e.target.querySelector('button[type=submit], button:not([type])');
    if (button) { steps.push({ el: button, kind: 'click', at: location.pathname }); mark(button); }
  }, true);

  // Values set before this script ran (the page still arriving).
  function already() {
    app.querySelectorAll('input, select, textarea').forEach(function (el) {
      var changed = el instanceof HTMLSelectElement
        ? Array.prototype.some.call(el.options, function (o) { return o.selected !== o.defaultSelected; })
        : (el.type === 'checkbox' || el.type === 'radio') ? el.checked !== el.defaultChecked : el.value !== el.defaultValue;
      if (changed) keep(el);
    });
  }
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', already);
  else already();

  // The same element after waking: hydration keeps the page's nodes; a page
  // the app rendered anew at the same address (a query in it) has new ones,
  // found by id. Not on another page the learner has gone on to.
  function find(step) {
    if (step.el.isConnected) return step.el;
    return step.el.id && step.at === location.pathname ? document.getElementById(step.el.id) : null;
  }
  var next = function () { return new Promise(function (ok) { setTimeout(ok, 0); }); };
  var replaying = Promise.resolve();
  // Plays again the steps of what woke (`within`: a host; null: everything).
  function replay(within) {
    var mine = steps.filter(function (s) { return !within || within.contains(s.el); });
    steps = steps.filter(function (s) { return mine.indexOf(s) < 0; });
    replaying = replaying.then(next).then(async function () {
      for (var i = 0; i < mine.length; i++) {
        var s = mine[i], el = find(s);
        if (!el) continue;
        if (s.kind === 'click') {
          el.click();
        } else {
          if (el.type === 'checkbox' || el.type === 'radio') el.checked = s.checked;
          else el.value = s.value;
          el.dispatchEvent(new Event('input', { bubbles: true }));
          el.dispatchEvent(new Event('change', { bubbles: true }));
        }
        // Each step lands on the state the one before left (the app renders in a task).
        await next();
      }
      (within ? [within] : []).concat(Array.prototype.slice.call(app.querySelectorAll('[data-waking]')))
        .forEach(function (p) {
          if (!within || within.contains(p) || p === within) p.removeAttribute('data-waking');
        });
      var n = Number(app.getAttribute('data-replayed') || 0) + mine.length;
      app.setAttribute('data-replayed', String(n));
    });
  }
  new MutationObserver(function (records, observer) {
    if (app.hasAttribute('data-ready')) {
      observer.disconnect();
      replay(null);
      return;
    }
    records.forEach(function (r) {
      if (r.attributeName === 'data-awake' && r.target.hasAttribute('data-awake')) replay(r.target);
    });
  }).observe(app, { attributes: true, subtree: true, attributeFilter: ['data-ready', 'data-awake'] });

  // A section's page without its #id: at the section from the first paint.
  function toSection() {
    var route = app.getAttribute('data-route') || '';
    var id = route.split('/').pop();
    var section = id && !location.hash && document.getElementById(id);
    if (section && section.matches('section.section') && window.scrollY === 0) section.scrollIntoView();
  }
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', toSection);
  else toSection();
})();
