// File: sched/plugins/gang_scheduling/gang_scheduling.h
//
// GangScheduling: the PodGroup rules of kube-scheduler v1.37 (upstream
// pkg/scheduler/framework/plugins/gangscheduling/gangscheduling.go; spec/was-v1.37.md §4.2, §4.4):
//
//  * PreEnqueue — a member pod enters the active queue only when its PodGroup exists and, for a
//    gang, at least minCount member pods are known (pending + assumed + bound). Rejections are
//    UnschedulableAndUnresolvable; queueing hints that re-admit: Pod/Add in the same group,
//    PodGroup/Add, PodGroup/Update with a lower minCount.
//  * PlacementFeasible — during a group cycle: with `scheduled` members assumed or bound and
//    `remaining` not yet tried: scheduled ≥ minCount → Success; scheduled + remaining ≥ minCount
//    → Wait; otherwise Unschedulable (the group cannot reach its quorum this cycle).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "sched/framework/status.h"

namespace wasched::sched::plugins {

inline constexpr std::string_view kGangSchedulingName = "GangScheduling";

// PreEnqueue: `group_known` false → "waiting for pods's pod group "<name>" to appear in
// scheduling queue"; gang with known_pods < min_count → "waiting for minCount pods from a gang
// to appear in scheduling queue". Basic groups pass with one pod. O(1).
[[nodiscard]] Status PreEnqueue(bool group_known, std::string_view group_name, bool is_gang,
                                int32_t known_pods, int32_t min_count);

// PlacementFeasible: see the file comment. O(1).
[[nodiscard]] Code PlacementFeasible(int32_t scheduled, int32_t remaining, int32_t min_count);

}  // namespace wasched::sched::plugins
