// Puts a split build (scripts/split-build.sh's folder: the glue main.js, the
// runtime main_bg.wasm, the loader __wasm_split.js, one module per split
// point and per shared chunk) into a release folder that Trunk wrote without
// a module of its own, and names it in the folder's index.html (issue 43).
//
// Every name is a hash, so that a browser or the service worker keeps what
// did not change from one version to the next:
// - a split point's or a chunk's module: `sensei-lab-<its hash>.wasm`;
// - the runtime, its glue and the loader name each other (the glue imports
//   the loader, the loader the glue): one hash of all three for the three,
//   `sensei-lab-<hash>_bg.wasm`, `sensei-lab-<hash>.js`, `sensei-lab-<hash>_split.js`.
// The loader finds its modules beside itself (`import.meta.url`), so a
// sub-path build and a SCORM package need nothing more.
//
// The page gets the loader Trunk would have written (one inline module
// script: scripts/csp.mjs allows it by its hash) and preloads the glue, the
// loader and the runtime.
//
// Usage: node scripts/place-split.mjs PKG DIST PUBLIC_URL
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const [pkg, dist, base = '/'] = process.argv.slice(2);
if (!pkg || !dist) {
  console.error('usage: node scripts/place-split.mjs PKG DIST PUBLIC_URL');
  process.exit(2);
}
const hash = (...parts) => {
  const h = createHash('sha256');
  for (const p of parts) h.update(p);
  return h.digest('hex').slice(0, 16);
};
const sri = (data) => `sha384-${createHash('sha384').update(data).digest('base64')}`;

let loader = readFileSync(join(pkg, '__wasm_split.js'), 'utf8');
let glue = readFileSync(join(pkg, 'main.js'), 'utf8');
const runtime = readFileSync(join(pkg, 'main_bg.wasm'));
const pieces = readdirSync(pkg).filter((f) => f.endsWith('.wasm') && f !== 'main_bg.wasm');
let bytes = 0;
for (const f of pieces) {
  const data = readFileSync(join(pkg, f));
  const name = `sensei-lab-${hash(data)}.wasm`;
  const before = `new URL("./${f}", import.meta.url)`;
  if (!loader.includes(before)) throw new Error(`${pkg}/__wasm_split.js does not fetch ${f}`);
  loader = loader.split(before).join(`new URL("./${name}", import.meta.url)`);
  writeFileSync(join(dist, name), data);
  bytes += data.length;
}
// A module that did not arrive is said in the page, with «Reintentar» (ui::islands); the
// loader's own report of it on the console would also come from a page reloaded while
// its pieces were on their way.
const REPORT = '            console.error(e);\n';
if (!loader.includes(REPORT)) throw new Error(`${pkg}/__wasm_split.js: no «console.error(e)» where a load fails`);
loader = loader.replace(REPORT, '');
const stem = `sensei-lab-${hash(runtime, glue, loader)}`;
if (!loader.includes('from "./main.js"')) throw new Error(`${pkg}/__wasm_split.js: no import of ./main.js`);
loader = loader.split('from "./main.js"').join(`from "./${stem}.js"`);
if (!glue.includes('from "./__wasm_split.js"')) throw new Error(`${pkg}/main.js: no import of ./__wasm_split.js`);
glue = glue.split('from "./__wasm_split.js"').join(`from "./${stem}_split.js"`);
writeFileSync(join(dist, `${stem}_bg.wasm`), runtime);
writeFileSync(join(dist, `${stem}.js`), glue);
writeFileSync(join(dist, `${stem}_split.js`), loader);

// The page's loader, as Trunk writes it (its shape is what scripts/csp.mjs,
// scorm.mjs and sizes.mjs read).
const page = join(dist, 'index.html');
let html = readFileSync(page, 'utf8');
if (html.includes("import init, * as bindings from")) throw new Error(`${page}: already has a loader (Trunk built a module?)`);
const at = (f) => `${base}${f}`;
const script = `<script type="module">
import init, * as bindings from '${at(`${stem}.js`)}';
const wasm = await init({ module_or_path: '${at(`${stem}_bg.wasm`)}' });
window.wasmBindings = bindings;
dispatchEvent(new CustomEvent("TrunkApplicationStarted", {detail: {wasm}}));
</script>
<link rel="modulepreload" href="${at(`${stem}.js`)}" crossorigin="anonymous" integrity="${sri(glue)}">`
  + `<link rel="modulepreload" href="${at(`${stem}_split.js`)}" crossorigin="anonymous" integrity="${sri(loader)}">`
  + `<link rel="preload" href="${at(`${stem}_bg.wasm`)}" crossorigin="anonymous" integrity="${sri(runtime)}" as="fetch" type="application/wasm">`;
if (!html.includes('</head>')) throw new Error(`${page}: no </head>`);
html = html.replace('</head>', `${script}</head>`);
writeFileSync(page, html);
console.log(`${dist}: the split build ${stem}: the runtime ${runtime.length.toLocaleString('en')} bytes, `
  + `${pieces.length} modules of pieces and chunks (${bytes.toLocaleString('en')} bytes)`);
