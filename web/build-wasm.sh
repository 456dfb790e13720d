#!/usr/bin/env bash
# Builds the engine's WebAssembly module (crates/wasm) into web/npm/connect4.wasm, the copy that
# `c4 site`, `c4 serve` and the npm package ship. Needs Debian's rustc-web toolchain (see
# .ci/run); about 3 minutes on 2 cores the first time. Run it after changing the engine and
# commit the result: CI rebuilds it and fails when the committed copy differs.
set -euo pipefail
cd "$(dirname "$0")/.."
export RUSTC=/usr/bin/rustc RUSTC_BOOTSTRAP=1 CARGO_TARGET_DIR=target/wasm
# No debug info, no unwinding: a smaller module (a panic traps; the glue reports it).
export CARGO_PROFILE_RELEASE_DEBUG=false CARGO_PROFILE_RELEASE_STRIP=true CARGO_PROFILE_RELEASE_PANIC=abort
# Paths of this machine stay out of the module (panic messages name source files), so the
# build is the same from any folder: trim-paths, not RUSTFLAGS (which would enter the hashes).
export CARGO_PROFILE_RELEASE_TRIM_PATHS=all
unset RUSTFLAGS
/usr/bin/cargo build --locked --release -Zbuild-std=std,panic_abort -Ztrim-paths \
    --target wasm32-unknown-unknown -p connect4-wasm
cp target/wasm/wasm32-unknown-unknown/release/connect4_wasm.wasm "${1:-web/npm/connect4.wasm}"
ls -l "${1:-web/npm/connect4.wasm}"
