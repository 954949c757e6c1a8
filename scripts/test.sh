#!/usr/bin/env bash
# test.sh: builds everything (Release, build/) and runs every test: unit, scenario and property
# tests through ctest, two at a time; then the tests against the upstream v1.37.2 control plane
# (scripts/reference-test.sh: builds it with Go, cached, starts it on 127.0.0.1, runs the smoke
# check, stops it; WASCHED_REFERENCE=0 skips them); then the fuzz smoke: every libFuzzer target
# of fuzz/ built with clang (ASan + UBSan, build-fuzz/) and run for WASCHED_FUZZ_SECONDS each
# (default 20; 0 skips the stage; skipped with a message when clang is not installed).
# The CI (.ci/run) runs this with the fuzz smoke off, then scripts/sanitize.sh (the tests under
# ASan + UBSan, in the clang build the fuzz targets use) and scripts/fuzz.sh -t 60 -j 3.
# Each stage prints its wall time.
set -euo pipefail
cd "$(dirname "$0")/.."

start=$SECONDS
scripts/build.sh
echo "test.sh: build $((SECONDS - start)) s"
start=$SECONDS
ctest --test-dir build --output-on-failure -j2
echo "test.sh: ctest $((SECONDS - start)) s"

# The tests against the real v1.37.2 control plane (Go; binaries cached between runs).
if [ "${WASCHED_REFERENCE:-1}" = 0 ]; then
  echo "reference tests: skipped (WASCHED_REFERENCE=0)"
else
  start=$SECONDS
  scripts/reference-test.sh
  echo "test.sh: reference tests $((SECONDS - start)) s"
fi

fuzz_seconds="${WASCHED_FUZZ_SECONDS:-20}"
if [ "$fuzz_seconds" = 0 ]; then
  echo "fuzz smoke: skipped (WASCHED_FUZZ_SECONDS=0)"
else
  start=$SECONDS
  scripts/fuzz.sh -t "$fuzz_seconds"
  echo "test.sh: fuzz smoke $((SECONDS - start)) s"
fi
