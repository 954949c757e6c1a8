// File: workloadbuilder/workload_item.h
//
// The input side of the workloadbuilder library: how a controller describes the pod groups it
// wants (a tree of WorkloadItems) and the version-neutral SchedulingConfig each item resolves to.
// C++ port of the Go package k8s.io/component-helpers/scheduling/schedulingv1/workloadbuilder
// (types.go; spec/was-v1.37.md §9.1, KEP-6089). Pure data; no I/O.
//
// A leaf item becomes one PodGroupTemplate; an item with children becomes a
// CompositePodGroupTemplate whose leaf children are PodGroupTemplates and whose composite
// children are nested CompositePodGroupTemplates (in order). A controller fills an item from
// its own API object: DefaultConfig holds the controller's defaults, Input the user's building
// blocks (the v1alpha3 `Workload*` types the controller embeds, api/workload_building_blocks.h)
// with the field path they were read from, Callbacks late defaulting (a Job's gang minCount
// follows its parallelism):
//
//   WorkloadItem item;
//   item.name = "train-pgt-0";
//   item.path = "spec.scheduling";
//   item.default_config = SchedulingConfig{.policy = SchedulingPolicy{.basic = api::BasicSchedulingPolicy{}}};
//   item.input.policy = {.pod_group_data = job.scheduling->scheduling_policy,
//                        .path_elements = {"schedulingPolicy"}};
//   item.callbacks.push_back([](SchedulingConfig& c) {
//     if (c.policy && c.policy->gang && !c.policy->gang->min_count) c.policy->gang->min_count = 8;
//   });
//
// Differences from Go that follow from C++ values: children are held by value, so the Go "nil
// child" error cannot occur; a nil `Path` is `path == std::nullopt`.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "api/workload.h"
#include "api/workload_building_blocks.h"

namespace wasched::workloadbuilder {

// GangPolicy: the IR gang policy. `min_count` may stay unset until a callback fills it; for a
// composite item it carries minGroupCount. Go: workloadbuilder.GangSchedulingPolicy.
struct GangPolicy {
  std::optional<int32_t> min_count;
  friend bool operator==(const GangPolicy&, const GangPolicy&) = default;
};

// SchedulingPolicy: the IR policy union; Go: workloadbuilder.SchedulingPolicy.
struct SchedulingPolicy {
  std::optional<api::BasicSchedulingPolicy> basic;
  std::optional<GangPolicy> gang;
  friend bool operator==(const SchedulingPolicy&, const SchedulingPolicy&) = default;
};

// Basic / Gang: the two policies, e.g. `SchedulingConfig c; c.policy = Gang(8);`.
[[nodiscard]] inline SchedulingPolicy Basic() {
  SchedulingPolicy p;
  p.basic = api::BasicSchedulingPolicy{};
  return p;
}
[[nodiscard]] inline SchedulingPolicy Gang(std::optional<int32_t> min_count) {
  SchedulingPolicy p;
  p.gang = GangPolicy{min_count};
  return p;
}

// SchedulingConfig: the version-neutral scheduling settings of one item, after merging the
// controller's defaults with the user's input (Go: workloadbuilder.SchedulingConfig).
// `disruption_mode` uses api::DisruptionMode's two flags for Go's Single / All pointers.
struct SchedulingConfig {
  std::optional<SchedulingPolicy> policy;
  std::optional<api::SchedulingConstraints> constraints;
  std::optional<api::DisruptionMode> disruption_mode;
  std::vector<api::PodGroupResourceClaim> resource_claims;
  std::string priority_class_name;
  friend bool operator==(const SchedulingConfig&, const SchedulingConfig&) = default;
};

// SchedulingConfigFunc: a callback run on the merged config, in order (controller defaulting).
using SchedulingConfigFunc = std::function<void(SchedulingConfig&)>;

// PolicyInput: the user's policy block: `pod_group_data` for a leaf item,
// `composite_pod_group_data` for a composite item; `path_elements` are appended to the item's
// path for errors (e.g. {"schedulingPolicy"}).
struct PolicyInput {
  std::optional<api::WorkloadPodGroupSchedulingPolicy> pod_group_data;
  std::optional<api::WorkloadCompositePodGroupSchedulingPolicy> composite_pod_group_data;
  std::vector<std::string> path_elements;
};

// ConstraintsInput: the user's schedulingConstraints block (leaf or composite).
struct ConstraintsInput {
  std::optional<api::WorkloadPodGroupSchedulingConstraints> pod_group_data;
  std::optional<api::WorkloadCompositePodGroupSchedulingConstraints> composite_pod_group_data;
  std::vector<std::string> path_elements;
};

// DisruptionModeInput: the user's disruptionMode block (leaf or composite).
struct DisruptionModeInput {
  std::optional<api::WorkloadPodGroupDisruptionMode> pod_group_data;
  std::optional<api::WorkloadCompositePodGroupDisruptionMode> composite_pod_group_data;
  std::vector<std::string> path_elements;
};

// ResourceClaimsInput: the user's resourceClaims (leaf items only; composites carry none).
struct ResourceClaimsInput {
  std::vector<api::WorkloadPodGroupResourceClaim> pod_group_data;
  std::vector<std::string> path_elements;
};

// WorkloadInput: every user block of one item. Go: workloadbuilder.WorkloadInput.
struct WorkloadInput {
  PolicyInput policy;
  ConstraintsInput constraints;
  DisruptionModeInput disruption_mode;
  ResourceClaimsInput resource_claims;
};

// WorkloadItem: one node of the tree. `name` is the template name (unique in the tree);
// `path` the field path of the item's blocks in the controller's object (nullopt: errors carry
// paths without prefix). `children` non-empty ⇒ composite item. Go: workloadbuilder.WorkloadItem.
struct WorkloadItem {
  std::string name;
  std::optional<std::string> path;
  std::optional<SchedulingConfig> default_config;
  WorkloadInput input;
  std::vector<SchedulingConfigFunc> callbacks;
  std::vector<WorkloadItem> children;

  [[nodiscard]] bool IsComposite() const { return !children.empty(); }
};

// SchedulingPolicyOption / DisruptionModeOption: what a controller opts into (allow-lists).
enum class SchedulingPolicyOption { kBasicPolicy, kGangPolicy };
enum class DisruptionModeOption { kSingleMode, kAllMode };

}  // namespace wasched::workloadbuilder
