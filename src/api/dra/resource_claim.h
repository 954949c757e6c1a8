// File: api/dra/resource_claim.h
//
// resource.k8s.io/v1 ResourceClaim and ResourceClaimTemplate: what devices a pod (or a whole
// PodGroup, KEP-5729) needs. Source: kubernetes/kubernetes staging/src/k8s.io/api/resource/v1/
// types.go (ResourceClaimSpec, DeviceClaim, DeviceRequest, ExactDeviceRequest,
// DeviceSubRequest, AllocationResult, ResourceClaimConsumerReference). Pure data; no I/O.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "api/dra/device_class.h"
#include "api/object_meta.h"
#include "api/pod.h"

namespace wasched::api {

// DeviceAllocationMode: upstream DeviceAllocationMode (default ExactCount, count default 1).
enum class DeviceAllocationMode { kExactCount, kAll };

// ExactDeviceRequest: `exactly` of a DeviceRequest, and the shape of one `firstAvailable`
// subrequest (which has a `name` of its own). `admin_access` requests are not supported.
struct ExactDeviceRequest {
  std::string name;  // subrequest name; empty for `exactly`
  std::string device_class_name;
  std::vector<DeviceSelector> selectors;
  DeviceAllocationMode allocation_mode = DeviceAllocationMode::kExactCount;
  int64_t count = 1;
  // count_specified: `count` was written (validation refuses it with allocationMode All; the
  // default 1 alone cannot tell).
  bool count_specified = false;
  bool admin_access = false;
};

// DeviceRequest: `name` + exactly one of `exactly` / `firstAvailable` (prioritized
// alternatives, tried in order).
struct DeviceRequest {
  std::string name;
  std::optional<ExactDeviceRequest> exactly;
  std::vector<ExactDeviceRequest> first_available;
};

// DeviceConstraint: spec.devices.constraints[] (matchAttribute / distinctAttribute). Read so
// the scheduler can refuse what it does not model (see docs/known-gaps.md).
struct DeviceConstraint {
  std::vector<std::string> requests;
  std::string match_attribute;
  std::string distinct_attribute;
};

// ResourceClaimSpec: spec.devices {requests, constraints}; `config` is ignored.
struct ResourceClaimSpec {
  std::vector<DeviceRequest> requests;
  std::vector<DeviceConstraint> constraints;
};

// DeviceRequestAllocationResult: status.allocation.devices.results[].
struct DeviceRequestAllocationResult {
  std::string request;  // "<request>" or "<request>/<subrequest>"
  std::string driver;
  std::string pool;
  std::string device;
};

// ResourceClaimConsumerReference: status.reservedFor[] (resource "pods" or "podgroups").
struct ResourceClaimConsumerReference {
  std::string resource;
  std::string name;
};

// ResourceClaim: namespaced. An allocated claim (`allocation` set) holds its devices: they are
// in use whoever reserves it.
struct ResourceClaim {
  ObjectMeta meta;
  ResourceClaimSpec spec;
  std::optional<std::vector<DeviceRequestAllocationResult>> allocation;
  std::vector<ResourceClaimConsumerReference> reserved_for;
};

// ResourceClaimTemplate: namespaced; `spec.spec` is the spec of every claim made from it.
struct ResourceClaimTemplate {
  ObjectMeta meta;
  ResourceClaimSpec spec;
};

}  // namespace wasched::api
