#!/usr/bin/env bash
# tests/differential/run.sh [--quick|--all] [--seed N] [--count N] [--affinity-count N]
#                           [--families LIST] [--parallel N] [--upstream-parallel N]
#                           [--max-unlisted N] [--out DIR]
#                           [--min-validation P] [--min-scheduling P] [--fake-upstream]
#
# The differential suite (tests/differential/README.md): every input family through
# build/src/wasched and through the real v1.37.2 control plane (wasched-reference), compared on
# what upstream makes deterministic. Builds what is missing, starts the reference control plane if
# it is not running (and stops it at the end if it started it), writes OUT/report/divergences.tsv
# and OUT/report/summary.txt, and exits 1 when agreement is below the thresholds or a divergence
# is not in tests/differential/known-divergences.txt.
#
#   --quick          every fixed family and the first 150 random cases (affinity cases with
#                    --affinity-count; scripts/reference-test.sh, the CI part, runs 40 random and
#                    100 affinity cases)
#   --all            the whole random set (500 cases)
#   --seed N         seed of the random and the affinity clusters (default 1)
#   --count N        number of random cases (overrides --quick / --all)
#   --affinity-count N  number of affinity cases (wasched-diffgen -family affinity: pod affinity,
#                    spread, host ports, gangs; overrides --quick / --all)
#   --families LIST  the families to run, comma-separated (default: all of scenarios, bug,
#                    upstream, corpus, random, affinity)
#   --parallel N     wasched processes at once (default: the number of cores)
#   --upstream-parallel N  cases in one control-plane run at once (default 24; each case has its
#                    own namespace and its own nodes, so cases cannot interact)
#   --max-unlisted N  fail only above N divergences not in known-divergences.txt (default 0)
#   --fake-upstream  no control plane: wasched's own tie-probe answers stand in for upstream
#                    (tests the plumbing; agreement must be 100%)
set -euo pipefail
cd "$(dirname "$0")/../.."
root=$PWD

count=150
affinity_count=0
families=scenarios,bug,upstream,corpus,random,affinity
seed=1
parallel=$(nproc)
upstream_parallel=24
max_unlisted=0
out=build/differential
min_validation=99
min_scheduling=98
fake=0
while [ $# -gt 0 ]; do
  case "$1" in
    --quick) count=150; affinity_count=0 ;;
    --all) count=500 ;;
    --seed) seed=$2; shift ;;
    --count) count=$2; shift ;;
    --affinity-count) affinity_count=$2; shift ;;
    --families) families=$2; shift ;;
    --parallel) parallel=$2; shift ;;
    --upstream-parallel) upstream_parallel=$2; shift ;;
    --max-unlisted) max_unlisted=$2; shift ;;
    --out) out=$2; shift ;;
    --min-validation) min_validation=$2; shift ;;
    --min-scheduling) min_scheduling=$2; shift ;;
    --fake-upstream) fake=1 ;;
    -h|--help) sed -n '2,29p' "$0"; exit 0 ;;
    *) echo "run.sh: unknown argument $1 (see --help)" >&2; exit 2 ;;
  esac
  shift
done

begin=$SECONDS
step() { echo "== differential: $1 ($((SECONDS - begin)) s)"; }

step "build wasched and the Go tools"
scripts/build.sh wasched
mkdir -p "$out/bin"
# --out may be absolute (/tmp/x) or relative to the repository (build/differential): the tools
# go into that folder either way, never into a path under the repository made from an absolute one.
case "$out" in
  /*) bin=$out/bin ;;
  *) bin=$root/$out/bin ;;
esac
(cd reference && go build -o "$bin/" ./cmd/wasched-diff ./cmd/wasched-diffgen)

step "generate $count random clusters (seed $seed)"
rm -rf "$out/random"
"$bin/wasched-diffgen" -seed "$seed" -count "$count" -out "$out/random"

step "generate $affinity_count affinity clusters (seed $seed)"
rm -rf "$out/affinity"
"$bin/wasched-diffgen" -family affinity -seed "$seed" -count "$affinity_count" -out "$out/affinity"

step "gather the input families ($families)"
"$bin/wasched-diff" gather --repo . --random "$out/random" --affinity "$out/affinity" --families "$families" --out "$out/cases"

step "wasched (schedule, tie probe, validate)"
rm -rf "$out/wasched"
"$bin/wasched-diff" wasched --wasched build/src/wasched --cases "$out/cases" --out "$out/wasched" --parallel "$parallel"

rm -rf "$out/upstream"
mkdir -p "$out/upstream"
if [ "$fake" = 1 ]; then
  step "fake upstream (wasched's tie-probe answers)"
  "$bin/wasched-diff" fake-upstream --cases "$out/cases" --wasched-results "$out/wasched" --out "$out/upstream"
else
  step "reference control plane"
  started=0
  if ! scripts/reference.sh status >/dev/null 2>&1; then
    scripts/reference.sh up
    started=1
  fi
  stop() { if [ "$started" = 1 ]; then scripts/reference.sh down; fi; }
  trap stop EXIT
  step "upstream schedule (batch)"
  scripts/reference.sh schedule-batch --cases "$out/cases/schedule" --out "$out/upstream/schedule" --parallel "$upstream_parallel"
  step "upstream validate (batch)"
  scripts/reference.sh validate-batch --cases "$out/cases/validate" --out "$out/upstream/validate" --parallel "$upstream_parallel"
fi

step "compare"
status=0
"$bin/wasched-diff" compare --cases "$out/cases" --wasched-results "$out/wasched" --upstream "$out/upstream" \
  --allow tests/differential/known-divergences.txt --known-gaps docs/known-gaps.md --report "$out/report" \
  --expect-valid random,affinity --min-validation "$min_validation" --min-scheduling "$min_scheduling" --max-unlisted "$max_unlisted" || status=$?
step "done (report: $out/report)"
exit $status
