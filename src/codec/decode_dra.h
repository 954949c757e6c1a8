// File: codec/decode_dra.h
//
// Decoders for the resource.k8s.io/v1 kinds (internal to codec/): DeviceClass, ResourceSlice,
// ResourceClaim, ResourceClaimTemplate, and the DRA fields of a Pod (spec.resourceClaims,
// containers' resources.claims). Field names follow kubernetes/kubernetes
// staging/src/k8s.io/api/resource/v1/types.go and core/v1 PodResourceClaim. Bad values (a
// quantity that does not parse, an attribute with no or two values, a version that is not
// semver, an unknown allocationMode) are errors at their field path; fields that do not change
// which device is chosen (config, tolerations, sharedCounters, …) are read and ignored; unknown
// fields warn. Nothing throws.
#pragma once

#include <vector>

#include "api/dra/device.h"
#include "api/dra/device_class.h"
#include "api/dra/resource_claim.h"
#include "api/pod.h"
#include "codec/yaml_reader.h"

namespace wasched::codec::internal {

// DecodeDeviceClass: metadata, spec.selectors[].cel.expression. O(fields).
void DecodeDeviceClass(const Reader& root, api::DeviceClass* out);

// DecodeResourceSlice: metadata, spec.{driver, pool, nodeName, nodeSelector, allNodes,
// perDeviceNodeSelection, devices[].{name, attributes, capacity}}. O(fields).
void DecodeResourceSlice(const Reader& root, api::ResourceSlice* out);

// DecodeResourceClaim: metadata, spec.devices.{requests, constraints},
// status.{allocation.devices.results, reservedFor}. O(fields).
void DecodeResourceClaim(const Reader& root, api::ResourceClaim* out);

// DecodeResourceClaimTemplate: metadata, spec.spec (a ResourceClaimSpec; spec.metadata is
// ignored). O(fields).
void DecodeResourceClaimTemplate(const Reader& root, api::ResourceClaimTemplate* out);

// DecodePodResourceClaims: Pod spec.resourceClaims[] {name, resourceClaimName,
// resourceClaimTemplateName}, appended. O(items).
void DecodePodResourceClaims(const Reader& r, std::vector<api::PodResourceClaim>* out);

// DecodeContainerClaims: a container's resources.claims[] {name, request}, appended. O(items).
void DecodeContainerClaims(const Reader& r, std::vector<api::ResourceClaimRequest>* out);

}  // namespace wasched::codec::internal
