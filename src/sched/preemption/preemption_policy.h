// File: sched/preemption/preemption_policy.h
//
// Which preemptionPolicy a preemptor has (spec/was-v1.37.md §6.1; upstream
// newPodGroupPreemptor, PodEligibleToPreemptOthers):
//  * a bare pod: its spec.preemptionPolicy (Priority admission copies the PriorityClass's
//    policy into an unset field), else its class's, else PreemptLowerPriority;
//  * a group with gate PodGroupPreemptionPolicy on: the root group's preemptionPolicy (unset →
//    PreemptLowerPriority; admission likewise copies its class's);
//  * a group with the gate off: Never when any unscheduled member pod's policy is Never.
#pragma once

#include <optional>
#include <span>

#include "api/pod.h"

namespace wasched::sched::preemption {

// kNotEligibleNever: upstream's status message for a preemptor whose policy is Never.
inline constexpr const char* kNotEligibleNever = "not eligible due to preemptionPolicy=Never.";

// PodPreemptionPolicy: the pod's own field, else `class_policy`, else PreemptLowerPriority.
[[nodiscard]] inline api::PreemptionPolicy PodPreemptionPolicy(
    const std::optional<api::PreemptionPolicy>& pod_policy,
    const std::optional<api::PreemptionPolicy>& class_policy) {
  if (pod_policy) return *pod_policy;
  if (class_policy) return *class_policy;
  return api::PreemptionPolicy::kPreemptLowerPriority;
}

// GroupPreemptionPolicy: §6.1. `group_policy`: the root group's resolved policy (field, else
// its class's); `member_policies`: the resolved policies of the unscheduled member pods.
[[nodiscard]] inline api::PreemptionPolicy GroupPreemptionPolicy(
    bool gate_pod_group_preemption_policy,
    const std::optional<api::PreemptionPolicy>& group_policy,
    std::span<const api::PreemptionPolicy> member_policies) {
  if (gate_pod_group_preemption_policy) {
    return group_policy.value_or(api::PreemptionPolicy::kPreemptLowerPriority);
  }
  for (api::PreemptionPolicy p : member_policies) {
    if (p == api::PreemptionPolicy::kNever) return api::PreemptionPolicy::kNever;
  }
  return api::PreemptionPolicy::kPreemptLowerPriority;
}

}  // namespace wasched::sched::preemption
