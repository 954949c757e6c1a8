// File: controller/job/job_controller.cc
//
// Upstream: kubernetes/kubernetes pkg/controller/job/job_scheduling_manager.go
// (ensureWorkloadAndPodGroup, syncGangMinCount, getOrCreateDelegatedPodGroup, createPodGroup),
// pkg/api/job (WorkloadItemForJob, WorkloadInputForJobV1).
#include "controller/job/job_controller.h"

#include <fmt/format.h>

#include <algorithm>
#include <utility>

#include "controller/job/job_pods.h"
#include "controller/job/names.h"
#include "workloadbuilder/builder.h"

namespace wasched::controller::job {
namespace {

namespace wb = workloadbuilder;

std::string GroupOf(const std::string& api_version) {
  const size_t slash = api_version.find('/');
  return slash == std::string::npos ? std::string() : api_version.substr(0, slash);
}

// BuildWorkloadItem: the Job's single leaf item (pkg/api/job WorkloadItemForJob): default
// Basic with the pod template's priorityClassName, the four building blocks under
// spec.scheduling, and the callback gang minCount unset → max(1, parallelism).
wb::WorkloadItem BuildWorkloadItem(const api::Job& job) {
  wb::WorkloadItem item;
  item.name = PodGroupTemplateName(job);
  item.path = "spec.scheduling";
  item.default_config.emplace();
  item.default_config->policy = wb::Basic();
  item.default_config->priority_class_name = job.pod_template.priority_class_name;
  if (const auto& s = job.scheduling) {
    item.input.policy = {s->scheduling_policy, std::nullopt, {api::kJobSchedulingPolicyField}};
    item.input.constraints = {s->scheduling_constraints, std::nullopt,
                              {api::kJobSchedulingConstraintsField}};
    item.input.disruption_mode = {s->disruption_mode, std::nullopt, {"disruptionMode"}};
    item.input.resource_claims = {s->resource_claims, {"resourceClaims"}};
  }
  const int32_t parallelism = std::max<int32_t>(1, api::EffectiveParallelism(job));
  item.callbacks.push_back([parallelism](wb::SchedulingConfig& c) {
    if (c.policy && c.policy->gang && !c.policy->gang->min_count) {
      c.policy->gang->min_count = parallelism;
    }
  });
  return item;
}

wb::BuildOptions JobBuildOptions(const api::Job& job, std::string name) {
  wb::BuildOptions opts;
  opts.name = std::move(name);
  opts.namespace_ = job.meta.namespace_;
  opts.owner = JobOwnerReference(job);
  opts.allowed_policies = {wb::SchedulingPolicyOption::kBasicPolicy,
                           wb::SchedulingPolicyOption::kGangPolicy};
  opts.allowed_disruption_modes = {wb::DisruptionModeOption::kSingleMode,
                                   wb::DisruptionModeOption::kAllMode};
  opts.disable_declarative_validation = true;  // the API server validated the Job
  return opts;
}

// GenerateWorkload: upstream generateWorkload.
tl::expected<api::Workload, std::string> GenerateWorkload(const api::Job& job) {
  wb::Builder b = wb::Builder::New(BuildWorkloadItem(job), JobBuildOptions(job, ComputeWorkloadName(job)));
  auto wl = b.BuildWorkload();
  if (!wl) return tl::unexpected(wl.error());
  return **wl;
}

const api::PodGroupTemplate* TemplateByName(const api::Workload& wl, const std::string& name) {
  if (wl.pod_group_templates.empty()) return nullptr;
  if (name.empty()) return &wl.pod_group_templates.front();
  for (const auto& t : wl.pod_group_templates) {
    if (t.name == name) return &t;
  }
  return nullptr;
}

std::vector<const api::Pod*> PodsOf(const api::Job& job, const api::ObjectSet& cluster) {
  std::vector<const api::Pod*> pods;
  for (const api::Pod& p : cluster.pods) {
    if (p.meta.namespace_ != job.meta.namespace_) continue;
    const auto uid = p.meta.labels.find(kControllerUidLabel);
    if (ControlledBy(p.meta, job) || (uid != p.meta.labels.end() && uid->second == job.meta.uid)) {
      pods.push_back(&p);
    }
  }
  return pods;
}

}  // namespace

const char* ManagementModeName(ManagementMode mode) {
  switch (mode) {
    case ManagementMode::kNone:
      return "none";
    case ManagementMode::kBoth:
      return "both";
    case ManagementMode::kPodGroupOnly:
      return "podGroupOnly";
  }
  return "none";
}

ManagementMode GetManagementMode(const api::Job& job, const FeatureGates& gates) {
  if (!gates.workload_with_job) return ManagementMode::kNone;
  if (job.pod_template.scheduling_group_set) return ManagementMode::kNone;
  if (api::GetControllerOf(job.meta) == nullptr) return ManagementMode::kBoth;
  if (job.meta.annotations.count(kGroupTemplateNameAnnotation) > 0) {
    return ManagementMode::kPodGroupOnly;
  }
  return ManagementMode::kNone;
}

bool IsNewJob(const api::Job& job, size_t pod_count) {
  return pod_count == 0 && job.status.active == 0 && job.status.succeeded == 0 &&
         job.status.failed == 0;
}

bool ControlledBy(const api::ObjectMeta& meta, const api::Job& job) {
  const api::OwnerReference* c = api::GetControllerOf(meta);
  return c != nullptr && c->uid == job.meta.uid;
}

JobSyncResult JobController::Sync(const api::Job& job, const api::ObjectSet& cluster,
                                  const std::unordered_set<std::string>* taken_pod_keys) const {
  JobSyncResult r;
  r.mode = GetManagementMode(job, gates_);
  const std::vector<const api::Pod*> pods = PodsOf(job, cluster);
  const bool new_job = IsNewJob(job, pods.size());
  const std::string& ns = job.meta.namespace_;

  auto sync_pod_group_min_count = [&](const api::PodGroup* pg, int32_t desired) {
    if (pg != nullptr && pg->scheduling_policy.gang &&
        pg->scheduling_policy.gang->min_count != desired) {
      r.patches.push_back({"PodGroup", ns, pg->meta.name, pg->scheduling_policy.gang->min_count,
                           desired});
    }
  };

  if (r.mode == ManagementMode::kBoth) {
    // getOrCreateWorkload: Workloads whose spec.controllerRef names this Job and that it controls.
    std::vector<const api::Workload*> matched;
    for (const api::Workload& wl : cluster.workloads) {
      if (wl.meta.namespace_ == ns && wl.controller_ref && wl.controller_ref->api_group == "batch" &&
          wl.controller_ref->kind == "Job" && wl.controller_ref->name == job.meta.name &&
          ControlledBy(wl.meta, job)) {
        matched.push_back(&wl);
      }
    }
    const api::Workload* workload = nullptr;
    std::optional<api::Workload> created_workload;
    if (matched.size() > 1) {
      r.errors.push_back(fmt::format(
          "found {} Workloads referencing Job {}/{}, falling back to default scheduling",
          matched.size(), ns, job.meta.name));
    } else if (matched.size() == 1) {
      if (matched[0]->pod_group_templates.size() != 1) {
        r.errors.push_back(fmt::format(
            "workload {}/{} for job {}/{} has {} PodGroupTemplates, want exactly 1", ns,
            matched[0]->meta.name, ns, job.meta.name, matched[0]->pod_group_templates.size()));
      } else {
        workload = matched[0];
      }
    } else if (new_job) {
      auto wl = GenerateWorkload(job);
      if (!wl) {
        r.events.push_back({"Warning", "FailedWorkloadCompilation",
                            fmt::format("Failed to compile Workload for Job {}: {}", job.meta.name,
                                        wl.error())});
        r.errors.push_back(wl.error());
      } else {
        wl->meta.uid = DerivedUid("Workload", ns, wl->meta.name);
        wl->meta.source = job.meta.source;
        created_workload = std::move(*wl);
        workload = &*created_workload;
        r.events.push_back({"Normal", "WorkloadCreated",
                            fmt::format("Created Workload {} for Job {}", workload->meta.name,
                                        job.meta.name)});
      }
    }
    if (workload != nullptr) {
      // getOrCreatePodGroup: PodGroups whose workloadRef names the Workload, controlled by the Job.
      std::vector<const api::PodGroup*> groups;
      for (const api::PodGroup& pg : cluster.pod_groups) {
        if (pg.meta.namespace_ == ns && pg.workload_ref &&
            pg.workload_ref->workload_name == workload->meta.name && ControlledBy(pg.meta, job)) {
          groups.push_back(&pg);
        }
      }
      const api::PodGroup* pod_group = nullptr;
      if (groups.size() > 1) {
        r.errors.push_back(fmt::format(
            "found {} PodGroups referencing Workload {}/{}, falling back to default scheduling",
            groups.size(), ns, workload->meta.name));
      } else if (groups.size() == 1) {
        pod_group = groups[0];
        r.pod_group_name = pod_group->meta.name;
      } else if (new_job) {
        const api::PodGroupTemplate* t = TemplateByName(*workload, "");
        wb::BuildOptions opts;
        opts.owner = JobOwnerReference(job);
        wb::Builder b = wb::Builder::FromExistingWorkload(*workload, opts);
        auto pg = b.NewPodGroup(ComputePodGroupName(workload->meta.name, t->name), t->name);
        if (!pg) {
          r.errors.push_back(pg.error());
        } else {
          // A root Job's PodGroup also names the Workload as a non-controller owner.
          pg->meta.owner_references.push_back(api::OwnerReference{
              workloadbuilder::kWorkloadApiVersion, "Workload", workload->meta.name,
              workload->meta.uid, false, false});
          pg->meta.uid = DerivedUid("PodGroup", ns, pg->meta.name);
          pg->meta.source = job.meta.source;
          r.pod_group_name = pg->meta.name;
          r.events.push_back({"Normal", "PodGroupCreated",
                              fmt::format("Created PodGroup {} for Job {}", pg->meta.name,
                                          job.meta.name)});
          r.created_pod_groups.push_back(std::move(*pg));
        }
      }
      // syncGangMinCount: a gang's minCount follows the Job (elastic resize), on live objects.
      if (auto desired = GenerateWorkload(job);
          desired && !desired->pod_group_templates.empty() &&
          desired->pod_group_templates[0].scheduling_policy.gang) {
        const int32_t min_count = desired->pod_group_templates[0].scheduling_policy.gang->min_count;
        if (!created_workload && workload->pod_group_templates.size() == 1 &&
            workload->pod_group_templates[0].scheduling_policy.gang &&
            workload->pod_group_templates[0].scheduling_policy.gang->min_count != min_count) {
          r.patches.push_back({"Workload", ns, workload->meta.name,
                               workload->pod_group_templates[0].scheduling_policy.gang->min_count,
                               min_count});
        }
        sync_pod_group_min_count(pod_group, min_count);
      }
    }
    if (created_workload) r.created_workloads.push_back(std::move(*created_workload));
  } else if (r.mode == ManagementMode::kPodGroupOnly) {
    // findParentWorkload: spec.controllerRef equals the Job's controller owner.
    const api::OwnerReference* parent = api::GetControllerOf(job.meta);
    const api::Workload* parent_wl = nullptr;
    for (const api::Workload& wl : cluster.workloads) {
      if (wl.meta.namespace_ == ns && wl.controller_ref &&
          wl.controller_ref->api_group == GroupOf(parent->api_version) &&
          wl.controller_ref->kind == parent->kind && wl.controller_ref->name == parent->name) {
        parent_wl = &wl;
        break;
      }
    }
    const std::string template_name = job.meta.annotations.at(kGroupTemplateNameAnnotation);
    const api::PodGroupTemplate* t =
        parent_wl != nullptr ? TemplateByName(*parent_wl, template_name) : nullptr;
    if (t != nullptr) {
      const api::PodGroup* pod_group = nullptr;
      for (const api::PodGroup& pg : cluster.pod_groups) {
        if (pg.meta.namespace_ == ns && pg.workload_ref &&
            pg.workload_ref->workload_name == parent_wl->meta.name && ControlledBy(pg.meta, job)) {
          pod_group = &pg;
          break;
        }
      }
      if (pod_group != nullptr) {
        r.pod_group_name = pod_group->meta.name;
        if (t->scheduling_policy.gang) sync_pod_group_min_count(pod_group, t->scheduling_policy.gang->min_count);
      } else if (new_job) {
        wb::BuildOptions opts;
        opts.owner = JobOwnerReference(job);
        wb::Builder b = wb::Builder::FromExistingWorkload(*parent_wl, opts);
        auto pg = b.NewPodGroup(ComputePodGroupName(parent_wl->meta.name, t->name), t->name);
        if (!pg) {
          r.errors.push_back(pg.error());
        } else {
          pg->meta.uid = DerivedUid("PodGroup", ns, pg->meta.name);
          pg->meta.source = job.meta.source;
          r.pod_group_name = pg->meta.name;
          r.events.push_back({"Normal", "PodGroupCreated",
                              fmt::format("Created PodGroup {} for Job {}", pg->meta.name,
                                          job.meta.name)});
          r.created_pod_groups.push_back(std::move(*pg));
        }
      }
    }
  }
  // A Job whose template already names a PodGroup keeps it (manageNone).
  std::optional<std::string> group = r.pod_group_name;
  if (r.mode == ManagementMode::kNone && job.pod_template.pod_group_name) {
    group = job.pod_template.pod_group_name;
  }
  r.created_pods = NewJobPods(job, pods, group, taken_pod_keys);
  if (r.mode == ManagementMode::kNone) {
    // The template's own schedulingGroup (if any) was copied as written.
    for (api::Pod& p : r.created_pods) p.scheduling_group_set = job.pod_template.scheduling_group_set;
  }
  return r;
}

ControllerRun RunJobController(api::ObjectSet* objects, const FeatureGates& gates) {
  ControllerRun run;
  const JobController controller(gates);
  // Every existing pod's "ns/name": created pods' derived names avoid them (generateName retry).
  std::unordered_set<std::string> pod_keys;
  pod_keys.reserve(objects->pods.size());
  for (const api::Pod& p : objects->pods) pod_keys.insert(api::NamespacedName(p.meta));
  for (size_t i = 0; i < objects->jobs.size(); ++i) {
    api::Job job = objects->jobs[i];
    bool derived = false;
    if (job.meta.uid.empty()) {
      job.meta.uid = DerivedUid("Job", job.meta.namespace_, job.meta.name);
      objects->jobs[i].meta.uid = job.meta.uid;
      derived = true;
      run.warnings.push_back(fmt::format(
          "Job {} has no metadata.uid: using the uid {} derived from its namespace and name "
          "(the API server would assign a random one, and the Workload name hashes it)",
          api::NamespacedName(job.meta), job.meta.uid));
    }
    JobSyncResult r = controller.Sync(job, *objects, &pod_keys);
    const std::string who = "Job " + api::NamespacedName(job.meta);
    for (const std::string& e : r.errors) run.warnings.push_back(who + ": " + e);
    for (const Event& e : r.events) {
      run.events.push_back(fmt::format("{} {} {}: {}", e.type, e.reason, who, e.message));
    }
    auto mark = [&](api::ObjectMeta& meta) {
      if (derived) meta.annotations[kDerivedUidAnnotation] = job.meta.uid;
    };
    for (api::Workload& wl : r.created_workloads) {
      mark(wl.meta);
      run.generated.workloads.push_back(wl);
      objects->workloads.push_back(std::move(wl));
    }
    for (api::PodGroup& pg : r.created_pod_groups) {
      mark(pg.meta);
      run.generated.pod_groups.push_back(pg);
      objects->pod_groups.push_back(std::move(pg));
    }
    for (api::Pod& p : r.created_pods) {
      mark(p.meta);
      pod_keys.insert(api::NamespacedName(p.meta));
      run.generated.pods.push_back(p);
      objects->pods.push_back(std::move(p));
    }
    for (const MinCountPatch& p : r.patches) {
      if (p.kind == "Workload") {
        for (api::Workload& wl : objects->workloads) {
          if (wl.meta.namespace_ == p.namespace_ && wl.meta.name == p.name &&
              !wl.pod_group_templates.empty() && wl.pod_group_templates[0].scheduling_policy.gang) {
            wl.pod_group_templates[0].scheduling_policy.gang->min_count = p.min_count;
          }
        }
      } else {
        for (api::PodGroup& pg : objects->pod_groups) {
          if (pg.meta.namespace_ == p.namespace_ && pg.meta.name == p.name &&
              pg.scheduling_policy.gang) {
            pg.scheduling_policy.gang->min_count = p.min_count;
          }
        }
      }
      run.patches.push_back(p);
    }
  }
  return run;
}

}  // namespace wasched::controller::job
