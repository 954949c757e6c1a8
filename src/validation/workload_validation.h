// File: validation/workload_validation.h
//
// scheduling.k8s.io Workload (v1beta1 / v1alpha3) create and update validation: the
// declarative rules of the API types (spec/was-v1.37.md §3.2, §3.4) and the hand-written rules
// of pkg/apis/scheduling/validation ValidateWorkloadSpec (§3.3):
//   - template names unique across the whole Workload (every list, every depth) → Duplicate
//     `<list>[i].name` (duplicates inside one list are DV's Duplicate `<list>[i]`);
//   - no CompositePodGroupTemplate at depth 4 (top level = 1) → Invalid
//     `spec.compositePodGroupTemplates[j]` "maximum template hierarchy depth is 4";
//   - one priority configuration (identical priorityClassName and priority on every template) →
//     Invalid `spec` "detected multiple priority configurations" (also when the composite list
//     is forbidden by its gate);
//   - every CompositePodGroupTemplate has a child → Invalid `<path>` (value the name) "must have
//     at least one child PodGroupTemplate or CompositePodGroupTemplate".
// The hand-written rules run on create and on update, and are not ratcheted (as upstream).
//
//   ErrorList errs = ValidateWorkload(workload, /*old=*/nullptr, gates);   // create
//   ErrorList errs = ValidateWorkload(updated, &stored, gates);             // update
#pragma once

#include "api/workload.h"
#include "util/feature_gates.h"
#include "validation/field_errors.h"

namespace wasched::validation {

// kWorkloadMaxDepthDetail: the depth rule's detail, as v1.37.2 words it (upstream case A59,
// observed on its control plane; pkg/apis/scheduling/validation/validation.go).
inline constexpr const char* kWorkloadMaxDepthDetail = "maximum template hierarchy depth is 4";
// Priority details of validateWorkloadPriority: a difference among the PodGroupTemplates, and one
// found while walking the CompositePodGroupTemplates.
inline constexpr const char* kMultiplePriorityDetail = "detected multiple priority configurations";
inline constexpr const char* kCompositePriorityDetail =
    "all priority and priorityClassName values must be identical, detected multiple values";
inline constexpr const char* kEmptyCompositeDetail =
    "must have at least one child PodGroupTemplate or CompositePodGroupTemplate";

// ValidateWorkload: metadata, spec (controllerRef immutable with apiGroup long name, kind and
// name path-segment names; the podGroupTemplates / compositePodGroupTemplates union listing only
// gate-enabled members; each list ≤ 8 items, NoAddItem / NoRemoveItem, names unique; every
// template's fields), then the hand-written rules. compositePodGroupTemplates set while the
// CompositePodGroup gate is off is one Forbidden for the list; its contents are not checked.
// Composite `gang.minGroupCount` is mutable inside a Workload (see README "Choices").
// `old` nullptr = create. O(templates).
[[nodiscard]] ErrorList ValidateWorkload(const api::Workload& workload, const api::Workload* old,
                                         const FeatureGates& gates);

}  // namespace wasched::validation
