// File: sched/plugins/pod_group_pods_count/pod_group_pods_count.h
//
// PodGroupPodsCount: a PlacementScore plugin of topology-aware workload scheduling (KEP-5732
// "PodGroupPodsCount ... scores placements based on the number of pods fitting into each
// Placement"; kubernetes.io docs "Topology-Aware Workload Scheduling", default weight 1).
// Score: 100 · (pods of the group placed in the placement, counting pods already running there)
// / (all pods of the group: pending + placed; the whole subtree for a CompositePodGroup).
// Choice: normalised by the group's size rather than by the best feasible placement, so a
// score is known before the other placements are tried (TreeAlgorithm's branch and bound).
// O(1).
#pragma once

#include <cstdint>

#include "sched/framework/plugin.h"

namespace wasched::sched::plugins {

inline constexpr const char* kPodGroupPodsCountName = "PodGroupPodsCount";
inline constexpr int64_t kPodGroupPodsCountWeight = 1;

// ScorePodGroupPodsCount: the score in [0, kMaxNodeScore] of a placement holding `placed` of
// the group's `total` pods (0 when total is 0).
[[nodiscard]] inline int64_t ScorePodGroupPodsCount(int64_t placed, int64_t total) {
  return total > 0 ? kMaxNodeScore * placed / total : 0;
}

}  // namespace wasched::sched::plugins
