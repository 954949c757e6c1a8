// File: sched/cache/node_table.h
//
// NodeTable: the cluster's nodes as struct-of-arrays of integers, the cache's source of truth
// for capacity. For node n and resource r: Allocatable(r, n) and Requested(r, n) in canonical
// units (milli-CPU, bytes, counts; `pods` counts pods). NonZeroRequested holds cpu/memory with
// upstream's scoring defaults for pods that request nothing (100m CPU, 200Mi memory;
// pkg/scheduler/util.GetNonzeroRequests). Nodes are indexed 0..N-1 in name order.
//
// Not thread-safe; one scheduling loop owns it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "api/node.h"
#include "sched/cache/resource_table.h"

namespace wasched::sched {

using NodeIndex = int32_t;

// Upstream defaults for scoring pods without requests (pkg/scheduler/util/pod_resources.go).
inline constexpr int64_t kDefaultMilliCPURequest = 100;
inline constexpr int64_t kDefaultMemoryRequest = 200LL * 1024 * 1024;

class NodeTable {
 public:
  // NodeTable: builds arrays for `nodes` (already sorted by name by the caller; pointers must
  // outlive the table). Interns every allocatable resource into `resources`. O(N × R).
  NodeTable(std::vector<const api::Node*> nodes, ResourceTable& resources);

  [[nodiscard]] int32_t size() const { return static_cast<int32_t>(nodes_.size()); }
  [[nodiscard]] const api::Node& node(NodeIndex n) const { return *nodes_[n]; }
  [[nodiscard]] int32_t resource_count() const { return resource_count_; }

  // EnsureResources: widens the arrays when new resource ids were interned after construction
  // (a pod requesting a resource no node has). Amortised O(N) per new resource.
  void EnsureResources(int32_t resource_count);

  [[nodiscard]] int64_t Allocatable(ResourceId r, NodeIndex n) const {
    return allocatable_[static_cast<size_t>(r) * size() + n];
  }
  [[nodiscard]] int64_t Requested(ResourceId r, NodeIndex n) const {
    return requested_[static_cast<size_t>(r) * size() + n];
  }
  [[nodiscard]] int64_t NonZeroCPU(NodeIndex n) const { return nonzero_cpu_[n]; }
  // Version: how many times node n's usage changed (every Add on it); a consumer that memoises a
  // per-node answer compares it to know the answer still holds. O(1).
  [[nodiscard]] uint32_t Version(NodeIndex n) const { return version_[n]; }
  [[nodiscard]] int64_t NonZeroMemory(NodeIndex n) const { return nonzero_memory_[n]; }

  // Add: accounts (sign=+1) or releases (sign=-1) a pod's requests on node n. `requests` must
  // include the pod's `pods: 1`. O(len(requests)).
  void Add(NodeIndex n, std::span<const ResourceAmount> requests, int64_t nonzero_cpu,
           int64_t nonzero_memory, int64_t sign);

  // ChangeLog: every node index passed to Add, in order (duplicates allowed). Consumers such as
  // the Framework's per-signature score index remember a cursor and re-read only the nodes that
  // changed since. Cleared by ResetChangeLog, which bumps `log_epoch()` so consumers rebuild.
  // Add resets it itself once it holds kChangeLogLimit(N) entries, so its memory stays O(N)
  // however many assume/revert rounds a cycle runs (a gang preemption's reprieve assumes and
  // reverts all n placements per victim unit: unbounded, the log grew with n², QA finding 21);
  // a consumer then rebuilds in O(N), amortised O(1) per Add.
  [[nodiscard]] const std::vector<NodeIndex>& change_log() const { return change_log_; }
  [[nodiscard]] static size_t ChangeLogLimit(int32_t node_count) {
    return 8 * static_cast<size_t>(node_count) + 4096;
  }
  [[nodiscard]] uint64_t log_epoch() const { return log_epoch_; }
  void ResetChangeLog() {
    change_log_.clear();
    ++log_epoch_;
  }

  // Equals: same requested arrays (verification mode compares with a recomputation).
  [[nodiscard]] bool SameUsage(const NodeTable& other) const;
  // FirstOvercommitted: a node whose requested exceeds allocatable on a resource it has
  // accounted in this run, or -1. Running input pods may legitimately exceed (kubelet admitted
  // them), so callers compare against the input state. O(N × R).
  [[nodiscard]] NodeIndex FirstOvercommitted() const;

 private:
  std::vector<const api::Node*> nodes_;
  int32_t resource_count_ = 0;
  std::vector<int64_t> allocatable_;  // [r * N + n]
  std::vector<int64_t> requested_;    // [r * N + n]
  std::vector<int64_t> nonzero_cpu_;
  std::vector<int64_t> nonzero_memory_;
  std::vector<uint32_t> version_;
  std::vector<NodeIndex> change_log_;
  uint64_t log_epoch_ = 0;
};

}  // namespace wasched::sched
