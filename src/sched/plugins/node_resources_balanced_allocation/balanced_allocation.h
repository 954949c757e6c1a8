// File: sched/plugins/node_resources_balanced_allocation/balanced_allocation.h
//
// NodeResourcesBalancedAllocation (default profile, Score weight 1): favours nodes whose cpu and
// memory would be used in similar proportions after placing the pod: score = (1 − std of the
// requested/allocatable fractions) × 100, fractions capped at 1, resources with zero allocatable
// skipped. It counts actual requests (no non-zero defaults), and best-effort pods (no cpu or
// memory request) skip it (score 0 everywhere). Upstream:
// pkg/scheduler/framework/plugins/noderesources/balanced_allocation.go. Requeue events: as
// NodeResourcesFit. Hot path: no allocation. O(1).
#pragma once

#include <cstdint>

#include "sched/cache/node_table.h"
#include "sched/framework/pod_info.h"

namespace wasched::sched::plugins {

inline constexpr const char* kBalancedAllocationName = "NodeResourcesBalancedAllocation";

// BalancedAllocationScore: in [0, 100]; 0 for best-effort pods.
[[nodiscard]] int64_t BalancedAllocationScore(const PodInfo& pod, const NodeTable& nodes,
                                              NodeIndex n);

}  // namespace wasched::sched::plugins
