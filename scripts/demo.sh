#!/usr/bin/env bash
# demo.sh [-o table|json|yaml]: builds wasched (Release, build/) and runs the demo on the bundled
# example (examples/demo). Extra arguments go to `wasched demo`.
set -euo pipefail
cd "$(dirname "$0")/.."

scripts/build.sh wasched
exec ./build/src/wasched demo "$@"
