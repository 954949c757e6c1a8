#!/usr/bin/env bash
# Live test of `wasched run` (issue 17): a private v1.37.2 control plane without kube-scheduler,
# and reference/cmd/wasched-live's scenarios against ${WASCHED:-build/src/wasched}, each of which
# starts (and kills) `wasched run` itself: gang-fits, gang-no-fit, nodes-added-later,
# preempt-gang, job, composite-tree, bind-failure, dra, crash-recovery, leader, bad-setup, rbac,
# metrics, watch-loss.
#
#   tests/live/run_scheduler.sh [SCENARIO...]        default: all
#   tests/live/run_scheduler.sh --upstream [SCENARIO...]
#
# --upstream validates the driver itself: the control plane WITH kube-scheduler and the pods
# named for default-scheduler; scenarios that need a wasched binary print SKIP.
# Starts its own control plane (scripts/reference.sh up) in a private state directory on private
# ports (not those of schedule_kubeconfig.sh or the defaults) and stops it at the end
# (LIVE_KEEP=1 keeps the logs folder). Every wait is a watched condition with a deadline.
# Exit: 0 all pass, 1 a failure, 77 skipped (no Go / no reference.sh).
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"
if ! command -v go >/dev/null && [ -x /usr/local/go/bin/go ]; then PATH="/usr/local/go/bin:$PATH"; fi
reference_sh="${WASCHED_REFERENCE_SH:-$root/scripts/reference.sh}"
[ -x "$reference_sh" ] || { echo "skip: $reference_sh is missing"; exit 77; }
command -v go >/dev/null || { echo "skip: go not found"; exit 77; }

upstream=0
if [ "${1:-}" = --upstream ]; then upstream=1; shift; fi
scenarios=("$@")
[ ${#scenarios[@]} -gt 0 ] || scenarios=(all)
wasched="${WASCHED:-$root/build/src/wasched}"
if [ "$upstream" = 0 ] && [ ! -x "$wasched" ]; then
  echo "error: $wasched not built (scripts/build.sh wasched), or use --upstream" >&2
  exit 1
fi

work="$(mktemp -d /tmp/wasched-live-run.XXXXXX)"
export WASCHED_REFERENCE_STATE="$work/reference"
export WASCHED_REFERENCE_ETCD_PORT="${LIVE_ETCD_PORT:-31790}"
export WASCHED_REFERENCE_ETCD_PEER_PORT="${LIVE_ETCD_PEER_PORT:-31800}"
export WASCHED_REFERENCE_APISERVER_PORT="${LIVE_APISERVER_PORT:-31443}"
export WASCHED_REFERENCE_KCM_PORT="${LIVE_KCM_PORT:-31257}"
export WASCHED_REFERENCE_SCHEDULER_PORT="${LIVE_SCHEDULER_PORT:-31259}"
cleanup() {
  "$reference_sh" down >/dev/null 2>&1 || true
  if [ -n "${LIVE_KEEP:-}" ]; then echo "kept: $work"; else rm -rf "$work"; fi
}
trap cleanup EXIT

(cd reference && GOTOOLCHAIN=local go build -o "$work/wasched-live" ./cmd/wasched-live)
if [ "$upstream" = 1 ]; then
  "$reference_sh" up
  args=(--wasched '' --scheduler-name default-scheduler)
else
  "$reference_sh" up --without-scheduler
  args=(--wasched "$wasched" --scheduler-name wasched)
fi
"$work/wasched-live" --kubeconfig "$("$reference_sh" kubeconfig)" "${args[@]}" \
  --rbac "$root/deploy/rbac.yaml" --workdir "$work/logs" "${scenarios[@]}"
