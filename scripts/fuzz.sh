#!/usr/bin/env bash
# fuzz.sh [-t SECONDS] [-b BUILD_DIR] [-j PARALLEL] [TARGET...]: builds the libFuzzer targets of
# fuzz/ with clang (ASan + UBSan, the build of scripts/configure-fuzz.sh, shared with
# scripts/sanitize.sh) and runs each for SECONDS (default 60), PARALLEL targets at a time (default
# 1; each run is one process on one core), at nice 19, seeded with every manifest in examples/,
# tests/data/ and tests/scenarios/.
# Targets: fuzz_codec fuzz_validation fuzz_schedule (all when none are named).
# The corpus each run grows is kept in BUILD_DIR/corpus/<target>/ (default BUILD_DIR build-fuzz);
# a crash, leak, sanitizer report or timeout leaves its input in BUILD_DIR/artifacts/<target>/ and
# makes the script exit 1. Exits 0 with a message when clang++ is not installed (skipped).
# Environment: FUZZ_JOBS (parallel build jobs, default 2).
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=60
build=build-fuzz
parallel=1
while getopts "t:b:j:" opt; do
  case "$opt" in
    t) seconds="$OPTARG" ;;
    b) build="$OPTARG" ;;
    j) parallel="$OPTARG" ;;
    *) echo "usage: $0 [-t SECONDS] [-b BUILD_DIR] [-j PARALLEL] [TARGET...]" >&2; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  targets=(fuzz_codec fuzz_validation fuzz_schedule)
fi

rc=0
reason=$(scripts/configure-fuzz.sh "$build" 2>&1) || rc=$?
if [ "$rc" -eq 3 ]; then
  echo "fuzz: skipped: $reason"
  exit 0
elif [ "$rc" -ne 0 ]; then
  echo "$reason" >&2
  exit "$rc"
fi
nice -n 19 cmake --build "$build" -j"${FUZZ_JOBS:-2}" --target "${targets[@]}" >&2

# Seeds: every manifest of the repository, read-only (libFuzzer writes new inputs to the first
# corpus folder only).
seeds="$build/seeds"
rm -rf "$seeds"
mkdir -p "$seeds"
find examples tests/data tests/scenarios -type f \( -name '*.yaml' -o -name '*.yml' -o -name '*.json' \) |
  sort | while read -r f; do cp "$f" "$seeds/$(echo "$f" | tr '/' '_')"; done

# Per-target input caps: a whole schedule run is kept small so one run stays fast.
max_len() {
  case "$1" in
    fuzz_schedule) echo 16384 ;;
    *) echo 65536 ;;
  esac
}

# run_target TARGET: one libFuzzer run; its summary (or failure report) on stdout; exit 1 on a
# finding.
run_target() {
  local t="$1" corpus="$build/corpus/$1" artifacts="$build/artifacts/$1" log="$build/fuzz-$1.log" rc=0
  mkdir -p "$corpus" "$artifacts"
  if ! nice -n 19 "$build/fuzz/$t" "$corpus" "$seeds" \
      -max_total_time="$seconds" -max_len="$(max_len "$t")" -timeout=30 -rss_limit_mb=2048 \
      -dict=fuzz/manifest.dict -print_final_stats=1 -artifact_prefix="$artifacts/" \
      >"$log" 2>&1; then
    echo "fuzz: $t FAILED; reproducer(s) in $artifacts/:"
    ls "$artifacts" || true
    grep -m1 -A20 -E "ERROR: |runtime error|fuzz: " "$log" || tail -30 "$log"
    rc=1
  fi
  # Summary: executions, coverage, corpus size.
  local execs cov
  execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo '?')
  cov=$(grep -oE 'cov: [0-9]+' "$log" | tail -1 | grep -oE '[0-9]+' || echo '?')
  local took
  took=$(grep -oE 'Done [0-9]+ runs in [0-9]+ second' "$log" | grep -oE '[0-9]+ second' | grep -oE '[0-9]+' || echo '?')
  echo "fuzz: $t: $execs runs in ${took} s (limit ${seconds} s), coverage $cov edges, corpus $(ls "$corpus" | wc -l) files"
  return "$rc"
}

status=0
pids=()
names=()
finish_oldest() {
  if ! wait "${pids[0]}"; then status=1; fi
  cat "$build/fuzz-${names[0]}.summary"
  pids=("${pids[@]:1}")
  names=("${names[@]:1}")
}
for t in "${targets[@]}"; do
  echo "fuzz: $t for ${seconds}s (log $build/fuzz-$t.log)"
  run_target "$t" >"$build/fuzz-$t.summary" 2>&1 &
  pids+=("$!")
  names+=("$t")
  if [ "${#pids[@]}" -ge "$parallel" ]; then finish_oldest; fi
done
while [ "${#pids[@]}" -gt 0 ]; do finish_oldest; done
exit "$status"
