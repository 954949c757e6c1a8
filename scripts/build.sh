#!/usr/bin/env bash
# build.sh [TARGET...]: installs missing packages, configures a Release build in build/ and builds
# the given targets (all when none), two jobs at a time. Build output goes to stderr so that
# `scripts/demo.sh -o json` prints only the JSON on stdout.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/install-deps.sh >&2
# A fresh build/ uses Ninja when it is installed (it starts a target's objects before the libraries
# it links are archived, so both jobs stay busy); an existing build/ keeps its generator.
generator=()
if [ ! -f build/CMakeCache.txt ] && command -v ninja >/dev/null 2>&1; then
  generator=(-G Ninja)
fi
cmake -S . -B build "${generator[@]}" -DCMAKE_BUILD_TYPE=Release >/dev/null
if [ $# -eq 0 ]; then
  cmake --build build -j2 >&2
else
  for target in "$@"; do
    cmake --build build -j2 --target "$target" >&2
  done
fi
