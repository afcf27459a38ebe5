// What each piece of a split build fetches (issue 43): the runtime every page
// loads (the glue, main.wasm, the split loader) and, for each split point,
// its own module and the chunks it shares, brotli 11 and raw.
// `--union a,b`: what a page that wakes the pieces a and b fetches in all
// (the runtime, their modules and every chunk any of them needs, once).
// Usage: node scripts/split-sizes.mjs [PKG] [--json] [--union a,b,…]
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants } from 'node:zlib';
import { loaderModules } from './sizes.mjs';

const pkg = process.argv[2] && !process.argv[2].startsWith('--') ? process.argv[2] : 'target/split/pkg';
const br = (f) => brotliCompressSync(readFileSync(join(pkg, f)), { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
const raw = (f) => readFileSync(join(pkg, f)).length;
const loader = readFileSync(join(pkg, '__wasm_split.js'), 'utf8');
const files = loaderModules(loader, join(pkg, '__wasm_split.js'));
const glue = readdirSync(pkg).filter((f) => f.endsWith('.js') && f !== '__wasm_split.js');
const main = readdirSync(pkg).filter((f) => f.endsWith('_bg.wasm'));
const runtime = [...glue, ...main, '__wasm_split.js'];
const sum = (list, f) => list.reduce((a, x) => a + f(x), 0);
const out = { runtime: { files: runtime, br: sum(runtime, br), raw: sum(runtime, raw) }, pieces: {} };
for (const [name, { file, deps }] of Object.entries(files)) {
  if (!name.startsWith('__wasm_split_load_')) continue;
  const list = [file, ...deps.map((d) => files[d]?.file).filter(Boolean)];
  out.pieces[name.replace('__wasm_split_load_', '')] = { own: br(file), withChunks: sum(list, br), files: list.length };
}
const everything = readdirSync(pkg).filter((f) => f.endsWith('.wasm') || f.endsWith('.js'));
out.all = { br: sum(everything, br), raw: sum(everything, raw), files: everything.length };
const union = process.argv.includes('--union') ? process.argv[process.argv.indexOf('--union') + 1].split(',') : null;
if (union) {
  const set = new Set(runtime);
  for (const p of union) {
    const l = files[`__wasm_split_load_${p}`];
    if (!l) throw new Error(`no split point ${p}`);
    set.add(l.file);
    for (const d of l.deps) set.add(files[d].file);
  }
  out.union = { pieces: union, br: sum([...set], br), raw: sum([...set], raw), files: set.size };
  console.log(`${union.join(' + ')} with the runtime: ${out.union.br} brotli (${out.union.raw} raw) in ${set.size} files`);
  process.exit(0);
}
if (process.argv.includes('--json')) console.log(JSON.stringify(out, null, 2));
else {
  console.log(`runtime (every page): ${out.runtime.br} brotli (${out.runtime.raw} raw): ${runtime.join(', ')}`);
  for (const [p, s] of Object.entries(out.pieces)) console.log(`${p.padEnd(12)} own ${String(s.own).padStart(7)}  with its chunks ${String(s.withChunks).padStart(7)} (${s.files} files)`);
  console.log(`everything: ${out.all.br} brotli (${out.all.raw} raw) in ${out.all.files} files`);
}
