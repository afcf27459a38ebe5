// Writes each file a release build serves precompressed beside it, as static
// hosts and nginx's `brotli_static` / `gzip_static` serve them: `f.br`
// (brotli, quality 11) and `f.gz` (gzip -9), for the kinds that compress
// (pages, scripts, styles, wasm, SVG, JSON, XML, text). A file is left
// alone where compressing does not make it smaller.
//
// Usage: node scripts/compress.mjs dist   (the last step of scripts/finish.mjs:
// after the service worker's list, which names the files themselves only).
// Run again on the same folder, it writes the same (node's gzip writes no time).
import { readFileSync, readdirSync, statSync, writeFileSync, rmSync, existsSync } from 'node:fs';
import { join, extname } from 'node:path';
import { brotliCompressSync, gzipSync, constants } from 'node:zlib';

export const COMPRESSED = ['.br', '.gz'];
const KINDS = new Set(['.html', '.js', '.mjs', '.css', '.wasm', '.svg', '.json', '.webmanifest', '.xml', '.txt']);

export function brotli(data) {
  return brotliCompressSync(data, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: 11,
      [constants.BROTLI_PARAM_SIZE_HINT]: data.length,
      [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_GENERIC,
    },
  });
}
export const gzip = (data) => gzipSync(data, { level: 9 });

function walk(dir) {
  return readdirSync(dir).sort().flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : [path];
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const dist = process.argv[2];
  if (!dist) { console.error('usage: node scripts/compress.mjs dist'); process.exit(2); }
  let count = 0, raw = 0, br = 0, gz = 0;
  for (const path of walk(dist)) {
    if (COMPRESSED.includes(extname(path)) || !KINDS.has(extname(path))) continue;
    const data = readFileSync(path);
    for (const [ext, pack, add] of [['.br', brotli, (n) => { br += n; }], ['.gz', gzip, (n) => { gz += n; }]]) {
      const packed = pack(data);
      if (packed.length < data.length) {
        writeFileSync(path + ext, packed);
        add(packed.length);
      } else {
        if (existsSync(path + ext)) rmSync(path + ext);
        add(data.length);
      }
    }
    count += 1;
    raw += data.length;
  }
  const kb = (n) => `${(n / 1000).toFixed(0)} KB`;
  console.log(`${dist}/: ${count} files precompressed (${kb(raw)}: brotli ${kb(br)}, gzip ${kb(gz)})`);
}
