#!/usr/bin/env bash
# A stand-in with `wasched run`'s command line, backed by upstream kube-scheduler v1.37.2 (from
# scripts/reference.sh's binaries), to validate reference/cmd/wasched-live's process handling
# (crash-recovery: SIGKILL and restart; SIGTERM → exit 0) before `wasched run` exists:
#
#   WASCHED=tests/live/kube-scheduler-as-wasched.sh tests/live/run_scheduler.sh crash-recovery
#
# Not a substitute for the scenarios that test wasched's own contract: kube-scheduler chooses its
# own leader identity (hostname_uuid, so `leader` fails on the holder check), needs more rights
# than deploy/rbac.yaml gives (`rbac`), and has other exit codes (`bad-setup`). --identity,
# --bind-address and -v are accepted and ignored (no health endpoint is served).
set -uo pipefail
[ "${1:-}" = run ] || { echo "usage: $0 run [flags]" >&2; exit 2; }
shift
bin="${WASCHED_REFERENCE_HOME:-$HOME/.cache/wasched-reference}/bin"
kubeconfig="" name=wasched leader=true lns=kube-system lname=wasched
while [ $# -gt 0 ]; do
  case "$1" in
    --kubeconfig) kubeconfig="$2"; shift 2 ;;
    --scheduler-name) name="$2"; shift 2 ;;
    --leader-elect=*) leader="${1#*=}"; shift ;;
    --lease-namespace) lns="$2"; shift 2 ;;
    --lease-name) lname="$2"; shift 2 ;;
    --identity | --bind-address | -v) shift 2 ;;
    *) echo "error: unknown flag $1" >&2; exit 2 ;;
  esac
done
[ -f "$kubeconfig" ] || { echo "error: kubeconfig $kubeconfig: no such file" >&2; exit 1; }
config() {
  cat <<YAML
apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
clientConnection: {kubeconfig: $kubeconfig, qps: 500, burst: 1000}
leaderElection:
  leaderElect: $leader
  resourceLock: leases
  resourceNamespace: $lns
  resourceName: $lname
percentageOfNodesToScore: 100
profiles:
- schedulerName: $name
YAML
}
gates="${WASCHED_REFERENCE_FEATURE_GATES:-GenericWorkload=true,TopologyAwareWorkloadScheduling=true,DRAWorkloadResourceClaims=true,CompositePodGroup=true,WorkloadWithJob=true,PodGroupPreemptionPolicy=true}"
# kube-scheduler exits 1 on SIGTERM ("finished without leader elect"); wasched run's contract is
# exit 0: the signal is forwarded and a TERM-caused exit reported as 0.
# The configuration comes through a pipe (nothing to clean up after a SIGKILL).
"$bin/kube-scheduler" --config=<(config) --feature-gates="$gates" --secure-port=0 &
child=$!
trap 'kill -TERM $child 2>/dev/null; wait $child; exit 0' TERM
wait $child
