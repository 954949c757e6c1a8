// File: api/resource_list.h
//
// ResourceList: resource name → amount in the canonical integer unit (milli-CPU for `cpu`,
// bytes for `memory` / `ephemeral-storage`, counts for `pods` and extended resources such as
// `nvidia.com/gpu`). Ordered by name so iteration is deterministic.
#pragma once

#include <cstdint>
#include <map>
#include <string>

namespace wasched::api {

using ResourceList = std::map<std::string, int64_t>;

inline constexpr const char* kResourceCPU = "cpu";
inline constexpr const char* kResourceMemory = "memory";
inline constexpr const char* kResourcePods = "pods";
inline constexpr const char* kResourceEphemeralStorage = "ephemeral-storage";

}  // namespace wasched::api
