// File: validation/label_selector_validation.h
//
// metav1.LabelSelector validation as kube-apiserver applies it on create (k8s.io/apimachinery
// pkg/apis/meta/v1/validation/validation.go: ValidateLabelSelector,
// ValidateLabelSelectorRequirement, ValidateLabelName, ValidateLabels), shared by
// PodDisruptionBudgets (`spec.selector`), pod (anti-)affinity terms (`labelSelector`,
// `namespaceSelector`) and topology spread constraints (`labelSelector`).
//
//   ErrorList errs = ValidateLabelSelector(selector, "spec.selector");
//   // spec.selector.matchExpressions[0].values: Required value: must be specified when
//   //   `operator` is 'In' or 'NotIn'
//
// Upstream's LabelSelectorValidationOptions are at their create values: an unknown operator is
// an error and every In / NotIn value must be a label value (AllowInvalidLabelValueInSelector
// only lets an update keep values an older API server stored, which wasched never reads).
#pragma once

#include <string>

#include "api/label_selector.h"
#include "validation/field_errors.h"

namespace wasched::validation {

// ValidateLabelSelector: at `path`, first `matchLabels` (ValidateLabels: per entry, the key's
// qualified-name problems and the value's label-value problems, at `<path>.matchLabels`), then
// per `matchExpressions[i]`: values Required for In / NotIn ("must be specified when `operator`
// is 'In' or 'NotIn'"), Forbidden for Exists / DoesNotExist ("may not be specified when
// `operator` is 'Exists' or 'DoesNotExist'"), an unknown operator Invalid ("not a valid selector
// operator"); the key a qualified name (`.key`, origin format=k8s-label-key); each value a label
// value (`.values[j]`). O(selector size).
[[nodiscard]] ErrorList ValidateLabelSelector(const api::LabelSelector& selector,
                                              const std::string& path);

}  // namespace wasched::validation
