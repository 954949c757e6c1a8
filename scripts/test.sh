#!/usr/bin/env bash
# test.sh: builds everything (Release, build/) and runs every test: unit, scenario and property
# tests through ctest, two at a time.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/build.sh
ctest --test-dir build --output-on-failure -j2
