// File: sched/plugins/node_resources_fit/node_resources_fit.h
//
// NodeResourcesFit: Filter checks that the node's free capacity (allocatable − requested) holds
// the pod's effective requests on every resource it requests, and that one more pod fits under
// `pods`; Score is LeastAllocated (default) or MostAllocated over cpu and memory (weight 1 each),
// using upstream's non-zero request defaults. Upstream:
// pkg/scheduler/framework/plugins/noderesources/{fit.go,least_allocated.go,most_allocated.go}.
// Requeue events: Pod/Delete (capacity freed), Node/Add, Node/UpdateNodeAllocatable.
//
// These run on the hot path on raw arrays: no allocation, no string compare. O(len(requests)).
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "sched/cache/node_table.h"
#include "sched/framework/pod_info.h"
#include "sched/scheduler.h"
#include "util/saturating.h"

namespace wasched::sched::plugins {

inline constexpr const char* kNodeResourcesFitName = "NodeResourcesFit";
inline constexpr const char* kTooManyPods = "Too many pods";

// Fits: the pod fits on node n given current usage.
[[nodiscard]] inline bool Fits(const PodInfo& pod, const NodeTable& nodes, NodeIndex n) {
  for (const auto& ra : pod.requests) {
    if (ra.amount > nodes.Allocatable(ra.id, n) - nodes.Requested(ra.id, n)) return false;
  }
  return true;
}

// InsufficientReasons: appends upstream's reasons for node n ("Too many pods",
// "Insufficient cpu", "Insufficient nvidia.com/gpu", …) in upstream's order (pods, cpu, memory,
// ephemeral-storage, then extended resources by id). Allocates (diagnosis path only).
void InsufficientReasons(const PodInfo& pod, const NodeTable& nodes, const ResourceTable& names,
                         NodeIndex n, std::vector<std::string>& out);

// LeastRequestedScore / MostRequestedScore: one resource's score in [0, 100] (upstream
// leastRequestedScore / mostRequestedScore), truncated as upstream's integer division. The
// product ×100 is taken in 64 bits when it cannot overflow (every real capacity: below 92Pi) and
// in 128 bits otherwise (allocatable may be anything up to int64's maximum: 7Ei of memory is
// valid input); both give the same quotient. O(1), on the score hot path (inline: a 128-bit
// division was a libgcc call per node and resource).
[[nodiscard]] inline int64_t LeastRequestedScore(int64_t requested, int64_t capacity) {
  if (capacity <= 0 || requested > capacity) return 0;
  constexpr int64_t kNoOverflow = std::numeric_limits<int64_t>::max() / 100;
  if (requested >= 0 && capacity <= kNoOverflow) return (capacity - requested) * 100 / capacity;
  return static_cast<int64_t>(static_cast<__int128>(capacity - requested) * 100 / capacity);
}

[[nodiscard]] inline int64_t MostRequestedScore(int64_t requested, int64_t capacity) {
  if (capacity <= 0) return 0;
  requested = std::clamp<int64_t>(requested, 0, capacity);  // non-zero defaults may exceed it
  constexpr int64_t kNoOverflow = std::numeric_limits<int64_t>::max() / 100;
  if (capacity <= kNoOverflow) return requested * 100 / capacity;
  return static_cast<int64_t>(static_cast<__int128>(requested) * 100 / capacity);
}

// Score: NodeResourcesFit score of placing the pod on node n, in [0, 100]: the mean of the cpu
// and memory scores of the node's non-zero requests with the pod's. O(1), inline (called per
// node of a scan).
[[nodiscard]] inline int64_t Score(const PodInfo& pod, const NodeTable& nodes, NodeIndex n,
                                   ScoringStrategy strategy) {
  const int64_t cpu_req = SaturatingAdd(nodes.NonZeroCPU(n), pod.nonzero_cpu);
  const int64_t mem_req = SaturatingAdd(nodes.NonZeroMemory(n), pod.nonzero_memory);
  const int64_t cpu_cap = nodes.Allocatable(kCpu, n);
  const int64_t mem_cap = nodes.Allocatable(kMemory, n);
  if (strategy == ScoringStrategy::kMostAllocated) {
    return (MostRequestedScore(cpu_req, cpu_cap) + MostRequestedScore(mem_req, mem_cap)) / 2;
  }
  return (LeastRequestedScore(cpu_req, cpu_cap) + LeastRequestedScore(mem_req, mem_cap)) / 2;
}

}  // namespace wasched::sched::plugins
