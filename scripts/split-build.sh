#!/usr/bin/env bash
# The browser module split per piece (issue 43): cargo with relocations kept,
# the splitter (wasm-split-cli), the chunks most pieces share and the small
# ones merged (scripts/merge-chunks.mjs), wasm-bindgen at the pinned version,
# wasm-opt on every piece. Writes OUT/ (default target/split/pkg): main.js
# (the glue), main_bg.wasm (the runtime and what every page needs), one
# module per split point, `chunk_common.wasm` and one per other chunk shared
# by several, and __wasm_split.js (their loader).
#
# Usage: scripts/split-build.sh [OUT] [--features F]
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-target/split/pkg}"
shift || true
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-target/split}"
export PATH="$HOME/.cargo/bin:$PWD/node_modules/.bin:$PATH"
# wasm-split-cli: installed by ./lab (setup_build).
# The splitter reads the linker's relocations.
export RUSTFLAGS="-Clink-args=--emit-relocs"
cargo build --locked --bin sensei-lab --target wasm32-unknown-unknown --profile wasm-release --features split "$@"
linked="$CARGO_TARGET_DIR/wasm32-unknown-unknown/wasm-release/sensei-lab.wasm"
# The same linked module split by the same steps again (the sub-path build
# after the root's): the pieces are there already.
stamp=$( (cat "$linked" scripts/split-build.sh scripts/merge-chunks.mjs scripts/wasm-features; echo "${LAB_SHARED:-} ${LAB_SMALL:-}"; wasm-bindgen --version; wasm-opt --version;
  grep -o '"wasm_split_cli_support [^ ]*' "$HOME/.cargo/.crates2.json") | sha256sum | cut -d' ' -f1)
if [ -f "$out/.stamp" ] && [ "$(cat "$out/.stamp")" = "$stamp" ]; then
  echo "$out: this module's pieces, already split"
  exit 0
fi
tmp="$CARGO_TARGET_DIR/split-tmp"
rm -rf "$tmp" "$out"
mkdir -p "$tmp" "$out"
wasm-split-cli "$linked" "$tmp"
# The chunks most pieces share, and the small ones, one module.
node scripts/merge-chunks.mjs "$tmp"
wasm-bindgen "$tmp/main.wasm" --out-dir "$out" --out-name main --target web --no-typescript --keep-lld-exports
for f in "$tmp"/*; do
  case "$f" in */main.wasm) ;; *) cp "$f" "$out/" ;; esac
done
# Two at a time (this machine's two cores).
# The wasm features: scripts/wasm-features (merge-chunks.mjs and solo.sh read it too).
ls "$out"/*.wasm | xargs -P 2 -I{} wasm-opt -q -Oz $(cat scripts/wasm-features) {} -o {}
echo "$stamp" > "$out/.stamp"
echo "$out: $(ls "$out" | wc -l) files, $(du -sb "$out" | cut -f1) bytes"
