#!/usr/bin/env bash
# Runs every fuzz target (or those named) for a while and prints what each did: executions,
# coverage, the corpus, and any crash (the input is kept in fuzz/artifacts/TARGET/, and the
# script exits non-zero). CI runs `bash fuzz/run.sh --seconds 60 --jobs 2`.
#
#   bash fuzz/run.sh [--seconds S] [--jobs J] [TARGET...]
#
# Needs a nightly toolchain (C4_FUZZ_TOOLCHAIN, default `nightly`; CI pins one) and cargo-fuzz
# (docs/reliability.md). The corpora are seeded from
# the repository first (fuzz/seed.sh) and grow across runs (fuzz/corpus/, ignored by git).
set -euo pipefail
cd "$(dirname "$0")/.."
nightly=${C4_FUZZ_TOOLCHAIN:-nightly}
seconds=60
jobs=1
targets=()
while [ $# -gt 0 ]; do
  case "$1" in
    --seconds) seconds=$2; shift 2 ;;
    --jobs) jobs=$2; shift 2 ;;
    -*) echo "unknown option $1 (--seconds S, --jobs J)" >&2; exit 2 ;;
    *) targets+=("$1"); shift ;;
  esac
done
if [ ${#targets[@]} -eq 0 ]; then
  mapfile -t targets < <(cargo "+$nightly" fuzz list)
fi
bash fuzz/seed.sh
cargo "+$nightly" fuzz build -O
logs=$(mktemp -d)
run_one() {
  local t=$1
  # -timeout: one input over 10 s is a hang; -rss_limit_mb: a leak or a huge allocation.
  cargo "+$nightly" fuzz run -O "$t" "fuzz/corpus/$t" -- -max_total_time="$seconds" \
    -max_len=65536 -timeout=10 -rss_limit_mb=2560 -print_final_stats=1 > "$logs/$t.log" 2>&1
}
failed=()
running=0
pids=()
names=()
for t in "${targets[@]}"; do
  run_one "$t" &
  pids+=($!)
  names+=("$t")
  running=$((running + 1))
  if [ "$running" -ge "$jobs" ]; then
    wait -n || true
    running=$((running - 1))
  fi
done
for i in "${!pids[@]}"; do
  if ! wait "${pids[$i]}"; then failed+=("${names[$i]}"); fi
done
echo "| target | seconds | executions | exec/s | coverage (edges) | features | corpus |"
echo "|---|---:|---:|---:|---:|---:|---:|"
for t in "${targets[@]}"; do
  done_line=$(grep -E '^#[0-9]+[[:space:]]+DONE' "$logs/$t.log" | tail -n 1 || true)
  if [ -z "$done_line" ]; then
    echo "| \`$t\` | - | - | - | - | - | - |"
    continue
  fi
  execs=$(sed -E 's/^#([0-9]+).*/\1/' <<< "$done_line")
  cov=$(sed -E 's/.*cov: ([0-9]+).*/\1/' <<< "$done_line")
  ft=$(sed -E 's/.*ft: ([0-9]+).*/\1/' <<< "$done_line")
  corp=$(sed -E 's/.*corp: ([0-9]+)\/([0-9]+[a-zA-Z]*).*/\1 (\2)/' <<< "$done_line")
  rate=$(sed -E 's/.*exec\/s: ([0-9]+).*/\1/' <<< "$done_line")
  echo "| \`$t\` | $seconds | $execs | $rate | $cov | $ft | $corp |"
done
if [ ${#failed[@]} -gt 0 ]; then
  for t in "${failed[@]}"; do
    echo "== $t failed; the end of its log:" >&2
    tail -n 40 "$logs/$t.log" >&2
  done
  echo "fuzzing found a crash, hang or leak in: ${failed[*]} (inputs in fuzz/artifacts/)" >&2
  exit 1
fi
echo "no crash, hang or leak in ${#targets[@]} targets"
