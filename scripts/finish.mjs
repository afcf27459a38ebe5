// Finishes a release build after Trunk, in the order every step needs:
// 0. with the instructors' build (Trunk's other folder, built with
//    `--features instructors`: «Para docentes» and the SCORM runtime, which
//    the learner's build leaves out of its first load), its files (glue,
//    runtime, split loader, pieces) copied beside the learner's (their names
//    are their hashes);
// 1. the page's Content-Security-Policy (scripts/csp.mjs; a page that has
//    one keeps it), in index.html, the shell of every page, and in the
//    instructors' build's, the shell of «Para docentes»;
// 2. every route's page prerendered into the shell (`sensei-lab prerender`:
//    the lesson's text and figures as HTML, which the browser hydrates),
//    among them 404.html, for hosts without a rewrite rule; «Para docentes»
//    into the instructors' shell (without it, as the folder already has them);
//    sitemap.xml and robots.txt beside them (for the site LAB_SITE names,
//    https://cursos.example: a sitemap lists whole URLs);
// 3. the service worker (scripts/offline.mjs: the build's files with their
//    hashes, and the version written into every page), because it hashes
//    what the others wrote;
// 4. each lesson's SCORM 1.2 package, DIST/scorm/<lesson>.zip (scripts/scorm.mjs:
//    the instructors' build's shell and files; not kept offline), and the
//    same with solutions that open only once each part was checked
//    (<lesson>-soluciones-al-comprobar.zip) or never (<lesson>-sin-soluciones.zip),
//    the three «Para docentes» offers;
// 5. every file precompressed beside itself, `.br` and `.gz`
//    (scripts/compress.mjs), last: it compresses what the others wrote.
// Run by `./lab` and by the tests that change a build's page. Run again on
// the same folder, it writes the same.
//
// Usage: node scripts/finish.mjs DIST [INSTRUCTORS_DIST]
import { execFileSync } from 'node:child_process';
import { copyFileSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { BUILD } from './sizes.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const [dir, theirs] = process.argv.slice(2);
if (!dir) {
  console.error('usage: node scripts/finish.mjs DIST [INSTRUCTORS_DIST]');
  process.exit(2);
}
const instructors = [];
if (theirs) {
  const built = readdirSync(theirs).filter((f) => BUILD.test(f));
  if (!built.some((f) => f.endsWith('_bg.wasm')) || !built.some((f) => f.endsWith('.js'))) {
    console.error(`${theirs}: expected the instructors' build's wasm and its glue, found ${built.join(', ') || 'nothing'}`);
    process.exit(1);
  }
  for (const f of built) copyFileSync(join(theirs, f), join(dir, f));
  execFileSync('node', [join(here, 'csp.mjs'), join(theirs, 'index.html')], { stdio: 'inherit' });
  instructors.push('--instructors', resolve(theirs, 'index.html'));
}
execFileSync('node', [join(here, 'csp.mjs'), join(dir, 'index.html')], { stdio: 'inherit' });
// The native command line, a development build (cargo builds it if needed; `./lab test` has already).
const site = process.env.LAB_SITE ? ['--site', process.env.LAB_SITE] : [];
execFileSync('cargo', ['run', '--quiet', '--locked', '--bin', 'sensei-lab', '--', 'prerender', resolve(dir), ...instructors, ...site],
  { stdio: 'inherit', cwd: join(here, '..') });
execFileSync('node', [join(here, 'offline.mjs'), dir], { stdio: 'inherit' });
for (const solutions of ['always', 'checked', 'never']) {
  execFileSync('node', [join(here, 'scorm.mjs'), dir, '--solutions', solutions], { stdio: 'inherit' });
}
execFileSync('node', [join(here, 'compress.mjs'), dir], { stdio: 'inherit' });
