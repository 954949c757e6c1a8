#!/usr/bin/env bash
# time_load.sh [WASCHED_BINARY]: the "nothing quadratic" measurement of issue 10 — generates the
# synthetic cluster of fuzz/large_input.py (5,000 nodes, 11,875 PodGroups, 95,000 pods: 111,876
# objects) as multi-document YAML and as one JSON List, and times `wasched validate` (load + API
# validation + pre-scheduling checks, no scheduling) on each, and the same at a tenth of the size
# (a linear loader takes about a tenth of the time). A timed script, not a test: numbers go to
# stdout. Default binary: build/src/wasched.
set -euo pipefail
cd "$(dirname "$0")/.."
bin="${1:-build/src/wasched}"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

for scale in 10 1; do
  nodes=$((5000 / scale)); pods=$((95000 / scale))
  python3 fuzz/large_input.py -n "$nodes" -p "$pods" > "$tmp/cluster.yaml"
  python3 fuzz/large_input.py -n "$nodes" -p "$pods" --json > "$tmp/cluster.json"
  for f in cluster.yaml cluster.json; do
    size=$(du -h "$tmp/$f" | cut -f1)
    start=$(date +%s.%N)
    code=0
    "$bin" validate -f "$tmp/$f" -o json > /dev/null 2> "$tmp/err" || code=$?
    end=$(date +%s.%N)
    echo "load: $nodes nodes + $pods pods, $f ($size): validate $(echo "$end - $start" | bc) s, exit $code"
  done
done
