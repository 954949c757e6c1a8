#!/usr/bin/env bash
# Live test (issue 17, read-only acceptance): with the real v1.37.2 control plane holding a
# scenario's objects and no kube-scheduler running (nothing gets bound), `wasched schedule
# --kubeconfig` must print the same result as `wasched schedule -f` on the same files.
#
#   tests/live/schedule_kubeconfig.sh [SCENARIO...]   (default: three golden scenarios)
#
# Starts its own control plane (scripts/reference.sh up --without-scheduler) in a private state
# directory on private ports, so a reference already running is left alone, and stops it at the
# end. Every wait is reference.sh's or wasched-reference's (watched conditions with deadlines);
# there are no sleeps here. Needs Go (for wasched-reference) and build/src/wasched (or $WASCHED).
# Exit: 0 all equal, 1 a difference (both outputs shown), 77 skipped (no reference.sh / no Go).
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"
if ! command -v go >/dev/null && [ -x /usr/local/go/bin/go ]; then PATH="/usr/local/go/bin:$PATH"; fi
[ -x scripts/reference.sh ] || { echo "skip: scripts/reference.sh is not in this tree"; exit 77; }
command -v go >/dev/null || { echo "skip: go not found"; exit 77; }
wasched="${WASCHED:-$root/build/src/wasched}"
[ -x "$wasched" ] || { echo "error: $wasched not built (scripts/build.sh wasched)" >&2; exit 1; }

scenarios=("$@")
[ ${#scenarios[@]} -gt 0 ] || scenarios=(h01-gang-fits h02-gang-below-quorum g01-tree-partial)

work="$(mktemp -d /tmp/wasched-live.XXXXXX)"
export WASCHED_REFERENCE_STATE="$work/reference"
# Private ports (overridable): another control plane on the defaults keeps running.
export WASCHED_REFERENCE_ETCD_PORT="${LIVE_ETCD_PORT:-24790}"
export WASCHED_REFERENCE_ETCD_PEER_PORT="${LIVE_ETCD_PEER_PORT:-24800}"
export WASCHED_REFERENCE_APISERVER_PORT="${LIVE_APISERVER_PORT:-17443}"
export WASCHED_REFERENCE_KCM_PORT="${LIVE_KCM_PORT:-21257}"
export WASCHED_REFERENCE_SCHEDULER_PORT="${LIVE_SCHEDULER_PORT:-21259}"
cleanup() {
  scripts/reference.sh down >/dev/null 2>&1 || true
  rm -rf "$work"
}
trap cleanup EXIT

(cd reference && GOTOOLCHAIN=local go build -o "$work/wasched-reference" ./cmd/wasched-reference)
scripts/reference.sh up --without-scheduler
kubeconfig="$(scripts/reference.sh kubeconfig)"
ref() { "$work/wasched-reference" "$@" --kubeconfig "$kubeconfig"; }

failed=0
for s in "${scenarios[@]}"; do
  dir="tests/scenarios/$s"
  files=("$dir"/*.yaml)
  ref apply -f "${files[@]}"
  "$wasched" schedule -f "${files[@]}" -o json >"$work/$s.files.json" 2>"$work/$s.files.err"
  "$wasched" schedule --kubeconfig "$kubeconfig" -o json >"$work/$s.live.json" 2>"$work/$s.live.err"
  if cmp -s "$work/$s.files.json" "$work/$s.live.json"; then
    echo "ok   $s: --kubeconfig = -f ($(grep -c '"pod"' "$work/$s.live.json") pod entries)"
  else
    echo "FAIL $s: --kubeconfig differs from -f"
    diff -u "$work/$s.files.json" "$work/$s.live.json" || true
    echo "--- stderr of --kubeconfig:"; cat "$work/$s.live.err"
    failed=1
  fi
  ref delete -f "${files[@]}"
done
exit "$failed"
