// File: dra/allocator/inventory.cc
//
// Inventory::Build (see inventory.h).
#include "dra/allocator/inventory.h"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

namespace wasched::dra {
namespace {

std::string Key(std::string_view driver, std::string_view pool, std::string_view name) {
  std::string key;
  key.reserve(driver.size() + pool.size() + name.size() + 2);
  key.append(driver).append("/").append(pool).append("/").append(name);
  return key;
}

}  // namespace

Inventory Inventory::Build(std::span<const api::ResourceSlice> slices,
                           std::span<const std::string> node_names, const NodeMatcher& matcher) {
  Inventory inv;
  inv.node_count_ = node_names.size();
  std::unordered_map<std::string_view, size_t> node_index;
  for (size_t i = 0; i < node_names.size(); ++i) node_index.emplace(node_names[i], i);

  // Pools: (driver, pool) → the newest generation's slices, in slice-name order.
  struct PoolSlices {
    int64_t generation = INT64_MIN;
    int64_t slice_count = 0;
    std::vector<const api::ResourceSlice*> slices;
  };
  std::map<std::pair<std::string_view, std::string_view>, PoolSlices> pools;
  for (const api::ResourceSlice& s : slices) {
    PoolSlices& p = pools[{s.driver, s.pool.name}];
    if (s.pool.generation > p.generation) {
      p.generation = s.pool.generation;
      p.slice_count = s.pool.resource_slice_count;
      p.slices.clear();
    }
    if (s.pool.generation == p.generation) p.slices.push_back(&s);
  }
  std::vector<uint32_t> local_count(inv.node_count_, 0);
  for (auto& [key, p] : pools) {
    std::sort(p.slices.begin(), p.slices.end(),
              [](const api::ResourceSlice* a, const api::ResourceSlice* b) {
                return a->meta.name < b->meta.name;
              });
    InventoryPool pool;
    pool.driver = key.first;
    pool.name = key.second;
    pool.incomplete = static_cast<int64_t>(p.slices.size()) < p.slice_count;
    std::set<std::string_view> names;
    for (const api::ResourceSlice* s : p.slices) {
      for (const api::Device& d : s->devices) {
        if (!names.insert(d.name).second) pool.invalid = true;
      }
    }
    const int32_t pool_index = static_cast<int32_t>(inv.pools_.size());
    inv.pools_.push_back(pool);
    if (pool.invalid) continue;
    for (const api::ResourceSlice* s : p.slices) {
      if (s->per_device_node_selection) continue;
      int32_t node = -1;
      int32_t reach = kReachNoNodes;
      if (!s->node_name.empty()) {
        auto it = node_index.find(s->node_name);
        if (it == node_index.end()) continue;  // a node that is not in the input
        node = static_cast<int32_t>(it->second);
      } else if (s->all_nodes) {
        reach = kReachAllNodes;
      } else if (s->node_selector) {
        std::vector<bool> set(inv.node_count_, false);
        for (size_t n = 0; n < inv.node_count_; ++n) set[n] = matcher(n, *s->node_selector);
        reach = static_cast<int32_t>(inv.node_sets_.size());
        inv.node_sets_.push_back(std::move(set));
      }
      for (const api::Device& d : s->devices) {
        InventoryDevice dev;
        dev.driver = s->driver;
        dev.pool = s->pool.name;
        dev.name = d.name;
        dev.device = &d;
        dev.node = node;
        dev.reach = reach;
        dev.pool_index = pool_index;
        const int32_t id = static_cast<int32_t>(inv.devices_.size());
        inv.devices_.push_back(dev);
        inv.by_key_.emplace(Key(dev.driver, dev.pool, dev.name), id);
        if (node >= 0) {
          ++local_count[static_cast<size_t>(node)];
        } else {
          inv.network_ids_.push_back(id);
        }
      }
    }
  }
  inv.local_begin_.assign(inv.node_count_ + 1, 0);
  for (size_t n = 0; n < inv.node_count_; ++n) {
    inv.local_begin_[n + 1] = inv.local_begin_[n] + local_count[n];
  }
  inv.local_ids_.assign(inv.local_begin_[inv.node_count_], 0);
  std::vector<uint32_t> fill(inv.local_begin_.begin(), inv.local_begin_.end() - 1);
  for (size_t id = 0; id < inv.devices_.size(); ++id) {
    const int32_t node = inv.devices_[id].node;
    if (node >= 0) inv.local_ids_[fill[static_cast<size_t>(node)]++] = static_cast<int32_t>(id);
  }
  return inv;
}

bool Inventory::Reaches(int32_t id, size_t node) const {
  const InventoryDevice& d = devices_[static_cast<size_t>(id)];
  if (d.node >= 0) return static_cast<size_t>(d.node) == node;
  if (d.reach == kReachAllNodes) return true;
  if (d.reach == kReachNoNodes) return false;
  return node_sets_[static_cast<size_t>(d.reach)][node];
}

int32_t Inventory::Find(std::string_view driver, std::string_view pool,
                        std::string_view name) const {
  auto it = by_key_.find(Key(driver, pool, name));
  return it == by_key_.end() ? -1 : it->second;
}

}  // namespace wasched::dra
