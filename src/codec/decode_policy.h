// File: codec/decode_policy.h
//
// Decoder for policy/v1 PodDisruptionBudget (internal to codec/): metadata,
// spec.{minAvailable, maxUnavailable, selector{matchLabels, matchExpressions},
// unhealthyPodEvictionPolicy}; `status` is read by nobody (wasched computes disruptions
// allowed from the input's pods) and skipped silently. Source: kubernetes/api policy/v1/types.go.
// Wrong YAML types are TypeInvalid errors at their paths; values are checked by
// validation/pod_disruption_budget_validation.h.
#pragma once

#include "api/pod_disruption_budget.h"
#include "codec/yaml_reader.h"

namespace wasched::codec::internal {

// DecodeLabelSelector: metav1.LabelSelector. An unknown operator is kept as
// LabelSelectorOperator::kUnknown with its text (validation: NotSupported). O(fields).
void DecodeLabelSelector(const Reader& r, api::LabelSelector* out);

// DecodeIntOrString: an integer or a string (intstr.IntOrString); other types → TypeInvalid.
void DecodeIntOrString(const Reader& r, std::optional<api::IntOrString>* out);

// DecodePodDisruptionBudget: the whole object. O(fields).
void DecodePodDisruptionBudget(const Reader& root, api::PodDisruptionBudget* pdb);

}  // namespace wasched::codec::internal
