#!/usr/bin/env bash
# Seeds each fuzz target's corpus from the repository's own files (fuzz/corpus/TARGET/, ignored
# by git): move strings from the benchmark sets, agent specs from the manual, the shipped small
# model files, the small boards' books, adaptive states, recipes, a checkpoint (of a short LMS
# run, when a built `c4` is there), requests to the server and to the WebAssembly engine.
set -euo pipefail
cd "$(dirname "$0")"
mkdir -p corpus/moves corpus/agent_spec corpus/model_file corpus/book corpus/adaptive_state \
  corpus/recipe corpus/checkpoint corpus/server corpus/wasm_request corpus/runs/quick
n=0
for f in ../data/bench/*; do
  head -n 40 "$f" | while read -r moves _; do
    printf '%s' "$moves" > "corpus/moves/$(basename "$f")-$((n++))"
  done
done
printf '' > corpus/moves/empty
grep -ohE '`[a-z]+(:[a-z_]+=[^`, ]+(,[a-z_]+=[^`, ]+)*)?`' ../docs/cli.md ../README.md \
  | tr -d '`' | sort -u | head -n 200 | while read -r spec; do
  printf '%s' "$spec" > "corpus/agent_spec/$(printf '%s' "$spec" | sha256sum | cut -c1-16)"
done
cp ../models/lms.bin corpus/model_file/lms.bin
cp ../data/book-5x4.bin corpus/book/book-5x4.bin
printf '%s' '{"version":1,"prior":1400.0,"evidence":[0.0,-0.5,-1.0],"offset":12.5,"games":3,"history":[1400.0,1420.0,1412.5]}' > corpus/adaptive_state/one
printf '%s' '{}' > corpus/adaptive_state/empty
# model_file also reads each input as the bytes before a checksum: the files without theirs.
for f in ../models/lms.bin ../models/ntuple-5x4.bin; do
  [ "$(wc -c < "$f")" -le 65536 ] || continue
  head -c -32 "$f" > "corpus/model_file/$(basename "$f" .bin)-unsealed"
done
cp ../recipes/*.toml corpus/recipe/
# A checkpoint of a short LMS run (a run removes its checkpoint when it ends: copied while it
# runs), whole and as the state behind its header.
c4=""
for b in ../target/release/c4 ../target/debug/c4; do [ -x "$b" ] && c4=$b && break; done
if [ -n "$c4" ]; then
  tmp=$(mktemp -d)
  "$c4" train lms --games 200000 --checkpoint-every 50 --eval-every 0 --seed 1 \
    --out "$tmp/lms.bin" >/dev/null 2>&1 &
  run=$!
  for _ in $(seq 200); do
    if [ -s "$tmp/lms.checkpoint" ]; then cp "$tmp/lms.checkpoint" corpus/checkpoint/lms; break; fi
    sleep 0.05
  done
  kill "$run" 2>/dev/null || true
  wait "$run" 2>/dev/null || true
  rm -rf "$tmp"
  if [ -s corpus/checkpoint/lms ]; then
    python3 - <<'PY'
data = open("corpus/checkpoint/lms", "rb").read()
k = data[10]
r = int.from_bytes(data[11 + k:15 + k], "little")
open("corpus/checkpoint/lms-state", "wb").write(data[15 + k + r:])
PY
  fi
else
  echo "no built c4: the checkpoint corpus starts empty (cargo build --release first)" >&2
fi
printf 'C4-CKPT\n' > corpus/checkpoint/magic
# Server requests: the first byte picks the route (fuzz_targets/server.rs), the rest is the
# query string, the body or the path.
server() { printf "$1" > "corpus/server/$2"; }
server '\000moves=4453' analyze
server '\000moves=44&width=9&height=7&ms=20' analyze-wide
server '\000moves=4455&weak=true' analyze-weak
server '\001moves=4453' review
server '\002{"agent":"easy","moves":"44"}' move
server '\002{"agent":"adaptive","moves":"","width":6,"height":5}' move-adaptive
server '\002{"agent":"level:elo=1500","moves":"4","seed":3}' move-level
server '\003{"agent":"adaptive","moves":"4455","side":"x"}' adaptive
server '\004' agents
server '\005' models
server '\006model=lms.bin&games=2' evaluate
server '\007quick' runs
server '\010quick/report.json' run-file
server '\011' status
server '\012app.js' asset
printf "{}" > corpus/runs/quick/report.json
# The WebAssembly engine's requests (crates/wasm/src/lib.rs names each op).
wasm() { printf '%s' "$1" > "corpus/wasm_request/$2"; }
wasm '{"op":"analyze","moves":"4453","weak":false,"ms":20}' analyze
wasm '{"op":"review","moves":"4453","ms":20}' review
wasm '{"op":"move","agent":"ntuple:depth=1","moves":"44","seed":7,"ms":20}' move
wasm '{"op":"move","agent":"adaptive","moves":"44"}' move-adaptive
wasm '{"op":"adaptive","agent":"adaptive","moves":"4455","side":"o"}' adaptive
wasm '{"op":"needs","agent":"gbt:depth=3"}' needs
wasm '{"op":"agents"}' agents
wasm '{"op":"position","moves":"44","width":9,"height":7}' position
wasm '{"op":"solve","moves":"4455443","width":5,"height":4}' solve
