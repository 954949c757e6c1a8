// File: codec/decode_scheduling.h
//
// Decoders for the workload-aware scheduling kinds (internal to codec/):
// scheduling.k8s.io/{v1beta1,v1alpha3} Workload and PodGroup, scheduling.k8s.io/v1alpha3
// CompositePodGroup (spec/was-v1.37.md §2.1–2.5; kubernetes/api scheduling/v1beta1 and v1alpha3
// types.go). v1beta1 and v1alpha3 are field-identical, so one decoder serves both; the caller
// records the apiVersion. Unions (`basic`/`gang`, `single`/`all`, claim name/template) are kept
// as decoded so validation can report "none" / "several" exactly as upstream.
#pragma once

#include "api/pod_group.h"
#include "api/workload.h"
#include "codec/yaml_reader.h"

namespace wasched::codec::internal {

// kMaxTemplateNesting: deepest compositePodGroupTemplates nesting decoded, a guard so that the
// decoder cannot recurse without bound. The input nesting limit (kMaxNestingDepth, 256: two
// levels per template) stops deeper input first, so every Workload that loads is read whole and
// the depth rule (4 levels) reports it at the top-level template, as v1.37.2 does (observed:
// differential case corpus.malformed_workload-nested-too-deep, 40 levels).
inline constexpr int kMaxTemplateNesting = 128;

// DecodeSchedulingConstraints: `{topology: [{key}]}`; null leaves `*out` unset, `{}` sets it empty
// (the two differ: gates forbid a set value). O(fields).
void DecodeSchedulingConstraints(const Reader& r, std::optional<api::SchedulingConstraints>* out);

// DecodeDisruptionMode: `{single: {}}` / `{all: {}}` (both or neither kept for validation).
void DecodeDisruptionMode(const Reader& r, std::optional<api::DisruptionMode>* out);

// DecodeResourceClaims: `[{name, resourceClaimName | resourceClaimTemplateName}]`, appended.
void DecodeResourceClaims(const Reader& r, std::vector<api::PodGroupResourceClaim>* out);

// DecodePodGroupPolicy: a PodGroupSchedulingPolicy `{basic: {}} | {gang: {minCount}}` (both or
// neither kept for validation). O(fields).
void DecodePodGroupPolicy(const Reader& r, api::PodGroupSchedulingPolicy* policy);

// DecodeWorkload: metadata, spec.{controllerRef, podGroupTemplates, compositePodGroupTemplates}
// (recursive). O(fields).
void DecodeWorkload(const Reader& root, api::Workload* workload);

// DecodePodGroup: metadata, spec.{parentCompositePodGroupName, workloadRef, schedulingPolicy,
// schedulingConstraints, resourceClaims, disruptionMode, priorityClassName, priority,
// preemptionPolicy}, status.{conditions, resourceClaimStatuses}. O(fields).
void DecodePodGroup(const Reader& root, api::PodGroup* group);

// DecodeCompositePodGroup: as DecodePodGroup with schedulingPolicy.gang.minGroupCount and no
// resourceClaims; status.conditions. O(fields).
void DecodeCompositePodGroup(const Reader& root, api::CompositePodGroup* group);

}  // namespace wasched::codec::internal
