// File: validation/priority_admission.cc
//
// Priority admission's mismatch rules (see priority_admission.h). Upstream:
// plugin/pkg/admission/priority/admission.go (admitPod, getDefaultPriorityClass,
// getDefaultPriority, admitPodGroup, admitCompositePodGroup); scheduling.DefaultPriorityWhenNoDefaultClassExists = 0; API defaulting
// of PriorityClass.preemptionPolicy to PreemptLowerPriority (pkg/apis/scheduling/v1/defaults.go).
#include "validation/priority_admission.h"

#include <fmt/format.h>

namespace wasched::validation {
namespace {

api::PreemptionPolicy PolicyOf(const api::PriorityClass& pc) {
  return pc.preemption_policy.value_or(api::PreemptionPolicy::kPreemptLowerPriority);
}

FieldError PriorityMismatch(int32_t given, int32_t computed, const char* what) {
  return Forbidden("spec.priority",
                   fmt::format("the integer value of priority ({}) must not be provided in {} "
                               "spec; priority admission controller computed {} from the given "
                               "PriorityClass name",
                               given, what, computed));
}

}  // namespace

PriorityAdmission::PriorityAdmission(const std::vector<api::PriorityClass>& classes) {
  // System classes are created by the API server with the default preemptionPolicy.
  by_name_["system-node-critical"] = {api::kSystemNodeCritical,
                                      api::PreemptionPolicy::kPreemptLowerPriority};
  by_name_["system-cluster-critical"] = {api::kSystemClusterCritical,
                                         api::PreemptionPolicy::kPreemptLowerPriority};
  for (const api::PriorityClass& pc : classes) {
    const Resolved resolved{pc.value, PolicyOf(pc)};
    by_name_.try_emplace(pc.meta.name, resolved);
    if (pc.global_default && (!default_ || pc.value < default_->priority)) default_ = resolved;
  }
}

std::optional<PriorityAdmission::Resolved> PriorityAdmission::Resolve(
    const std::string& class_name) const {
  if (class_name.empty()) {
    return default_.value_or(Resolved{0, api::PreemptionPolicy::kPreemptLowerPriority});
  }
  auto it = by_name_.find(class_name);
  if (it == by_name_.end()) return std::nullopt;
  return it->second;
}

ErrorList PriorityAdmission::CheckPod(const api::Pod& pod) const {
  ErrorList errs;
  const std::optional<Resolved> resolved = Resolve(pod.priority_class_name);
  if (!resolved) return errs;
  if (pod.priority && *pod.priority != resolved->priority) {
    errs.push_back(PriorityMismatch(*pod.priority, resolved->priority, "pod"));
    return errs;
  }
  if (resolved->preemption_policy && pod.preemption_policy &&
      *pod.preemption_policy != *resolved->preemption_policy) {
    errs.push_back(Forbidden(
        "spec.preemptionPolicy",
        fmt::format("the string value of PreemptionPolicy ({}) must not be provided in pod "
                    "spec; priority admission controller computed {} from the given "
                    "PriorityClass name",
                    api::PreemptionPolicyName(*pod.preemption_policy),
                    api::PreemptionPolicyName(*resolved->preemption_policy))));
  }
  return errs;
}

ErrorList PriorityAdmission::CheckGroup(const std::string& class_name,
                                        const std::optional<int32_t>& priority,
                                        const std::optional<api::PreemptionPolicy>& policy,
                                        bool policy_gate, const char* what) const {
  ErrorList errs;
  const std::optional<Resolved> resolved = Resolve(class_name);
  if (!resolved) return errs;
  if (priority && *priority != resolved->priority) {
    errs.push_back(Forbidden("spec.priority",
                             fmt::format("priority set in the {} ({}) must match the priority "
                                         "computed ({}) based on the priority class set in the "
                                         "spec",
                                         what, *priority, resolved->priority)));
    return errs;
  }
  // With the gate on, API defaulting (SetDefaults_PodGroup / SetDefaults_CompositePodGroup in
  // pkg/apis/scheduling/v1beta1, v1alpha3) sets an unset policy to PreemptLowerPriority before
  // admission runs, so a group whose class says Never must spell Never itself (observed on the
  // v1.37.2 control plane).
  const api::PreemptionPolicy given =
      policy.value_or(api::PreemptionPolicy::kPreemptLowerPriority);
  if (policy_gate && resolved->preemption_policy && given != *resolved->preemption_policy) {
    errs.push_back(Forbidden(
        "spec.preemptionPolicy",
        fmt::format("the string value of PreemptionPolicy ({}) must not be provided in {} "
                    "spec; priority admission controller computed {} from the given "
                    "PriorityClass name",
                    api::PreemptionPolicyName(given), what,
                    api::PreemptionPolicyName(*resolved->preemption_policy))));
  }
  return errs;
}

}  // namespace wasched::validation
