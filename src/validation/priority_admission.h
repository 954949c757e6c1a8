// File: validation/priority_admission.h
//
// What the Priority admission plugin (kubernetes/kubernetes
// plugin/pkg/admission/priority/admission.go, admitPod) decides about a new object's priority:
// it resolves `priorityClassName` (or, when empty, the globalDefault class; no default → 0 and
// PreemptLowerPriority, getDefaultPriority) to the class's value and preemptionPolicy, and rejects an object whose explicit `spec.priority`
// (or `spec.preemptionPolicy`) differs from what it computed. v1.37 extends the plugin to
// PodGroup and CompositePodGroup (their type docs: "When Priority Admission Controller is
// enabled, it prevents users from setting this field. The admission controller populates this
// field from PriorityClassName"; spec/was-v1.37.md §2.4).
//
//   PriorityAdmission admission(objects.priority_classes);
//   ErrorList errs = admission.CheckPod(pod);   // Forbidden spec.priority: the integer value ...
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "api/pod.h"
#include "api/priority_class.h"
#include "validation/field_errors.h"

namespace wasched::validation {

class PriorityAdmission {
 public:
  // Resolved: what admission computes for a class name. `preemption_policy` is the class's
  // (API defaulting makes an unset one PreemptLowerPriority); PreemptLowerPriority as well when
  // no class applies (no name and no globalDefault class: getDefaultPriority). Observed on the
  // v1.37.2 control plane: a pod or PodGroup with `preemptionPolicy: Never` and no class is
  // refused.
  struct Resolved {
    int32_t priority = 0;
    std::optional<api::PreemptionPolicy> preemption_policy;
  };

  // `classes`: the input's PriorityClasses (the first of a repeated name counts); the built-in
  // system-node-critical / system-cluster-critical always exist. With several globalDefault
  // classes (an input error reported elsewhere) the lowest value wins, as getDefaultPriorityClass.
  explicit PriorityAdmission(const std::vector<api::PriorityClass>& classes);

  // Resolve: the priority admission computes for `class_name`; "" → the globalDefault class, or
  // priority 0 without one. nullopt when the named class does not exist (reported as NotFound by
  // the reference checks). O(log classes).
  [[nodiscard]] std::optional<Resolved> Resolve(const std::string& class_name) const;

  // CheckPod: admitPod's two mismatch rules, the first failing one only (admission stops at the
  // first error): `Forbidden spec.priority: the integer value of priority (7) must not be
  // provided in pod spec; priority admission controller computed 2000001000 from the given
  // PriorityClass name`, then `Forbidden spec.preemptionPolicy: the string value of
  // PreemptionPolicy (Never) must not be provided in pod spec; priority admission controller
  // computed PreemptLowerPriority from the given PriorityClass name`. Empty when the class is
  // unknown.
  [[nodiscard]] ErrorList CheckPod(const api::Pod& pod) const;

  // CheckGroup: admitPodGroup / admitCompositePodGroup (gate GenericWorkload / CompositePodGroup
  // on), the first failing rule only: `Forbidden spec.priority: priority set in the pod group (5)
  // must match the priority computed (1000) based on the priority class set in the spec`, then,
  // with gate PodGroupPreemptionPolicy on (`policy_gate`), `Forbidden spec.preemptionPolicy: the
  // string value of PreemptionPolicy (Never) must not be provided in pod group spec; priority
  // admission controller computed PreemptLowerPriority from the given PriorityClass name`.
  // An unset `policy` counts as PreemptLowerPriority (API defaulting runs first), so a group
  // whose class says Never without spelling Never is refused as upstream refuses it.
  // `what` = "pod group" / "composite pod group". Empty when the class is unknown (reported
  // elsewhere). Upstream: plugin/pkg/admission/priority/admission.go. O(log classes).
  [[nodiscard]] ErrorList CheckGroup(const std::string& class_name,
                                     const std::optional<int32_t>& priority,
                                     const std::optional<api::PreemptionPolicy>& policy,
                                     bool policy_gate, const char* what) const;

 private:
  std::map<std::string, Resolved> by_name_;
  std::optional<Resolved> default_;
};

}  // namespace wasched::validation
