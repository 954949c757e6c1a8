#!/usr/bin/env bash
# Side-by-side throughput on the real v1.37.2 control plane (issue 17): kube-scheduler on one
# control-plane start, `wasched run` (${WASCHED:-build/src/wasched}) on another, and the API
# server's own ceiling (the driver binds the pods itself through pods/binding), each for two
# shapes: 1000 gangs of 5 and 10 gangs of 500, on 500 nodes. Prints a markdown table (the JSON
# lines of reference/cmd/wasched-live bench go to $LIVE_BENCH_OUT when set; LIVE_KEEP=1 keeps the
# temporary folder with the logs).
#
#   tests/live/run_bench.sh            LIVE_BENCH_NODES / LIVE_BENCH_SHAPES ("1000x5 10x500") override
#
# Without a wasched binary its rows are left out (a note on stderr). Exit: 0 done, 1 a run
# failed, 77 skipped.
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"
if ! command -v go >/dev/null && [ -x /usr/local/go/bin/go ]; then PATH="/usr/local/go/bin:$PATH"; fi
reference_sh="${WASCHED_REFERENCE_SH:-$root/scripts/reference.sh}"
[ -x "$reference_sh" ] || { echo "skip: $reference_sh is missing"; exit 77; }
command -v go >/dev/null || { echo "skip: go not found"; exit 77; }
wasched="${WASCHED:-$root/build/src/wasched}"
nodes="${LIVE_BENCH_NODES:-500}"
read -r -a shapes <<<"${LIVE_BENCH_SHAPES:-1000x5 10x500}"

work="$(mktemp -d /tmp/wasched-live-bench.XXXXXX)"
out="${LIVE_BENCH_OUT:-$work/bench.jsonl}"
: >"$out"
export WASCHED_REFERENCE_STATE="$work/reference"
export WASCHED_REFERENCE_ETCD_PORT="${LIVE_ETCD_PORT:-30790}"
export WASCHED_REFERENCE_ETCD_PEER_PORT="${LIVE_ETCD_PEER_PORT:-30800}"
export WASCHED_REFERENCE_APISERVER_PORT="${LIVE_APISERVER_PORT:-30443}"
export WASCHED_REFERENCE_KCM_PORT="${LIVE_KCM_PORT:-30257}"
export WASCHED_REFERENCE_SCHEDULER_PORT="${LIVE_SCHEDULER_PORT:-30259}"
cleanup() {
  "$reference_sh" down >/dev/null 2>&1 || true
  if [ -n "${LIVE_KEEP:-}" ]; then echo "kept: $work"; else rm -rf "$work"; fi
}
trap cleanup EXIT
(cd reference && GOTOOLCHAIN=local go build -o "$work/wasched-live" ./cmd/wasched-live)

failed=0
bench() { # bench MODE ARGS...: one run, its JSON line appended to $out
  local mode="$1"; shift
  local shape
  for shape in "${shapes[@]}"; do
    if ! "$work/wasched-live" "$mode" --kubeconfig "$("$reference_sh" kubeconfig)" --nodes "$nodes" \
      --gangs "${shape%x*}" --gang-size "${shape#*x}" --workdir "$work/logs" "$@" | tee -a "$out"; then
      echo "bench: $mode $shape failed" >&2
      failed=1
    fi
  done
}

"$reference_sh" up
bench bench --scheduler-name default-scheduler
"$reference_sh" down
"$reference_sh" up --without-scheduler
bench bench-ceiling
if [ -x "$wasched" ]; then
  bench bench --scheduler-name wasched --wasched "$wasched"
else
  echo "bench: $wasched not built: no wasched rows" >&2
fi
"$reference_sh" down

python3 - "$out" "$nodes" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1]) if l.strip()]
print(f"\n{sys.argv[2]} nodes; wall = first create → last pod seen bound; gang latency = last pod created → last pod bound\n")
print("| run | gangs × size | pods | create s | wall s | pods/s | gang p50 ms | gang p99 ms |")
print("|---|---|---|---|---|---|---|---|")
for r in rows:
    name = "API-server ceiling (driver binds)" if r["mode"] == "bench-ceiling" else r["scheduler"]
    print(f"| {name} | {r['gangs']} × {r['gang_size']} | {r['pods']} | {r['create_s']} | {r['wall_s']} | "
          f"{r['pods_per_s']} | {r['gang_latency_p50_ms']} | {r['gang_latency_p99_ms']} |")
PY
exit "$failed"
