#!/usr/bin/env bash
# The browser module split per piece (issue 43): cargo with relocations kept,
# the splitter (wasm-split-cli), wasm-bindgen at the pinned version, wasm-opt
# on every piece. Writes OUT/ (default target/split/pkg): main.js (the
# glue), main_bg.wasm (the runtime and what every page needs), one module per
# split point and per chunk shared by several, and __wasm_split.js (their
# loader).
#
# Usage: scripts/split-build.sh [OUT] [--features F]
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-target/split/pkg}"
shift || true
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-target/split}"
export PATH="$HOME/.cargo/bin:$PWD/node_modules/.bin:$PATH"
if ! command -v wasm-split-cli >/dev/null; then
  cargo install wasm_split_cli_support --version 0.2.4 --features build-binary --locked
fi
# The splitter reads the linker's relocations.
export RUSTFLAGS="-Clink-args=--emit-relocs"
cargo build --locked --bin sensei-lab --target wasm32-unknown-unknown --profile wasm-release --features split "$@"
linked="$CARGO_TARGET_DIR/wasm32-unknown-unknown/wasm-release/sensei-lab.wasm"
tmp="$CARGO_TARGET_DIR/split-tmp"
rm -rf "$tmp" "$out"
mkdir -p "$tmp" "$out"
wasm-split-cli "$linked" "$tmp"
wasm-bindgen "$tmp/main.wasm" --out-dir "$out" --out-name main --target web --no-typescript --keep-lld-exports
for f in "$tmp"/*; do
  case "$f" in */main.wasm) ;; *) cp "$f" "$out/" ;; esac
done
for f in "$out"/*.wasm; do
  wasm-opt -Oz --enable-bulk-memory --enable-nontrapping-float-to-int --enable-reference-types --enable-sign-ext --enable-mutable-globals --enable-multivalue "$f" -o "$f"
done
ls -l "$out"
