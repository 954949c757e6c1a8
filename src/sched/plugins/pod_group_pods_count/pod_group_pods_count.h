// File: sched/plugins/pod_group_pods_count/pod_group_pods_count.h
//
// PodGroupPodsCount: a PlacementScore plugin of topology-aware workload scheduling (KEP-5732
// "PodGroupPodsCount ... scores placements based on the number of pods fitting into each
// Placement"; kubernetes.io docs "Topology-Aware Workload Scheduling", default weight 1).
// Raw score: pods of the group (the whole subtree for a CompositePodGroup) placed in the
// placement, counting pods already running there. NormalizePlacementScore scales the raw scores
// of all feasible placements to [0, 100] by their maximum (DefaultNormalizeScore). O(1) / O(k).
#pragma once

#include <cstdint>
#include <span>

#include "sched/framework/plugin.h"

namespace wasched::sched::plugins {

inline constexpr const char* kPodGroupPodsCountName = "PodGroupPodsCount";
inline constexpr int64_t kPodGroupPodsCountWeight = 1;

// ScorePodGroupPodsCount: raw score of a placement holding `placed` pods of the group.
[[nodiscard]] inline int64_t ScorePodGroupPodsCount(int64_t placed) { return placed; }

// NormalizePodGroupPodsCount: scales raw scores to [0, kMaxNodeScore] in place.
inline void NormalizePodGroupPodsCount(std::span<int64_t> scores) {
  DefaultNormalizeScore(kMaxNodeScore, false, scores);
}

}  // namespace wasched::sched::plugins
