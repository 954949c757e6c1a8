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

#include <cstdint>
#include <string>
#include <vector>

#include "sched/cache/node_table.h"
#include "sched/framework/pod_info.h"
#include "sched/scheduler.h"

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

// Score: NodeResourcesFit score of placing the pod on node n, in [0, 100].
[[nodiscard]] int64_t Score(const PodInfo& pod, const NodeTable& nodes, NodeIndex n,
                            ScoringStrategy strategy);

}  // namespace wasched::sched::plugins
