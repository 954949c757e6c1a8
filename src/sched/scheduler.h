// File: sched/scheduler.h
//
// The scheduling engine's entry point: given every object of a cluster (nodes, running and
// pending pods, PriorityClasses, Workloads, PodGroups) it runs scheduling cycles until nothing
// changes and reports bindings, pending pods with reasons, and group conditions.
//
//   api::ObjectSet objects = …;                       // decoded and validated input
//   sched::ScheduleResult r = sched::Schedule(objects, {});
//
// Semantics follow kube-scheduler v1.37 (spec/was-v1.37.md §4): the queue's unit is a standalone
// PodGroup or a bare pod, ordered by priority then creation; gangs are placed all-or-nothing by
// the pod-group algorithm (pkg/scheduler/schedule_one_podgroup.go).
#pragma once

#include <string>
#include <vector>

#include "api/object_set.h"
#include "sched/queue/clock.h"
#include "sched/schedule_result.h"

namespace wasched::sched {

// ScoringStrategy: NodeResourcesFit scoring (upstream `ScoringStrategyType`).
enum class ScoringStrategy { kLeastAllocated, kMostAllocated };

// GangSatisfaction: when a gang counts as having its quorum (issue 20 A.2).
//  * kUpstream — as kube-scheduler v1.37.2: always by the members that exist now (PreEnqueue:
//    pending + running ≥ minCount; the group cycle: placed ≥ minCount), so a gang whose member
//    ended after it was scheduled holds its replacements until enough of them exist
//    (kubernetes/kubernetes#142330); the held replacements' messages say so.
//  * kOnceScheduled — a PodGroup whose PodGroupInitiallyScheduled is True counts as satisfied:
//    PreEnqueue needs one pod and the (flat) group cycle places replacements one by one. Trees
//    (CompositePodGroups) keep upstream's quorum in their cycle.
enum class GangSatisfaction { kUpstream, kOnceScheduled };

// PlacementSearch: how hard a group cycle looks for a placement before the group is
// unschedulable (issue 20 A.3; README "Choices", docs/known-gaps.md "Complete placement search").
//  * kComplete (default) — upstream's order first; when it fails, wasched's bounded fallbacks:
//    for a PodGroup, largest-first then a depth-first search over nodes
//    (PodGroupAlgorithm), then DRA `firstAvailable` alternatives (later members first, one member
//    at a time taking a later subrequest first; kubernetes/kubernetes#138765); for a
//    CompositePodGroup tree, minimum-first (every child's quorum, then the extras;
//    TreeAlgorithm). Anything upstream's order places is placed the same.
//  * kUpstream — upstream's greedy order only (pkg/scheduler/…/algorithm_podgroup.go, KEP-4671 /
//    KEP-6012): no fallback at all. The reference differential runs in this mode.
enum class PlacementSearch { kComplete, kUpstream };

// SchedulerOptions: configuration passed explicitly (no global flags).
struct SchedulerOptions {
  ScoringStrategy scoring = ScoringStrategy::kLeastAllocated;
  // verify: after every cycle, check the invariants of sched/verify/invariants.h (incremental
  // node accounting and per-domain sums equal a recomputation, no over-commit, no double
  // booking, gang atomicity at every level, whole victim units, topology constraints, DRA devices
  // held once); a violation is printed to stderr and aborts (assert-level bug) ...
  bool verify = false;
  // verify_violations: ... unless this is set: then every violation is appended here (prefixed
  // "cycle N: ") and the run goes on, so a property test can report and shrink. Not owned.
  std::vector<std::string>* verify_violations = nullptr;
  // clock: the scheduling queue's time source (backoff, leftover flush), not owned; nullptr =
  // a FakeClock fixed at 0, as `wasched schedule` uses, so results never depend on time.
  // Preemption also reads it once per run as "now" for a running pod without status.startTime
  // (upstream util.GetPodStartTime falls back to time.Now()), so a caller's clock counts from
  // the epoch of the objects' timestamps (the Unix epoch; the simulator's trace time zero).
  // nullptr: such a pod counts as started after every recorded start (PodInfo::start =
  // kStartedLast), which is what time.Now() is on a live cluster.
  const Clock* clock = nullptr;
  // pod_group_preemption_policy: feature gate PodGroupPreemptionPolicy. On: a group preemptor
  // uses its root group's preemptionPolicy; off: Never when any unscheduled member pod says
  // Never (spec/was-v1.37.md §6.1).
  bool pod_group_preemption_policy = true;
  // dra_workload_resource_claims: feature gate DRAWorkloadResourceClaims (KEP-5729). Off: a pod
  // entry matching its PodGroup's claim entry gets no claim (1.37), see DynamicResources.
  bool dra_workload_resource_claims = true;
  // gang_satisfaction: `--gang-satisfaction upstream|once-scheduled` (default upstream).
  GangSatisfaction gang_satisfaction = GangSatisfaction::kUpstream;
  // placement: `--placement complete|upstream` (default complete), PlacementSearch.
  PlacementSearch placement = PlacementSearch::kComplete;
  // scheduler_name: the spec.schedulerName this scheduler handles (kube-scheduler's profile
  // schedulerName); pods and groups of any other name are pending "NotHandled" and untouched.
  // `wasched run` sets its profile's name ("wasched" by default).
  std::string scheduler_name = "default-scheduler";
  // score_index: false forces the Framework's scan path for every pod
  // (Framework::set_use_score_index), so tests can check that the score index, with its
  // InterPodAffinity node exclusions, gives byte-identical results. Default true.
  bool score_index = true;
};

// Schedule: runs the scheduler over `objects` until no unit can make progress.
// REQUIRES: `objects` passed validation (validation/object_set_validation.h): references resolve,
// names are unique, quantities are non-negative. Deterministic: the same input gives the same
// result. Complexity: O(units × nodes × plugins) per pass without equivalence-class reuse.
[[nodiscard]] ScheduleResult Schedule(const api::ObjectSet& objects, const SchedulerOptions& options);

}  // namespace wasched::sched
