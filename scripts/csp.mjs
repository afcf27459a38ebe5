// Puts a Content-Security-Policy into a release build's index.html (and so
// into every page prerendered from it): only the lab's own files, what wasm needs, and the
// one inline script Trunk writes (its loader), allowed by its SHA-256 hash,
// so a static host needs no header configuration.
//
// Usage: node scripts/csp.mjs dist/index.html
//
// - script-src: 'self', the loader's hash, and 'wasm-unsafe-eval' (compiling
//   WebAssembly; it allows no JavaScript eval);
// - style-src 'self': no inline styles (the lab sets none);
// - img-src 'self' data: (the favicon; canvases need nothing);
// - connect-src 'self' (the loader fetches the .wasm);
// - object-src 'none', base-uri 'self', form-action 'none';
// - the service worker (sw.js) and the manifest fall back to script-src and
//   default-src, 'self' both: no directive of their own is needed.
// frame-ancestors cannot be set from a <meta>: embedding in other sites'
// pages is the point of the embed routes anyway.
import { readFileSync, writeFileSync } from 'node:fs';
import { createHash } from 'node:crypto';

const file = process.argv[2];
if (!file) { console.error('usage: node scripts/csp.mjs dist/index.html'); process.exit(2); }
let html = readFileSync(file, 'utf8');
if (html.includes('http-equiv="Content-Security-Policy"')) {
  console.log(`${file}: already has a Content-Security-Policy`);
  process.exit(0);
}
const hashes = [...html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)]
  .map((m) => `'sha256-${createHash('sha256').update(m[1], 'utf8').digest('base64')}'`);
if (hashes.length !== 1) {
  console.error(`${file}: expected exactly one inline script (Trunk's loader), found ${hashes.length}`);
  process.exit(1);
}
const policy = [
  "default-src 'self'",
  `script-src 'self' ${hashes.join(' ')} 'wasm-unsafe-eval'`,
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'none'",
].join('; ');
const meta = `<meta http-equiv="Content-Security-Policy" content="${policy}" />`;
// The loader runs as soon as its files are there (`async`), not after the
// whole page is parsed: the wasm compiles while a long page still arrives, and
// the app starts at DOMContentLoaded (ui::start waits for it). The policy's
// hash is of the script's text, which this leaves as it is.
html = html.replace('<script type="module">', '<script type="module" async>');
// First in <head> after the charset, before anything it governs.
html = html.replace(/(<meta charset="utf-8"\s*\/?>)/, `$1\n  ${meta}`);
if (!html.includes(meta)) { console.error(`${file}: no <meta charset> to put the policy after`); process.exit(1); }
writeFileSync(file, html);
console.log(`${file}: Content-Security-Policy set (${hashes.length} inline script hashed)`);
