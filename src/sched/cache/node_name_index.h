// File: sched/cache/node_name_index.h
//
// NodeNameIndex: node name → NodeIndex for the nodes of one run, as one flat open-addressing
// table (linear probing over a power-of-two array of node indices, ≥ 2 slots per node). It
// replaces an unordered_map<string_view, NodeIndex>, which allocated one hash node per cluster
// node on every BuildCache (5000 allocations a call at scheduler_perf's size; issue 16 item 3).
// Upstream resolves a pod's spec.nodeName through the cache's nodes map
// (pkg/scheduler/backend/cache/cache.go); this index is wasched's.
//
//   NodeNameIndex index(node_table);
//   NodeIndex n = index.Find("node-17");        // -1 (kNoNode) when no node has that name
//
// The table stores indices only and reads the names from the NodeTable, which must outlive it. Build: O(N) expected, two allocations; Find: O(|name|) expected, no allocation. Names are
// unique (the API server's). Not thread-safe.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "sched/cache/node_table.h"

namespace wasched::sched {

class NodeNameIndex {
 public:
  NodeNameIndex() = default;
  // NodeNameIndex: indexes node n of `nodes` under its meta.name. A repeated name keeps its
  // first index.
  explicit NodeNameIndex(const NodeTable& nodes);

  // Find: the index of the node named `name`, or -1 (kNoNode).
  [[nodiscard]] NodeIndex Find(std::string_view name) const;

 private:
  static constexpr NodeIndex kEmpty = -1;
  const NodeTable* nodes_ = nullptr;
  std::vector<NodeIndex> slots_;  // kEmpty, or a node index; size a power of two
  uint64_t mask_ = 0;
};

}  // namespace wasched::sched
