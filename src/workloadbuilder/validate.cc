// File: workloadbuilder/validate.cc
//
// Builder::Validate (spec/was-v1.37.md §9.4). Upstream: kubernetes/component-helpers
// scheduling/schedulingv1/workloadbuilder/validate.go. The building blocks' declarative rules
// are wasched's validators of validation/scheduling_fields.h (the same ones the Job's
// spec.scheduling uses).
#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "validation/scheduling_fields.h"
#include "workloadbuilder/builder.h"

namespace wasched::workloadbuilder {
namespace {

using validation::ErrorList;

std::string PathOf(const WorkloadItem& item, const std::vector<std::string>& elements) {
  std::string path = item.path.value_or("");
  for (const std::string& e : elements) path = validation::Child(path, e);
  return path;
}

template <typename P>
validation::PolicyView View(const P& p) {
  validation::PolicyView v;
  v.basic = p.basic.has_value();
  v.gang = p.gang.has_value();
  if constexpr (requires { p.gang->min_count; }) {
    if (p.gang) v.count = p.gang->min_count;
  } else {
    if (p.gang) v.count = p.gang->min_group_count;
  }
  return v;
}

// ValidatePolicyBlock: the union, basic immutable, gang NoSet/NoUnset, count minimum 1 (pointer).
template <typename P>
void ValidatePolicyBlock(const std::optional<P>& data, const std::optional<P>* old_data,
                         const std::string& path, const char* count_name, ErrorList* errs) {
  if (!data) return;
  const validation::PolicyView view = View(*data);
  validation::PolicyView old_view;
  const bool has_old = old_data != nullptr && old_data->has_value();
  if (has_old) old_view = View(**old_data);
  validation::ValidatePolicy(view, has_old ? &old_view : nullptr, path, count_name,
                             validation::CountKind::kPointer, errs);
}

void ValidateConstraintsBlock(const std::optional<api::SchedulingConstraints>& data,
                              const std::optional<api::SchedulingConstraints>* old_data,
                              const std::string& path, ErrorList* errs) {
  if (!data) return;
  const bool has_old = old_data != nullptr && old_data->has_value();
  validation::ValidateSchedulingConstraints(data, has_old ? old_data : nullptr, path,
                                            /*gate_enabled=*/true, errs);
}

void ValidateDisruptionBlock(const std::optional<api::DisruptionMode>& data,
                             const std::optional<api::DisruptionMode>* old_data,
                             const std::string& path, ErrorList* errs) {
  if (!data) return;
  const bool has_old = old_data != nullptr && old_data->has_value();
  validation::ValidateDisruptionMode(data, has_old ? old_data : nullptr, path, errs);
}

void ValidateDeclarative(const WorkloadItem& item, const WorkloadItem* old, ErrorList* errs) {
  const WorkloadInput& in = item.input;
  const WorkloadInput* old_in = old != nullptr ? &old->input : nullptr;
  const std::string policy_path = PathOf(item, in.policy.path_elements);
  const std::string constraints_path = PathOf(item, in.constraints.path_elements);
  const std::string disruption_path = PathOf(item, in.disruption_mode.path_elements);
  if (item.IsComposite()) {
    ValidatePolicyBlock(in.policy.composite_pod_group_data,
                        old_in ? &old_in->policy.composite_pod_group_data : nullptr, policy_path,
                        "minGroupCount", errs);
    ValidateConstraintsBlock(in.constraints.composite_pod_group_data,
                             old_in ? &old_in->constraints.composite_pod_group_data : nullptr,
                             constraints_path, errs);
    ValidateDisruptionBlock(in.disruption_mode.composite_pod_group_data,
                            old_in ? &old_in->disruption_mode.composite_pod_group_data : nullptr,
                            disruption_path, errs);
    return;
  }
  ValidatePolicyBlock(in.policy.pod_group_data, old_in ? &old_in->policy.pod_group_data : nullptr,
                      policy_path, "minCount", errs);
  ValidateConstraintsBlock(in.constraints.pod_group_data,
                           old_in ? &old_in->constraints.pod_group_data : nullptr,
                           constraints_path, errs);
  ValidateDisruptionBlock(in.disruption_mode.pod_group_data,
                          old_in ? &old_in->disruption_mode.pod_group_data : nullptr,
                          disruption_path, errs);
  const auto& claims = in.resource_claims.pod_group_data;
  const std::vector<api::PodGroupResourceClaim>* old_claims =
      old_in != nullptr && !old_in->resource_claims.pod_group_data.empty()
          ? &old_in->resource_claims.pod_group_data
          : nullptr;
  if (!claims.empty() || old_claims != nullptr) {
    validation::ValidateResourceClaims(claims, old_claims,
                                       PathOf(item, in.resource_claims.path_elements), errs);
  }
}

template <typename T>
bool Contains(const std::vector<T>& list, T value) {
  return std::find(list.begin(), list.end(), value) != list.end();
}

void ValidateItem(const BuildOptions& opts, const WorkloadItem& item, const WorkloadItem* old,
                  ErrorList* errs) {
  if (!opts.disable_declarative_validation) ValidateDeclarative(item, old, errs);
  const SchedulingConfig resolved = ResolveSchedulingConfig(item);
  const std::string policy_path = PathOf(item, item.input.policy.path_elements);
  const std::string disruption_path = PathOf(item, item.input.disruption_mode.path_elements);
  if (resolved.policy) {
    if (resolved.policy->basic &&
        !Contains(opts.allowed_policies, SchedulingPolicyOption::kBasicPolicy)) {
      errs->push_back(validation::Forbidden(
          policy_path, "basic scheduling policy is not supported by this controller"));
    }
    if (resolved.policy->gang &&
        !Contains(opts.allowed_policies, SchedulingPolicyOption::kGangPolicy)) {
      errs->push_back(validation::Forbidden(
          policy_path, "gang scheduling policy is not supported by this controller"));
    }
  }
  if (resolved.disruption_mode) {
    if (resolved.disruption_mode->single &&
        !Contains(opts.allowed_disruption_modes, DisruptionModeOption::kSingleMode)) {
      errs->push_back(validation::Forbidden(
          disruption_path, "the disruptionMode `single` is not supported by this controller"));
    }
    if (resolved.disruption_mode->all &&
        !Contains(opts.allowed_disruption_modes, DisruptionModeOption::kAllMode)) {
      errs->push_back(validation::Forbidden(
          disruption_path, "the disruptionMode `all` is not supported by this controller"));
    }
  }
  if (resolved.policy && resolved.policy->basic && resolved.disruption_mode &&
      resolved.disruption_mode->all) {
    errs->push_back(validation::Invalid(
        disruption_path, validation::Quote(""),
        "the disruptionMode `all` is not supported with the Basic scheduling policy"));
  }
  // Children are matched with their old counterparts by name within this level only: a node
  // that moved to another parent validates as new (upstream validateItem).
  std::map<std::string, const WorkloadItem*> old_children;
  if (old != nullptr) {
    for (const WorkloadItem& c : old->children) old_children.emplace(c.name, &c);
  }
  for (const WorkloadItem& child : item.children) {
    const auto it = old_children.find(child.name);
    ValidateItem(opts, child, it == old_children.end() ? nullptr : it->second, errs);
  }
}

FieldError InternalError(std::string path, std::string detail) {
  FieldError e;
  e.type = FieldErrorType::kInternal;
  e.field = std::move(path);
  e.detail = std::move(detail);
  return e;
}

}  // namespace

validation::ErrorList Builder::Validate(const ValidationInput& input) const {
  if (existing_workload_) {
    return {InternalError("", "cannot validate a builder constructed from an existing workload")};
  }
  if (!root_) {
    return {validation::Invalid("", validation::kNullValue,
                                "invalid builder: missing root WorkloadItem")};
  }
  const std::string root_path = root_->path.value_or("");
  if (input.old_root != nullptr && input.old_root->name != root_->name) {
    return {InternalError(root_path,
                          fmt::format("old root name \"{}\" does not match new root name \"{}\"",
                                      input.old_root->name, root_->name))};
  }
  if (auto e = CheckWorkloadItemTree(*root_)) return {InternalError(root_path, *e)};
  ErrorList errs;
  ValidateItem(opts_, *root_, input.old_root, &errs);
  return errs;
}

}  // namespace wasched::workloadbuilder
