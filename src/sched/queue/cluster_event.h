// File: sched/queue/cluster_event.h
//
// ClusterEvent and QueueingHint: what happened in the cluster, and whether it may make a parked
// scheduling unit schedulable (upstream fwk.ClusterEvent / fwk.QueueingHint, KEP-4247; the queue
// asks the hint functions of the plugins that rejected the unit:
// pkg/scheduler/backend/queue/scheduling_queue.go, isPodWorthRequeuing).
//
// A group event names the root of the hierarchy the changed object belongs to (`root`, a
// GroupTree index, sched/gang/group_tree.h); a unit is in "the same hierarchy" when its root is
// that root — upstream GangScheduling.areSameHierarchy compares root keys the same way.
#pragma once

#include <cstdint>

namespace wasched::sched {

// EventKind: the cluster events the queue reacts to.
enum class EventKind : uint8_t {
  kUnscheduledPodAdd,         // a pending pod was created
  kAssignedPodAdd,            // a pod was bound (or created with spec.nodeName)
  kAssignedPodDelete,         // a running pod went away: capacity freed
  kNodeAdd,                   // a node joined
  kNodeUpdate,                // a node changed (allocatable, labels, taints)
  kPodGroupAdd,
  kPodGroupUpdate,            // old/new minCount in the event
  kCompositePodGroupAdd,
  kCompositePodGroupUpdate,
  kUnschedulableTimeout,      // parked longer than kPodMaxInUnschedulablePodsDuration
};

// ClusterEvent: one event. `root` is the GroupTree root of the changed group (or of the added
// pod's group); -1 when the object belongs to no complete hierarchy (bare pod, node). `pod` is
// the PodIndex of the pod of a kAssignedPodAdd / kAssignedPodDelete (-1 when unknown: hints
// that need the pod then answer kQueue). For kPodGroupUpdate, `old_gang` / `new_gang` say
// whether the policy is gang and `old_min_count` / `new_min_count` hold gang.minCount.
struct ClusterEvent {
  EventKind kind = EventKind::kNodeAdd;
  int32_t root = -1;
  bool old_gang = false;
  bool new_gang = false;
  int32_t old_min_count = 0;
  int32_t new_min_count = 0;
  int32_t pod = -1;
};

// QueueingHint: kQueue moves the unit to the backoff or active queue; kQueueSkip leaves it.
enum class QueueingHint : uint8_t { kQueueSkip, kQueue };

// Rejector: which kind of plugin rejected a unit (a bit set: a group can be rejected by several).
// kGang: GangScheduling (PreEnqueue quorum, PlacementFeasible); kFilter: node Filter plugins
// (NodeResourcesFit, taints, affinity …); kError: an internal error or SchedulerError — upstream
// sends such units to the error backoff queue, not to the unschedulable pool.
// kInterPodAffinity / kPodTopologySpread: those Filter plugins rejected some node (issue 19).
// They register AssignedPod/Add with a hint that needs both pods (upstream
// interpodaffinity/plugin.go and podtopologyspread/plugin.go, isSchedulableAfterAssignedPodChange),
// so the queue asks the PodHintFn the scheduler gives it (SchedulingQueue::SetPodHint).
enum Rejector : uint32_t {
  kRejectorNone = 0,
  kRejectorGang = 1,
  kRejectorFilter = 2,
  kRejectorError = 4,
  kRejectorInterPodAffinity = 8,
  kRejectorPodTopologySpread = 16,
};
// kRejectorPodDependent: the rejectors whose hint reads the assigned pod of the event.
inline constexpr uint32_t kRejectorPodDependent = kRejectorInterPodAffinity | kRejectorPodTopologySpread;

// FilterPluginsHint: the hint of the node Filter plugins wasched runs (upstream NodeResourcesFit
// EventsToRegister: Pod/Delete, Node/Add|Update; TaintToleration, NodeAffinity,
// NodeUnschedulable: Node/Add|Update): capacity freed or nodes changed → kQueue. O(1).
[[nodiscard]] inline QueueingHint FilterPluginsHint(const ClusterEvent& e) {
  switch (e.kind) {
    case EventKind::kAssignedPodDelete:
    case EventKind::kNodeAdd:
    case EventKind::kNodeUpdate:
    case EventKind::kUnschedulableTimeout:
      return QueueingHint::kQueue;
    default:
      return QueueingHint::kQueueSkip;
  }
}

}  // namespace wasched::sched
