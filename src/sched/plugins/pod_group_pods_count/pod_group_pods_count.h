// File: sched/plugins/pod_group_pods_count/pod_group_pods_count.h
//
// PodGroupPodsCount: a PlacementScore plugin of topology-aware workload scheduling (KEP-5732
// "PodGroupPodsCount ... scores placements based on the number of pods fitting into each
// Placement"; kubernetes.io docs "Topology-Aware Workload Scheduling", default weight 1).
// Raw score (ScorePlacement): the pods of the group in the placement, counting pods already
// scheduled (the whole subtree for a CompositePodGroup) plus the placement's proposed ones.
// NormalizePlacementScore: MinScore + raw · (MaxScore − MinScore) / max raw over the feasible
// placements scored together, i.e. 100 · raw / max raw in integer division (truncation), as
// upstream pkg/scheduler/framework/plugins/podgrouppodscount/podgroup_pods_count.go (v1.37.2).
// An upper bound of the normalised score before the other placements are known is
// kMaxNodeScore (TreeAlgorithm's branch and bound). O(1).
#pragma once

#include <cstdint>

#include "sched/framework/plugin.h"

namespace wasched::sched::plugins {

inline constexpr const char* kPodGroupPodsCountName = "PodGroupPodsCount";
inline constexpr int64_t kPodGroupPodsCountWeight = 1;

// ScorePodGroupPodsCount: the normalised score in [0, kMaxNodeScore] of a placement whose raw
// count is `placed` when the largest raw count among the placements scored together is
// `max_count` (0 when max_count is 0; upstream then fails the cycle, which cannot happen for a
// feasible placement since it holds at least the quorum).
[[nodiscard]] inline int64_t ScorePodGroupPodsCount(int64_t placed, int64_t max_count) {
  return max_count > 0 ? kMaxNodeScore * placed / max_count : 0;
}

}  // namespace wasched::sched::plugins
