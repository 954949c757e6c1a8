// File: validation/pod_disruption_budget_validation.h
//
// policy/v1 PodDisruptionBudget validation, the fields wasched reads (upstream
// pkg/apis/policy/validation/validation.go ValidatePodDisruptionBudgetSpec, apps validation
// ValidatePositiveIntOrPercent / IsNotMoreThan100Percent, apimachinery meta/v1 validation
// ValidateLabelSelector): metadata; minAvailable and maxUnavailable not both set; each a
// non-negative integer or a percentage "N%" of at most 100%; the selector's matchLabels
// (qualified-name keys, label values), matchExpressions (key a qualified name, a known operator,
// values present for In / NotIn and absent for Exists / DoesNotExist). Hand-written rules: no
// origin.
//
//   ErrorList errs = ValidatePodDisruptionBudget(pdb);
#pragma once

#include "api/pod_disruption_budget.h"
#include "validation/field_errors.h"

namespace wasched::validation {

// ValidateLabelSelector: metav1 ValidateLabelSelector at `path` (e.g. `spec.selector`).
// O(selector size).
[[nodiscard]] ErrorList ValidateLabelSelector(const api::LabelSelector& selector,
                                              const std::string& path);

// ValidatePodDisruptionBudget: metadata and spec, as on create. O(object size).
[[nodiscard]] ErrorList ValidatePodDisruptionBudget(const api::PodDisruptionBudget& pdb);

}  // namespace wasched::validation
