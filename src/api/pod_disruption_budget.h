// File: api/pod_disruption_budget.h
//
// policy/v1 PodDisruptionBudget, the fields preemption reads (spec.minAvailable,
// spec.maxUnavailable, spec.selector). Source: kubernetes/api
// policy/v1/types.go, apimachinery meta/v1 types.go. wasched reads no PDB status: the number
// of disruptions a budget allows is computed from the input's running pods
// (sched/preemption/pdb_budgets.h), as the disruption controller would.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "api/label_selector.h"
#include "api/object_meta.h"

namespace wasched::api {

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

}  // namespace wasched::api
