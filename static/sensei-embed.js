/* Sensei Lab: resizes the lab's iframes to their content.
 * Add once to the page that embeds them:
 *   <script src="https://…/sensei-embed.js" defer></script>
 * Each embedded piece posts { type: "sensei-lab:height", version: 1, height };
 * this script greets each iframe with { type: "sensei-lab:hello", version: 1 }
 * (on start and on each load), which a piece answers with its height.
 * Score messages ({ type: "sensei-lab:score", version: 2, … }, an exercise's
 * or a widget's task's) are passed on as a DOM event
 * "sensei-lab:score" on the iframe, for a course page to record.
 * Only messages that come from one of this page's iframes are used. */
(function () {
  'use strict';
  if (window.__senseiLabEmbed) return;
  window.__senseiLabEmbed = true;
  function frameOf(source) {
    var frames = document.getElementsByTagName('iframe');
    for (var i = 0; i < frames.length; i++) {
      if (frames[i].contentWindow === source) return frames[i];
    }
    return null;
  }
  // Pieces that loaded before this script ask for nothing: say hello, and they send their height.
  function hello(frame) {
    try { frame.contentWindow.postMessage({ type: 'sensei-lab:hello', version: 1 }, '*'); } catch (e) { /* not ready */ }
  }
  function greetAll() {
    var frames = document.getElementsByTagName('iframe');
    for (var i = 0; i < frames.length; i++) {
      hello(frames[i]);
      frames[i].addEventListener('load', function (e) { hello(e.target); });
    }
  }
  function greetAllOnce() {
    var frames = document.getElementsByTagName('iframe');
    for (var i = 0; i < frames.length; i++) hello(frames[i]);
  }
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', greetAll); else greetAll();
  // A piece still starting when greeted misses the hello: greet again a few times.
  [500, 1500, 4000, 10000].forEach(function (ms) { setTimeout(greetAllOnce, ms); });
  window.addEventListener('message', function (e) {
    var d = e.data;
    if (!d || typeof d !== 'object' || typeof d.type !== 'string') return;
    var frame = frameOf(e.source);
    if (!frame) return;
    if (d.type === 'sensei-lab:height' && d.version === 1 && typeof d.height === 'number' && isFinite(d.height)) {
      var h = Math.max(80, Math.min(20000, Math.ceil(d.height)));
      frame.style.height = h + 'px';
      frame.setAttribute('height', String(h));
    } else if (d.type === 'sensei-lab:score' && (d.version === 1 || d.version === 2)) {
      frame.dispatchEvent(new CustomEvent('sensei-lab:score', { detail: d, bubbles: true }));
    }
  });
})();
