// Finishes a release build after Trunk, in the order every step needs:
// 1. the page's Content-Security-Policy (scripts/csp.mjs; a page that has
//    one keeps it), in index.html, the shell of every page;
// 2. every route's page prerendered into the shell (`sensei-lab prerender`:
//    the lesson's text and figures as HTML, which the browser hydrates),
//    among them 404.html, for hosts without a rewrite rule;
//    sitemap.xml and robots.txt beside them (for the site LAB_SITE names,
//    https://cursos.example: a sitemap lists whole URLs);
// 3. the service worker (scripts/offline.mjs: the build's files with their
//    hashes, and the version written into every page), because it hashes
//    what the others wrote;
// 4. each lesson's SCORM 1.2 package, DIST/scorm/<lesson>.zip (scripts/scorm.mjs:
//    the build's shell and files; not kept offline);
// 5. every file precompressed beside itself, `.br` and `.gz`
//    (scripts/compress.mjs), last: it compresses what the others wrote.
// Run by `./lab` and by the tests that change a build's page. Run again on
// the same folder, it writes the same.
//
// Usage: node scripts/finish.mjs dist
import { execFileSync } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const dir = process.argv[2];
if (!dir) {
  console.error('usage: node scripts/finish.mjs DIST');
  process.exit(2);
}
execFileSync('node', [join(here, 'csp.mjs'), join(dir, 'index.html')], { stdio: 'inherit' });
// The native command line, a development build (cargo builds it if needed; `./lab test` has already).
const site = process.env.LAB_SITE ? ['--site', process.env.LAB_SITE] : [];
execFileSync('cargo', ['run', '--quiet', '--locked', '--bin', 'sensei-lab', '--', 'prerender', resolve(dir), ...site],
  { stdio: 'inherit', cwd: join(here, '..') });
execFileSync('node', [join(here, 'offline.mjs'), dir], { stdio: 'inherit' });
execFileSync('node', [join(here, 'scorm.mjs'), dir], { stdio: 'inherit' });
execFileSync('node', [join(here, 'compress.mjs'), dir], { stdio: 'inherit' });
