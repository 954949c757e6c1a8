// File: api/dra/device.h
//
// resource.k8s.io/v1 ResourceSlice and its devices: the inventory a DRA driver publishes, per
// node (`nodeName`), for a set of nodes (`nodeSelector`) or for every node (`allNodes`), grouped
// into pools with generations. Source: kubernetes/kubernetes
// staging/src/k8s.io/api/resource/v1/types.go (ResourceSliceSpec, ResourcePool, Device,
// DeviceAttribute, DeviceCapacity). Pure data; no I/O.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "api/object_meta.h"
#include "api/pod.h"
#include "api/quantity.h"

namespace wasched::api {

// SemVer: a parsed semantic version (DeviceAttribute `version`, CEL `semver()`): major, minor,
// patch and the pre-release text (empty for a release; build metadata is dropped, it does not
// take part in ordering). Ordering as semver 2.0.0 §11 (pre-release compared as a whole string
// per dot-separated identifier, numeric identifiers numerically).
struct SemVer {
  uint64_t major = 0;
  uint64_t minor = 0;
  uint64_t patch = 0;
  std::string pre_release;
  friend bool operator==(const SemVer&, const SemVer&) = default;
};

// ParseSemVer: strict semver 2.0.0 (`1.2.3`, `1.2.3-rc.1+build`); nullopt when malformed
// (upstream validation: "must be a string compatible with semver.org spec 2.0.0"). O(length).
[[nodiscard]] std::optional<SemVer> ParseSemVer(std::string_view text);
// CompareSemVer: <0, 0, >0 as semver precedence. O(length of pre-release).
[[nodiscard]] int CompareSemVer(const SemVer& a, const SemVer& b);

// DeviceAttribute: exactly one of int / bool / string / version (upstream DeviceAttribute).
struct DeviceAttribute {
  enum class Kind { kInt, kBool, kString, kVersion };
  Kind kind = Kind::kString;
  int64_t int_value = 0;
  bool bool_value = false;
  std::string string_value;  // kString; kVersion: the text as written
  SemVer version;            // kVersion
};

// Device: one device of a slice. `attributes` / `capacity` keys are qualified names as written:
// `model` (domain = the slice's driver) or `resource.kubernetes.io/pciBusID`; kept in input
// order (upstream's map order is irrelevant; lookups are by name).
struct Device {
  std::string name;
  std::vector<std::pair<std::string, DeviceAttribute>> attributes;
  std::vector<std::pair<std::string, Quantity>> capacity;
};

// ResourcePool: spec.pool. Only the slices of a pool's highest generation count; a pool whose
// newest generation has fewer slices than `resource_slice_count` is incomplete.
struct ResourcePool {
  std::string name;
  int64_t generation = 0;
  int64_t resource_slice_count = 0;
};

// ResourceSlice: resource.k8s.io/v1 (cluster-scoped). Exactly one of `node_name`,
// `node_selector` (one NodeSelector: terms ORed) and `all_nodes` says which nodes reach the
// devices (validation checks the union); `per_device_node_selection` is read but not supported
// (its devices are ignored, with a warning).
struct ResourceSlice {
  ObjectMeta meta;
  std::string driver;
  ResourcePool pool;
  std::string node_name;
  std::optional<std::vector<NodeSelectorTerm>> node_selector;
  bool all_nodes = false;
  bool per_device_node_selection = false;
  std::vector<Device> devices;
};

}  // namespace wasched::api
