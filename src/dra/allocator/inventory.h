// File: dra/allocator/inventory.h
//
// Inventory: every allocatable device of the input's ResourceSlices, flattened into one array in
// upstream's allocation order, with which nodes reach each one. Upstream:
// kubernetes/kubernetes staging/src/k8s.io/dynamic-resource-allocation/structured/pools.go
// (GatherPools: only the slices of a pool's newest generation count; a pool with fewer slices
// than `resourceSliceCount` is incomplete; a device name repeated in a pool makes it invalid)
// and allocator.go (pools sorted by driver then pool name; devices in slice order).
//
// Nodes are the indexes 0..N-1 of the scheduler's node list. A device is node-local (slice
// `nodeName`), reachable from a set of nodes (slice `nodeSelector`, evaluated once per slice
// through the NodeMatcher) or from every node (`allNodes`).
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "api/dra/device.h"
#include "api/node.h"

namespace wasched::dra {

// NodeMatcher: whether node `node` (index) matches a ResourceSlice's nodeSelector terms (ORed).
using NodeMatcher =
    std::function<bool(size_t node, const std::vector<api::NodeSelectorTerm>& terms)>;

// kAllNodes / kNoNodes: InventoryDevice::reach values besides a node-set index.
inline constexpr int32_t kReachAllNodes = -1;
inline constexpr int32_t kReachNoNodes = -2;

// InventoryDevice: one device. `node` ≥ 0: node-local to that node (then `reach` is unused);
// `node` < 0: `reach` is kReachAllNodes, kReachNoNodes or an index of Inventory::node_sets().
struct InventoryDevice {
  std::string_view driver;
  std::string_view pool;
  std::string_view name;
  const api::Device* device = nullptr;
  int32_t node = -1;
  int32_t reach = kReachNoNodes;
  int32_t pool_index = 0;
};

// InventoryPool: one (driver, pool) of the newest generation.
struct InventoryPool {
  std::string_view driver;
  std::string_view name;
  bool incomplete = false;  // fewer slices than resourceSliceCount
  bool invalid = false;     // a device name repeated: no device of the pool is allocated
};

class Inventory {
 public:
  Inventory() = default;

  // Build: the inventory of `slices` for nodes named `node_names` (index = node). Slices naming a
  // node not in the list contribute no device; `per_device_node_selection` slices are skipped.
  // The slices must outlive the Inventory (views point into them). O(devices log devices +
  // selector slices × nodes).
  [[nodiscard]] static Inventory Build(std::span<const api::ResourceSlice> slices,
                                       std::span<const std::string> node_names,
                                       const NodeMatcher& matcher);

  [[nodiscard]] std::span<const InventoryDevice> devices() const { return devices_; }
  [[nodiscard]] std::span<const InventoryPool> pools() const { return pools_; }
  [[nodiscard]] size_t node_count() const { return node_count_; }
  // LocalDevices: the node-local devices of `node`, ascending. O(1).
  [[nodiscard]] std::span<const int32_t> LocalDevices(size_t node) const {
    return {local_ids_.data() + local_begin_[node], local_ids_.data() + local_begin_[node + 1]};
  }
  // NetworkDevices: the devices that are not node-local, ascending. O(1).
  [[nodiscard]] std::span<const int32_t> NetworkDevices() const { return network_ids_; }
  // Reaches: node `node` can use device `id`. O(1).
  [[nodiscard]] bool Reaches(int32_t id, size_t node) const;
  // Find: the device (driver, pool, name), or -1. O(1) average.
  [[nodiscard]] int32_t Find(std::string_view driver, std::string_view pool,
                             std::string_view name) const;

 private:
  size_t node_count_ = 0;
  std::vector<InventoryDevice> devices_;
  std::vector<InventoryPool> pools_;
  std::vector<uint32_t> local_begin_;  // node_count_ + 1 offsets into local_ids_
  std::vector<int32_t> local_ids_;
  std::vector<int32_t> network_ids_;
  std::vector<std::vector<bool>> node_sets_;  // per nodeSelector slice
  std::unordered_map<std::string, int32_t> by_key_;  // "driver/pool/name"
};

}  // namespace wasched::dra
