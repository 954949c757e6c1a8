#!/usr/bin/env bash
# configure-fuzz.sh [BUILD_DIR]: configures the clang build that both scripts/sanitize.sh (unit and
# integration tests under ASan + UBSan) and scripts/fuzz.sh (libFuzzer targets) use, so the
# libraries are compiled once for both (default BUILD_DIR build-fuzz). -O1 with line tables:
# sanitized tests and fuzz targets run fast and stack traces stay readable; no NDEBUG, so asserts
# (and the scheduler's verify mode) stay on. The libraries get libFuzzer's coverage
# instrumentation, the test sources -O0 (cmake/test_build.cmake). A fresh BUILD_DIR uses Ninja
# when it is installed (an existing one keeps its generator).
# Exits 3 with a message when clang++ cannot build libFuzzer targets (clang / libclang-rt-dev
# missing).
set -euo pipefail
cd "$(dirname "$0")/.."

build="${1:-build-fuzz}"
if ! command -v clang++ >/dev/null 2>&1; then
  echo "clang++ is not installed (scripts/install-deps.sh installs clang and libclang-rt-dev)" >&2
  exit 3
fi
probe="$(mktemp)"
if ! echo 'extern "C" int LLVMFuzzerTestOneInput(const unsigned char*, unsigned long) { return 0; }' |
    clang++ -fsanitize=fuzzer,address,undefined -x c++ - -o "$probe" >/dev/null 2>&1; then
  rm -f "$probe"
  echo "clang++ cannot link libFuzzer (install libclang-rt-dev)" >&2
  exit 3
fi
rm -f "$probe"

generator=()
if [ ! -f "$build/CMakeCache.txt" ] && command -v ninja >/dev/null 2>&1; then
  generator=(-G Ninja)
fi
cmake -S . -B "$build" "${generator[@]}" -DCMAKE_BUILD_TYPE=Fuzz -DCMAKE_CXX_COMPILER=clang++ \
  -DCMAKE_CXX_FLAGS_FUZZ="-O1 -gline-tables-only" -DWASCHED_FUZZ=ON -DWASCHED_BUILD_BENCH=OFF \
  >/dev/null
