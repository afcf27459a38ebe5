// Makes a release build work offline: writes dist/sw.js (the service worker,
// from the template static/sw.js) with the build's version and the list of its
// files, each with its SHA-256, and puts the version into every page of it
// (`<meta name="sensei-lab-version">`), which static/sensei-offline.js reads:
// a page without it (trunk serve's) registers no worker.
//
// Usage: node scripts/offline.mjs dist   (after scripts/csp.mjs and the
// prerender: last). Run again on the same folder, it writes the same.
//
// The version is a hash of everything the worker serves and of the worker's
// own code: any change to the build gives a new version, hence a new sw.js,
// which the browser installs beside the old one (see static/sw.js).
// Listed: every file of the folder but sw.js itself, sensei-embed.js (host
// pages' script, not the lab's) and the pages: only index.html is kept, as
// "" (the scope's root), which an offline navigation to any address gets;
// the app sees that it was prerendered for another route and renders that
// one (ui::start). Each route's prerendered page is a few dozen kilobytes
// the browser would otherwise download for every page of the course, to
// show what the app draws at once from the cached files anyway.
import { readFileSync, readdirSync, writeFileSync, statSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { join, relative, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BUILD, buildOf } from './sizes.mjs';

const dist = process.argv[2];
if (!dist) { console.error('usage: node scripts/offline.mjs dist'); process.exit(2); }
const template = readFileSync(join(dirname(fileURLToPath(import.meta.url)), '..', 'static', 'sw.js'), 'utf8');
const EMPTY = "const BUILD = { version: '', files: {}, first: [] };";
if (!template.includes(EMPTY)) { console.error(`static/sw.js: no line «${EMPTY}» to fill`); process.exit(1); }

const sha256 = (data) => createHash('sha256').update(data).digest('hex');
const META = /\n?\s*<meta name="sensei-lab-version" content="[^"]*" \/>/;

function walk(dir) {
  return readdirSync(dir).sort().flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : [relative(dist, path).split('\\').join('/')];
  });
}

const pageFile = join(dist, 'index.html');
const page = readFileSync(pageFile, 'utf8').replace(META, '');
if (!page.includes('http-equiv="Content-Security-Policy"')) {
  console.error(`${pageFile}: no Content-Security-Policy yet (run scripts/csp.mjs first: the page must not change after this)`);
  process.exit(1);
}
const all = walk(dist);
const pages = all.filter((f) => f.endsWith('.html'));
// Not the precompressed copies (scripts/compress.mjs: a host sends one in the file's place).
// Nor the SCORM packages (scripts/scorm.mjs), which are for instructors to download,
// nor the instructors' build (the files of a build the shell does not load: «Para
// docentes» loads them, scripts/finish.mjs), which a learner's phone need not fetch.
const learners = new Set(buildOf(dist, page).all);
const instructors = (f) => BUILD.test(f) && !learners.has(f);
const files = all.filter((f) => !f.endsWith('.html') && !/\.(br|gz|zip)$/.test(f) && !instructors(f) && !['sw.js', 'sensei-embed.js', 'robots.txt', 'sitemap.xml'].includes(f));
const hashes = Object.fromEntries(files.map((f) => [f, sha256(readFileSync(join(dist, f)))]));
const version = sha256(JSON.stringify([template, sha256(page), hashes])).slice(0, 16);

// The version, after the policy (the page's first element after its charset).
const versioned = (html) => html.replace(META, '').replace(/(<meta http-equiv="Content-Security-Policy"[^>]*\/>)/,
  `$1\n  <meta name="sensei-lab-version" content="${version}" />`);
const withMeta = versioned(page);
for (const p of pages) {
  const html = readFileSync(join(dist, p), 'utf8');
  if (!html.includes('http-equiv="Content-Security-Policy"')) {
    console.error(`${p}: no Content-Security-Policy (every page comes from index.html after scripts/csp.mjs)`);
    process.exit(1);
  }
  writeFileSync(join(dist, p), versioned(html));
}
if (readFileSync(pageFile, 'utf8') !== withMeta) { console.error(`${pageFile}: not the page hashed`); process.exit(1); }
// What every page loads first: the files the shell names (style, scripts) and its build's runtime.
const named = [...page.matchAll(/(?:href|src)="[^"]*?([^"/]+\.(?:css|js))"/g)].map((m) => m[1]);
const first = [...new Set([...named, ...buildOf(dist, page).runtime])].filter((f) => f in hashes).sort();
if (!first.some((f) => f.endsWith('_bg.wasm'))) { console.error(`${pageFile}: no runtime among what it loads first`); process.exit(1); }
const build = { version, files: { '': sha256(withMeta), ...hashes }, first };
writeFileSync(join(dist, 'sw.js'), template.replace(EMPTY, `const BUILD = ${JSON.stringify(build)};`));

const bytes = [Buffer.byteLength(withMeta), ...files.map((f) => statSync(join(dist, f)).size)].reduce((a, b) => a + b, 0);
console.log(`${dist}/sw.js: version ${version}, ${files.length + 1} files to keep offline (${bytes.toLocaleString('en')} bytes); version in ${pages.length} pages`);
