// File: sched/cache/node_name_index.cc
//
// NodeNameIndex (see node_name_index.h).
#include "sched/cache/node_name_index.h"

#include <functional>

namespace wasched::sched {

namespace {
uint64_t HashName(std::string_view name) { return std::hash<std::string_view>{}(name); }
}  // namespace

NodeNameIndex::NodeNameIndex(const NodeTable& nodes) : nodes_(&nodes) {
  size_t capacity = 16;
  while (capacity < 2 * static_cast<size_t>(nodes.size())) capacity *= 2;
  slots_.assign(capacity, kEmpty);
  mask_ = capacity - 1;
  for (NodeIndex n = 0; n < nodes.size(); ++n) {
    const std::string_view name = nodes.node(n).meta.name;
    for (uint64_t s = HashName(name) & mask_;; s = (s + 1) & mask_) {
      if (slots_[s] == kEmpty) {
        slots_[s] = n;
        break;
      }
      if (nodes.node(slots_[s]).meta.name == name) break;  // a repeated name keeps the first
    }
  }
}

NodeIndex NodeNameIndex::Find(std::string_view name) const {
  if (nodes_ == nullptr) return kEmpty;
  for (uint64_t s = HashName(name) & mask_;; s = (s + 1) & mask_) {
    const NodeIndex n = slots_[s];
    if (n == kEmpty) return kEmpty;
    if (nodes_->node(n).meta.name == name) return n;
  }
}

}  // namespace wasched::sched
