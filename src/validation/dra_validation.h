// File: validation/dra_validation.h
//
// Validation of the resource.k8s.io/v1 objects wasched reads and of the DRA references between
// objects, before scheduling: the essential field rules of kubernetes/kubernetes
// pkg/apis/resource/validation/validation.go (names, exactly-one unions, counts, selectors that
// compile — with wasched's CEL subset, an expression outside it is `Unsupported value` naming the
// construct), and references that must resolve: a request's DeviceClass (for claims and templates
// a pod uses), a pod's
// ResourceClaim / ResourceClaimTemplate in its namespace, a container's claim entry in the pod.
// (Upstream's scheduler would leave such pods pending waiting for the object to appear; wasched
// reads a snapshot, so a dangling reference is an input error.)
#pragma once

#include "api/object_set.h"
#include "util/feature_gates.h"
#include "validation/error_collector.h"

namespace wasched::validation::internal {

// AppendDraErrors: the errors of every DeviceClass, ResourceSlice, ResourceClaim,
// ResourceClaimTemplate, the pods' spec.resourceClaims and containers' resources.claims into
// `out` (a PodGroup's entries are checked through its member pods' identical entries);
// warnings (an allocated claim naming a device no slice publishes) into `warnings`.
// O(objects · fields + selectors · expression length).
void AppendDraErrors(const api::ObjectSet& objects, const FeatureGates& gates,
                     ErrorCollector* out, ErrorCollector* warnings);

}  // namespace wasched::validation::internal
