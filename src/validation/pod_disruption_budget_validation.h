// File: validation/pod_disruption_budget_validation.h
//
// policy/v1 PodDisruptionBudget validation, the fields wasched reads (upstream
// pkg/apis/policy/validation/validation.go ValidatePodDisruptionBudgetSpec, apps validation
// ValidatePositiveIntOrPercent / IsNotMoreThan100Percent, apimachinery meta/v1 validation
// ValidateLabelSelector): metadata; minAvailable and maxUnavailable not both set; each a
// non-negative integer or a percentage "N%" of at most 100%; the selector
// (validation/label_selector_validation.h). Hand-written rules: no origin (the selector's
// label-key and label-value format errors carry upstream's format origins).
//
//   ErrorList errs = ValidatePodDisruptionBudget(pdb);
#pragma once

#include "api/pod_disruption_budget.h"
#include "validation/field_errors.h"

namespace wasched::validation {

// ValidatePodDisruptionBudget: metadata and spec, as on create. O(object size).
[[nodiscard]] ErrorList ValidatePodDisruptionBudget(const api::PodDisruptionBudget& pdb);

}  // namespace wasched::validation
