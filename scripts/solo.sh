#!/usr/bin/env bash
# What one widget's own module weighs, and whether it reaches another
# scenario's code (issue 43): the browser module built with the `solo`
# feature holds the herd's widget with its tasks and nothing else
# (`ui::solo`). Prints its bytes, gzip and brotli (wasm and glue), and fails
# if the linked module still names code of another widget, chart or core
# scenario: a widget that reaches every scenario through a list of them (a
# registry's dispatch) carries them all, split or not. The check reads
# names: code inlined into another function, or a generic instance whose
# name leaves its type out (Rust's legacy mangling), goes unseen, so a pass
# says no other scenario's function was found, not that none is there (the
# size says the rest: docs/PERFORMANCE.md).
#
# Usage: scripts/solo.sh [OUT]   (default target/solo/pkg)
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-target/solo/pkg}"
export PATH="$HOME/.cargo/bin:$PWD/node_modules/.bin:$PATH"
cargo build --locked --bin sensei-lab --target wasm32-unknown-unknown --profile wasm-release --features solo
linked="${CARGO_TARGET_DIR:-target}/wasm32-unknown-unknown/wasm-release/sensei-lab.wasm"
rm -rf "$out"
mkdir -p "$out"
# The linked module's names, before wasm-bindgen and wasm-opt take them out.
node scripts/wasm-names.mjs "$linked" > "$out/names.txt"
wasm-bindgen "$linked" --out-dir "$out" --out-name main --target web --no-typescript
# The wasm features rustc's wasm32 target emits (scripts/wasm-features, one list for every binaryen tool here).
wasm-opt -Oz $(cat scripts/wasm-features) "$out/main_bg.wasm" -o "$out/main_bg.wasm"
node - "$out" <<'EOF'
const fs = require("fs"), path = require("path"), zlib = require("zlib");
const out = process.argv[2];
let total = { raw: 0, gz: 0, br: 0 };
for (const f of ["main_bg.wasm", "main.js"]) {
  const b = fs.readFileSync(path.join(out, f));
  const gz = zlib.gzipSync(b, { level: 9 }).length;
  const br = zlib.brotliCompressSync(b, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11 } }).length;
  total.raw += b.length; total.gz += gz; total.br += br;
  console.log(`${f}: ${b.length} bytes, ${gz} gzip, ${br} brotli`);
}
console.log(`the herd's own module, wasm and glue: ${total.raw} bytes, ${total.gz} gzip, ${total.br} brotli`);
// Another scenario's code: its widget, its chart, its core (the herd's
// own, and what every widget shares, are expected).
const names = fs.readFileSync(path.join(out, "names.txt"), "utf8").split("\n");
const own = new Set(["herd", "stage", "playback", "params", "policy", "figures", "scenario"]);
const foreign = new Map();
for (const n of names) {
  const m = n.match(/sensei_lab::(?:ui::widgets::(\w+)_widget|chart::(\w+)|sim::(\w+))::/);
  // Reading a time of day in a task's answer (sim::breaker::clock) is every task's.
  if (!m || n.includes("sensei_lab::sim::breaker::clock::")) continue;
  const which = m[1] ?? m[2] ?? m[3];
  if (own.has(which) || (m[2] && ["frame", "data", "legend", "font", "log_axis", "css", "boxes", "palette", "Plot"].includes(which))) continue;
  if (!foreign.has(which)) foreign.set(which, n);
}
if (foreign.size) {
  console.error("the herd's module holds other scenarios' code:");
  for (const [k, n] of foreign) console.error(`  ${k}: ${n}`);
  process.exit(1);
}
console.log("no other scenario's code in it");
EOF
