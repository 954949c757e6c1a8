// File: validation/api_validation.h
//
// API-server validation of a whole input, as kube-apiserver v1.37 would validate each object on
// create, or on update against its stored version: Workload, PodGroup, CompositePodGroup, Job
// (spec.scheduling), Pod (spec.schedulingGroup) and PriorityClass updates. The per-kind rules
// live in workload_validation.h, pod_group_validation.h, composite_pod_group_validation.h,
// job_validation.h and pod_validation.h; gates are explicit (util/feature_gates.h).
//
// This is validation of the objects as written, like upstream's declarative-validation tests
// call it: a gated field set while its gate is off is `Forbidden` here (the API server's create
// strategy would first drop it; `wasched schedule` does that drop before validating, see
// cli/feature_gates.h). A kind that is not served while its gate is off (Workload and PodGroup
// without GenericWorkload, CompositePodGroup without CompositePodGroup) gets one
// `Forbidden kind` error and no field checks.
//
//   InputErrors errors = validation::ValidateCreate(objects, gates);
//   InputErrors errors = validation::ValidateUpdate(stored, objects, gates);
#pragma once

#include "api/object_set.h"
#include "util/feature_gates.h"
#include "util/field_error.h"
#include "validation/error_collector.h"

namespace wasched::validation {

// ValidateCreate: every object validated as a create; errors in input order (empty = valid).
// O(objects · fields).
[[nodiscard]] InputErrors ValidateCreate(const api::ObjectSet& objects, const FeatureGates& gates);

// ValidateUpdate: each object of `updated` is paired with the object of `old` of the same kind,
// namespace and name (the first one when `old` repeats it) and validated as an update of it
// (immutability, NoSet / NoUnset / NoAddItem / NoRemoveItem, ratcheting); objects without a
// counterpart are validated as creates; objects only in `old` are ignored. Errors refer to
// `updated` and come in its input order. O(objects · (fields + log objects)).
[[nodiscard]] InputErrors ValidateUpdate(const api::ObjectSet& old, const api::ObjectSet& updated,
                                         const FeatureGates& gates);

namespace internal {

// AppendApiErrors: the work of ValidateCreate (`old` nullptr) / ValidateUpdate, into `out`, so
// callers can merge other checks into one input-ordered report.
void AppendApiErrors(const api::ObjectSet& objects, const api::ObjectSet* old,
                     const FeatureGates& gates, ErrorCollector* out);

}  // namespace internal
}  // namespace wasched::validation
