// File: validation/pod_validation.h
//
// The Pod field workload-aware scheduling adds (spec/was-v1.37.md §2.7): spec.schedulingGroup
// (`podGroupName`, gate GenericWorkload, immutable). The pod's other fields are checked by the
// pre-scheduling checks (validation/object_set_validation.h).
//
//   ErrorList errs = ValidatePodSchedulingGroup(pod, /*old=*/nullptr, gates);
#pragma once

#include "api/pod.h"
#include "util/feature_gates.h"
#include "validation/field_errors.h"

namespace wasched::validation {

// ValidatePodSchedulingGroup: Forbidden `spec.schedulingGroup` while GenericWorkload is off
// (create or a changed value), immutable on update, `spec.schedulingGroup.podGroupName` a long
// name. `old` nullptr = create. O(name length).
[[nodiscard]] ErrorList ValidatePodSchedulingGroup(const api::Pod& pod, const api::Pod* old,
                                                   const FeatureGates& gates);

}  // namespace wasched::validation
