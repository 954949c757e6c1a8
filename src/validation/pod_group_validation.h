// File: validation/pod_group_validation.h
//
// scheduling.k8s.io PodGroup (v1beta1 / v1alpha3) create, update and status validation
// (spec/was-v1.37.md §2.4, §3.5): the spec fields as a PodGroupTemplate's (policy union,
// gang.minCount the only mutable field, constraints / claims / disruption / priority fields
// immutable and gated as in a template) plus
//   - spec.parentCompositePodGroupName: Forbidden while CompositePodGroup is off, immutable, a
//     long name, and it needs spec.workloadRef (Required `spec.workloadRef`, origin
//     dependentRequired);
//   - spec.workloadRef: immutable; workloadName Required / long name, templateName Required /
//     short name;
//   - status is not validated on create or update: the API server resets it on create and keeps
//     the stored status on update (pkg/registry/scheduling/podgroup/strategy.go PrepareForCreate /
//     PrepareForUpdate; observed on the v1.37.2 control plane: a PodGroup with invalid
//     resourceClaimStatuses is accepted). ValidatePodGroupStatus holds the rules of a status
//     write (the /status subresource): conditions as metav1.Condition
//     (validation/condition_validation.h), resourceClaimStatuses ≤ 4 with unique names, each
//     naming an entry of spec.resourceClaims (Invalid "must match the name of an entry in
//     `spec.resourceClaims`").
//
//   ErrorList errs = ValidatePodGroup(group, /*old=*/nullptr, gates);
#pragma once

#include "api/pod_group.h"
#include "util/feature_gates.h"
#include "validation/field_errors.h"

namespace wasched::validation {

// ValidatePodGroup: every rule above but status; `old` nullptr = create. O(fields).
[[nodiscard]] ErrorList ValidatePodGroup(const api::PodGroup& group, const api::PodGroup* old,
                                         const FeatureGates& gates);

// ValidateWorkloadReference: spec.workloadRef's two names (shared with CompositePodGroup).
void ValidateWorkloadReference(const api::WorkloadReference& ref, const std::string& path,
                               ErrorList* errs);

// ValidatePodGroupStatus: status.conditions and status.resourceClaimStatuses of `group`, as a
// write to the /status subresource validates them (ValidatePodGroupStatusUpdate). O(fields).
[[nodiscard]] ErrorList ValidatePodGroupStatus(const api::PodGroup& group);

}  // namespace wasched::validation
