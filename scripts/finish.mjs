// Finishes a release build after Trunk, in the order every step needs: the
// page's Content-Security-Policy (scripts/csp.mjs; a page that has one keeps
// it), then the service worker (scripts/offline.mjs: the build's files with
// their hashes, and the page's version), then 404.html, a copy of the page
// for hosts without a rewrite rule, so deep links work. Run by `./lab` and by
// the tests that change a build's page.
//
// Usage: node scripts/finish.mjs dist
import { execFileSync } from 'node:child_process';
import { copyFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const dir = process.argv[2];
if (!dir) {
  console.error('usage: node scripts/finish.mjs DIST');
  process.exit(2);
}
execFileSync('node', [join(here, 'csp.mjs'), join(dir, 'index.html')], { stdio: 'inherit' });
execFileSync('node', [join(here, 'offline.mjs'), dir], { stdio: 'inherit' });
copyFileSync(join(dir, 'index.html'), join(dir, '404.html'));
