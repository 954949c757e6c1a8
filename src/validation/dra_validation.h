// File: validation/dra_validation.h
//
// Validation of the resource.k8s.io/v1 objects wasched reads and of the DRA references between
// objects, before scheduling: the essential field rules of kubernetes/kubernetes
// pkg/apis/resource/validation/validation.go (names, exactly-one unions, counts, selectors that
// compile: TooLong over 10240 bytes without the value, Invalid for a syntax or type error or a
// result that is not bool or dyn — "must evaluate to bool or the unknown type, not string"; valid
// CEL outside wasched's subset is a *warning* `Unsupported value` naming the construct, see
// MarkPodsWithUnsupportedSelectors), and references that must resolve: a request's DeviceClass (for claims and templates
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

namespace wasched::validation {

// MarkPodsWithUnsupportedSelectors: appends to Pod::unsupported_constraints of every unbound pod
// whose claims depend on a CEL selector outside wasched's subset (valid CEL, e.g. the `exists`
// macro: a warning in validation, QA1 finding 11) — through the claim's or template's request
// selectors or a requested DeviceClass's selectors. The entry names the pod's field and the
// construct: `spec.resourceClaims[0] (ResourceClaimTemplate default/t: spec.spec.devices.
// requests[0].exactly.selectors[0].cel.expression: function "exists" is not supported by
// wasched)`. The scheduler then leaves such pods (and their group trees) pending as Unsupported,
// as for other hard constraints it does not model; never bound as if the selector matched.
// Returns the number of pods marked. O(selectors × expression length + pods × claims).
int MarkPodsWithUnsupportedSelectors(api::ObjectSet* objects);

}  // namespace wasched::validation
