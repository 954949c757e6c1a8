// File: sched/plugins/node_resources_balanced_allocation/balanced_allocation.h
//
// NodeResourcesBalancedAllocation (default profile, Score weight 1): favours nodes whose balance
// of cpu and memory use the pod improves. balance = (1 − std of the requested/allocatable
// fractions) × 100, truncated, fractions capped at 1, resources with zero allocatable skipped;
// score = 50 + (50 + balance with the pod − balance without it) / 2, in [50, 100] (v1.37:
// balancedResourceScorer scores the improvement; an older formula scored only the balance with the
// pod — observed on the v1.37.2 control plane, where a gang's second pod went to the node the
// improvement favours). It counts actual requests (no non-zero defaults), and best-effort pods (no
// cpu or memory request) skip it (score 0 everywhere). Upstream:
// pkg/scheduler/framework/plugins/noderesources/balanced_allocation.go. Requeue events: as
// NodeResourcesFit. Hot path: no allocation. O(1).
#pragma once

#include <cstdint>

#include "sched/cache/node_table.h"
#include "sched/framework/pod_info.h"

namespace wasched::sched::plugins {

inline constexpr const char* kBalancedAllocationName = "NodeResourcesBalancedAllocation";

// BalancedAllocationScore: in [50, 100]; 0 for best-effort pods.
[[nodiscard]] int64_t BalancedAllocationScore(const PodInfo& pod, const NodeTable& nodes,
                                              NodeIndex n);

}  // namespace wasched::sched::plugins
