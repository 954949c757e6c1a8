// File: controller/jobset/scheduling.cc
//
// Upstream (KEP-969 implementation): kubernetes-sigs/jobset pkg/controllers/scheduling.go
// (UseTopLevelGang, HasSequencedStartup, totalMinCount, the *TemplateName functions,
// schedulingPodGroupName, schedulingGroupTemplateName), workload_builder.go (buildOpts,
// map*Input, gangMinCountCallback, buildTopLevelGangItem, buildPerRJItem, buildGroupItem,
// buildJobItem, globalSchedulingInput, newBuildersForJobSet, buildWorkloadFromBuilders),
// pkg/util/scheduling.go (ReplicatedJobPodCount, JobParallelism). The gang-of-gangs mode follows
// the KEP's design section (no upstream code).
#include "controller/jobset/scheduling.h"

#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <set>

#include "controller/controller.h"
#include "controller/jobset/names.h"
#include "util/name_generation.h"
#include "workloadbuilder/builder.h"

namespace wasched::controller::jobset {
namespace {

namespace wb = workloadbuilder;

constexpr const char* kSchedulingPath = "spec.scheduling";

int32_t Saturate(int64_t v) {
  return static_cast<int32_t>(std::clamp<int64_t>(v, std::numeric_limits<int32_t>::min(),
                                                  std::numeric_limits<int32_t>::max()));
}

int32_t JobParallelism(const api::ReplicatedJob& rj) {
  return rj.job_template.parallelism.value_or(1);
}

int32_t ReplicatedJobPodCount(const api::ReplicatedJob& rj) {
  return Saturate(static_cast<int64_t>(JobParallelism(rj)) * rj.replicas);
}

int32_t TotalPodCount(const api::JobSet& js) {
  int64_t total = 0;
  for (const api::ReplicatedJob& rj : js.replicated_jobs) total += ReplicatedJobPodCount(rj);
  return Saturate(total);
}

bool UseTopLevelGang(const std::optional<api::JobSetScheduling>& s) {
  if (!s) return false;
  if (!s->replicated_jobs.empty()) return false;
  if (!s->scheduling_policy) return true;
  return s->scheduling_policy->gang.has_value();
}

// MapPolicy: mapPolicyInput (a v1alpha3 PodGroupSchedulingPolicy: minCount 0 = unset).
std::optional<api::WorkloadPodGroupSchedulingPolicy> MapPolicy(
    const std::optional<api::PodGroupSchedulingPolicy>& p) {
  if (!p) return std::nullopt;
  api::WorkloadPodGroupSchedulingPolicy out;
  if (p->basic) out.basic = api::BasicSchedulingPolicy{};
  if (p->gang) {
    out.gang.emplace();
    if (p->gang->min_count > 0) out.gang->min_count = p->gang->min_count;
  }
  return out;
}

std::vector<std::string> Path(std::vector<std::string> prefix, const char* leaf) {
  prefix.emplace_back(leaf);
  return prefix;
}

// Blocks: the four building blocks of one level (top-level, entry, job).
struct Blocks {
  const std::optional<api::PodGroupSchedulingPolicy>* policy = nullptr;
  const std::optional<api::SchedulingConstraints>* constraints = nullptr;
  const std::optional<api::DisruptionMode>* disruption = nullptr;
  const std::vector<api::PodGroupResourceClaim>* claims = nullptr;
};

// LeafInput: the leaf input of `b` at `path` (elements under spec.scheduling).
wb::WorkloadInput LeafInput(const Blocks& b, const std::vector<std::string>& path) {
  wb::WorkloadInput in;
  if (b.policy != nullptr && b.policy->has_value()) {
    in.policy = {MapPolicy(*b.policy), std::nullopt, Path(path, "schedulingPolicy")};
  }
  if (b.constraints != nullptr && b.constraints->has_value()) {
    in.constraints = {**b.constraints, std::nullopt, Path(path, "schedulingConstraints")};
  }
  if (b.disruption != nullptr && b.disruption->has_value()) {
    in.disruption_mode = {**b.disruption, std::nullopt, Path(path, "disruptionMode")};
  }
  if (b.claims != nullptr && !b.claims->empty()) {
    in.resource_claims = {*b.claims, Path(path, "resourceClaims")};
  }
  return in;
}

// GlobalInput: globalSchedulingInput (the top-level blocks as fallback; the global gang
// minCount dropped when `ignore_min_count`).
wb::WorkloadInput GlobalInput(const std::optional<api::JobSetScheduling>& s, bool ignore_min_count) {
  if (!s) return {};
  wb::WorkloadInput in = LeafInput({&s->scheduling_policy, &s->scheduling_constraints,
                                    &s->disruption_mode, nullptr},
                                   {});
  if (ignore_min_count && in.policy.pod_group_data && in.policy.pod_group_data->gang) {
    in.policy.pod_group_data->gang->min_count.reset();
  }
  return in;
}

void FallBack(wb::WorkloadInput* in, const wb::WorkloadInput& global) {
  if (!in->policy.pod_group_data) in->policy = global.policy;
  if (!in->constraints.pod_group_data) in->constraints = global.constraints;
  if (!in->disruption_mode.pod_group_data) in->disruption_mode = global.disruption_mode;
}

wb::SchedulingConfigFunc GangMinCountCallback(int32_t min_count) {
  return [min_count](wb::SchedulingConfig& c) {
    if (c.policy && c.policy->gang && !c.policy->gang->min_count) c.policy->gang->min_count = min_count;
  };
}

wb::WorkloadItem LeafItem(std::string name, const std::string& priority_class,
                          wb::WorkloadInput input, int32_t default_min_count) {
  wb::WorkloadItem item;
  item.name = std::move(name);
  item.path = kSchedulingPath;
  item.default_config.emplace();
  item.default_config->policy = wb::Gang(std::nullopt);
  item.default_config->priority_class_name = priority_class;
  item.input = std::move(input);
  item.callbacks.push_back(GangMinCountCallback(default_min_count));
  return item;
}

const std::string& PriorityClassOf(const api::ReplicatedJob& rj) {
  return rj.job_template.pod_template.priority_class_name;
}

wb::BuildOptions Options(const api::JobSet& js, api::OwnerReference owner) {
  wb::BuildOptions opts;
  opts.name = WorkloadName(js);
  opts.namespace_ = js.meta.namespace_;
  opts.owner = std::move(owner);
  opts.allowed_policies = {wb::SchedulingPolicyOption::kBasicPolicy,
                           wb::SchedulingPolicyOption::kGangPolicy};
  opts.allowed_disruption_modes = {wb::DisruptionModeOption::kSingleMode,
                                   wb::DisruptionModeOption::kAllMode};
  opts.disable_declarative_validation = false;  // an out-of-tree controller: the builder checks
  return opts;
}

// JobSetOwner: jobSetOwnerRef (the builder's owner, not a controller reference).
api::OwnerReference JobSetOwner(const api::JobSet& js) {
  return api::OwnerReference{kApiVersion, kKind, js.meta.name, js.meta.uid, false, false};
}

// ---- KEP-969 ---------------------------------------------------------------------------------

// FlatItems: newBuildersForJobSet's items, and for every child Job its template name.
struct FlatItems {
  std::vector<wb::WorkloadItem> items;
  std::map<std::string, std::string> template_of_job;
  std::string duplicate;
};

FlatItems BuildFlatItems(const api::JobSet& js) {
  FlatItems out;
  const auto& s = js.scheduling;
  const bool sequenced = HasSequencedStartup(js);
  std::set<std::string> seen;
  auto add = [&](wb::WorkloadItem item) {
    if (!seen.insert(item.name).second && out.duplicate.empty()) out.duplicate = item.name;
    out.items.push_back(std::move(item));
  };
  auto map_jobs = [&](const api::ReplicatedJob& rj, const std::string& tmpl) {
    for (int32_t i = 0; i < rj.replicas; ++i) out.template_of_job[JobName(js.meta.name, rj.name, i)] = tmpl;
  };
  if (UseTopLevelGang(s) && !sequenced) {
    const int32_t total = s->scheduling_policy && s->scheduling_policy->gang &&
                                  s->scheduling_policy->gang->min_count > 0
                              ? s->scheduling_policy->gang->min_count
                              : TotalPodCount(js);
    wb::WorkloadInput in = LeafInput({&s->scheduling_policy, &s->scheduling_constraints,
                                      &s->disruption_mode, nullptr},
                                     {});
    const std::string pc = js.replicated_jobs.empty() ? "" : PriorityClassOf(js.replicated_jobs[0]);
    add(LeafItem(TopLevelTemplateName(js), pc, std::move(in), total));
    for (const api::ReplicatedJob& rj : js.replicated_jobs) map_jobs(rj, TopLevelTemplateName(js));
    return out;
  }
  std::map<std::string, const api::ReplicatedJob*> by_name;
  for (const api::ReplicatedJob& rj : js.replicated_jobs) by_name.emplace(rj.name, &rj);
  const wb::WorkloadInput global = GlobalInput(s, sequenced);
  std::set<std::string> grouped;
  if (s) {
    for (const api::ReplicatedJobScheduling& entry : s->replicated_jobs) {
      std::vector<const api::ReplicatedJob*> members;
      for (const std::string& t : entry.target_replicated_jobs) {
        auto it = by_name.find(t);
        if (it == by_name.end()) continue;  // reported by JobSet's webhook
        members.push_back(it->second);
        grouped.insert(t);
      }
      if (members.empty()) continue;
      if (entry.job) {
        const api::ReplicatedJob& rj = *members[0];
        const std::vector<std::string> path = {"replicatedJobs", rj.name, "job"};
        for (int32_t i = 0; i < rj.replicas; ++i) {
          wb::WorkloadInput in = LeafInput({&entry.job->scheduling_policy,
                                            &entry.job->scheduling_constraints,
                                            &entry.job->disruption_mode, &entry.job->resource_claims},
                                           path);
          FallBack(&in, GlobalInput(s, /*ignore_min_count=*/true));
          const std::string name = PerJobTemplateName(js, rj.name, i);
          out.template_of_job[JobName(js.meta.name, rj.name, i)] = name;
          add(LeafItem(name, PriorityClassOf(rj), std::move(in), JobParallelism(rj)));
        }
        continue;
      }
      std::string group;
      for (size_t i = 0; i < entry.target_replicated_jobs.size(); ++i) {
        group += (i > 0 ? "-" : "") + entry.target_replicated_jobs[i];
      }
      wb::WorkloadInput in = LeafInput({&entry.scheduling_policy, &entry.scheduling_constraints,
                                        &entry.disruption_mode, &entry.resource_claims},
                                       {"replicatedJobs", group});
      FallBack(&in, global);
      int64_t total = 0;
      for (const api::ReplicatedJob* m : members) total += ReplicatedJobPodCount(*m);
      const std::string name = GroupTemplateName(js, entry.target_replicated_jobs);
      for (const api::ReplicatedJob* m : members) map_jobs(*m, name);
      add(LeafItem(name, PriorityClassOf(*members[0]), std::move(in), Saturate(total)));
    }
  }
  for (const api::ReplicatedJob& rj : js.replicated_jobs) {
    if (grouped.count(rj.name) > 0) continue;
    const std::string name = PerReplicatedJobTemplateName(js, rj.name);
    map_jobs(rj, name);
    add(LeafItem(name, PriorityClassOf(rj), global, ReplicatedJobPodCount(rj)));
  }
  return out;
}

void PlanFlat(const api::JobSet& js, SchedulingPlan* plan) {
  FlatItems items = BuildFlatItems(js);
  if (!items.duplicate.empty()) {
    plan->errors.push_back(FieldError{
        FieldErrorType::kInvalid, "spec.scheduling.replicatedJobs", fmt::format("\"{}\"", items.duplicate),
        fmt::format("generated scheduling group name \"{}\" is not unique: rename the colliding "
                    "ReplicatedJob or replicatedJobs targetReplicatedJobs grouping so generated "
                    "PodGroupTemplate names don't collide",
                    items.duplicate),
        ""});
    return;
  }
  std::optional<api::Workload> merged;
  for (wb::WorkloadItem& item : items.items) {
    wb::Builder b = wb::Builder::New(std::move(item), Options(js, JobSetOwner(js)));
    for (FieldError& e : b.Validate()) plan->errors.push_back(std::move(e));
    if (!plan->errors.empty()) continue;
    auto wl = b.BuildWorkload();
    if (!wl) {
      plan->build_error = wl.error();
      return;
    }
    if (!merged) {
      merged = **wl;
    } else {
      for (const api::PodGroupTemplate& t : (*wl)->pod_group_templates) {
        merged->pod_group_templates.push_back(t);
      }
    }
  }
  if (!plan->errors.empty() || !merged) return;
  const api::OwnerReference controller_ref = NewControllerRef(kApiVersion, kKind, js.meta);
  merged->meta.owner_references = {controller_ref};
  merged->meta.uid = DerivedUid("Workload", merged->meta.namespace_, merged->meta.name);
  merged->meta.source = js.meta.source;
  const bool top_level = UseTopLevelGang(js.scheduling) && !HasSequencedStartup(js);
  wb::Builder materializer = wb::Builder::FromExistingWorkload(*merged, Options(js, controller_ref));
  std::map<std::string, std::string> pod_group_of_template;
  for (const api::PodGroupTemplate& t : merged->pod_group_templates) {
    const std::string name = top_level ? t.name : PodGroupName(js.meta.name, t.name);
    auto pg = materializer.NewPodGroup(name, t.name);
    if (!pg) {
      plan->build_error = pg.error();
      return;
    }
    pg->meta.uid = DerivedUid("PodGroup", pg->meta.namespace_, pg->meta.name);
    pg->meta.source = js.meta.source;
    pod_group_of_template[t.name] = name;
    plan->pod_groups.push_back(std::move(*pg));
  }
  for (const auto& [job, tmpl] : items.template_of_job) {
    plan->by_job[job] = {tmpl, pod_group_of_template[tmpl]};
  }
  plan->workload = std::move(merged);
}

// ---- gang of gangs ---------------------------------------------------------------------------

wb::WorkloadItem CompositeItem(std::string name, const std::string& priority_class,
                               const Blocks& b, const std::vector<std::string>& path,
                               bool basic_default, int32_t children) {
  wb::WorkloadItem item;
  item.name = std::move(name);
  item.path = kSchedulingPath;
  item.default_config.emplace();
  item.default_config->policy = basic_default ? wb::Basic() : wb::Gang(std::nullopt);
  item.default_config->priority_class_name = priority_class;
  if (b.policy != nullptr && b.policy->has_value()) {
    api::WorkloadCompositePodGroupSchedulingPolicy p;
    if ((*b.policy)->basic) p.basic = api::BasicSchedulingPolicy{};
    if ((*b.policy)->gang) p.gang.emplace();  // every child: minGroupCount from the callback
    item.input.policy = {std::nullopt, p, Path(path, "schedulingPolicy")};
  }
  if (b.constraints != nullptr && b.constraints->has_value()) {
    item.input.constraints = {std::nullopt, **b.constraints, Path(path, "schedulingConstraints")};
  }
  if (b.disruption != nullptr && b.disruption->has_value()) {
    item.input.disruption_mode = {std::nullopt, **b.disruption, Path(path, "disruptionMode")};
  }
  item.callbacks.push_back(GangMinCountCallback(children));
  return item;
}

void PlanGangOfGangs(const api::JobSet& js, SchedulingPlan* plan) {
  static const std::optional<api::JobSetScheduling> kNone;
  const auto& s = js.scheduling;
  const bool sequenced = HasSequencedStartup(js);
  std::map<std::string, const api::ReplicatedJob*> by_name;
  for (const api::ReplicatedJob& rj : js.replicated_jobs) by_name.emplace(rj.name, &rj);
  const std::string pc = js.replicated_jobs.empty() ? "" : PriorityClassOf(js.replicated_jobs[0]);

  // Children: entries first, then untargeted ReplicatedJobs (KEP-969's order).
  std::vector<wb::WorkloadItem> children;
  std::map<std::string, std::string> template_of_job;
  std::set<std::string> grouped;
  std::set<std::string> middle;  // composite children (an entry with `job`)
  if (s) {
    for (const api::ReplicatedJobScheduling& entry : s->replicated_jobs) {
      std::vector<const api::ReplicatedJob*> members;
      for (const std::string& t : entry.target_replicated_jobs) {
        auto it = by_name.find(t);
        if (it == by_name.end()) continue;
        members.push_back(it->second);
        grouped.insert(t);
      }
      if (members.empty()) continue;
      if (entry.job) {
        const api::ReplicatedJob& rj = *members[0];
        wb::WorkloadItem mid = CompositeItem(
            PerReplicatedJobTemplateName(js, rj.name), PriorityClassOf(rj),
            {&entry.scheduling_policy, &entry.scheduling_constraints, &entry.disruption_mode, nullptr},
            {"replicatedJobs", rj.name}, sequenced, rj.replicas);
        for (int32_t i = 0; i < rj.replicas; ++i) {
          const std::string name = PerJobTemplateName(js, rj.name, i);
          template_of_job[JobName(js.meta.name, rj.name, i)] = name;
          mid.children.push_back(LeafItem(
              name, PriorityClassOf(rj),
              LeafInput({&entry.job->scheduling_policy, &entry.job->scheduling_constraints,
                         &entry.job->disruption_mode, &entry.job->resource_claims},
                        {"replicatedJobs", rj.name, "job"}),
              JobParallelism(rj)));
        }
        middle.insert(mid.name);
        if (mid.children.empty()) continue;  // replicas 0: nothing to group
        children.push_back(std::move(mid));
        continue;
      }
      std::string group;
      for (size_t i = 0; i < entry.target_replicated_jobs.size(); ++i) {
        group += (i > 0 ? "-" : "") + entry.target_replicated_jobs[i];
      }
      int64_t total = 0;
      for (const api::ReplicatedJob* m : members) total += ReplicatedJobPodCount(*m);
      const std::string name = members.size() == 1 ? PerReplicatedJobTemplateName(js, members[0]->name)
                                                   : GroupTemplateName(js, entry.target_replicated_jobs);
      for (const api::ReplicatedJob* m : members) {
        for (int32_t i = 0; i < m->replicas; ++i) template_of_job[JobName(js.meta.name, m->name, i)] = name;
      }
      children.push_back(LeafItem(name, PriorityClassOf(*members[0]),
                                  LeafInput({&entry.scheduling_policy, &entry.scheduling_constraints,
                                             &entry.disruption_mode, &entry.resource_claims},
                                            {"replicatedJobs", group}),
                                  Saturate(total)));
    }
  }
  for (const api::ReplicatedJob& rj : js.replicated_jobs) {
    if (grouped.count(rj.name) > 0) continue;
    const std::string name = PerReplicatedJobTemplateName(js, rj.name);
    for (int32_t i = 0; i < rj.replicas; ++i) template_of_job[JobName(js.meta.name, rj.name, i)] = name;
    children.push_back(LeafItem(name, PriorityClassOf(rj), {}, ReplicatedJobPodCount(rj)));
  }
  if (children.empty()) return;
  const bool basic_root = sequenced || (s && s->scheduling_policy && s->scheduling_policy->basic);
  const auto& top = s ? s : kNone;
  wb::WorkloadItem root = CompositeItem(
      TopLevelTemplateName(js), pc,
      top ? Blocks{&top->scheduling_policy, &top->scheduling_constraints, &top->disruption_mode, nullptr}
          : Blocks{},
      {}, basic_root, static_cast<int32_t>(children.size()));
  root.children = std::move(children);

  const api::OwnerReference controller_ref = NewControllerRef(kApiVersion, kKind, js.meta);
  wb::Builder b = wb::Builder::New(root, Options(js, controller_ref));
  plan->errors = b.Validate();
  if (!plan->errors.empty()) return;
  auto wl = b.BuildWorkload();
  if (!wl) {
    plan->build_error = wl.error();
    return;
  }
  api::Workload workload = **wl;
  workload.meta.uid = DerivedUid("Workload", workload.meta.namespace_, workload.meta.name);
  workload.meta.source = js.meta.source;
  const std::string root_name = WorkloadName(js);
  auto root_group = b.NewCompositePodGroup(root_name, root.name);
  if (!root_group) {
    plan->build_error = root_group.error();
    return;
  }
  plan->composite_pod_groups.push_back(std::move(*root_group));
  std::map<std::string, std::string> pod_group_of_template;
  for (const wb::WorkloadItem& child : root.children) {
    const std::string child_name = PodGroupName(js.meta.name, child.name);
    if (child.IsComposite()) {
      auto mid = b.NewCompositePodGroup(child_name, child.name);
      if (!mid) {
        plan->build_error = mid.error();
        return;
      }
      mid->parent_composite_pod_group_name = root_name;
      plan->composite_pod_groups.push_back(std::move(*mid));
      for (const wb::WorkloadItem& leaf : child.children) {
        const std::string leaf_name = PodGroupName(js.meta.name, leaf.name);
        auto pg = b.NewChildPodGroup(leaf_name, leaf.name, child_name);
        if (!pg) {
          plan->build_error = pg.error();
          return;
        }
        pod_group_of_template[leaf.name] = leaf_name;
        plan->pod_groups.push_back(std::move(*pg));
      }
    } else {
      auto pg = b.NewChildPodGroup(child_name, child.name, root_name);
      if (!pg) {
        plan->build_error = pg.error();
        return;
      }
      pod_group_of_template[child.name] = child_name;
      plan->pod_groups.push_back(std::move(*pg));
    }
  }
  for (api::CompositePodGroup& g : plan->composite_pod_groups) {
    g.meta.uid = DerivedUid("CompositePodGroup", g.meta.namespace_, g.meta.name);
    g.meta.source = js.meta.source;
  }
  for (api::PodGroup& g : plan->pod_groups) {
    g.meta.uid = DerivedUid("PodGroup", g.meta.namespace_, g.meta.name);
    g.meta.source = js.meta.source;
  }
  for (const auto& [job, tmpl] : template_of_job) plan->by_job[job] = {tmpl, pod_group_of_template[tmpl]};
  plan->workload = std::move(workload);
}

bool TemplatesNamePodGroup(const api::JobSet& js) {
  for (const api::ReplicatedJob& rj : js.replicated_jobs) {
    if (rj.job_template.pod_template.scheduling_group_set) return true;
  }
  return false;
}

}  // namespace

bool HasSequencedStartup(const api::JobSet& js) {
  if (js.startup_in_order) return true;
  for (const api::ReplicatedJob& rj : js.replicated_jobs) {
    if (!rj.depends_on.empty()) return true;
  }
  return false;
}

std::optional<SchedulingPlan> PlanScheduling(const api::JobSet& js, bool gang_of_gangs) {
  if (js.suspend) return std::nullopt;
  if (gang_of_gangs) {
    if (!js.scheduling && TemplatesNamePodGroup(js)) return std::nullopt;
    SchedulingPlan plan;
    PlanGangOfGangs(js, &plan);
    return plan;
  }
  if (!js.scheduling) return std::nullopt;
  SchedulingPlan plan;
  PlanFlat(js, &plan);
  return plan;
}

}  // namespace wasched::controller::jobset
