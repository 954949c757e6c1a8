#!/usr/bin/env bash
# Live test (issue 17, read-only acceptance): with the real v1.37.2 control plane holding a
# scenario's objects and no kube-scheduler running (nothing gets bound), `wasched schedule
# --kubeconfig` must print the same result as `wasched schedule -f` on the same files.
#
#   tests/live/schedule_kubeconfig.sh [SCENARIO|DIR...]
#
# Default: golden scenarios (a gang that fits, one below quorum, a CompositePodGroup tree, running
# pods as preemption victims) and examples/demo (Jobs: kube-controller-manager creates their
# Workloads, PodGroups and pods, wasched's own Job controller must find them and add nothing).
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
reference_sh="${WASCHED_REFERENCE_SH:-$root/scripts/reference.sh}"  # another checkout's, if set
[ -x "$reference_sh" ] || { echo "skip: $reference_sh is missing"; exit 77; }
command -v go >/dev/null || { echo "skip: go not found"; exit 77; }
wasched="${WASCHED:-$root/build/src/wasched}"
[ -x "$wasched" ] || { echo "error: $wasched not built (scripts/build.sh wasched)" >&2; exit 1; }

scenarios=("$@")
[ ${#scenarios[@]} -gt 0 ] ||
  scenarios=(h01-gang-fits h02-gang-below-quorum g01-tree-partial i14-whole-gang-victim examples/demo)

work="$(mktemp -d /tmp/wasched-live.XXXXXX)"
export WASCHED_REFERENCE_STATE="$work/reference"
# Private ports (overridable): another control plane on the defaults keeps running.
export WASCHED_REFERENCE_ETCD_PORT="${LIVE_ETCD_PORT:-24790}"
export WASCHED_REFERENCE_ETCD_PEER_PORT="${LIVE_ETCD_PEER_PORT:-24800}"
export WASCHED_REFERENCE_APISERVER_PORT="${LIVE_APISERVER_PORT:-17443}"
export WASCHED_REFERENCE_KCM_PORT="${LIVE_KCM_PORT:-21257}"
export WASCHED_REFERENCE_SCHEDULER_PORT="${LIVE_SCHEDULER_PORT:-21259}"
cleanup() {
  "$reference_sh" down >/dev/null 2>&1 || true
  [ -n "${LIVE_KEEP:-}" ] || rm -rf "$work"
}
trap cleanup EXIT

(cd reference && GOTOOLCHAIN=local go build -o "$work/wasched-reference" ./cmd/wasched-reference)
"$reference_sh" up --without-scheduler
kubeconfig="$("$reference_sh" kubeconfig)"
ref() { "$work/wasched-reference" "$@" --kubeconfig "$kubeconfig"; }

# same_but_messages A B: the two results are equal once every "message" is removed.
same_but_messages() {
  python3 - "$1" "$2" <<'PY'
import json, sys
def strip(v):
    if isinstance(v, dict):
        return {k: strip(x) for k, x in v.items() if k != "message"}
    if isinstance(v, list):
        return [strip(x) for x in v]
    return v
a, b = (strip(json.load(open(p))) for p in sys.argv[1:3])
sys.exit(0 if a == b else 1)
PY
}
failed=0
for s in "${scenarios[@]}"; do
  dir="tests/scenarios/$s"
  [ -d "$s" ] && dir="$s"
  files=("$dir"/*.yaml)
  s="${s//\//_}"
  ref apply -f "${files[@]}"
  "$wasched" schedule -f "${files[@]}" -o json >"$work/$s.files.json" 2>"$work/$s.files.err"
  "$wasched" schedule --kubeconfig "$kubeconfig" -o json >"$work/$s.live.json" 2>"$work/$s.live.err"
  if cmp -s "$work/$s.files.json" "$work/$s.live.json"; then
    echo "ok   $s: --kubeconfig = -f ($(grep -c '"pod"' "$work/$s.live.json") pod entries)"
  elif same_but_messages "$work/$s.files.json" "$work/$s.live.json"; then
    # Gangs of equal priority are tried in creation order, which in a cluster is the time the
    # Job controller created their pods and in files the input order: the outcome is the same,
    # a gang's "N of M pods fit" count can differ (the other gang may be placed first).
    echo "ok   $s: --kubeconfig = -f but for messages ($(grep -c '"pod"' "$work/$s.live.json") pod entries; equal-priority gangs tried in creation order)"
  else
    echo "FAIL $s: --kubeconfig differs from -f"
    diff -u "$work/$s.files.json" "$work/$s.live.json" || true
    echo "--- stderr of --kubeconfig:"; cat "$work/$s.live.err"
    failed=1
  fi
  ref delete -f "${files[@]}"
done

# Files on top of the cluster ("what if I submit this"): the cluster holds only the nodes, the
# PodGroup and pods come from -f; the result must equal -f on everything.
dir=tests/scenarios/h01-gang-fits
ref apply -f "$dir/00-nodes.yaml"
"$wasched" schedule -f "$dir"/*.yaml -o json >"$work/ontop.files.json" 2>/dev/null
"$wasched" schedule --kubeconfig "$kubeconfig" -f "$dir/10-podgroups.yaml" -f "$dir/20-pods.yaml" \
  -o json >"$work/ontop.live.json" 2>"$work/ontop.live.err"
if cmp -s "$work/ontop.files.json" "$work/ontop.live.json"; then
  echo "ok   files on top of the cluster: --kubeconfig + -f = -f"
else
  echo "FAIL files on top of the cluster"
  diff -u "$work/ontop.files.json" "$work/ontop.live.json" || true
  cat "$work/ontop.live.err"
  failed=1
fi
ref delete -f "$dir/00-nodes.yaml"

# Bad setup: RBAC forbidden (kube-scheduler's identity may not list PriorityClasses), an
# unreachable server (kube-scheduler's port: nothing listens there), and a kubeconfig without the cluster's CA: exit 4, one error line each.
expect_error() { # expect_error WHAT PATTERN KUBECONFIG
  local code=0
  "$wasched" schedule --kubeconfig "$3" >"$work/err.out" 2>"$work/err.err" || code=$?
  if [ "$code" = 4 ] && [ "$(wc -l <"$work/err.err")" = 1 ] && grep -q "$2" "$work/err.err" &&
     [ ! -s "$work/err.out" ]; then
    echo "ok   $1: exit 4, $(cat "$work/err.err")"
  else
    echo "FAIL $1: exit $code, stderr:"; cat "$work/err.err"; failed=1
  fi
}
expect_error "RBAC forbidden" 'HTTP 403 Forbidden: .*User "system:kube-scheduler" cannot list' \
  "$(dirname "$kubeconfig")/kube-scheduler.kubeconfig"
sed "s#127.0.0.1:$WASCHED_REFERENCE_APISERVER_PORT#127.0.0.1:$WASCHED_REFERENCE_SCHEDULER_PORT#" \
  "$kubeconfig" >"$work/unreachable.kubeconfig"
expect_error "unreachable server" "cannot reach the API server" "$work/unreachable.kubeconfig"
grep -v certificate-authority-data "$kubeconfig" >"$work/no-ca.kubeconfig"
expect_error "unknown CA" "SSL certificate problem" "$work/no-ca.kubeconfig"
exit "$failed"
