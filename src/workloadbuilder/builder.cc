// File: workloadbuilder/builder.cc
//
// Resolution, compilation and materialization (spec/was-v1.37.md §9.2–9.3). Upstream:
// kubernetes/component-helpers scheduling/schedulingv1/workloadbuilder/builder.go and
// mapping.go; messages are upstream's.
#include "workloadbuilder/builder.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <set>
#include <utility>

namespace wasched::workloadbuilder {
namespace {

// MapLeafInput / MapCompositeInput: the user's blocks as a SchedulingConfig (upstream
// mapWorkloadInput / mapCompositeGroupInput): empty blocks map to "no override"; Basic is
// picked before Gang and Single before All when both are set.
SchedulingConfig MapLeafInput(const WorkloadInput& in) {
  SchedulingConfig c;
  if (const auto& p = in.policy.pod_group_data) {
    if (p->basic) {
      c.policy = Basic();
    } else if (p->gang) {
      c.policy = Gang(p->gang->min_count);
    }
  }
  if (const auto& t = in.constraints.pod_group_data; t && !t->topology.empty()) c.constraints = *t;
  if (const auto& d = in.disruption_mode.pod_group_data) {
    if (d->single) {
      c.disruption_mode = api::DisruptionMode{.single = true};
    } else if (d->all) {
      c.disruption_mode = api::DisruptionMode{.all = true};
    }
  }
  c.resource_claims = in.resource_claims.pod_group_data;
  return c;
}

SchedulingConfig MapCompositeInput(const WorkloadInput& in) {
  SchedulingConfig c;
  if (const auto& p = in.policy.composite_pod_group_data) {
    if (p->basic) {
      c.policy = Basic();
    } else if (p->gang) {
      c.policy = Gang(p->gang->min_group_count);
    }
  }
  if (const auto& t = in.constraints.composite_pod_group_data; t && !t->topology.empty()) {
    c.constraints = *t;
  }
  if (const auto& d = in.disruption_mode.composite_pod_group_data) {
    if (d->single) {
      c.disruption_mode = api::DisruptionMode{.single = true};
    } else if (d->all) {
      c.disruption_mode = api::DisruptionMode{.all = true};
    }
  }
  return c;
}

// CompileDisruptionMode: All before Single; neither → nullopt (upstream compileDisruptionMode).
std::optional<api::DisruptionMode> CompileDisruptionMode(const std::optional<api::DisruptionMode>& d) {
  if (!d) return std::nullopt;
  if (d->all) return api::DisruptionMode{.all = true};
  if (d->single) return api::DisruptionMode{.single = true};
  return std::nullopt;
}

std::optional<api::SchedulingConstraints> CompileConstraints(
    const std::optional<api::SchedulingConstraints>& c) {
  if (!c || c->topology.empty()) return std::nullopt;
  return api::SchedulingConstraints{c->topology};
}

tl::expected<api::PodGroupTemplate, std::string> CompileLeaf(const WorkloadItem& item) {
  const SchedulingConfig cfg = ResolveSchedulingConfig(item);
  api::PodGroupTemplate t;
  t.name = item.name;
  t.priority_class_name = cfg.priority_class_name;
  if (cfg.policy && cfg.policy->gang) {
    if (!cfg.policy->gang->min_count) {
      return tl::unexpected(std::string("gang scheduling requires minCount to be set after resolution"));
    }
    t.scheduling_policy.gang = api::GangSchedulingPolicy{*cfg.policy->gang->min_count};
  } else {
    t.scheduling_policy.basic = api::BasicSchedulingPolicy{};
  }
  t.scheduling_constraints = CompileConstraints(cfg.constraints);
  t.disruption_mode = CompileDisruptionMode(cfg.disruption_mode);
  t.resource_claims = cfg.resource_claims;
  return t;
}

tl::expected<api::CompositePodGroupTemplate, std::string> CompileComposite(const WorkloadItem& item) {
  const SchedulingConfig cfg = ResolveSchedulingConfig(item);
  api::CompositePodGroupTemplate t;
  t.name = item.name;
  t.priority_class_name = cfg.priority_class_name;
  if (cfg.policy && cfg.policy->gang) {
    if (!cfg.policy->gang->min_count) {
      return tl::unexpected(
          std::string("composite gang scheduling requires minGroupCount to be set after resolution"));
    }
    t.scheduling_policy.gang = api::CompositeGangSchedulingPolicy{*cfg.policy->gang->min_count};
  } else {
    t.scheduling_policy.basic = api::BasicSchedulingPolicy{};
  }
  t.scheduling_constraints = CompileConstraints(cfg.constraints);
  t.disruption_mode = CompileDisruptionMode(cfg.disruption_mode);
  for (const WorkloadItem& child : item.children) {
    if (child.IsComposite()) {
      auto c = CompileComposite(child);
      if (!c) return tl::unexpected(c.error());
      t.composite_pod_group_templates.push_back(std::move(*c));
    } else {
      auto c = CompileLeaf(child);
      if (!c) return tl::unexpected(c.error());
      t.pod_group_templates.push_back(std::move(*c));
    }
  }
  return t;
}

// GroupOf: the group of an apiVersion "group/version" ("" for "v1"); error as Go's
// schema.ParseGroupVersion for more than one '/'.
tl::expected<std::string, std::string> GroupOf(const std::string& api_version) {
  const size_t slash = api_version.find('/');
  if (slash == std::string::npos) return std::string();
  if (api_version.find('/', slash + 1) != std::string::npos) {
    return tl::unexpected(fmt::format("invalid owner apiVersion \"{}\": unexpected GroupVersion string: {}",
                                      api_version, api_version));
  }
  return api_version.substr(0, slash);
}

std::optional<std::string> CheckItem(const WorkloadItem& item, std::set<std::string>* seen) {
  if (item.name.empty()) return std::string("workload item name cannot be empty");
  if (!seen->insert(item.name).second) {
    return fmt::format(
        "duplicate workload item name \"{}\": template names must be unique across the Workload",
        item.name);
  }
  const WorkloadInput& in = item.input;
  if (item.IsComposite()) {
    const char* block = in.policy.pod_group_data                ? "policy"
                        : in.constraints.pod_group_data         ? "constraints"
                        : in.disruption_mode.pod_group_data     ? "disruptionMode"
                        : !in.resource_claims.pod_group_data.empty() ? "resourceClaims"
                                                                     : nullptr;
    if (block != nullptr) {
      return fmt::format("composite workload item \"{}\" sets leaf building block: {}", item.name,
                         block);
    }
  } else {
    const char* block = in.policy.composite_pod_group_data            ? "policy"
                        : in.constraints.composite_pod_group_data     ? "constraints"
                        : in.disruption_mode.composite_pod_group_data ? "disruptionMode"
                                                                      : nullptr;
    if (block != nullptr) {
      return fmt::format("leaf workload item \"{}\" sets composite building block: {}", item.name,
                         block);
    }
  }
  for (const WorkloadItem& child : item.children) {
    if (auto e = CheckItem(child, seen)) return e;
  }
  return std::nullopt;
}

void IndexComposites(const std::vector<api::CompositePodGroupTemplate>& list,
                     std::map<std::string, api::CompositePodGroupTemplate>* index) {
  for (const auto& t : list) {
    index->emplace(t.name, t);
    IndexComposites(t.composite_pod_group_templates, index);
  }
}

void CompositeNames(const std::vector<api::CompositePodGroupTemplate>& list,
                    std::vector<std::string>* names) {
  for (const auto& t : list) {
    names->push_back(t.name);
    CompositeNames(t.composite_pod_group_templates, names);
  }
}

}  // namespace

SchedulingConfig ResolveSchedulingConfig(const WorkloadItem& item) {
  SchedulingConfig resolved = item.default_config.value_or(SchedulingConfig{});
  const SchedulingConfig user =
      item.IsComposite() ? MapCompositeInput(item.input) : MapLeafInput(item.input);
  if (user.policy) resolved.policy = user.policy;
  if (user.constraints) resolved.constraints = user.constraints;
  if (user.disruption_mode) resolved.disruption_mode = user.disruption_mode;
  if (!user.resource_claims.empty()) resolved.resource_claims = user.resource_claims;
  if (!user.priority_class_name.empty()) resolved.priority_class_name = user.priority_class_name;
  for (const SchedulingConfigFunc& cb : item.callbacks) {
    if (cb) cb(resolved);
  }
  return resolved;
}

std::optional<std::string> CheckWorkloadItemTree(const WorkloadItem& root) {
  std::set<std::string> seen;
  return CheckItem(root, &seen);
}

Builder Builder::New(std::optional<WorkloadItem> root, BuildOptions opts) {
  Builder b;
  b.root_ = std::move(root);
  b.opts_ = std::move(opts);
  return b;
}

Builder Builder::FromExistingWorkload(api::Workload workload, BuildOptions opts) {
  Builder b;
  b.existing_workload_ = std::move(workload);
  b.opts_ = std::move(opts);
  return b;
}

tl::expected<const api::Workload*, std::string> Builder::BuildWorkload() {
  if (existing_workload_) {
    return tl::unexpected(std::string(
        "BuildWorkload is not available on a Builder created from an existing Workload: it "
        "materializes from the supplied Workload"));
  }
  if (workload_) return &*workload_;
  if (!root_) return tl::unexpected(std::string("invalid builder: missing root WorkloadItem"));
  if (auto e = CheckWorkloadItemTree(*root_)) return tl::unexpected(*e);

  api::Workload wl;
  wl.api_version = kWorkloadApiVersion;
  wl.meta.name = opts_.name;
  wl.meta.namespace_ = opts_.namespace_;
  if (root_->IsComposite()) {
    auto t = CompileComposite(*root_);
    if (!t) return tl::unexpected(t.error());
    wl.composite_pod_group_templates.push_back(std::move(*t));
  } else {
    auto t = CompileLeaf(*root_);
    if (!t) return tl::unexpected(t.error());
    wl.pod_group_templates.push_back(std::move(*t));
  }
  if (!opts_.owner) {
    return tl::unexpected(
        std::string("a Workload must be owned by its controller for garbage collection"));
  }
  auto group = GroupOf(opts_.owner->api_version);
  if (!group) return tl::unexpected(group.error());
  wl.meta.owner_references = {*opts_.owner};
  wl.controller_ref = api::TypedLocalObjectReference{*group, opts_.owner->kind, opts_.owner->name};
  workload_ = std::move(wl);
  pod_group_template_index_.reset();
  composite_template_index_.reset();
  return &*workload_;
}

tl::expected<const api::Workload*, std::string> Builder::ResolveWorkload() const {
  if (existing_workload_) return &*existing_workload_;
  if (!workload_) {
    return tl::unexpected(std::string(
        "no Workload available: call BuildWorkload or use NewBuilderFromExistingWorkload first"));
  }
  return &*workload_;
}

tl::expected<api::PodGroup, std::string> Builder::NewPodGroup(const std::string& pod_group_name,
                                                             const std::string& template_name) {
  auto wl = ResolveWorkload();
  if (!wl) return tl::unexpected(wl.error());
  if (!pod_group_template_index_) {
    pod_group_template_index_.emplace();
    for (const auto& t : (*wl)->pod_group_templates) pod_group_template_index_->emplace(t.name, t);
  }
  const auto it = pod_group_template_index_->find(template_name);
  if (it == pod_group_template_index_->end()) {
    std::vector<std::string> names;
    for (const auto& t : (*wl)->pod_group_templates) names.push_back(t.name);
    return tl::unexpected(fmt::format("podGroupTemplate \"{}\" not found in workload \"{}\" (have [{}])",
                                      template_name, (*wl)->meta.name, fmt::join(names, " ")));
  }
  return MakePodGroup(**wl, it->second, pod_group_name);
}

api::PodGroup Builder::MakePodGroup(const api::Workload& wl, const api::PodGroupTemplate& t,
                                    const std::string& name) const {
  api::PodGroup pg;
  pg.api_version = kWorkloadApiVersion;
  pg.meta.name = name;
  pg.meta.namespace_ = wl.meta.namespace_;
  if (opts_.owner) pg.meta.owner_references = {*opts_.owner};
  pg.workload_ref = api::WorkloadReference{wl.meta.name, t.name};
  pg.scheduling_policy = t.scheduling_policy;
  pg.scheduling_constraints = t.scheduling_constraints;
  pg.disruption_mode = t.disruption_mode;
  pg.resource_claims = t.resource_claims;
  pg.priority_class_name = t.priority_class_name;
  pg.priority = t.priority;
  return pg;
}

tl::expected<api::PodGroup, std::string> Builder::NewChildPodGroup(
    const std::string& pod_group_name, const std::string& template_name,
    const std::string& parent_composite_pod_group_name) {
  auto wl = ResolveWorkload();
  if (!wl) return tl::unexpected(wl.error());
  const api::PodGroupTemplate* found = nullptr;
  for (const auto& t : (*wl)->pod_group_templates) {
    if (t.name == template_name) found = &t;
  }
  std::map<std::string, api::CompositePodGroupTemplate> composites;
  IndexComposites((*wl)->composite_pod_group_templates, &composites);
  for (const auto& [unused, c] : composites) {
    for (const auto& t : c.pod_group_templates) {
      if (found == nullptr && t.name == template_name) found = &t;
    }
  }
  if (found == nullptr) {
    return tl::unexpected(fmt::format("podGroupTemplate \"{}\" not found in workload \"{}\"",
                                      template_name, (*wl)->meta.name));
  }
  api::PodGroup pg = MakePodGroup(**wl, *found, pod_group_name);
  if (!parent_composite_pod_group_name.empty()) {
    pg.parent_composite_pod_group_name = parent_composite_pod_group_name;
  }
  return pg;
}

tl::expected<api::CompositePodGroup, std::string> Builder::NewCompositePodGroup(
    const std::string& composite_pod_group_name, const std::string& template_name) {
  auto wl = ResolveWorkload();
  if (!wl) return tl::unexpected(wl.error());
  if (!composite_template_index_) {
    composite_template_index_.emplace();
    IndexComposites((*wl)->composite_pod_group_templates, &*composite_template_index_);
  }
  const auto it = composite_template_index_->find(template_name);
  if (it == composite_template_index_->end()) {
    std::vector<std::string> names;
    CompositeNames((*wl)->composite_pod_group_templates, &names);
    return tl::unexpected(
        fmt::format("compositePodGroupTemplate \"{}\" not found in workload \"{}\" (have [{}])",
                    template_name, (*wl)->meta.name, fmt::join(names, " ")));
  }
  const api::CompositePodGroupTemplate& t = it->second;
  api::CompositePodGroup g;
  g.api_version = kCompositePodGroupApiVersion;
  g.meta.name = composite_pod_group_name;
  g.meta.namespace_ = (*wl)->meta.namespace_;
  if (opts_.owner) g.meta.owner_references = {*opts_.owner};
  g.workload_ref = api::WorkloadReference{(*wl)->meta.name, t.name};
  g.scheduling_policy = t.scheduling_policy;
  g.scheduling_constraints = t.scheduling_constraints;
  g.disruption_mode = t.disruption_mode;
  g.priority_class_name = t.priority_class_name;
  g.priority = t.priority;
  return g;
}

}  // namespace wasched::workloadbuilder
