#include "sched/cache/node_table.h"

#include <algorithm>

#include "util/saturating.h"
namespace wasched::sched {

NodeTable::NodeTable(std::vector<const api::Node*> nodes, ResourceTable& resources)
    : nodes_(std::move(nodes)) {
  // Resource ids per node: nodes usually list the same resource names as the node before, so
  // the previous node's ids are reused after a string compare instead of a hash lookup.
  std::vector<ResourceId> ids;  // [position in allocatable] of the node being read
  std::vector<ResourceId> per_entry;
  per_entry.reserve(nodes_.size() * 4);
  const api::Node* previous = nullptr;
  for (const auto* node : nodes_) {
    const bool same = previous != nullptr && previous->allocatable.size() == node->allocatable.size() &&
                      std::equal(previous->allocatable.begin(), previous->allocatable.end(),
                                 node->allocatable.begin(),
                                 [](const auto& a, const auto& b) { return a.first == b.first; });
    if (!same) {
      ids.clear();
      for (const auto& [name, amount] : node->allocatable) ids.push_back(resources.Intern(name));
    }
    per_entry.insert(per_entry.end(), ids.begin(), ids.end());
    previous = node;
  }
  EnsureResources(resources.size());
  size_t k = 0;
  for (NodeIndex n = 0; n < size(); ++n) {
    for (const auto& [name, amount] : nodes_[n]->allocatable) {
      allocatable_[static_cast<size_t>(per_entry[k++]) * size() + n] = amount;
    }
  }
  nonzero_cpu_.assign(nodes_.size(), 0);
  nonzero_memory_.assign(nodes_.size(), 0);
  version_.assign(nodes_.size(), 0);
}

void NodeTable::EnsureResources(int32_t resource_count) {
  if (resource_count <= resource_count_) return;
  allocatable_.resize(static_cast<size_t>(resource_count) * size(), 0);
  requested_.resize(static_cast<size_t>(resource_count) * size(), 0);
  resource_count_ = resource_count;
}

void NodeTable::Add(NodeIndex n, std::span<const ResourceAmount> requests, int64_t nonzero_cpu,
                    int64_t nonzero_memory, int64_t sign) {
  // Saturating: a node's requests may sum beyond int64 (pods of `memory: 1e100` are taken as
  // int64's maximum, codec/decode_common.cc); such a node stays full rather than wrapping.
  for (const auto& ra : requests) {
    int64_t& r = requested_[static_cast<size_t>(ra.id) * size() + n];
    r = SaturatingAdd(r, sign * ra.amount);
  }
  nonzero_cpu_[n] = SaturatingAdd(nonzero_cpu_[n], sign * nonzero_cpu);
  nonzero_memory_[n] = SaturatingAdd(nonzero_memory_[n], sign * nonzero_memory);
  ++version_[n];
  if (change_log_.size() >= ChangeLogLimit(size())) ResetChangeLog();
  change_log_.push_back(n);
}

bool NodeTable::SameUsage(const NodeTable& other) const {
  return requested_ == other.requested_ && nonzero_cpu_ == other.nonzero_cpu_ &&
         nonzero_memory_ == other.nonzero_memory_;
}

NodeIndex NodeTable::FirstOvercommitted() const {
  for (ResourceId r = 0; r < resource_count_; ++r) {
    for (NodeIndex n = 0; n < size(); ++n) {
      if (Requested(r, n) > Allocatable(r, n)) return n;
    }
  }
  return -1;
}

}  // namespace wasched::sched
