// File: validation/composite_pod_group_validation.cc
//
// CompositePodGroup validation (see composite_pod_group_validation.h). Rules from kubernetes/api
// scheduling/v1alpha3 types.go markers; status as ValidateCompositePodGroupStatusUpdate.
#include "validation/composite_pod_group_validation.h"

#include <optional>

#include "validation/condition_validation.h"
#include "validation/names.h"
#include "validation/object_meta_validation.h"
#include "validation/pod_group_validation.h"
#include "validation/scheduling_fields.h"
#include "validation/update_validation.h"

namespace wasched::validation {

ErrorList ValidateCompositePodGroup(const api::CompositePodGroup& g,
                                    const api::CompositePodGroup* old, const FeatureGates& gates) {
  ErrorList errs;
  if (old == nullptr) errs = ValidateObjectMeta(g.meta);

  const std::string parent_path = "spec.parentCompositePodGroupName";
  const auto* old_parent = old != nullptr ? &old->parent_composite_pod_group_name : nullptr;
  if (!Unchanged(g.parent_composite_pod_group_name, old_parent) &&
      !CheckImmutable(g.parent_composite_pod_group_name, old_parent, parent_path, &errs) &&
      g.parent_composite_pod_group_name) {
    for (FieldError& e : LongName(parent_path, *g.parent_composite_pod_group_name)) {
      errs.push_back(std::move(e));
    }
  }

  const auto* old_ref = old != nullptr ? &old->workload_ref : nullptr;
  if (!Unchanged(g.workload_ref, old_ref)) {
    const bool blocked = CheckImmutable(g.workload_ref, old_ref, "spec.workloadRef", &errs);
    if (!g.workload_ref) {
      // +required is a separate marker: removing the field reports Required as well as immutable.
      errs.push_back(Required("spec.workloadRef"));
    } else if (!blocked) {
      ValidateWorkloadReference(*g.workload_ref, "spec.workloadRef", &errs);
    }
  }

  // The whole policy is immutable on the object (unlike a Workload's composite template).
  const PolicyView policy = ViewOf(g.scheduling_policy);
  const PolicyView old_policy = old != nullptr ? ViewOf(old->scheduling_policy) : PolicyView{};
  if (!CheckImmutable(policy, old != nullptr ? &old_policy : nullptr, "spec.schedulingPolicy",
                      &errs)) {
    ValidatePolicy(policy, old != nullptr ? &old_policy : nullptr, "spec.schedulingPolicy",
                   "minGroupCount", CountKind::kValue, &errs);
  }
  ValidateSchedulingConstraints(g.scheduling_constraints,
                                old != nullptr ? &old->scheduling_constraints : nullptr,
                                "spec.schedulingConstraints",
                                gates.topology_aware_workload_scheduling, &errs);
  // On update the API server applies the schema default (+default={"single": {}}) to the new
  // object before comparing it with the stored (defaulted) one; a stored object given without the
  // field is defaulted the same way.
  if (old != nullptr) {
    const auto defaulted = [](const std::optional<api::DisruptionMode>& m) {
      return m ? m : std::optional<api::DisruptionMode>(api::DisruptionMode{.single = true});
    };
    const std::optional<api::DisruptionMode> mode = defaulted(g.disruption_mode);
    const std::optional<api::DisruptionMode> old_mode = defaulted(old->disruption_mode);
    ValidateDisruptionMode(mode, &old_mode, "spec.disruptionMode", &errs);
  } else {
    ValidateDisruptionMode(g.disruption_mode, nullptr, "spec.disruptionMode", &errs);
  }
  const PriorityFields fields{&g.priority_class_name, &g.priority, &g.preemption_policy};
  const PriorityFields old_fields =
      old != nullptr ? PriorityFields{&old->priority_class_name, &old->priority,
                                      &old->preemption_policy}
                     : PriorityFields{};
  ValidatePriorityFields(fields, old != nullptr ? &old_fields : nullptr, "spec",
                         gates.pod_group_preemption_policy, &errs);

  // status: reset on create, kept from the stored object on update (see the header).
  return errs;
}

ErrorList ValidateCompositePodGroupStatus(const api::CompositePodGroup& g) {
  return ValidateConditions(g.conditions, "status.conditions");
}

}  // namespace wasched::validation
