// File: sched/scheduler.h
//
// The scheduling engine. Two ways in:
//
// 1. One shot: given every object of a cluster (nodes, running and pending pods,
//    PriorityClasses, Workloads, PodGroups) `Schedule` runs scheduling cycles until nothing
//    changes and reports bindings, pending pods with reasons, and group conditions.
//
//   api::ObjectSet objects = …;                       // decoded and validated input
//   sched::ScheduleResult r = sched::Schedule(objects, {});
//
// 2. Long-lived: a `Scheduler` is fed object events and emits decisions, as kube-scheduler's
//    informers feed its cache and queue (pkg/scheduler/eventhandlers.go, schedule_one.go):
//
//   sched::SchedulerOptions o;
//   o.evictions = sched::EvictionActuation::kAwaitDelete;  // the caller deletes victims
//   sched::Scheduler s(o);
//   s.Add(node_a); s.Add(node_b); s.Add(pod_group); s.Add(member_0); s.Add(member_1);
//   sched::Decisions d = s.ScheduleUntilIdle();   // d.result.bindings: the gang, assumed
//   s.BindSucceeded("ns", "member-0");             // or s.Update(pod) with spec.nodeName set
//   s.BindFailed("ns", "member-1");                // forgotten: node released, retried after backoff
//   d = s.ScheduleUntilIdle();                     // member-1 bound again (or pending)
//   s.Delete(sched::ObjectKind::kPod, "ns", "victim");  // an eviction in d.result.evictions done
//
// Semantics follow kube-scheduler v1.37 (spec/was-v1.37.md §4): the queue's unit is a standalone
// PodGroup or a bare pod, ordered by priority then creation; gangs are placed all-or-nothing by
// the pod-group algorithm (pkg/scheduler/schedule_one_podgroup.go).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
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

// EvictionActuation: who deletes preemption victims.
//  * kImmediate — the engine deletes them at once and the preemptor's cycle runs again at once
//    (`wasched schedule`: there is no one else to delete them).
//  * kAwaitDelete — the engine only decides (Decisions::result.evictions): the victims keep
//    their nodes, are never victims or scheduled again, and the preemptor waits, nominated
//    (Decisions::nominations), in the unschedulable pool; the caller deletes the victims and
//    reports each Delete, which frees the node and moves the preemptor on (upstream: the victims
//    get a deletionTimestamp, the preemptor a nominatedNodeName, and the AssignedPodDelete event
//    requeues it). A preemptor whose nominated node still holds a victim does not preempt again
//    (upstream PodEligibleToPreemptOthers).
enum class EvictionActuation { kImmediate, kAwaitDelete };

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
  // evictions: EvictionActuation. `Schedule` always deletes at once; a Scheduler fed events
  // should say kAwaitDelete.
  EvictionActuation evictions = EvictionActuation::kImmediate;
};

// Schedule: runs the scheduler over `objects` until no unit can make progress.
// REQUIRES: `objects` passed validation (validation/object_set_validation.h): references resolve,
// names are unique, quantities are non-negative. Deterministic: the same input gives the same
// result. Complexity: O(units × nodes × plugins) per pass without equivalence-class reuse.
[[nodiscard]] ScheduleResult Schedule(const api::ObjectSet& objects, const SchedulerOptions& options);

// ObjectKind: the kinds a Scheduler is fed (api::ObjectSet's scheduling kinds).
enum class ObjectKind : uint8_t {
  kNode,
  kPod,
  kPriorityClass,
  kWorkload,
  kPodGroup,
  kCompositePodGroup,
  kPodDisruptionBudget,
  kDeviceClass,
  kResourceSlice,
  kResourceClaim,
  kResourceClaimTemplate,
};

// Nomination: a preemptor pod ("ns/name") waiting for its victims' deletion on `node`
// (upstream status.nominatedNodeName).
struct Nomination {
  std::string pod;
  std::string node;
};

// Decisions: what one Scheduler::ScheduleUntilIdle call decided.
//  * result.bindings: the pods this call bound (assumed: the caller binds them and reports
//    BindSucceeded / BindFailed), sorted by pod.
//  * result.evictions: the victims this call chose (kAwaitDelete: the caller deletes them and
//    reports each Delete), sorted by pod. A pod bound and then chosen as a victim within one
//    call is listed here only (never bound: the caller just deletes it).
//  * result.pending, result.groups, result.allocations: the state now (every pending pod with
//    its reason / held message, every group with its conditions), as `schedule` reports them.
//  * nominations: every pending preemptor with a nominated node, sorted by pod.
struct Decisions {
  ScheduleResult result;
  std::vector<Nomination> nominations;
};

// Scheduler: the long-lived engine (issue 16). It owns a copy of the cluster's objects as its
// events delivered them (its cache), plus the node table, snapshot, pods, groups, queue and
// plugins built over them, kept across calls.
//
// Event contract (the caller is the informer + binder):
//  * Deliver every object before the first ScheduleUntilIdle that needs it; order between kinds
//    is free (a pod naming a PodGroup not yet added waits at PreEnqueue, as upstream). An object
//    is identified by kind + namespace/name (cluster-scoped kinds: empty namespace). Add of an
//    existing name and Update / Delete of an unknown one are ignored (informers deliver each
//    object's events in order, so these only come from a caller's bug).
//  * Each binding in Decisions is assumed: the pod holds its node. Report BindSucceeded (or an
//    Update of the pod whose spec.nodeName names that node) or BindFailed: the pod is forgotten
//    (its node released) and its unit goes to backoff, so no member stays stuck. Unreported
//    bindings stay assumed.
//  * Evictions (kAwaitDelete): report each victim's Delete when it is gone.
//  * A pod that ends (Succeeded / Failed, or deleted): Delete it.
//  * Time: backoff and the unschedulable pool run on SchedulerOptions::clock (not owned; the
//    caller advances it between calls); without one a FakeClock that each call steps to the
//    next backoff expiry, as `schedule`.
// Ownership: events take the objects by value (move them in); `options.clock` and
// `options.verify_violations` are borrowed. Single-threaded: no two calls may overlap.
//
// Cost per event (P pods, N nodes, G groups):
//  * BindSucceeded, and the Update that confirms a binding (labels unchanged): O(1) lookup.
//  * Add of a pending pod: O(requests + log units), no rebuild: appended to the engine's per-pod
//    arrays and queued (a bare pod) or its group unit told (PreEnqueue re-runs). Except a pod
//    the engine cannot take incrementally (DRA claims, scheduling gates, unmodelled constraints,
//    a resource name new to the cluster, spec.nodeName already set, a group whose hierarchy is
//    incomplete): that one rebuilds, as below.
//  * BindFailed, Delete of a pod, an Update to Succeeded / Failed: O(requests + the parked
//    units' hints), no rebuild; the deleted pod's slot is a tombstone, compacted by a rebuild
//    once tombstones outnumber live pods (amortised O(1) a deletion).
//  * Every other event (a pod changed, any node, group, PriorityClass, PDB or DRA object
//    event) marks the engine for a rebuild at the next ScheduleUntilIdle: O(P + N + G) then (the
//    engine's construction path, as `Schedule`), carrying assumed bindings, group conditions and
//    victims awaiting deletion; units' backoff state is not carried (every pending unit is active
//    again after a rebuild).
// ScheduleUntilIdle: the cycles of the units ready to run (each as `Schedule`'s) plus
// O(P log P) to sort the decisions.
class Scheduler {
 public:
  // Scheduler: an empty cluster.
  explicit Scheduler(SchedulerOptions options);
  // Scheduler: starts from `objects` (moved in: no copy), as if each had been added.
  Scheduler(api::ObjectSet objects, SchedulerOptions options);
  ~Scheduler();
  Scheduler(const Scheduler&) = delete;
  Scheduler& operator=(const Scheduler&) = delete;

  // Add / Update: the object's event. REQUIRES: it passed validation as part of the cluster.
  void Add(api::Node obj);
  void Add(api::Pod obj);
  void Add(api::PriorityClass obj);
  void Add(api::Workload obj);
  void Add(api::PodGroup obj);
  void Add(api::CompositePodGroup obj);
  void Add(api::PodDisruptionBudget obj);
  void Add(api::DeviceClass obj);
  void Add(api::ResourceSlice obj);
  void Add(api::ResourceClaim obj);
  void Add(api::ResourceClaimTemplate obj);
  void Update(api::Node obj);
  void Update(api::Pod obj);
  void Update(api::PriorityClass obj);
  void Update(api::Workload obj);
  void Update(api::PodGroup obj);
  void Update(api::CompositePodGroup obj);
  void Update(api::PodDisruptionBudget obj);
  void Update(api::DeviceClass obj);
  void Update(api::ResourceSlice obj);
  void Update(api::ResourceClaim obj);
  void Update(api::ResourceClaimTemplate obj);
  // Delete: the object of that kind and namespace/name is gone.
  void Delete(ObjectKind kind, std::string_view namespace_, std::string_view name);
  // BindSucceeded: the API server accepted the binding of an assumed pod. O(1).
  void BindSucceeded(std::string_view namespace_, std::string_view name);
  // BindFailed: the binding of an assumed pod failed: forget it and retry after backoff.
  void BindFailed(std::string_view namespace_, std::string_view name);

  // ScheduleUntilIdle: runs cycles until no unit is ready (a unit in backoff waits for the
  // clock, unless the Scheduler owns its clock: see the contract) and returns the decisions.
  // With options.verify the invariants are checked after every cycle.
  [[nodiscard]] Decisions ScheduleUntilIdle();

  // FindPod: the cache's pod of that namespace/name as delivered, with its assumed binding's
  // spec.nodeName; nullptr when absent or deleted. Valid until the next event or call.
  // O(1) (a hash lookup; the first after a rebuild indexes the pods, O(P)).
  [[nodiscard]] const api::Pod* FindPod(std::string_view namespace_, std::string_view name) const;

 private:
  friend ScheduleResult Schedule(const api::ObjectSet& objects, const SchedulerOptions& options);
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace wasched::sched
