#!/usr/bin/env bash
# fuzz.sh [-t SECONDS] [-b BUILD_DIR] [TARGET...]: builds the libFuzzer targets of fuzz/ with clang
# (ASan + UBSan, -DWASCHED_FUZZ=ON) and runs each for SECONDS (default 60), one after the other,
# at nice 19, seeded with every manifest in examples/, tests/data/ and tests/scenarios/.
# Targets: fuzz_codec fuzz_validation fuzz_schedule (all when none are named).
# The corpus each run grows is kept in BUILD_DIR/corpus/<target>/ (default BUILD_DIR build-fuzz);
# a crash, leak, sanitizer report or timeout leaves its input in BUILD_DIR/artifacts/<target>/ and
# makes the script exit 1. Exits 0 with a message when clang++ is not installed (skipped).
# Environment: FUZZ_JOBS (parallel build jobs, default 2).
set -euo pipefail
cd "$(dirname "$0")/.."

seconds=60
build=build-fuzz
while getopts "t:b:" opt; do
  case "$opt" in
    t) seconds="$OPTARG" ;;
    b) build="$OPTARG" ;;
    *) echo "usage: $0 [-t SECONDS] [-b BUILD_DIR] [TARGET...]" >&2; exit 2 ;;
  esac
done
shift $((OPTIND - 1))
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  targets=(fuzz_codec fuzz_validation fuzz_schedule)
fi

if ! command -v clang++ >/dev/null 2>&1; then
  echo "fuzz: skipped: clang++ is not installed (scripts/install-deps.sh installs clang and libclang-rt-dev)"
  exit 0
fi
probe="$(mktemp)"
if ! echo 'extern "C" int LLVMFuzzerTestOneInput(const unsigned char*, unsigned long) { return 0; }' |
    clang++ -fsanitize=fuzzer,address,undefined -x c++ - -o "$probe" >/dev/null 2>&1; then
  rm -f "$probe"
  echo "fuzz: skipped: clang++ cannot link libFuzzer (install libclang-rt-dev)"
  exit 0
fi
rm -f "$probe"

# -O1 with line tables: quick to compile, readable stack traces; no NDEBUG, so asserts (and the
# scheduler's verify mode) stay on.
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Fuzz -DCMAKE_CXX_COMPILER=clang++ \
  -DCMAKE_CXX_FLAGS_FUZZ="-O1 -gline-tables-only" -DWASCHED_FUZZ=ON -DWASCHED_BUILD_BENCH=OFF \
  >/dev/null
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

status=0
for t in "${targets[@]}"; do
  corpus="$build/corpus/$t"
  artifacts="$build/artifacts/$t"
  mkdir -p "$corpus" "$artifacts"
  log="$build/fuzz-$t.log"
  echo "fuzz: $t for ${seconds}s (log $log)"
  if ! nice -n 19 "$build/fuzz/$t" "$corpus" "$seeds" \
      -max_total_time="$seconds" -max_len="$(max_len "$t")" -timeout=30 -rss_limit_mb=2048 \
      -dict=fuzz/manifest.dict -print_final_stats=1 -artifact_prefix="$artifacts/" \
      >"$log" 2>&1; then
    echo "fuzz: $t FAILED; reproducer(s) in $artifacts/:" >&2
    ls "$artifacts" >&2 || true
    grep -m1 -A20 -E "ERROR: |runtime error|fuzz: " "$log" >&2 || tail -30 "$log" >&2
    status=1
  fi
  # Summary: executions, coverage, corpus size.
  execs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo '?')
  cov=$(grep -oE 'cov: [0-9]+' "$log" | tail -1 | grep -oE '[0-9]+' || echo '?')
  echo "fuzz: $t: $execs runs, coverage $cov edges, corpus $(ls "$corpus" | wc -l) files"
done
exit "$status"
