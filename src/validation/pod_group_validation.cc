// File: validation/pod_group_validation.cc
//
// PodGroup validation (see pod_group_validation.h). DV rules from kubernetes/api
// scheduling/v1beta1 types.go markers; status rules as pkg/apis/scheduling/validation
// ValidatePodGroupStatusUpdate.
#include "validation/pod_group_validation.h"

#include <optional>
#include <string>

#include "validation/condition_validation.h"
#include "validation/names.h"
#include "validation/object_meta_validation.h"
#include "validation/scheduling_fields.h"
#include "validation/update_validation.h"

namespace wasched::validation {
namespace {

void Append(ErrorList* errs, ErrorList more) {
  for (FieldError& e : more) errs->push_back(std::move(e));
}

PriorityFields PriorityOf(const api::PodGroup& g) {
  return {&g.priority_class_name, &g.priority, &g.preemption_policy};
}

}  // namespace

void ValidateWorkloadReference(const api::WorkloadReference& ref, const std::string& path,
                               ErrorList* errs) {
  if (ref.workload_name.empty()) {
    errs->push_back(Required(Child(path, "workloadName")));
  } else {
    Append(errs, LongName(Child(path, "workloadName"), ref.workload_name));
  }
  if (ref.template_name.empty()) {
    errs->push_back(Required(Child(path, "templateName")));
  } else {
    Append(errs, ShortName(Child(path, "templateName"), ref.template_name));
  }
}

ErrorList ValidatePodGroupStatus(const api::PodGroup& g) {
  ErrorList errs = ValidateConditions(g.conditions, "status.conditions");
  const std::string path = "status.resourceClaimStatuses";
  const auto& statuses = g.resource_claim_statuses;
  // DV: maxItems=4 short-circuits only the list's declarative checks (uniqueness, each item's
  // resourceClaimName format=k8s-long-name, "" included since the pointer is set).
  if (statuses.size() > static_cast<std::size_t>(api::kMaxPodGroupResourceClaims)) {
    errs.push_back(TooMany(path, statuses.size(), api::kMaxPodGroupResourceClaims));
  } else {
    CheckDuplicateNames(statuses, path, &errs);
    for (std::size_t i = 0; i < statuses.size(); ++i) {
      if (statuses[i].resource_claim_name) {
        Append(&errs, LongName(Child(Index(path, i), "resourceClaimName"),
                               *statuses[i].resource_claim_name));
      }
    }
  }
  // Hand-written validatePodGroupResourceClaimStatuses runs over every entry regardless.
  for (std::size_t i = 0; i < statuses.size(); ++i) {
    if (FindByName(g.resource_claims, statuses[i].name) == nullptr) {
      errs.push_back(Invalid(Child(Index(path, i), "name"), Quote(statuses[i].name),
                             "must match the name of an entry in `spec.resourceClaims`"));
    }
  }
  return errs;
}

ErrorList ValidatePodGroup(const api::PodGroup& g, const api::PodGroup* old,
                           const FeatureGates& gates) {
  ErrorList errs;
  if (old == nullptr) errs = ValidateObjectMeta(g.meta);

  // spec.parentCompositePodGroupName
  const std::string parent_path = "spec.parentCompositePodGroupName";
  const auto* old_parent = old != nullptr ? &old->parent_composite_pod_group_name : nullptr;
  if (!Unchanged(g.parent_composite_pod_group_name, old_parent)) {
    bool blocked = false;
    if (!gates.composite_pod_group && g.parent_composite_pod_group_name) {
      errs.push_back(Forbidden(parent_path));
      blocked = true;
    }
    blocked |= CheckImmutable(g.parent_composite_pod_group_name, old_parent, parent_path, &errs);
    if (!blocked && g.parent_composite_pod_group_name) {
      Append(&errs, LongName(parent_path, *g.parent_composite_pod_group_name));
    }
  }
  // dependentRequired(workloadRef): a child of a CompositePodGroup belongs to a Workload.
  if (g.parent_composite_pod_group_name && !g.workload_ref && gates.composite_pod_group) {
    errs.push_back(FieldError{FieldErrorType::kRequired, "spec.workloadRef", "",
                              "must be set when `parentCompositePodGroupName` is set",
                              "dependentRequired"});
  }

  // spec.workloadRef
  const auto* old_ref = old != nullptr ? &old->workload_ref : nullptr;
  if (!Unchanged(g.workload_ref, old_ref) &&
      !CheckImmutable(g.workload_ref, old_ref, "spec.workloadRef", &errs) && g.workload_ref) {
    ValidateWorkloadReference(*g.workload_ref, "spec.workloadRef", &errs);
  }

  const PolicyView policy = ViewOf(g.scheduling_policy);
  const PolicyView old_policy = old != nullptr ? ViewOf(old->scheduling_policy) : PolicyView{};
  ValidatePolicy(policy, old != nullptr ? &old_policy : nullptr, "spec.schedulingPolicy",
                 "minCount", CountKind::kValue, &errs);
  ValidateSchedulingConstraints(g.scheduling_constraints,
                                old != nullptr ? &old->scheduling_constraints : nullptr,
                                "spec.schedulingConstraints",
                                gates.topology_aware_workload_scheduling, &errs,
                                /*immutable_only_when_enabled=*/true);
  ValidateResourceClaims(g.resource_claims, old != nullptr ? &old->resource_claims : nullptr,
                         "spec.resourceClaims", &errs);
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
  const PriorityFields fields = PriorityOf(g);
  const PriorityFields old_fields = old != nullptr ? PriorityOf(*old) : PriorityFields{};
  ValidatePriorityFields(fields, old != nullptr ? &old_fields : nullptr, "spec",
                         gates.pod_group_preemption_policy, &errs);

  // status: reset on create, kept from the stored object on update (see the header).
  return errs;
}

}  // namespace wasched::validation
