// File: api/priority_class.h
//
// scheduling.k8s.io/v1 PriorityClass. Source: kubernetes/api scheduling/v1/types.go;
// resolution rules as the Priority admission plugin (plugin/pkg/admission/priority).
#pragma once

#include <cstdint>
#include <optional>

#include "api/object_meta.h"
#include "api/pod.h"

namespace wasched::api {

// PriorityClass: `value` is the priority given to pods naming it; `global_default` makes it the
// class of pods that name none (at most one class may be the global default).
struct PriorityClass {
  ObjectMeta meta;
  int32_t value = 0;
  bool global_default = false;
  std::optional<PreemptionPolicy> preemption_policy;
};

// Built-in classes every cluster has (upstream `scheduling.SystemPriorityClasses`).
inline constexpr int32_t kSystemClusterCritical = 2000000000;
inline constexpr int32_t kSystemNodeCritical = 2000001000;

}  // namespace wasched::api
