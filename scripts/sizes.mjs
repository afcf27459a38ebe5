// What a learner downloads on first load: the gzipped (-9) wasm, JS and CSS
// of a release build. sensei-embed.js is for host pages and not counted.
// Used by scripts/size-check.mjs (CI) and benches/browser.mjs (the report).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';

/** [{ file, kind, bytes, gzip }] for each counted file of `dist`, sorted by name. */
export function firstLoad(dist) {
  return readdirSync(dist).sort()
    .filter((f) => /\.(wasm|js|css)$/.test(f) && f !== 'sensei-embed.js')
    .map((file) => {
      const raw = readFileSync(join(dist, file));
      return { file, kind: file.split('.').pop(), bytes: raw.length, gzip: gzipSync(raw, { level: 9 }).length };
    });
}
