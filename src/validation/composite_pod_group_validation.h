// File: validation/composite_pod_group_validation.h
//
// scheduling.k8s.io/v1alpha3 CompositePodGroup create, update and status validation
// (spec/was-v1.37.md §2.5, §3.6): spec.workloadRef Required and immutable (its names as a
// PodGroup's); spec.parentCompositePodGroupName immutable, a long name; spec.schedulingPolicy
// immutable as a whole — minGroupCount cannot change on a live CompositePodGroup (README
// "Choices", spec §12 item 5) — with the basic | gang union and minGroupCount ≥ 1 (0 Required);
// schedulingConstraints (gate TopologyAwareWorkloadScheduling), disruptionMode and the priority
// fields (preemptionPolicy gate PodGroupPreemptionPolicy) immutable. status is not validated on
// create or update: the API server resets it on create and keeps the stored one on update
// (pkg/registry/scheduling/compositepodgroup/strategy.go); ValidateCompositePodGroupStatus holds
// the rules of a /status write (status.conditions as metav1.Condition). The kind itself exists only while CompositePodGroup is on (checked by the
// caller, validation/api_validation.h).
//
//   ErrorList errs = ValidateCompositePodGroup(cpg, /*old=*/nullptr, gates);
#pragma once

#include "api/pod_group.h"
#include "util/feature_gates.h"
#include "validation/field_errors.h"

namespace wasched::validation {

// ValidateCompositePodGroup: every rule above; `old` nullptr = create. O(fields).
[[nodiscard]] ErrorList ValidateCompositePodGroup(const api::CompositePodGroup& group,
                                                  const api::CompositePodGroup* old,
                                                  const FeatureGates& gates);

// ValidateCompositePodGroupStatus: status.conditions of `group`, as a /status write validates
// them (ValidateCompositePodGroupStatusUpdate). O(conditions).
[[nodiscard]] ErrorList ValidateCompositePodGroupStatus(const api::CompositePodGroup& group);

}  // namespace wasched::validation
