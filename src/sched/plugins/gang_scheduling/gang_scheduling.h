// File: sched/plugins/gang_scheduling/gang_scheduling.h
//
// GangScheduling: the PodGroup rules of kube-scheduler v1.37 (upstream
// pkg/scheduler/framework/plugins/gangscheduling/gangscheduling.go; spec/was-v1.37.md §4.2, §4.4):
//
//  * PreEnqueue — a member pod enters the active queue only when its PodGroup exists and, for a
//    gang, at least minCount member pods are known (pending + assumed + bound). Rejections are
//    UnschedulableAndUnresolvable; queueing hints that re-admit: Pod/Add in the same group,
//    PodGroup/Add, PodGroup/Update with a lower minCount.
//  * Tree readiness (CompositePodGroup hierarchies, KEP-6012) — a leaf PodGroup is ready when its
//    known pods ≥ minCount (basic: ≥ 1); a CompositePodGroup when its ready children ≥
//    minGroupCount (basic: ≥ 1). A member of a tree whose chain names an absent
//    CompositePodGroup waits with "waiting for composite pod group "<name>" spec to appear"; a
//    tree whose root is not ready with "waiting for composite pod group "<root>" tree to meet
//    quorum" (upstream preEnqueueWithHierarchies / isCPGTreeReady).
//  * Queueing hints (EventsToRegister): a pod added to the same hierarchy, a PodGroup added, a
//    PodGroup updated with a lower minCount (or a non-gang policy), a CompositePodGroup added or
//    updated → Queue; a minCount increase → QueueSkip.
//  * PlacementFeasible — during a group cycle: with `scheduled` members assumed or bound and
//    `remaining` not yet tried: scheduled ≥ minCount → Success; scheduled + remaining ≥ minCount
//    → Wait; otherwise Unschedulable (the group cannot reach its quorum this cycle).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "sched/framework/status.h"
#include "sched/queue/cluster_event.h"

namespace wasched::sched::plugins {

inline constexpr std::string_view kGangSchedulingName = "GangScheduling";

// PreEnqueue: `group_known` false → "waiting for pods's pod group "<name>" to appear in
// scheduling queue"; gang with known_pods < min_count → "waiting for minCount pods from a gang
// to appear in scheduling queue". Basic groups pass with one pod. O(1).
[[nodiscard]] Status PreEnqueue(bool group_known, std::string_view group_name, bool is_gang,
                                int32_t known_pods, int32_t min_count);

// CompositeSpecMissing / TreeQuorumNotMet: the two hierarchy PreEnqueue rejections
// (UnschedulableAndUnresolvable) with upstream's messages. O(1).
[[nodiscard]] Status CompositeSpecMissing(std::string_view composite_name);
[[nodiscard]] Status TreeQuorumNotMet(std::string_view root_name);

// GangSchedulingHint: the plugin's queueing hint for a unit whose hierarchy root is
// `unit_root` (a GroupTree index; -1 for a pod without a complete hierarchy, which no group
// event matches). Upstream isSchedulableAfterPodAdded / PodGroupAdded / PodGroupUpdated /
// CompositePodGroupAdded with areSameHierarchy. O(1).
[[nodiscard]] QueueingHint GangSchedulingHint(const ClusterEvent& event, int32_t unit_root);

// PlacementFeasible: see the file comment. O(1).
[[nodiscard]] Code PlacementFeasible(int32_t scheduled, int32_t remaining, int32_t min_count);

}  // namespace wasched::sched::plugins
