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

#include <cmath>
#include <cstdint>

#include "sched/cache/node_table.h"
#include "sched/framework/pod_info.h"
#include "util/saturating.h"

namespace wasched::sched::plugins {

inline constexpr const char* kBalancedAllocationName = "NodeResourcesBalancedAllocation";

namespace balanced_allocation_detail {

// BalanceScore: (1 − std of the cpu and memory requested/allocatable fractions) × 100, truncated,
// fractions capped at 1, a resource with zero allocatable left out (one fraction: std 0).
[[nodiscard]] inline int64_t BalanceScore(int64_t cpu_requested, int64_t cpu_alloc,
                                          int64_t mem_requested, int64_t mem_alloc) {
  double fractions[2];
  int count = 0;
  if (cpu_alloc != 0) {
    const double f = static_cast<double>(cpu_requested) / static_cast<double>(cpu_alloc);
    fractions[count++] = f > 1 ? 1 : f;
  }
  if (mem_alloc != 0) {
    const double f = static_cast<double>(mem_requested) / static_cast<double>(mem_alloc);
    fractions[count++] = f > 1 ? 1 : f;
  }
  const double std_dev = count == 2 ? std::fabs((fractions[0] - fractions[1]) / 2) : 0.0;
  return static_cast<int64_t>((1 - std_dev) * 100.0);
}

}  // namespace balanced_allocation_detail

// BalancedAllocationScore: in [50, 100]; 0 for best-effort pods. Inline: it runs per node of a
// scan.
[[nodiscard]] inline int64_t BalancedAllocationScore(const PodInfo& pod, const NodeTable& nodes,
                                                     NodeIndex n) {
  if (pod.request_cpu == 0 && pod.request_memory == 0) return 0;  // best-effort: Skip
  const int64_t cpu_alloc = nodes.Allocatable(kCpu, n);
  const int64_t mem_alloc = nodes.Allocatable(kMemory, n);
  const int64_t cpu = nodes.Requested(kCpu, n);
  const int64_t mem = nodes.Requested(kMemory, n);
  const int64_t with_pod =
      balanced_allocation_detail::BalanceScore(SaturatingAdd(cpu, pod.request_cpu), cpu_alloc,
                                               SaturatingAdd(mem, pod.request_memory), mem_alloc);
  const int64_t without_pod =
      balanced_allocation_detail::BalanceScore(cpu, cpu_alloc, mem, mem_alloc);
  // Both in [50, 100], so the difference is in [−50, 50] and the result in [50, 100].
  return 50 + (50 + with_pod - without_pod) / 2;
}

}  // namespace wasched::sched::plugins
