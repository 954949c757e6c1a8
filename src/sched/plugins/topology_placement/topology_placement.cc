// File: sched/plugins/topology_placement/topology_placement.cc
//
// TopologyPlacement (see topology_placement.h). Upstream: KEP-5732 TopologyPlacementGenerator.
#include "sched/plugins/topology_placement/topology_placement.h"

#include <algorithm>

#include <fmt/format.h>

#include "util/key_order.h"

namespace wasched::sched::plugins {

const TopologyKeyIndex& TopologyIndex::Get(const std::string& key) {
  auto it = keys_.find(key);
  if (it != keys_.end()) return *it->second;
  auto idx = std::make_unique<TopologyKeyIndex>();
  idx->key = key;
  const NodeIndex n_count = nodes_.size();
  // Labelled nodes by value, then node index: OrderByKey (a radix pass on the bytes after the
  // values' common prefix, "rack-"), ties in index order, i.e. node order.
  std::vector<std::string_view> value_of(static_cast<size_t>(n_count));
  std::vector<int32_t> order;
  for (NodeIndex n = 0; n < n_count; ++n) {
    const auto& labels = nodes_.node(n).meta.labels;
    auto l = labels.find(key);
    if (l == labels.end()) continue;
    value_of[n] = l->second;
    order.push_back(n);
  }
  OrderByKey(order, [&](int32_t n) { return value_of[n]; });
  idx->domain_of_node.assign(static_cast<size_t>(n_count), -1);
  idx->nodes.reserve(order.size());
  for (size_t i = 0; i < order.size(); ++i) {
    const NodeIndex n = order[i];
    if (i == 0 || value_of[n] != value_of[order[i - 1]]) {
      idx->values.emplace_back(value_of[n]);
      idx->offsets.push_back(static_cast<int32_t>(i));
    }
    idx->domain_of_node[n] = idx->domain_count() - 1;
    idx->nodes.push_back(n);
  }
  idx->offsets.push_back(static_cast<int32_t>(order.size()));
  auto* raw = idx.get();
  keys_.emplace(key, std::move(idx));
  return *raw;
}

Status GeneratePlacements(const TopologyKeyIndex& index, const Placement& parent,
                          std::span<const NodeIndex> pinned, std::vector<Placement>& out,
                          PlacementArena& arena, std::vector<int32_t>& counts) {
  int32_t pinned_domain = -1;
  for (NodeIndex n : pinned) {
    const int32_t d = index.domain_of_node[n];
    if (d < 0) {
      return Status::UnschedulableAndUnresolvable(
          fmt::format("a scheduled pod of the group runs on a node without label {}", index.key),
          kTopologyPlacementName);
    }
    if (pinned_domain >= 0 && d != pinned_domain) {
      return Status::UnschedulableAndUnresolvable(
          fmt::format("scheduled pods of the group span several {} domains ({}, {})", index.key,
                      index.values[pinned_domain], index.values[d]),
          kTopologyPlacementName);
    }
    pinned_domain = d;
  }
  auto emit = [&](int32_t d, int32_t inside) {
    std::span<const NodeIndex> whole = index.NodesOf(d);
    if (inside == static_cast<int32_t>(whole.size())) {
      out.push_back({index.values[d], whole, false, d});
      return;
    }
    std::vector<NodeIndex> cut;
    cut.reserve(static_cast<size_t>(inside));
    for (NodeIndex n : parent.nodes) {
      if (index.domain_of_node[n] == d) cut.push_back(n);
    }
    out.push_back({index.values[d], arena.Store(std::move(cut)), false, -1});
  };
  if (parent.all) {
    for (int32_t d = 0; d < index.domain_count(); ++d) {
      if (pinned_domain >= 0 && d != pinned_domain) continue;
      emit(d, static_cast<int32_t>(index.NodesOf(d).size()));
    }
    return Status::Success();
  }
  counts.resize(static_cast<size_t>(index.domain_count()), 0);
  std::vector<int32_t> touched;
  for (NodeIndex n : parent.nodes) {
    const int32_t d = index.domain_of_node[n];
    if (d < 0) continue;
    if (counts[d]++ == 0) touched.push_back(d);
  }
  std::sort(touched.begin(), touched.end());
  for (int32_t d : touched) {
    if (pinned_domain < 0 || d == pinned_domain) emit(d, counts[d]);
  }
  for (int32_t d : touched) counts[d] = 0;
  return Status::Success();
}

}  // namespace wasched::sched::plugins
