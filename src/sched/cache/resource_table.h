// File: sched/cache/resource_table.h
//
// ResourceTable: interns resource names ("cpu", "memory", "nvidia.com/gpu", …) to small dense
// ids so the hot path indexes arrays instead of comparing strings. Ids 0..3 are fixed
// (cpu, memory, pods, ephemeral-storage); others are assigned in first-seen order by the cache
// builder, which visits objects in input order, so ids are deterministic.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace wasched::sched {

using ResourceId = int32_t;
inline constexpr ResourceId kCpu = 0;
inline constexpr ResourceId kMemory = 1;
inline constexpr ResourceId kPods = 2;
inline constexpr ResourceId kEphemeralStorage = 3;

class ResourceTable {
 public:
  ResourceTable();
  // Intern: id of `name`, adding it if new. O(1) expected.
  ResourceId Intern(std::string_view name);
  // Find: id of `name` or -1. O(1) expected.
  [[nodiscard]] ResourceId Find(std::string_view name) const;
  [[nodiscard]] const std::string& Name(ResourceId id) const { return names_[id]; }
  [[nodiscard]] int32_t size() const { return static_cast<int32_t>(names_.size()); }

 private:
  std::vector<std::string> names_;
  std::unordered_map<std::string, ResourceId> ids_;
};

// ResourceAmount: one requested resource of a pod (sparse; only non-zero requests are kept).
struct ResourceAmount {
  ResourceId id;
  int64_t amount;
};

}  // namespace wasched::sched
