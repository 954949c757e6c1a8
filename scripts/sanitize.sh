#!/usr/bin/env bash
# sanitize.sh: builds the unit and integration tests with AddressSanitizer + UndefinedBehaviorSanitizer
# and runs them, each program in two shards side by side. With clang (the usual case) this is the fuzz build of
# scripts/configure-fuzz.sh in build-fuzz/: the libraries are compiled once (-O1, coverage
# instrumented) for the tests and the libFuzzer targets, which are built here too, so a following
# scripts/fuzz.sh only runs them. Without clang: gcc, Debug, -DWASCHED_SANITIZE=ON in build-asan/.
set -euo pipefail
cd "$(dirname "$0")/.."

export ASAN_OPTIONS=detect_leaks=1:halt_on_error=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1

targets=(wasched_unit_tests wasched_integration_tests)
rc=0
scripts/configure-fuzz.sh build-fuzz || rc=$?
if [ "$rc" -eq 0 ]; then
  build=build-fuzz
  targets+=(fuzz_codec fuzz_validation fuzz_schedule)
elif [ "$rc" -ne 3 ]; then
  exit "$rc"
else
  echo "sanitize: no usable clang; gcc Debug build in build-asan/"
  build=build-asan
  cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Debug -DWASCHED_SANITIZE=ON -DWASCHED_BUILD_BENCH=OFF >/dev/null
fi
# One build command for all targets, so both jobs stay busy across target boundaries.
cmake --build "$build" -j2 --target "${targets[@]}"

# Each test program runs whole, in two shards side by side (GTEST_TOTAL_SHARDS): one sanitized
# process start per shard instead of one per test as under ctest (1177 starts; measured on this
# machine: 95 s with ctest -j2, 31 s sharded). A failing shard's log is printed.
status=0
for program in wasched_unit_tests wasched_integration_tests; do
  pids=()
  for shard in 0 1; do
    GTEST_TOTAL_SHARDS=2 GTEST_SHARD_INDEX=$shard "$build/tests/$program" \
      >"$build/tests/$program-shard$shard.log" 2>&1 &
    pids+=("$!")
  done
  for shard in 0 1; do
    log="$build/tests/$program-shard$shard.log"
    if wait "${pids[$shard]}"; then
      echo "sanitize: $program shard $shard/2: $(grep -E '^\[  PASSED  \]' "$log" || echo passed)"
    else
      echo "sanitize: $program shard $shard/2 FAILED ($log):"
      grep -E '^\[  FAILED  \]' "$log" || true
      tail -60 "$log"
      status=1
    fi
  done
done
exit "$status"
