// What a learner downloads: the wasm, JS and CSS of a release build,
// compressed as the build's precompressed copies are (scripts/compress.mjs:
// brotli 11, which browsers take over HTTPS, and gzip -9, the fallback).
// The browser module is split per piece (scripts/split-build.sh): a page
// loads the runtime (the wasm-bindgen glue, the runtime's wasm, the split
// loader) and the modules of the pieces it shows (`buildOf`, `piecesOf`).
// Not counted: sensei-embed.js, for host pages, and sw.js, the service
// worker, which the browser fetches after the lab has started; nor the
// instructors' build, which only «Para docentes» and the SCORM package load
// (the same for the shell of those pages).
// Used by scripts/size-check.mjs (CI), offline.mjs, scorm.mjs, split-sizes.mjs and benches/browser.mjs.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotli, gzip } from './compress.mjs';

/** A build's file (the learner's or the instructors': their names are their hashes):
 *  its glue (`.js`), its runtime (`_bg.wasm`), its split loader (`_split.js`) and
 *  the modules of its pieces (`.wasm`, scripts/place-split.mjs). */
export const BUILD = /^sensei-lab-[0-9a-f]+(_bg\.wasm|_split\.js|\.wasm|\.js)$/;

/** The modules a split loader (wasm-split-cli's `__wasm_split.js`, or the
 *  build's `_split.js`) fetches: `{ [its loader's name]: { file, deps } }`,
 *  a split point's (`__wasm_split_load_herd`) or a chunk's (`__chunk_12`,
 *  `__chunk_common`), with the chunks it needs first. Throws if it did not
 *  read every module the loader fetches (its shape changed). */
export function loaderModules(loader, name = 'the split loader') {
  const files = {};
  for (const m of loader.matchAll(/const (__chunk_\w+|__wasm_split_load_\w+) = (?:wrapAsyncCb\()?makeLoad\(\(\) => \{\s*const src = fetch\(new URL\("\.\/([\w.-]+)"[\s\S]*?\n, \[([^\]]*)\]\)/g)) {
    files[m[1]] = { file: m[2], deps: m[3].split(',').map((d) => d.trim()).filter(Boolean) };
  }
  const fetches = loader.split('fetch(new URL(').length - 1;
  if (Object.keys(files).length !== fetches) {
    throw new Error(`${name}: read ${Object.keys(files).length} of its ${fetches} modules (has its shape changed?)`);
  }
  return files;
}

/** The build the page `html` loads (its loader script names the glue):
 *  `{ runtime, pieces, all }`: the files every page of it loads (the glue, the
 *  runtime, the split loader), each split point's files (its module and the
 *  chunks it shares: `pieces.herd`), and every file of the build. A build
 *  without a split (Trunk's one module) has a runtime and no pieces. */
export function buildOf(dist, html) {
  const stem = html.match(/'(?:[^']*\/)?(sensei-lab-[0-9a-f]+)\.js'/)?.[1];
  if (!stem) return { runtime: [], pieces: {}, all: [] };
  const runtime = [`${stem}.js`, `${stem}_bg.wasm`];
  const pieces = {};
  if (existsSync(join(dist, `${stem}_split.js`))) {
    runtime.push(`${stem}_split.js`);
    const files = loaderModules(readFileSync(join(dist, `${stem}_split.js`), 'utf8'), `${stem}_split.js`);
    for (const [name, { file, deps }] of Object.entries(files)) {
      if (!name.startsWith('__wasm_split_load_')) continue;
      pieces[name.slice('__wasm_split_load_'.length)] = [file, ...deps.map((d) => files[d].file)];
    }
  }
  const all = [...new Set([...runtime, ...Object.values(pieces).flat()])];
  return { runtime, pieces, all };
}

/** The split point whose code an island host's piece needs, by its key
 *  (`data-island`): a widget's own (`widget:herd` → `herd`), the exercises'
 *  (`exercise:2` → `exercises`), else the light pieces' (`page`). */
export function pointOf(key) {
  const [kind, id] = key.split(':');
  return kind === 'widget' ? id : kind === 'exercise' ? 'exercises' : 'page';
}

/** The split points whose code a prerendered page's pieces need (`html`'s
 *  island hosts: a widget's own, the exercises', the light pieces' `page`);
 *  with `until`, only the hosts before that place of the page. A page
 *  hydrated whole (without hosts, or the print view's and «Para docentes»)
 *  needs `app` too. */
export function piecesOf(html, until = html.length) {
  const need = new Set();
  for (const m of html.slice(0, until).matchAll(/ data-island="([^"]*)"/g)) need.add(pointOf(m[1]));
  const route = html.match(/<div id="app" data-route="([^"]*)"/)?.[1] ?? '';
  if (need.size === 0 || /^\/(imprimir|docentes)\//.test(route)) need.add('app');
  return [...need];
}

/** [{ file, kind, bytes, gzip, br }] for each counted file of `dist` that
 *  the page `shell` (default: `dist/index.html`, the learner's) loads, sorted
 *  by name: the style, the lab's own scripts, its build's runtime and, of a
 *  split build, the modules of the split points `pieces` (none: the runtime only). */
export function firstLoad(dist, shell = join(dist, 'index.html'), pieces = []) {
  const page = readFileSync(shell, 'utf8');
  const build = buildOf(dist, page);
  const unknown = pieces.filter((p) => build.runtime.length > 2 && !build.pieces[p]);
  if (unknown.length > 0) throw new Error(`${shell}: its build has no split point ${unknown.join(', ')}`);
  const loads = new Set([...build.runtime, ...pieces.flatMap((p) => build.pieces[p] ?? [])]);
  return readdirSync(dist).sort()
    .filter((f) => /\.(wasm|js|css)$/.test(f) && f !== 'sensei-embed.js' && f !== 'sw.js')
    .filter((f) => !BUILD.test(f) || loads.has(f))
    .map((file) => {
      const raw = readFileSync(join(dist, file));
      return { file, kind: file.split('.').pop(), bytes: raw.length, gzip: gzip(raw).length, br: brotli(raw).length };
    });
}
