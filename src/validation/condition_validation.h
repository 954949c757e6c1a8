// File: validation/condition_validation.h
//
// metav1.Condition lists (status.conditions of PodGroup and CompositePodGroup), as upstream's
// `ValidateConditions` (k8s.io/apimachinery/pkg/apis/meta/v1/validation), which the PodGroup and
// CompositePodGroup status-update validation runs (pkg/apis/scheduling/validation,
// spec/was-v1.37.md §3.5).
//
//   ErrorList errs = ValidateConditions(group.conditions, "status.conditions");
#pragma once

#include <string>
#include <vector>

#include "api/object_meta.h"
#include "validation/field_errors.h"

namespace wasched::validation {

inline constexpr std::size_t kConditionMaxReasonLength = 1024;
inline constexpr std::size_t kConditionMaxMessageLength = 32 * 1024;

// ValidateConditions: per condition i at `path[i]`: a second condition of the same type is
// `Duplicate path[i].type`; `type` a qualified name (Invalid per problem); `status` one of
// "False", "True", "Unknown" (NotSupported); observedGeneration ≥ 0 (Invalid "must be greater
// than or equal to zero"); lastTransitionTime set (Required "must be set"); `reason` set
// (Required "must be set"), matching `[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?` and ≤ 1024 bytes
// (TooLong); `message` ≤ 32768 bytes (TooLong). O(total text).
[[nodiscard]] ErrorList ValidateConditions(const std::vector<api::Condition>& conditions,
                                           const std::string& path);

}  // namespace wasched::validation
