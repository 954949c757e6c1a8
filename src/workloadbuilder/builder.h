// File: workloadbuilder/builder.h
//
// workloadbuilder: the library a controller (the Job controller, a JobSet- or LWS-style
// operator) uses to turn its own object's scheduling settings into the scheduler-facing objects
// of workload-aware scheduling: one Workload (scheduling.k8s.io/v1beta1) holding the compiled
// template tree, and the runtime PodGroups / CompositePodGroups materialized from it.
// C++ port of the Go package k8s.io/component-helpers/scheduling/schedulingv1/workloadbuilder
// (builder.go, validate.go; spec/was-v1.37.md §9, KEP-6089). Not thread-safe; no I/O.
//
//   BuildOptions opts;
//   opts.name = "train-x7"; opts.namespace_ = "ml";
//   opts.owner = api::OwnerReference{"batch/v1", "Job", "train", uid, true, true};
//   opts.allowed_policies = {SchedulingPolicyOption::kBasicPolicy, SchedulingPolicyOption::kGangPolicy};
//   opts.allowed_disruption_modes = {DisruptionModeOption::kSingleMode, DisruptionModeOption::kAllMode};
//   Builder b = Builder::New(item, opts);
//   validation::ErrorList errs = b.Validate();          // field-path errors, empty when valid
//   auto wl = b.BuildWorkload();                        // tl::expected<const api::Workload*, std::string>
//   auto pg = b.NewPodGroup("train-x7-train-pgt-0-abc", "train-pgt-0");
//
// Errors: Validate returns upstream-shaped field errors (validation/field_errors.h); the build
// steps return `tl::unexpected(message)` with upstream's messages.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <tl/expected.hpp>
#include <vector>

#include "api/object_meta.h"
#include "api/pod_group.h"
#include "api/workload.h"
#include "validation/field_errors.h"
#include "workloadbuilder/workload_item.h"

namespace wasched::workloadbuilder {

// kWorkloadApiVersion: the version BuildWorkload's Workloads and NewPodGroup's PodGroups carry;
// kCompositePodGroupApiVersion: CompositePodGroups exist only in v1alpha3.
inline constexpr const char* kWorkloadApiVersion = "scheduling.k8s.io/v1beta1";
inline constexpr const char* kCompositePodGroupApiVersion = "scheduling.k8s.io/v1alpha3";

// BuildOptions: identity of the Workload BuildWorkload produces, its owner, and the
// controller's allow-lists. Empty allow-lists allow nothing (closed by default): a policy or
// disruption mode the controller did not list is Forbidden by Validate.
// `disable_declarative_validation`: skip the per-field rules of step 5a (in-tree controllers
// whose API server already ran them, e.g. Job).
struct BuildOptions {
  std::string name;
  std::string namespace_;
  std::optional<api::OwnerReference> owner;
  std::vector<SchedulingPolicyOption> allowed_policies;
  std::vector<DisruptionModeOption> allowed_disruption_modes;
  bool disable_declarative_validation = false;
};

// ValidationInput: `old_root` nullptr = create; else an update and the old tree ratchets
// unchanged blocks (old items matched by name among the same parent's children).
struct ValidationInput {
  const WorkloadItem* old_root = nullptr;
};

// ResolveSchedulingConfig: an item's merged config (spec §9.3): a copy of `default_config`,
// overridden per field by the user's non-empty blocks (leaf or composite mapper by the item's
// kind; Basic before Gang, Single before All when both are set), then the callbacks in order.
// The item is not modified. O(blocks + callbacks).
[[nodiscard]] SchedulingConfig ResolveSchedulingConfig(const WorkloadItem& item);

// Builder: see the file comment. Copyable value.
class Builder {
 public:
  // New: a builder for the tree `root` (std::nullopt = the Go nil root, reported by Validate
  // and BuildWorkload).
  [[nodiscard]] static Builder New(std::optional<WorkloadItem> root, BuildOptions opts);
  // FromExistingWorkload: a builder that materializes PodGroups from an already persisted
  // Workload (a parent controller's); BuildWorkload and Validate are refused. Go:
  // NewBuilderFromExistingWorkload.
  [[nodiscard]] static Builder FromExistingWorkload(api::Workload workload, BuildOptions opts);

  // Validate: spec §9.4, in order: an existing-workload builder → one InternalError (no path);
  // no root → one Invalid (no path) "invalid builder: missing root WorkloadItem"; an update
  // whose old root has another name → one InternalError at the root's path; a malformed tree
  // (empty or duplicate names, a composite item with leaf blocks, a leaf item with composite
  // blocks) → one InternalError at the root's path; else per item (pre-order): the building
  // blocks' declarative rules at `path + path_elements` (unless disabled), the allow-lists on
  // the resolved policy / disruption mode (Forbidden), and resolved Basic + All (Invalid).
  // O(items × blocks).
  [[nodiscard]] validation::ErrorList Validate(const ValidationInput& input = {}) const;

  // BuildWorkload: compiles the tree into a Workload named opts.name in opts.namespace_ with
  // ownerReferences [opts.owner] and spec.controllerRef {group of owner.apiVersion, kind,
  // name}; a composite root gives one compositePodGroupTemplate, a leaf root one
  // podGroupTemplate. Cached: later calls return the same object; a failure is not cached.
  // Errors: existing-workload builder, missing root, malformed tree, a gang whose count is
  // still unset after the callbacks, no owner ("a Workload must be owned by its controller for
  // garbage collection"), an owner apiVersion that is not group/version.
  [[nodiscard]] tl::expected<const api::Workload*, std::string> BuildWorkload();

  // NewPodGroup: a PodGroup named `pod_group_name` from the Workload's top-level
  // podGroupTemplate `template_name` (compiled or existing Workload): namespace of the Workload,
  // ownerReferences [opts.owner] or none, spec.workloadRef {workload, template}, and copies of
  // the template's policy, constraints, disruptionMode, resourceClaims, priorityClassName,
  // priority. Errors: no Workload yet ("… call BuildWorkload or use
  // NewBuilderFromExistingWorkload first"), unknown template (message lists the known ones).
  // O(1) after the first call (name index).
  [[nodiscard]] tl::expected<api::PodGroup, std::string> NewPodGroup(
      const std::string& pod_group_name, const std::string& template_name);

  // NewCompositePodGroup: a v1alpha3 CompositePodGroup from any compositePodGroupTemplate of the
  // tree (pre-order name index): workloadRef, policy, constraints, disruptionMode,
  // priorityClassName, priority; ownerReferences [opts.owner] or none. The parent link
  // (spec.parentCompositePodGroupName) is left to the caller.
  [[nodiscard]] tl::expected<api::CompositePodGroup, std::string> NewCompositePodGroup(
      const std::string& composite_pod_group_name, const std::string& template_name);

  // NewChildPodGroup: wasched-only extension. As NewPodGroup, but the leaf template may sit
  // anywhere in the tree (a child of a compositePodGroupTemplate) and the PodGroup gets
  // spec.parentCompositePodGroupName = `parent_composite_pod_group_name` (when non-empty).
  // Upstream's NewPodGroup indexes only top-level podGroupTemplates (builder snapshot of
  // 2026-07-22), so a composite tree's leaves cannot be materialized through it yet.
  [[nodiscard]] tl::expected<api::PodGroup, std::string> NewChildPodGroup(
      const std::string& pod_group_name, const std::string& template_name,
      const std::string& parent_composite_pod_group_name);

  [[nodiscard]] const BuildOptions& options() const { return opts_; }
  // mutable_options: e.g. to clear the owner after building (PodGroups then carry none).
  [[nodiscard]] BuildOptions& mutable_options() { return opts_; }

 private:
  Builder() = default;
  tl::expected<const api::Workload*, std::string> ResolveWorkload() const;
  api::PodGroup MakePodGroup(const api::Workload& wl, const api::PodGroupTemplate& t,
                             const std::string& name) const;

  std::optional<WorkloadItem> root_;
  BuildOptions opts_;
  std::optional<api::Workload> workload_;           // cache of BuildWorkload
  std::optional<api::Workload> existing_workload_;  // FromExistingWorkload
  // name indexes, built on the first NewPodGroup / NewCompositePodGroup (copies, so the
  // Builder stays a safely copyable value)
  std::optional<std::map<std::string, api::PodGroupTemplate>> pod_group_template_index_;
  std::optional<std::map<std::string, api::CompositePodGroupTemplate>> composite_template_index_;
};

// CheckWorkloadItemTree: the tree check shared by Validate and BuildWorkload: empty name,
// a name used twice anywhere in the tree, a composite item setting leaf blocks, a leaf item
// setting composite blocks. Returns the first problem's message. O(items).
[[nodiscard]] std::optional<std::string> CheckWorkloadItemTree(const WorkloadItem& root);

}  // namespace wasched::workloadbuilder
