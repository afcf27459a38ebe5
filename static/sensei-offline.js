/* Sensei Lab: registers sw.js, offers a new version (ARCHITECTURE.md). */
(function () {
  'use strict';
  var sw = navigator.serviceWorker, meta = document.querySelector('meta[name=sensei-lab-version]'), box, reloading;
  if (!sw) return;
  // trunk serve: no worker, not even one a release build left; a page such a
  // worker still controls is loaded once more, without it.
  if (!meta) {
    return sw.getRegistration().then(function (r) { return r && r.unregister(); }).then(function () {
      if (!sw.controller) return sessionStorage.removeItem('sensei-lab:unworked');
      if (sessionStorage.getItem('sensei-lab:unworked')) return;
      sessionStorage.setItem('sensei-lab:unworked', '1');
      location.reload();
    }).catch(function () {});
  }
  function check(w) {
    var ch = new MessageChannel();
    ch.port1.onmessage = function (e) {
      // Its build is this page's: it may take over; another: this page is old.
      if (e.data == meta.content) w.postMessage('sensei-lab:activate');
      else if (!box) {
        box = document.createElement('div');
        box.className = 'update-notice';
        box.setAttribute('role', 'status');
        box.innerHTML = '<p>Hay una versión nueva de Sensei Lab. Recarga la página para usarla.</p><button type=button>Recargar</button><button type=button>Ahora no</button>';
        box.children[1].onclick = function () {
          if (w.state != 'installed') return location.reload();
          reloading = 1;
          w.postMessage('sensei-lab:activate');
        };
        box.children[2].onclick = function () { box.hidden = 1; };
        document.body.appendChild(box);
      }
    };
    w.postMessage('sensei-lab:version', [ch.port2]);
  }
  function track(w) {
    if (w) w.onstatechange = function () { if (w.state == 'installed') check(w); };
  }
  sw.oncontrollerchange = function () {
    if (reloading) location.reload();
    else if (sw.controller) {
      check(sw.controller);
      // A worker that came after this page loaded did not see it: it keeps it now, for the next visit.
      sw.controller.postMessage('sensei-lab:keep');
    }
  };
  function start() {
    sw.register('sw.js').then(function (reg) {
      function update() { if (!document.hidden) reg.update().catch(function () {}); }
      if (reg.waiting) check(reg.waiting);
      track(reg.installing);
      reg.onupdatefound = function () { track(reg.installing); };
      addEventListener('online', update);
      document.addEventListener('visibilitychange', update);
    }).catch(function () {});
  }
  // Once the page's pieces are awake (#app[data-ready]: their modules are here)
  // and the page is idle: the worker's downloads (the whole build, for
  // offline) never compete with the page's own on a slow network. A page
  // whose pieces do not all wake (a module that did not arrive) still gets
  // its worker, 15 s after the lab started.
  var started;
  function idle() {
    if (started) return;
    started = 1;
    if (window.requestIdleCallback) requestIdleCallback(start, { timeout: 5000 }); else setTimeout(start, 1000);
  }
  function ready() {
    var app = document.getElementById('app');
    if (!app || app.hasAttribute('data-ready')) return idle();
    var seen = new MutationObserver(function () {
      if (app.hasAttribute('data-ready')) { seen.disconnect(); idle(); }
    });
    seen.observe(app, { attributes: true, attributeFilter: ['data-ready'] });
    setTimeout(function () { seen.disconnect(); idle(); }, 15000);
  }
  if (window.wasmBindings) ready(); else addEventListener('TrunkApplicationStarted', ready);
})();
