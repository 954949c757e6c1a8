#include "sched/cache/node_table.h"

namespace wasched::sched {

NodeTable::NodeTable(std::vector<const api::Node*> nodes, ResourceTable& resources)
    : nodes_(std::move(nodes)) {
  for (const auto* node : nodes_) {
    for (const auto& [name, amount] : node->allocatable) resources.Intern(name);
  }
  EnsureResources(resources.size());
  for (NodeIndex n = 0; n < size(); ++n) {
    for (const auto& [name, amount] : nodes_[n]->allocatable) {
      allocatable_[static_cast<size_t>(resources.Find(name)) * size() + n] = amount;
    }
  }
  nonzero_cpu_.assign(nodes_.size(), 0);
  nonzero_memory_.assign(nodes_.size(), 0);
}

void NodeTable::EnsureResources(int32_t resource_count) {
  if (resource_count <= resource_count_) return;
  allocatable_.resize(static_cast<size_t>(resource_count) * size(), 0);
  requested_.resize(static_cast<size_t>(resource_count) * size(), 0);
  resource_count_ = resource_count;
}

void NodeTable::Add(NodeIndex n, std::span<const ResourceAmount> requests, int64_t nonzero_cpu,
                    int64_t nonzero_memory, int64_t sign) {
  for (const auto& ra : requests) {
    requested_[static_cast<size_t>(ra.id) * size() + n] += sign * ra.amount;
  }
  nonzero_cpu_[n] += sign * nonzero_cpu;
  nonzero_memory_[n] += sign * nonzero_memory;
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
