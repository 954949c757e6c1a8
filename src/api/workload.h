// File: api/workload.h
//
// scheduling.k8s.io Workload (v1beta1; v1alpha3 is field-identical) and its templates, plus the
// shared scheduling-policy types PodGroup and CompositePodGroup embed.
// Source: kubernetes/api scheduling/v1beta1/types.go, scheduling/v1alpha3/types.go
// (spec/was-v1.37.md §2.1–2.3). Unions are kept as optional members so validation can report
// "both set" and "neither set" exactly as upstream.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "api/object_meta.h"
#include "api/pod.h"

namespace wasched::api {

// Upper bounds from the API types.
inline constexpr int kWorkloadMaxPodGroupTemplates = 8;
inline constexpr int kWorkloadMaxTreeDepth = 4;
inline constexpr int kMaxPodGroupResourceClaims = 4;
inline constexpr int32_t kHighestUserDefinablePriority = 1000000000;

// Every type below compares with `==` member by member (validation uses it to tell an unchanged
// value from a changed one on update).

struct BasicSchedulingPolicy {
  friend bool operator==(const BasicSchedulingPolicy&, const BasicSchedulingPolicy&) = default;
};
// GangSchedulingPolicy: `min_count` ≥ 1 (0 means "not set" and is reported as Required).
struct GangSchedulingPolicy {
  int32_t min_count = 0;
  friend bool operator==(const GangSchedulingPolicy&, const GangSchedulingPolicy&) = default;
};
// PodGroupSchedulingPolicy: union, exactly one of basic / gang.
struct PodGroupSchedulingPolicy {
  std::optional<BasicSchedulingPolicy> basic;
  std::optional<GangSchedulingPolicy> gang;
  friend bool operator==(const PodGroupSchedulingPolicy&,
                         const PodGroupSchedulingPolicy&) = default;
};

// TopologyConstraint: `key` names a node label; one placement per distinct value.
struct TopologyConstraint {
  std::string key;
  friend bool operator==(const TopologyConstraint&, const TopologyConstraint&) = default;
};
// SchedulingConstraints: `topology` has at most one item (gate TopologyAwareWorkloadScheduling).
struct SchedulingConstraints {
  std::vector<TopologyConstraint> topology;
  friend bool operator==(const SchedulingConstraints&, const SchedulingConstraints&) = default;
};

// PodGroupResourceClaim: union of resourceClaimName / resourceClaimTemplateName.
struct PodGroupResourceClaim {
  std::string name;
  std::optional<std::string> resource_claim_name;
  std::optional<std::string> resource_claim_template_name;
  friend bool operator==(const PodGroupResourceClaim&, const PodGroupResourceClaim&) = default;
};

// DisruptionMode: union single{} | all{}. Absent on a PodGroup means single (schema default).
struct DisruptionMode {
  bool single = false;
  bool all = false;
  friend bool operator==(const DisruptionMode&, const DisruptionMode&) = default;
};

// PodGroupTemplate: element of Workload.spec.podGroupTemplates (any level).
struct PodGroupTemplate {
  std::string name;
  PodGroupSchedulingPolicy scheduling_policy;
  std::optional<SchedulingConstraints> scheduling_constraints;
  std::vector<PodGroupResourceClaim> resource_claims;
  std::optional<DisruptionMode> disruption_mode;
  std::string priority_class_name;
  std::optional<int32_t> priority;
  std::optional<PreemptionPolicy> preemption_policy;
  friend bool operator==(const PodGroupTemplate&, const PodGroupTemplate&) = default;
};

// CompositePodGroupSchedulingPolicy: union basic{} | gang{minGroupCount ≥ 1}.
struct CompositeGangSchedulingPolicy {
  int32_t min_group_count = 0;
  friend bool operator==(const CompositeGangSchedulingPolicy&,
                         const CompositeGangSchedulingPolicy&) = default;
};
struct CompositePodGroupSchedulingPolicy {
  std::optional<BasicSchedulingPolicy> basic;
  std::optional<CompositeGangSchedulingPolicy> gang;
  friend bool operator==(const CompositePodGroupSchedulingPolicy&,
                         const CompositePodGroupSchedulingPolicy&) = default;
};

// CompositePodGroupTemplate: element of compositePodGroupTemplates (gate CompositePodGroup).
struct CompositePodGroupTemplate {
  std::string name;
  CompositePodGroupSchedulingPolicy scheduling_policy;
  std::optional<SchedulingConstraints> scheduling_constraints;
  std::optional<DisruptionMode> disruption_mode;
  std::string priority_class_name;
  std::optional<int32_t> priority;
  std::optional<PreemptionPolicy> preemption_policy;
  std::vector<PodGroupTemplate> pod_group_templates;
  std::vector<CompositePodGroupTemplate> composite_pod_group_templates;
  friend bool operator==(const CompositePodGroupTemplate&,
                         const CompositePodGroupTemplate&) = default;
};

// TypedLocalObjectReference: core/v1 (Workload.spec.controllerRef).
struct TypedLocalObjectReference {
  std::string api_group;
  std::string kind;
  std::string name;
  friend bool operator==(const TypedLocalObjectReference&,
                         const TypedLocalObjectReference&) = default;
};

// Workload: namespaced, no status. `api_version` is the version it was read as.
struct Workload {
  ObjectMeta meta;
  std::string api_version;
  std::optional<TypedLocalObjectReference> controller_ref;
  std::vector<PodGroupTemplate> pod_group_templates;
  std::vector<CompositePodGroupTemplate> composite_pod_group_templates;
};

}  // namespace wasched::api
