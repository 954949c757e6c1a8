#!/usr/bin/env bash
# reference.sh: builds and runs the upstream Kubernetes v1.37.2 control plane on 127.0.0.1, the
# reference wasched is compared against (issue 15). There are no kubelets: a stand-in
# (reference/cmd/lifecycle) keeps Nodes Ready, marks bound pods Running and finishes deletions.
#
#   scripts/reference.sh build                      build the binaries if reference/ changed
#   scripts/reference.sh up [--without-scheduler]   start (building first if needed); waits for ready
#   scripts/reference.sh down                       stop everything; no process or port is left
#   scripts/reference.sh status                     what runs, its ports and URLs; exit 0 when up
#   scripts/reference.sh kubeconfig                 path of the admin kubeconfig (system:masters)
#   scripts/reference.sh check                      smoke check of the running control plane
#   scripts/reference.sh schedule -f PATH... [-o json]               wasched-reference against the
#   scripts/reference.sh validate -f PATH... [--old PATH...] [-o json]   running control plane
#   scripts/reference.sh schedule-batch --cases DIR --out DIR [--parallel N]  (started and built
#   scripts/reference.sh validate-batch --cases DIR --out DIR [--parallel N]  first when needed)
#   scripts/reference.sh create -f PATH...   create objects on the running control plane, on top of
#                                            what is there (no kubectl needed)
#   scripts/reference.sh delete -f PATH...   empty those objects' namespaces, delete their
#                                            cluster-scoped ones
#
# Binaries: ${WASCHED_REFERENCE_HOME:-~/.cache/wasched-reference}/bin, rebuilt only when
# reference/go.mod, go.sum, a non-test .go file, the Go version or the link flags change (a stamp
# hash). State (pids, logs, pki, etcd data, kubeconfigs): ${WASCHED_REFERENCE_STATE:-/tmp/wasched-reference}.
# Ports (environment, defaults): WASCHED_REFERENCE_ETCD_PORT 23790, WASCHED_REFERENCE_ETCD_PEER_PORT
# 23800, WASCHED_REFERENCE_APISERVER_PORT 16443, WASCHED_REFERENCE_KCM_PORT 20257,
# WASCHED_REFERENCE_SCHEDULER_PORT 20259. WASCHED_REFERENCE_FEATURE_GATES replaces the gate list
# (default: the six workload-aware scheduling gates on). Every `up` starts from an empty etcd.
# What is run, with which flags and why: docs/reference.md; upstream facts: docs/upstream.md.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
# Go 1.26 lives in /usr/local/go on the project's machines; a PATH without it still finds it.
if ! command -v go >/dev/null && [ -x /usr/local/go/bin/go ]; then PATH="/usr/local/go/bin:$PATH"; fi
# go needs HOME for its default caches; a bare environment gets the user's.
export HOME="${HOME:-$(getent passwd "$(id -u)" | cut -d: -f6)}"
home_dir="${WASCHED_REFERENCE_HOME:-$HOME/.cache/wasched-reference}"
bin="$home_dir/bin"
state="${WASCHED_REFERENCE_STATE:-/tmp/wasched-reference}"
version=v1.37.2

etcd_port="${WASCHED_REFERENCE_ETCD_PORT:-23790}"
etcd_peer_port="${WASCHED_REFERENCE_ETCD_PEER_PORT:-23800}"
apiserver_port="${WASCHED_REFERENCE_APISERVER_PORT:-16443}"
kcm_port="${WASCHED_REFERENCE_KCM_PORT:-20257}"
scheduler_port="${WASCHED_REFERENCE_SCHEDULER_PORT:-20259}"

# The six gates of workload-aware scheduling in v1.37.2 (docs/upstream.md lists stage and default).
feature_gates="${WASCHED_REFERENCE_FEATURE_GATES:-GenericWorkload=true,TopologyAwareWorkloadScheduling=true,DRAWorkloadResourceClaims=true,CompositePodGroup=true,WorkloadWithJob=true,PodGroupPreemptionPolicy=true}"
runtime_config="scheduling.k8s.io/v1beta1=true,scheduling.k8s.io/v1alpha3=true,resource.k8s.io/v1=true"
# Controllers the reference needs (canonical names from cmd/kube-controller-manager/names).
controllers="job-controller,resourceclaim-controller,garbage-collector-controller,namespace-controller,podgroup-protection-controller,disruption-controller"

# upstream's hack/lib/version.sh sets the same variables in both packages; -s -w drops the
# symbol table and DWARF as upstream's release builds do.
ldflags="-s -w"
for pkg in k8s.io/component-base/version k8s.io/client-go/pkg/version; do
  ldflags+=" -X $pkg.gitVersion=$version -X $pkg.gitMajor=1 -X $pkg.gitMinor=37 -X $pkg.gitTreeState=clean"
done
packages=(./cmd/... k8s.io/kubernetes/cmd/kube-apiserver k8s.io/kubernetes/cmd/kube-controller-manager k8s.io/kubernetes/cmd/kube-scheduler)
binaries=(etcd kube-apiserver kube-controller-manager kube-scheduler lifecycle reference-smoke wasched-reference)
# Start order; down stops in reverse.
components=(etcd kube-apiserver kube-controller-manager kube-scheduler lifecycle)

exec 4>&2
die() { echo "reference.sh: $*" >&2; exit 1; }
log() { echo "reference.sh: $*"; }

show_logs() { # the last lines of each log (or of $1's only)
  local f
  for f in "$state"/logs/"${1:-*}".log; do
    [ -f "$f" ] && { echo "--- last lines of $f" >&2; tail -n 15 "$f" >&2; }
  done
  return 0
}

# wait_for DESCRIPTION SECONDS COMMAND...: polls COMMAND every 0.2 s until it succeeds; fails
# after SECONDS with the description (and the last lines of the logs).
wait_for() {
  local what="$1" limit="$2"; shift 2
  local deadline=$((SECONDS + limit))
  until "$@" >/dev/null 2>&1; do
    if [ "$SECONDS" -ge "$deadline" ]; then
      echo "reference.sh: timed out after ${limit} s waiting for $what" >&2
      show_logs
      return 1
    fi
    sleep 0.2
  done
}

# ready NAME CHECK...: CHECK succeeds; fails at once (stopping wait_for) when NAME has exited.
ready() {
  local name="$1"; shift
  if ! pid_of "$name" >/dev/null; then
    # wait_for silences its command: fd 4 is the script's stderr.
    { echo "reference.sh: $name exited"; show_logs "$name" 2>&1; } >&4
    exit 1
  fi
  "$@"
}

stamp() {
  (
    cd "$root/reference"
    go env GOVERSION
    echo "$ldflags" "${packages[*]}"
    find . -type f \( -name go.mod -o -name go.sum -o \( -name '*.go' ! -name '*_test.go' \) \) -print0 |
      LC_ALL=C sort -z | xargs -0 sha256sum
  ) | sha256sum | cut -d' ' -f1
}

cmd_build() {
  command -v go >/dev/null || die "go not found (Go 1.26 is needed; scripts/install-deps.sh does not install it)"
  local want have="" b missing=0
  # One build at a time per binary directory (tests may start control planes concurrently).
  mkdir -p "$bin"
  exec 9>"$bin/.lock"
  flock 9
  want="$(stamp)"
  [ -f "$bin/.stamp" ] && have="$(cat "$bin/.stamp")"
  for b in "${binaries[@]}"; do [ -x "$bin/$b" ] || missing=1; done
  if [ "$want" = "$have" ] && [ "$missing" = 0 ]; then
    log "binaries up to date in $bin"
    exec 9>&-
    return 0
  fi
  mkdir -p "$bin"
  rm -f "$bin/.stamp"
  log "building ${packages[*]} into $bin"
  local start=$SECONDS
  # One invocation so that the shared dependencies compile once. GOTOOLCHAIN=local: never fetch
  # another toolchain; modules after v1.37 need Go 1.27 and are never taken (no `go get -u`).
  (cd "$root/reference" && GOTOOLCHAIN=local go build -trimpath -buildvcs=false -ldflags "$ldflags" -o "$bin/" "${packages[@]}")
  echo "$want" >"$bin/.stamp"
  log "build: $((SECONDS - start)) s"
  exec 9>&-
}

gone() { # gone PID: no such process, or only a zombie waiting to be reaped
  local st
  st="$(cut -d' ' -f3 "/proc/$1/stat" 2>/dev/null)" || return 0
  [ -z "$st" ] || [ "$st" = Z ]
}

pid_of() { # prints the pid of a running component started from this state dir
  local f="$state/pids/$1.pid" pid
  [ -f "$f" ] || return 1
  pid="$(cat "$f")"
  [ -n "$pid" ] && ! gone "$pid" || return 1
  # Guard against pid reuse: the process must be ours (its command line names our binary).
  tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -q -- "$bin/$1 " || return 1
  echo "$pid"
}

# start NAME ARGS...: starts $bin/NAME in its own session, logs in $state/logs/NAME.log.
start() {
  local name="$1"; shift
  setsid "$bin/$name" "$@" >"$state/logs/$name.log" 2>&1 </dev/null 3>&- 4>&- 9>&- &
  echo $! >"$state/pids/$name.pid"
  # Until the forked shell has exec'd the binary, pid_of does not recognise it.
  wait_for "$name to start" 10 pid_of "$name"
}

stop() { # stop NAME: SIGTERM, then SIGKILL after 20 s
  local name="$1" pid
  if pid="$(pid_of "$name")"; then
    kill -TERM "$pid" 2>/dev/null || true
    if ! wait_for "$name (pid $pid) to exit" 20 gone "$pid" 2>/dev/null; then
      kill -KILL "$pid" 2>/dev/null || true
      wait_for "$name (pid $pid) to exit after SIGKILL" 5 gone "$pid"
    fi
  fi
  rm -f "$state/pids/$name.pid"
}

port_in_use() { ss -Hltn "sport = :$1" | grep -q .; }
all_ports() { echo "$etcd_port $etcd_peer_port $apiserver_port $kcm_port $scheduler_port"; }

pki() { # CA, serving and client certificates (ECDSA P-256), service-account key pair
  local d="$state/pki"
  if [ -f "$d/complete" ]; then return 0; fi
  rm -rf "$d" && mkdir -p "$d"
  openssl ecparam -name prime256v1 -genkey -noout -out "$d/ca.key" 2>/dev/null
  openssl req -x509 -new -key "$d/ca.key" -out "$d/ca.crt" -days 3650 -subj "/CN=wasched-reference-ca" \
    -addext "basicConstraints=critical,CA:TRUE" -addext "keyUsage=critical,keyCertSign,cRLSign" 2>/dev/null
  leaf() { # leaf NAME SUBJECT EXTENSIONS
    openssl ecparam -name prime256v1 -genkey -noout -out "$d/$1.key" 2>/dev/null
    openssl req -new -key "$d/$1.key" -subj "$2" 2>/dev/null |
      openssl x509 -req -CA "$d/ca.crt" -CAkey "$d/ca.key" -set_serial "0x$(openssl rand -hex 16)" \
        -days 3650 -out "$d/$1.crt" -extfile <(printf '%s\n' "$3") 2>/dev/null
  }
  local client="basicConstraints=CA:FALSE
keyUsage=critical,digitalSignature,keyEncipherment
extendedKeyUsage=clientAuth"
  leaf serving "/CN=127.0.0.1" "basicConstraints=CA:FALSE
keyUsage=critical,digitalSignature,keyEncipherment
extendedKeyUsage=serverAuth
subjectAltName=IP:127.0.0.1,DNS:localhost"
  leaf admin "/O=system:masters/CN=wasched-admin" "$client"
  leaf kube-scheduler "/CN=system:kube-scheduler" "$client"
  leaf kube-controller-manager "/CN=system:kube-controller-manager" "$client"
  leaf lifecycle "/CN=wasched:lifecycle" "$client"
  openssl ecparam -name prime256v1 -genkey -noout -out "$d/sa.key" 2>/dev/null
  openssl ec -in "$d/sa.key" -pubout -out "$d/sa.pub" 2>/dev/null
  chmod 600 "$d"/*.key
  touch "$d/complete"
}

kubeconfig_for() { # kubeconfig_for NAME: a kubeconfig with the certificates embedded
  local d="$state/pki" f="$state/kubeconfigs/$1.kubeconfig"
  cat >"$f" <<EOF
apiVersion: v1
kind: Config
clusters:
- name: reference
  cluster:
    server: https://127.0.0.1:$apiserver_port
    certificate-authority-data: $(base64 -w0 "$d/ca.crt")
users:
- name: $1
  user:
    client-certificate-data: $(base64 -w0 "$d/$1.crt")
    client-key-data: $(base64 -w0 "$d/$1.key")
contexts:
- name: $1@reference
  context: {cluster: reference, user: $1}
current-context: $1@reference
EOF
  chmod 600 "$f"
}

api() { # api METHOD PATH [BODY]: a request to the API server as the admin
  local d="$state/pki"
  curl -sS --fail-with-body --cacert "$d/ca.crt" --cert "$d/admin.crt" --key "$d/admin.key" \
    -X "$1" -H 'Content-Type: application/json' ${3:+--data "$3"} "https://127.0.0.1:$apiserver_port$2"
}

healthy() { # healthy URL: an unauthenticated health endpoint answers ok
  curl -sS --fail --max-time 2 --cacert "$state/pki/ca.crt" "$1" | grep -qx ok
}

lifecycle_rbac() {
  # What internal/lifecycle reads and writes; nothing more.
  api POST /apis/rbac.authorization.k8s.io/v1/clusterroles '{"apiVersion":"rbac.authorization.k8s.io/v1","kind":"ClusterRole","metadata":{"name":"wasched:lifecycle"},"rules":[
    {"apiGroups":[""],"resources":["nodes"],"verbs":["get","list","watch"]},
    {"apiGroups":[""],"resources":["nodes/status"],"verbs":["patch"]},
    {"apiGroups":[""],"resources":["pods"],"verbs":["get","list","watch","delete"]},
    {"apiGroups":[""],"resources":["pods/status"],"verbs":["update"]}]}' >/dev/null
  api POST /apis/rbac.authorization.k8s.io/v1/clusterrolebindings '{"apiVersion":"rbac.authorization.k8s.io/v1","kind":"ClusterRoleBinding","metadata":{"name":"wasched:lifecycle"},
    "roleRef":{"apiGroup":"rbac.authorization.k8s.io","kind":"ClusterRole","name":"wasched:lifecycle"},
    "subjects":[{"apiGroup":"rbac.authorization.k8s.io","kind":"User","name":"wasched:lifecycle"}]}' >/dev/null
}

stand_in_crds() {
  # JobSet and LeaderWorkerSet served as in a cluster that has them installed (reference/crds:
  # open schemas written for this harness; no controller runs), then wait until both are served.
  local f
  for f in "$root"/reference/crds/*.json; do
    api POST /apis/apiextensions.k8s.io/v1/customresourcedefinitions "$(cat "$f")" >/dev/null
  done
  wait_for "the stand-in CRDs to be served" 60 api GET /apis/jobset.x-k8s.io/v1alpha2/jobsets
  wait_for "the stand-in CRDs to be served" 60 api GET /apis/leaderworkerset.x-k8s.io/v1/leaderworkersets
}

start_scheduler() {
  # Leader election on: wasched-reference holds kube-scheduler while it creates a run's objects
  # (reference/internal/hold): it takes this lease and stops the running scheduler (SIGTERM to the
  # pid in pids/kube-scheduler.child); the supervisor loop below starts the next one, which watches
  # and queues pods but does not schedule until the lease is freed (retryPeriod: within 200 ms).
  # The long renew deadline keeps a busy machine from ending a leader by accident.
  cat >"$state/kube-scheduler.yaml" <<EOF
apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
clientConnection:
  kubeconfig: $state/kubeconfigs/kube-scheduler.kubeconfig
  qps: 500
  burst: 1000
leaderElection:
  leaderElect: true
  leaseDuration: 15s
  renewDeadline: 10s
  retryPeriod: 200ms
  resourceLock: leases
  resourceNamespace: kube-system
  resourceName: kube-scheduler
percentageOfNodesToScore: 100
EOF
  # The supervisor restarts kube-scheduler whenever it exits and records its pid; SIGTERM to the
  # supervisor stops the scheduler (which frees its lease) and the loop. A restart that fails at
  # once waits 0.5 s (the old process may still hold the port).
  CHILD_PID_FILE="$state/pids/kube-scheduler.child" setsid bash -c '
    trap "kill -TERM \$child 2>/dev/null; wait \$child; exit 0" TERM INT
    while :; do
      started=$SECONDS
      "$@" & child=$!
      echo $child >"$CHILD_PID_FILE"
      wait $child
      [ $((SECONDS - started)) -ge 2 ] || sleep 0.5
    done' kube-scheduler-supervisor \
    "$bin/kube-scheduler" --config="$state/kube-scheduler.yaml" \
    --feature-gates="$feature_gates" --bind-address=127.0.0.1 --secure-port="$scheduler_port" \
    --tls-cert-file="$state/pki/serving.crt" --tls-private-key-file="$state/pki/serving.key" \
    --authorization-always-allow-paths=/healthz,/readyz,/livez,/metrics \
    >"$state/logs/kube-scheduler.log" 2>&1 </dev/null 3>&- 4>&- 9>&- &
  echo $! >"$state/pids/kube-scheduler.pid"
  wait_for "kube-scheduler to start" 10 pid_of kube-scheduler
  wait_for "kube-scheduler /healthz" 60 ready kube-scheduler healthy "https://127.0.0.1:$scheduler_port/healthz"
}

running_set() { # the components that run now, space-separated
  local c out=""
  for c in "${components[@]}"; do pid_of "$c" >/dev/null && out+="$c "; done
  echo "${out% }"
}

cmd_up() {
  local with_scheduler=1
  case "${1:-}" in
    "") ;;
    --without-scheduler) with_scheduler=0 ;;
    *) die "up: unknown option '$1' (expected --without-scheduler)" ;;
  esac
  local now
  now="$(running_set)"
  if [ "$now" = "etcd kube-apiserver kube-controller-manager lifecycle" ] ||
    [ "$now" = "etcd kube-apiserver kube-controller-manager kube-scheduler lifecycle" ]; then
    if healthy "https://127.0.0.1:$apiserver_port/readyz"; then
      # Already up: only the scheduler may need starting or stopping.
      if [ "$with_scheduler" = 1 ] && ! pid_of kube-scheduler >/dev/null; then
        start_scheduler
        log "already up; started kube-scheduler"
      elif [ "$with_scheduler" = 0 ] && pid_of kube-scheduler >/dev/null; then
        stop kube-scheduler
        log "already up; stopped kube-scheduler (--without-scheduler)"
      else
        log "already up (${now})"
      fi
      return 0
    fi
  fi
  [ -n "$now" ] && { log "partly up ($now): stopping it first"; cmd_down >/dev/null; }

  cmd_build
  local start_time=$SECONDS p
  # A failed start stops whatever did start (the logs stay for reading).
  trap 'rc=$?; if [ "$rc" != 0 ]; then log "up failed: stopping what started (logs in $state/logs)" >&4; cmd_down >/dev/null 2>&1 || true; fi' EXIT
  rm -f "$state/ports.env"
  for p in $(all_ports); do
    port_in_use "$p" && die "port $p is in use by another process ($(ss -Hltnp "sport = :$p" | head -n1)); set WASCHED_REFERENCE_*_PORT"
  done
  mkdir -p "$state/pids" "$state/logs" "$state/kubeconfigs"
  cat >"$state/ports.env" <<EOF
etcd_port=$etcd_port
etcd_peer_port=$etcd_peer_port
apiserver_port=$apiserver_port
kcm_port=$kcm_port
scheduler_port=$scheduler_port
feature_gates=$feature_gates
EOF
  rm -rf "$state/etcd" # a fresh store every time: no stale data from a killed run
  pki
  local c
  for c in admin kube-scheduler kube-controller-manager lifecycle; do kubeconfig_for "$c"; done

  start etcd --name=reference --data-dir="$state/etcd" \
    --listen-client-urls="http://127.0.0.1:$etcd_port" --advertise-client-urls="http://127.0.0.1:$etcd_port" \
    --listen-peer-urls="http://127.0.0.1:$etcd_peer_port" --initial-advertise-peer-urls="http://127.0.0.1:$etcd_peer_port" \
    --initial-cluster="reference=http://127.0.0.1:$etcd_peer_port" --initial-cluster-state=new \
    --unsafe-no-fsync --log-level=warn
  wait_for "etcd /health" 60 ready etcd bash -c "curl -sS --fail --max-time 2 http://127.0.0.1:$etcd_port/health | grep -q '\"health\":\"true\"'"

  local d="$state/pki"
  start kube-apiserver --advertise-address=127.0.0.1 --bind-address=127.0.0.1 --endpoint-reconciler-type=none --secure-port="$apiserver_port" \
    --etcd-servers="http://127.0.0.1:$etcd_port" \
    --client-ca-file="$d/ca.crt" --tls-cert-file="$d/serving.crt" --tls-private-key-file="$d/serving.key" \
    --service-account-issuer="https://127.0.0.1:$apiserver_port" --service-account-key-file="$d/sa.pub" \
    --service-account-signing-key-file="$d/sa.key" --service-cluster-ip-range=10.96.0.0/16 \
    --authorization-mode=Node,RBAC \
    --disable-admission-plugins=ServiceAccount,TaintNodesByCondition \
    --feature-gates="$feature_gates" --runtime-config="$runtime_config" \
    --profiling=false
  wait_for "kube-apiserver /readyz" 180 ready kube-apiserver healthy "https://127.0.0.1:$apiserver_port/readyz"
  lifecycle_rbac
  stand_in_crds

  start kube-controller-manager --kubeconfig="$state/kubeconfigs/kube-controller-manager.kubeconfig" \
    --use-service-account-credentials=true --controllers="$controllers" --leader-elect=false \
    --feature-gates="$feature_gates" --bind-address=127.0.0.1 --secure-port="$kcm_port" \
    --tls-cert-file="$d/serving.crt" --tls-private-key-file="$d/serving.key" \
    --authorization-always-allow-paths=/healthz,/readyz,/livez,/metrics \
    --kube-api-qps=500 --kube-api-burst=1000 --profiling=false
  rm -f "$state/lifecycle.ready"
  start lifecycle --kubeconfig="$state/kubeconfigs/lifecycle.kubeconfig" --ready-file="$state/lifecycle.ready"
  if [ "$with_scheduler" = 1 ]; then start_scheduler; fi
  wait_for "kube-controller-manager /healthz" 60 ready kube-controller-manager healthy "https://127.0.0.1:$kcm_port/healthz"
  wait_for "the lifecycle stand-in's caches" 60 ready lifecycle test -f "$state/lifecycle.ready"
  log "up in $((SECONDS - start_time)) s: $(running_set)"
  log "admin kubeconfig: $state/kubeconfigs/admin.kubeconfig"
}

cmd_down() {
  local i p
  for ((i = ${#components[@]} - 1; i >= 0; i--)); do stop "${components[i]}"; done
  for p in $(all_ports); do
    wait_for "port $p to close" 20 bash -c "! ss -Hltn 'sport = :$p' | grep -q ." ||
      die "port $p still in use: $(ss -Hltnp "sport = :$p")"
  done
  rm -f "$state/ports.env" "$state/lifecycle.ready" "$state/pids/kube-scheduler.child"
  log "down"
}

cmd_status() {
  local c pid port any=0
  for c in "${components[@]}"; do
    case "$c" in
      etcd) port="$etcd_port (peer $etcd_peer_port)" ;;
      kube-apiserver) port="$apiserver_port" ;;
      kube-controller-manager) port="$kcm_port" ;;
      kube-scheduler) port="$scheduler_port" ;;
      lifecycle) port="-" ;;
    esac
    if pid="$(pid_of "$c")"; then
      printf '%-24s running  pid %-8s port %s\n' "$c" "$pid" "$port"
      any=1
    else
      printf '%-24s stopped\n' "$c"
    fi
  done
  if [ "$any" = 1 ]; then
    echo "API server:        https://127.0.0.1:$apiserver_port (CA $state/pki/ca.crt)"
    echo "admin kubeconfig:  $state/kubeconfigs/admin.kubeconfig"
    echo "scheduler metrics: https://127.0.0.1:$scheduler_port/metrics (no credentials; CA $state/pki/ca.crt)"
    echo "logs:              $state/logs"
  fi
  # Exit 0 only when the API server answers /readyz (callers use it as "is it up").
  [ "$any" = 1 ] && healthy "https://127.0.0.1:$apiserver_port/readyz"
}

cmd_kubeconfig() {
  local f="$state/kubeconfigs/admin.kubeconfig"
  [ -f "$f" ] || die "no admin kubeconfig: run scripts/reference.sh up first"
  echo "$f"
}

# cmd_tool SUBCOMMAND ARGS...: reference/cmd/wasched-reference (docs/reference.md) against the
# running control plane; builds what changed and starts what is missing first (its messages go
# to stderr: stdout is the tool's JSON). The tool holds kube-scheduler through the pid the
# supervisor records (start_scheduler).
cmd_tool() {
  # A control plane that cannot be built or started is exit 3 (1 means an invalid input).
  (cmd_build) >&2 || exit 3
  if ! healthy "https://127.0.0.1:$apiserver_port/readyz" 2>/dev/null || ! pid_of kube-scheduler >/dev/null; then
    (cmd_up) >&2 || exit 3
  fi
  KUBECONFIG="$state/kubeconfigs/admin.kubeconfig" \
    WASCHED_REFERENCE_SCHEDULER_METRICS="https://127.0.0.1:$scheduler_port/metrics" \
    WASCHED_REFERENCE_SCHEDULER_PIDFILE="$state/pids/kube-scheduler.child" \
    exec "$bin/wasched-reference" "$@"
}

cmd_objects() { # create | delete: on the running control plane, as it runs (never starts kube-scheduler)
  (cmd_build) >&2 || exit 3
  healthy "https://127.0.0.1:$apiserver_port/readyz" 2>/dev/null ||
    die "$1: the control plane is not up (scripts/reference.sh up [--without-scheduler])"
  KUBECONFIG="$state/kubeconfigs/admin.kubeconfig" exec "$bin/wasched-reference" "$@"
}

cmd_check() {
  healthy "https://127.0.0.1:$apiserver_port/readyz" || die "check: the control plane is not up (scripts/reference.sh up)"
  "$bin/reference-smoke" --kubeconfig="$state/kubeconfigs/admin.kubeconfig" \
    --scheduler-metrics="https://127.0.0.1:$scheduler_port/metrics" --ca="$state/pki/ca.crt" --version="$version"
}

# A running control plane keeps the ports (and gates) it was started with; a file left by a
# killed run is ignored.
if [ -f "$state/ports.env" ] && [ -n "$(running_set)" ]; then
  # shellcheck source=/dev/null
  . "$state/ports.env"
fi

case "${1:-}" in
  build) cmd_build ;;
  up) shift; cmd_up "$@" ;;
  down) cmd_down ;;
  status) cmd_status ;;
  kubeconfig) cmd_kubeconfig ;;
  check) cmd_check ;;
  schedule | validate | schedule-batch | validate-batch) cmd_tool "$@" ;;
  create | delete) cmd_objects "$@" ;;
  *) echo "usage: scripts/reference.sh build|up [--without-scheduler]|down|status|kubeconfig|check|schedule|validate|schedule-batch|validate-batch|create|delete" >&2; exit 1 ;;
esac
