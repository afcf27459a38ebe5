// What a learner downloads on first load: the wasm, JS and CSS of a release
// build, compressed as the build's precompressed copies are
// (scripts/compress.mjs: brotli 11, which browsers take over HTTPS, and
// gzip -9, the fallback) (the lab's own JS: the wasm-bindgen glue and
// sensei-offline.js, which registers the service worker). Not counted:
// sensei-embed.js, for host pages, and sw.js, the service worker, which the
// browser fetches after the lab has started; nor the instructors' build,
// which only «Para docentes» and the SCORM package load (`instructors`: the
// same for the shell of those pages).
// Used by scripts/size-check.mjs (CI) and benches/browser.mjs (the report).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotli, gzip } from './compress.mjs';

/** A browser build's wasm or its glue (the learner's or the instructors': their names are their hashes). */
export const BUILD = /^sensei-lab-[0-9a-f]+(_bg\.wasm|\.js)$/;
/** Whether `file`, one of a build's (`BUILD`), is the one the page `html` loads (its loader names it). */
export const loadedBy = (html, file) => html.includes(`/${file}'`);

/** [{ file, kind, bytes, gzip, br }] for each counted file of `dist` that
 *  the page `shell` (default: `dist/index.html`, the learner's) loads, sorted by name. */
export function firstLoad(dist, shell = join(dist, 'index.html')) {
  const page = readFileSync(shell, 'utf8');
  return readdirSync(dist).sort()
    .filter((f) => /\.(wasm|js|css)$/.test(f) && f !== 'sensei-embed.js' && f !== 'sw.js')
    .filter((f) => !BUILD.test(f) || loadedBy(page, f))
    .map((file) => {
      const raw = readFileSync(join(dist, file));
      return { file, kind: file.split('.').pop(), bytes: raw.length, gzip: gzip(raw).length, br: brotli(raw).length };
    });
}
