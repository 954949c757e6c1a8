// File: api/pod_disruption_budget.h
//
// policy/v1 PodDisruptionBudget, the fields preemption reads (spec.minAvailable,
// spec.maxUnavailable, spec.selector), and metav1.LabelSelector. Source: kubernetes/api
// policy/v1/types.go, apimachinery meta/v1 types.go. wasched reads no PDB status: the number
// of disruptions a budget allows is computed from the input's running pods
// (sched/preemption/pdb_budgets.h), as the disruption controller would.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "api/object_meta.h"

namespace wasched::api {

// LabelSelectorOperator: metav1.LabelSelectorOperator. kUnknown keeps a value validation
// reports as NotSupported (`operator` as written is in LabelSelectorRequirement::op_text).
enum class LabelSelectorOperator { kIn, kNotIn, kExists, kDoesNotExist, kUnknown };

// LabelSelectorRequirement: metav1. `values` must be non-empty for In/NotIn and empty for
// Exists/DoesNotExist (validation).
struct LabelSelectorRequirement {
  std::string key;
  LabelSelectorOperator op = LabelSelectorOperator::kIn;
  std::string op_text;
  std::vector<std::string> values;
};

// LabelSelector: metav1.LabelSelector; matchLabels and matchExpressions are ANDed. An empty
// selector ({}) matches every pod of the namespace in policy/v1.
struct LabelSelector {
  std::map<std::string, std::string> match_labels;
  std::vector<LabelSelectorRequirement> match_expressions;
};

// IntOrString: intstr.IntOrString as used by minAvailable / maxUnavailable: an integer or a
// percentage string such as "50%" (validation checks the form).
struct IntOrString {
  bool is_string = false;
  int32_t int_value = 0;
  std::string str_value;
};

// PodDisruptionBudget: policy/v1. At most one of min_available / max_unavailable (validation).
// A null selector selects no pods.
struct PodDisruptionBudget {
  ObjectMeta meta;
  std::optional<IntOrString> min_available;
  std::optional<IntOrString> max_unavailable;
  std::optional<LabelSelector> selector;
};

// Matches: `selector` selects a pod with `labels` (metav1.LabelSelectorAsSelector semantics;
// an operator wasched does not know matches nothing). O(requirements × log labels).
[[nodiscard]] bool Matches(const LabelSelector& selector,
                           const std::map<std::string, std::string>& labels);

// IsEmpty: no matchLabels and no matchExpressions.
[[nodiscard]] inline bool IsEmpty(const LabelSelector& selector) {
  return selector.match_labels.empty() && selector.match_expressions.empty();
}

}  // namespace wasched::api
