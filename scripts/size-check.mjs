// First-load size of a release build: the gzipped wasm, JS and CSS a learner
// downloads (gzip -9; sensei-embed.js is for host pages and not counted).
// Sizes are deterministic for a given toolchain, so CI checks them; timings
// are not, so nothing here is timed.
//
// Usage: node scripts/size-check.mjs [dist]
//
// Two limits: GOAL is issue #7's budget, 350 KB; LIMIT is what CI enforces
// today, the size of the current build plus a small margin, below the goal,
// so that nothing grows unnoticed: a change that needs more raises LIMIT on
// purpose (up to GOAL), with its reason in the commit (see docs/PERFORMANCE.md
// for where the bytes go).
import { firstLoad } from './sizes.mjs';

// #23's offline part raised LIMIT by exactly what it added to the first load,
// 1,237 bytes (sensei-offline.js, 1,027; the «Hay una versión nueva»
// notice's CSS, 210), over issue #7's budget: see docs/PERFORMANCE.md.
const LIMIT = 350 * 1000 + 1237;
const GOAL = 350 * 1000;

const dist = process.argv[2] || 'dist';
const files = firstLoad(dist);
const total = files.reduce((a, f) => a + f.gzip, 0);
const rows = files.map((f) => `  ${f.file}: ${f.gzip.toLocaleString('en')} bytes gzipped`);
console.log(`First load of ${dist}/:\n${rows.join('\n')}\n  total: ${total.toLocaleString('en')} bytes`);
if (!rows.some((r) => r.includes('.wasm'))) {
  console.error(`no .wasm in ${dist}/: build it first (./lab build)`);
  process.exit(1);
}
if (total > LIMIT) {
  console.error(`over the size limit: ${total.toLocaleString('en')} > ${LIMIT.toLocaleString('en')} bytes`);
  process.exit(1);
}
console.log(total <= GOAL
  ? `within the CI limit (${LIMIT.toLocaleString('en')}) and the 350 KB budget of issue #7 (${(GOAL - total).toLocaleString('en')} bytes to spare)`
  : `within the CI limit (${LIMIT.toLocaleString('en')}); ${(total - GOAL).toLocaleString('en')} bytes over the 350 KB budget of issue #7`);
