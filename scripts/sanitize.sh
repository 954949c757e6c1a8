#!/usr/bin/env bash
# sanitize.sh: builds the unit and integration tests with AddressSanitizer + UndefinedBehaviorSanitizer
# and runs them with ctest, two at a time. With clang (the usual case) this is the fuzz build of
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
ctest --test-dir "$build" --output-on-failure -j2
