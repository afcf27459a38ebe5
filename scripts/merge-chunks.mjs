// Merges the splitter's chunks that most pieces share, and the small ones,
// into one module (issue 43). wasm-split-cli makes a chunk for every set of
// split points that share code: on session 27's code the herd's page fetched
// 91 modules, most of them a few kilobytes, each compressed and optimised
// alone. A chunk that at
// least SHARED split points need (the code most widgets use: Yew's
// components, the charts, the player, the task box), or that is smaller than
// SMALL bytes (its module's imports, header and compression cost about what
// it holds, and each is one more file to fetch and instantiate), goes into
// one module, `chunk_common`, which each of them loads instead; the others
// stay as they are. Measured (docs/PERFORMANCE.md), the runtime included: on
// session 29's code the herd's page fetches 33 files (261 KB brotli) with the
// shared ones merged, 6 (256 KB) with the small ones too; the lesson read
// through 158 files (517 KB) → 50 (488 KB).
//
// A chunk imports only the runtime's memory, function table and one global
// (`__wasm_split.*`), and exports nothing: its functions are reached through
// the table, where its element segments put them. So merging is putting the
// chunks' functions, segments and data into one module with one set of
// those imports: wasm-merge, with a first module named `__wasm_split` that
// takes them (under another name, put back after) and gives them on.
//
// Usage: node scripts/merge-chunks.mjs DIR   (wasm-split-cli's output, before wasm-bindgen and wasm-opt)
// LAB_SHARED and LAB_SMALL set the two thresholds, to measure others.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** How many split points must share a chunk for it to be merged (of 19: 15 widgets, the exercises, a lesson page's light pieces, the app, the benchmark hook). */
const SHARED = Number(process.env.LAB_SHARED || 8);
/** Below this many bytes (the splitter's output, before wasm-opt), a chunk is merged whoever shares it. */
const SMALL = Number(process.env.LAB_SMALL || 4000);
if (!(SHARED >= 1 && SMALL >= 0)) throw new Error(`LAB_SHARED (${process.env.LAB_SHARED}) and LAB_SMALL (${process.env.LAB_SMALL}): numbers, please`);
// The wasm features rustc's wasm32 target emits, as every binaryen tool of the build is told them.
const FEATURES = readFileSync(new URL('./wasm-features', import.meta.url), 'utf8').trim().split(/\s+/);
const IMPORTS = '__wasm_split';
// The same length as IMPORTS: renamed in place in the merged module's bytes.
const STAND_IN = '__wasm_splix';

const dir = process.argv[2];
if (!dir) {
  console.error('usage: node scripts/merge-chunks.mjs DIR');
  process.exit(2);
}
const loaderPath = join(dir, '__wasm_split.js');
let loader = readFileSync(loaderPath, 'utf8');
// A chunk's loader, up to its (empty) list of what it needs, within its own block.
const CHUNK = /\/\* ([^*]+) \*\/\nconst (__chunk_\d+) = makeLoad\(\(\) => \{\s*const src = fetch\(new URL\("\.\/(chunk_\d+\.wasm)", import\.meta\.url\)\);(?:(?!\nconst |\nexport )[\s\S])*?\n, \[\]\);\n/g;
const chunks = loader.split('\nconst __chunk_').length - 1;
if ([...loader.matchAll(CHUNK)].length !== chunks) {
  throw new Error(`${loaderPath}: read ${[...loader.matchAll(CHUNK)].length} of its ${chunks} chunks (has its shape changed?)`);
}
const merged = [...loader.matchAll(CHUNK)].filter((m) => m[1].split(', ').length >= SHARED || statSync(join(dir, m[3])).size < SMALL);
if (merged.length < 2) {
  console.log(`${dir}: ${merged.length} chunk to merge, nothing done`);
  process.exit(0);
}
// The imports every chunk has, as the first chunk declares them.
const wat = execFileSync('wasm-dis', [join(dir, merged[0][3])], { encoding: 'utf8', maxBuffer: 1 << 30, stdio: ['ignore', 'pipe', 'ignore'] });
const imports = [...wat.matchAll(/^ \(import "__wasm_split" "([^"]+)" (\(.*\))\)$/gm)];
if (imports.length === 0) throw new Error(`${merged[0][3]}: no imports from ${IMPORTS}`);
const kind = (decl) => decl.match(/^\((\w+)/)[1];
const host = `(module\n${imports.map(([, name, decl]) => ` (import "${STAND_IN}" "${name}" ${decl.replace(/\$[\w$]+/, `$${name}`)})`).join('\n')}\n`
  + `${imports.map(([, name, decl]) => ` (export "${name}" (${kind(decl)} $${name}))`).join('\n')}\n)\n`;
const hostWat = join(dir, 'host.wat');
const hostWasm = join(dir, 'host.wasm');
writeFileSync(hostWat, host);
execFileSync('wasm-as', [hostWat, '-o', hostWasm, ...FEATURES], { stdio: 'inherit' });
const out = join(dir, 'chunk_common.wasm');
const args = [hostWasm, IMPORTS, ...merged.flatMap((m, i) => [join(dir, m[3]), `chunk${i}`])];
execFileSync('wasm-merge', [...args, '-o', out, '-q', ...FEATURES], { stdio: 'inherit' });
// Back to the runtime's name for what the host took (what it gives on stays
// exported: three names, and the loader reads none of them).
const bytes = readFileSync(out);
for (let at = bytes.indexOf(STAND_IN); at >= 0; at = bytes.indexOf(STAND_IN, at + 1)) Buffer.from(IMPORTS).copy(bytes, at);
writeFileSync(out, bytes);
rmSync(hostWat);
rmSync(hostWasm);

// The loader: one loader for the merged module, in the place of the first
// chunk merged, and named once in each split point's list in place of theirs.
const gone = new Set(merged.map((m) => m[2]));
let first = true;
loader = loader.replace(CHUNK, (block, sharers, name, file) => {
  if (!gone.has(name)) return block;
  rmSync(join(dir, file));
  if (!first) return '';
  first = false;
  return `/* the chunks shared by ${SHARED} split points or more, or under ${SMALL} bytes (scripts/merge-chunks.mjs) */\n`
    + `const __chunk_common = makeLoad(() => {\n    const src = fetch(new URL("./chunk_common.wasm", import.meta.url));\n`
    + '    src.catch(() => {});\n    return async (imports) => (WebAssembly.instantiateStreaming(src, imports));\n}\n, []);\n';
});
loader = loader.replace(/\n, \[([^\]]*)\]\)/g, (all, list) => {
  const deps = list.split(',').map((d) => d.trim()).filter(Boolean);
  if (!deps.some((d) => gone.has(d))) return all;
  const kept = deps.filter((d) => !gone.has(d));
  return `\n, [__chunk_common, ${kept.join(', ')}])`.replace(', ])', '])');
});
// Every chunk named is defined, and none merged is.
const defined = new Set([...loader.matchAll(/\nconst (__chunk_\w+) = /g)].map((m) => m[1]));
const named = new Set([...loader.matchAll(/\b__chunk_\w+/g)].map((m) => m[0]));
const undefinedChunks = [...named].filter((n) => !defined.has(n));
if (undefinedChunks.length > 0 || [...gone].some((g) => defined.has(g))) {
  throw new Error(`${loaderPath}: after the merge, chunks named but not defined: ${undefinedChunks.join(', ')}`);
}
writeFileSync(loaderPath, loader);
console.log(`${dir}: ${merged.length} chunks shared by ${SHARED} split points or more, or under ${SMALL} bytes, merged into chunk_common.wasm`);

