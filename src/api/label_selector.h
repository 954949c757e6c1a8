// File: api/label_selector.h
//
// metav1.LabelSelector and its matching (k8s.io/apimachinery pkg/apis/meta/v1 types.go,
// LabelSelectorAsSelector): read by PodDisruptionBudgets, the workload controllers' selectors
// and pod (anti-)affinity terms. Pure data; no I/O.
#pragma once

#include <map>
#include <string>
#include <vector>

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
  bool operator==(const LabelSelectorRequirement&) const = default;
};

// LabelSelector: metav1.LabelSelector; matchLabels and matchExpressions are ANDed. An empty
// selector ({}) matches every pod of the namespace in policy/v1.
struct LabelSelector {
  std::map<std::string, std::string> match_labels;
  std::vector<LabelSelectorRequirement> match_expressions;
  bool operator==(const LabelSelector&) const = default;
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
