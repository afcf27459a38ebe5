/* Sensei Lab's service worker: the lab offline, one build at a time.
 *
 * This file is a template. Trunk does not copy it: after a release build,
 * scripts/offline.mjs writes dist/sw.js from it, with BUILD below replaced by
 * the build's version and every file of the build with its SHA-256 (the key ""
 * is the page, index.html, as the scope's root serves it). With the empty list
 * written here the worker does nothing at all: every request goes to the
 * network.
 *
 * - install: the build's files into a cache of their own, named by the scope
 *   and the version; each file's content is checked against its hash, so a
 *   cache never holds pieces of two builds (a server already serving a newer
 *   page makes the install fail: the browser tries again with the newer
 *   sw.js). With Save-Data, only what the browser already has (`SAVE`).
 * - activate: the caches of this scope's other versions are deleted (only now,
 *   when this version takes over), then the open pages are taken over.
 * - navigations (any path of the single-page app): a page this version has
 *   kept (the home page, or a page visited before) at once, from the cache,
 *   and the network's copy asked for 10 s later (issue 43: a second visit
 *   does not wait for the network); a page not kept, the network
 *   first; without a network, or after 3 s without its answer, the cached
 *   home page (for another address than the scope's root, without its
 *   prerendered text: the app renders that address's page). The network's
 *   copy of a page is kept when it is this version's page (its
 *   `sensei-lab-version`); another version's is not: its worker comes with
 *   its own sw.js, and the page open says «Hay una versión nueva».
 * - a development server's page (the lab's page, not redirected, without a
 *   version: trunk serve's) seen when a page is refreshed: this worker
 *   answers nothing more, unregisters, deletes its caches and takes the open
 *   pages to the network's copy.
 * - the build's files (hashed wasm, JS, CSS; icons, manifest): from this
 *   version's cache, else the network. No file fetched is added to a cache
 *   (a file the network gave may be another version's), except with
 *   Save-Data, where one whose hash is this build's is.
 * - messages from sensei-offline.js: "sensei-lab:version" (answered on the
 *   port given), "sensei-lab:activate" (a waiting version takes over) and
 *   "sensei-lab:keep" (the page that sends it, which this worker took over
 *   after it loaded, is kept as a navigation to it would be).
 */
'use strict';

const BUILD = { version: '', files: {}, first: [] };

const SCOPE = self.registration.scope;
const PREFIX = `sensei-lab ${SCOPE} `;
const CACHE = PREFIX + BUILD.version;
const FILES = new Map(Object.entries(BUILD.files));
// What every page of this build loads first (its style, its scripts, the
// runtime of its browser module): without them no page works.
const FIRST = BUILD.first;
const ON = FILES.size > 0;
// Set once a development server's page is seen: from then on this worker
// answers nothing (every request goes to the network) and leaves.
let gone = false;

const hex = (buf) => Array.from(new Uint8Array(buf), (b) => b.toString(16).padStart(2, '0')).join('');

// Save-Data (a learner who asked the browser to spend less of their data,
// as Chromium tells a worker; read when the worker starts): nothing is
// fetched ahead. The install keeps only what the device already has
// (`precacheSaving`); a build file fetched later is kept once it proves to
// be this build's; a kept page is not asked for again behind it; without
// the home page kept, any kept page serves as the shell offline. Offline
// then covers the pages the learner kept, with the build's files they used.
const SAVE = self.navigator.connection?.saveData === true;

// Keeps `res` as this build's file `path` if its content is that file's
// (its hash); says whether it did.
async function store(cache, path, res) {
  const body = await res.arrayBuffer();
  if (!res.ok || hex(await crypto.subtle.digest('SHA-256', body)) !== FILES.get(path)) return false;
  // Stored as a plain response with only its type: a redirected one (a
  // host's /index.html → /) would be unusable for a navigation, and the
  // body read here is already decoded (no Content-Encoding, another length).
  const type = res.headers.get('content-type');
  await cache.put(SCOPE + path, new Response(body, { headers: type ? { 'content-type': type } : {} }));
  return true;
}

async function precache() {
  const cache = await caches.open(CACHE);
  if (SAVE) return precacheSaving(cache);
  try {
    await Promise.all([...FILES.keys()].map(async (path) => {
      if (!(await store(cache, path, await fetch(SCOPE + path, { cache: 'no-cache' })))) {
        throw new Error(`${SCOPE + path}: not the file of build ${BUILD.version}`);
      }
    }));
  } catch (e) {
    await caches.delete(CACHE);
    throw e;
  }
}

// Whether a cache's entry is a file of a build (the home page, "", and names
// with an extension), not a page kept on the way.
const isFile = (req) => {
  const path = req.url.slice(SCOPE.length);
  return path === '' || path.split('/').pop().includes('.');
};
const filesIn = async (cache) => (await cache.keys()).filter(isFile).length;

// The install with Save-Data: from what this device already has, never the
// network: a file an older version kept (the same bytes: its hash), else
// the browser's HTTP cache (what the page loaded). A first install keeps
// what it finds. An update that would keep fewer files than the version
// before, or not what every page loads first (`FIRST`: a piece's module
// may be the same in both versions, the runtime never is), fails, so that
// the version before, whole, stays in charge (offline too): the browser
// tries again at its next update check, by when the page has loaded the new
// build's files (a page the worker has not kept comes from the network,
// with its files).
async function precacheSaving(cache) {
  const older = [];
  for (const name of await caches.keys()) {
    if (name.startsWith(PREFIX) && name !== CACHE) older.push(await caches.open(name));
  }
  await Promise.all([...FILES.keys()].map(async (path) => {
    for (const old of older) {
      const res = await old.match(SCOPE + path, { ignoreVary: true });
      if (res && (await store(cache, path, res))) return;
    }
    await fetch(SCOPE + path, { cache: 'only-if-cached', mode: 'same-origin' })
      .then((res) => store(cache, path, res))
      .catch(() => false);
  }));
  const before = Math.max(0, ...(await Promise.all(older.map(filesIn))));
  const first = await Promise.all(FIRST.map((path) => cache.match(SCOPE + path, { ignoreVary: true })));
  if ((await filesIn(cache)) < before || (older.length > 0 && first.some((hit) => !hit))) {
    await caches.delete(CACHE);
    throw new Error(`Save-Data: build ${BUILD.version} not here without the network; the version before stays`);
  }
}

self.addEventListener('install', (e) => {
  if (ON) e.waitUntil(precache());
});

self.addEventListener('activate', (e) => {
  e.waitUntil((async () => {
    for (const name of await caches.keys()) {
      if (name.startsWith(PREFIX) && name !== CACHE) await caches.delete(name);
    }
    await self.clients.claim();
  })());
});

async function fromCache(path) {
  const cache = await caches.open(CACHE);
  return cache.match(SCOPE + path, { ignoreVary: true });
}

// How long a navigation waits for the network before the cached page: on a
// connection that hangs, a learner does not wait without end.
const NETWORK_WAIT_MS = 3000;

// The cached page is index.html, the home page prerendered. For any other
// address its text would show for a moment before the app renders that
// address's page: it goes without its prerendered body (and its route), and
// the app renders the right page into the empty root (ui::start).
async function cachedPage(path) {
  // With Save-Data the home page may not be kept: any page this version kept has the same shell.
  const page = (await fromCache('')) || (await anyKeptPage());
  if (!page || path === '' || path === 'index.html') return page;
  const html = (await page.text()).replace(/<div id="app"[^>]*>[\s\S]*<\/div>(\s*<\/body>)/, '<div id="app"></div>$1');
  return new Response(html, { headers: page.headers });
}

async function anyKeptPage() {
  const cache = await caches.open(CACHE);
  const page = (await cache.keys()).find((req) => !isFile(req));
  return page && cache.match(page);
}

// The key a page is kept under: its path, without a trailing slash or a
// query (a query is the page's state, which the app reads; the page is the same).
const pageKey = (path) => SCOPE + path.replace(/\/+$/, '');
const VERSION_META = /<meta name="sensei-lab-version" content="([0-9a-f]*)"/;
// Keeps the network's copy of a page when it is this version's.
async function keep(path, res) {
  if (!res.ok || res.redirected || !(res.headers.get('content-type') || '').startsWith('text/html')) return;
  const html = await res.text();
  const version = html.match(VERSION_META)?.[1];
  // The lab's page without a version (a login page, a captive portal's, a
  // host's maintenance page are not the lab's: nothing is done for them).
  if (version === undefined && html.includes('sensei-offline.js')) {
    // A page without a version is a development server's (trunk serve): as
    // sensei-offline.js does on such a page, no worker stays, nor its caches;
    // and the pages open, which this worker may have served from its cache,
    // are taken to the network's copy (whose script removes any worker left).
    if (gone) return;
    gone = true;
    await self.registration.unregister();
    for (const name of await caches.keys()) if (name.startsWith(PREFIX)) await caches.delete(name);
    const open = await self.clients.matchAll({ type: 'window' });
    await Promise.allSettled(open.map(async (client) => {
      if (typeof client.navigate === 'function') await client.navigate(client.url);
    }));
    return;
  }
  // The home page is this version's own file, never replaced by a copy.
  if (version !== BUILD.version || path === '' || path === 'index.html') return;
  const cache = await caches.open(CACHE);
  await cache.put(pageKey(path), new Response(html, { headers: { 'content-type': res.headers.get('content-type') } }));
}
async function keptPage(path) {
  if (path === '' || path === 'index.html') return fromCache('');
  const cache = await caches.open(CACHE);
  return cache.match(pageKey(path), { ignoreVary: true });
}
// How long after serving a kept page its network copy is asked for: not
// while the page is being parsed and woken (on a phone's slow CPU, reading
// and keeping a 300 KB page beside it costs the learner).
const REFRESH_AFTER_MS = 10_000;
async function navigate(e, path) {
  let settled;
  e.waitUntil(new Promise((ok) => { settled = ok; }));
  const kept = await keptPage(path);
  if (kept && SAVE) {
    settled();
    return kept;
  }
  if (kept) {
    // Refreshed behind it, later.
    setTimeout(() => fetch(e.request.url, { cache: 'no-cache' }).then((res) => keep(path, res)).catch(() => {}).finally(settled), REFRESH_AFTER_MS);
    return kept;
  }
  const net = fetch(e.request);
  // Kept if it is this version's (cloned before the page may read it: this is its first `then`).
  net.then((res) => keep(path, res.clone())).catch(() => {}).finally(settled);
  let timer;
  const late = new Promise((ok) => { timer = setTimeout(ok, NETWORK_WAIT_MS, null); });
  try {
    const res = await Promise.race([net, late]);
    if (res) return res;
    return (await cachedPage(path)) || (await net);
  } catch (offline) {
    return (await cachedPage(path)) || Response.error();
  } finally {
    clearTimeout(timer);
  }
}

async function file(e, path) {
  const hit = await fromCache(path);
  if (hit) return hit;
  const res = await fetch(e.request);
  // With Save-Data the install fetched nothing: what is used is kept, once it proves to be this build's.
  if (SAVE && res.ok) e.waitUntil(caches.open(CACHE).then((cache) => store(cache, path, res.clone())).catch(() => {}));
  return res;
}

// No navigation preload: Firefox (ESR 153) shows its network error page when
// the preload fails, even though the worker answers with the cached page.
self.addEventListener('fetch', (e) => {
  const req = e.request;
  const url = new URL(req.url);
  const where = url.origin + url.pathname;
  if (!ON || gone || req.method !== 'GET' || !where.startsWith(SCOPE)) return;
  const path = where.slice(SCOPE.length);
  if (req.mode === 'navigate') e.respondWith(navigate(e, path));
  else if (path && !url.search && FILES.has(path)) e.respondWith(file(e, path));
});

// A page that loaded before this worker took it over: kept now from the
// network (this version's page only), so that its next visit is as quick.
async function keepClient(url) {
  const where = new URL(url);
  const at = where.origin + where.pathname;
  if (!at.startsWith(SCOPE)) return;
  const path = at.slice(SCOPE.length);
  if (await keptPage(path)) return;
  // With Save-Data, only the copy the browser has (the page just loaded), never a new one.
  await keep(path, await fetch(at, SAVE ? { cache: 'only-if-cached', mode: 'same-origin' } : { cache: 'no-cache' }));
}
self.addEventListener('message', (e) => {
  if (e.data === 'sensei-lab:version' && e.ports[0]) e.ports[0].postMessage(BUILD.version);
  if (e.data === 'sensei-lab:keep' && ON && e.source?.url) e.waitUntil(keepClient(e.source.url).catch(() => {}));
  if (e.data === 'sensei-lab:activate') self.skipWaiting();
});
