// File: sched/plugins/topology_placement/topology_placement.h
//
// TopologyPlacement: the PlacementGenerate plugin of topology-aware workload scheduling
// (KEP-5732 "TopologyPlacementGenerator"; spec/was-v1.37.md §5.1, §5.3). For a group whose
// schedulingConstraints.topology names node label K, it yields one candidate placement per
// distinct value of K among the nodes of the parent placement (the whole cluster for a root;
// the parent's chosen domain below a CompositePodGroup, so children stay inside it). Nodes
// without label K are in no placement. When pods of the group already run, only the domain they
// occupy is a candidate; pods spread over several values of K, or on a node without K, are an
// error (UnschedulableAndUnresolvable).
//
// Speed: TopologyIndex maps node → domain id once per label key per run (O(N log N)) and keeps
// each domain's nodes contiguous (CSR), so a root group's candidates are slices of that index
// (no copy) and a child's candidates cost O(|parent nodes|) with no per-node allocation.
//
//   TopologyIndex index(nodes);
//   const TopologyKeyIndex& k = index.Get("topology.kubernetes.io/zone");
//   std::vector<Placement> out; PlacementArena arena;
//   Status s = GeneratePlacements(k, parent, pinned_nodes, out, arena, scratch);
#pragma once

#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "sched/cache/node_table.h"
#include "sched/framework/status.h"

namespace wasched::sched::plugins {

inline constexpr const char* kTopologyPlacementName = "TopologyPlacement";

// Placement: a candidate set of nodes (KEP-5732 framework.Placement). `name` is the domain's label
// value ("" for the whole cluster); `all` means every node of the cluster (no restriction).
// `nodes` ascending. The node span points into a TopologyIndex or a PlacementArena. `domain`: the
// TopologyKeyIndex domain id when the placement is that whole domain, else -1.
struct Placement {
  std::string_view name;
  std::span<const NodeIndex> nodes;
  bool all = false;
  int32_t domain = -1;
};

// TopologyKeyIndex: one label key: domain id per node (-1 = label absent), the domain values in
// ascending order (domain id = rank of its value), and each domain's nodes (ascending).
struct TopologyKeyIndex {
  std::string key;
  std::vector<int32_t> domain_of_node;
  std::vector<std::string> values;
  std::vector<int32_t> offsets;     // domain d's nodes: nodes[offsets[d] .. offsets[d + 1])
  std::vector<NodeIndex> nodes;
  [[nodiscard]] int32_t domain_count() const { return static_cast<int32_t>(values.size()); }
  [[nodiscard]] std::span<const NodeIndex> NodesOf(int32_t d) const {
    return {nodes.data() + offsets[d], static_cast<size_t>(offsets[d + 1] - offsets[d])};
  }
};

// TopologyIndex: the TopologyKeyIndex of each label key asked for, built on first use.
class TopologyIndex {
 public:
  explicit TopologyIndex(const NodeTable& nodes) : nodes_(nodes) {}
  // Get: the index of `key`; O(N log N) the first time, O(log keys) after. References stay valid.
  const TopologyKeyIndex& Get(const std::string& key);

 private:
  const NodeTable& nodes_;
  std::map<std::string, std::unique_ptr<TopologyKeyIndex>, std::less<>> keys_;
};

// PlacementArena: storage for placements that are not one whole domain (a domain cut by the
// parent placement). Addresses stay valid until Clear.
class PlacementArena {
 public:
  std::span<const NodeIndex> Store(std::vector<NodeIndex> nodes) {
    lists_.push_back(std::move(nodes));
    return lists_.back();
  }
  void Clear() { lists_.clear(); }

 private:
  std::deque<std::vector<NodeIndex>> lists_;
};

// GeneratePlacements: appends to `out` the candidate placements of a group with label key
// `index.key` inside `parent`, in ascending label value. `pinned` are the nodes of the group's
// already-placed pods (running or bound before this cycle). `counts` is caller scratch (any
// content; left all-zero). Returns UnschedulableAndUnresolvable when pinned pods lack the label
// or span several values. O(|parent nodes| + candidates), O(candidates) for a whole-cluster
// parent.
Status GeneratePlacements(const TopologyKeyIndex& index, const Placement& parent,
                          std::span<const NodeIndex> pinned, std::vector<Placement>& out,
                          PlacementArena& arena, std::vector<int32_t>& counts);

}  // namespace wasched::sched::plugins
