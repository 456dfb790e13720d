#!/usr/bin/env bash
# Seeds each fuzz target's corpus from the repository's own files (fuzz/corpus/TARGET/, ignored
# by git): move strings from the benchmark sets, agent specs from the manual, the shipped small
# model files, the small boards' books, and adaptive states.
set -euo pipefail
cd "$(dirname "$0")"
mkdir -p corpus/moves corpus/agent_spec corpus/model_file corpus/book corpus/adaptive_state
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
printf '%s' '{"version":1,"elo":1400.0,"games":3,"grid":[0.1,0.2]}' > corpus/adaptive_state/one
printf '%s' '{}' > corpus/adaptive_state/empty
