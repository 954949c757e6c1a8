#!/usr/bin/env bash
# bench-upstream.sh: runs kube-scheduler's own scheduler_perf benchmarks (k8s.io/kubernetes
# v1.37.2, test/integration/scheduler_perf: RunBenchmarkPerfScheduling, one in-process
# kube-apiserver + etcd + kube-scheduler per workload) and prints one JSON list on stdout, a row
# per workload with upstream's SchedulingThroughput (reference/cmd/schedperf-summary describes
# the fields). `wasched bench --against-upstream` runs it and puts the engine beside each row.
# A benchmark, not a test: CI does not run it.
#
#   scripts/bench-upstream.sh [SUITE/TESTCASE/WORKLOAD...]
#
# Without arguments it runs the default list below (the largest sizes that finish within
# WASCHED_SCHEDPERF_TIMEOUT on 2 cores). SUITE is the harness's sub-benchmark (reference/schedperf:
# misc, gangscheduling, tas, podgroupbasic, workloadpreemption).
# Environment: WASCHED_SCHEDPERF_WORKLOADS (the list when no argument is given);
# WASCHED_SCHEDPERF_TIMEOUT (seconds per workload, default 600);
# WASCHED_REFERENCE_HOME (default ~/.cache/wasched-reference: etcd comes from its bin/, built by
# `scripts/reference.sh build` when missing; the test binary and each run's logs and DataItems go
# to its schedperf/).
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
if ! command -v go >/dev/null && [ -x /usr/local/go/bin/go ]; then PATH="/usr/local/go/bin:$PATH"; fi
export HOME="${HOME:-$(getent passwd "$(id -u)" | cut -d: -f6)}"
home_dir="${WASCHED_REFERENCE_HOME:-$HOME/.cache/wasched-reference}"
work="$home_dir/schedperf"
timeout_s="${WASCHED_SCHEDPERF_TIMEOUT:-600}"

default_workloads=(
  misc/SchedulingBasic/5000Nodes_10000Pods
  gangscheduling/GangScheduling/5000Nodes_3000Gangs_9000Pods
  gangscheduling/GangScheduling/5000Nodes_9Gangs_9000Pods_1000PerGroup
  tas/TopologyAwareScheduling/5000Nodes_2250Gangs_9000Pods
  tas/TopologyAwareScheduling/5000Nodes_9Gangs_9000Pods_1000PerGroup
  podgroupbasic/BasicScheduling/5000Nodes_3000Groups_9000Pods
  workloadpreemption/GangPreemptionBasic/100Nodes_10PreemptorGangs_10Pods_Evicting_1000InitPods
  workloadpreemption/GangPreemptionPodGroups/100Nodes_10PreemptorGangs_10Pods_Evicting_50LowPriorityGangs
  workloadpreemption/GangPreemptionAffinity/100Nodes_10PreemptorGangs_10Pods_Evicting_1000InitPods
)
workloads=("$@")
# WASCHED_SCHEDPERF_WORKLOADS (space-separated) replaces the default list when no argument is given
# (how `wasched bench --against-upstream` runs other workloads).
[ ${#workloads[@]} -gt 0 ] || read -r -a workloads <<< "${WASCHED_SCHEDPERF_WORKLOADS:-}"
[ ${#workloads[@]} -gt 0 ] || workloads=("${default_workloads[@]}")

log() { echo "bench-upstream.sh: $*" >&2; }
die() { log "$*"; exit 1; }

[ -x "$home_dir/bin/etcd" ] || { log "no etcd in $home_dir/bin: scripts/reference.sh build"; "$root/scripts/reference.sh" build >&2; }
mkdir -p "$work"

# The harness binary (reference/schedperf, build tag schedperf) and the summary tool, rebuilt
# when the module, the harness or the Go version changed.
cd "$root/reference"
stamp="$( (cat go.mod go.sum schedperf/*.go cmd/schedperf-summary/*.go; go version) | sha256sum | cut -d' ' -f1)"
if [ "$(cat "$work/stamp" 2>/dev/null)" != "$stamp" ] || [ ! -x "$work/schedperf.test" ] || [ ! -x "$work/schedperf-summary" ]; then
  log "building the scheduler_perf harness (first build: several minutes)"
  go test -p 2 -tags schedperf -c -o "$work/schedperf.test" ./schedperf >&2
  go build -o "$work/schedperf-summary" ./cmd/schedperf-summary >&2
  echo "$stamp" > "$work/stamp"
fi
perf_dir="$(go list -m -f '{{.Dir}}' k8s.io/kubernetes)/test/integration/scheduler_perf"
[ -d "$perf_dir" ] || die "no $perf_dir (cd reference && go mod download)"

run_id="$(date -u +%Y%m%dT%H%M%SZ)"
runs="$work/runs/$run_id"
mkdir -p "$runs"
manifest="$runs/manifest.tsv"
: > "$manifest"
for w in "${workloads[@]}"; do
  IFS=/ read -r suite test_case workload <<< "$w"
  [ -n "$suite" ] && [ -n "$test_case" ] && [ -n "$workload" ] || die "not SUITE/TESTCASE/WORKLOAD: $w"
  out="$runs/$suite-$test_case-$workload"
  mkdir -p "$out"
  log "$w (timeout ${timeout_s} s; log $out/log.txt)"
  start=$(date +%s.%N)
  status=ok
  # Each workload in its own process: a fresh etcd, apiserver and scheduler, as upstream's CI.
  # -perf-scheduling-label-filter= : every workload may be chosen (upstream's default is
  # "performance"); the exact name selects one.
  (cd "$out" && PATH="$home_dir/bin:$PATH" timeout --kill-after=30 "$timeout_s" "$work/schedperf.test" \
    -test.run '^$' -test.benchtime 1x -test.timeout 0 \
    -test.bench "^BenchmarkPerfScheduling\$/^$suite\$/^$test_case\$/^$workload\$" \
    -perf-scheduling-label-filter= -data-items-dir "$out" -scheduler-perf-dir "$perf_dir" \
    > "$out/log.txt" 2>&1) || { rc=$?; status=failed; [ "$rc" -ge 124 ] && status=timeout; }
  wall=$(echo "$(date +%s.%N) - $start" | bc)
  # A workload whose throughput is below upstream's CI threshold (set for its 16-core runners)
  # fails the benchmark after writing its DataItems: that is a result, kept as such.
  if [ "$status" = failed ] && grep -q 'SchedulingThroughput" "Average" to be higher: got' "$out/log.txt" &&
     [ "$(grep -c -- '^--- FAIL' "$out/log.txt")" -le 4 ]; then
    status=below-threshold
  fi
  grep -q "SchedulingThroughput\|SchedulingDuration" "$out/log.txt" || [ "$status" != ok ] || status=failed
  log "  $status after $(printf %.0f "$wall") s"
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$suite" "$test_case" "$workload" "$out" "$status" "$wall" "$out/log.txt" >> "$manifest"
done
"$work/schedperf-summary" "$manifest"
