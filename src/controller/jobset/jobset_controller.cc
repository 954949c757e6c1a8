// File: controller/jobset/jobset_controller.cc
//
// Upstream: kubernetes-sigs/jobset pkg/controllers/jobset_controller.go (constructJob,
// labelAndAnnotateObject, addNamespacedJobNodeSelector, addTaintToleration, globalJobIndex,
// globalReplicas, groupJobIndex, groupReplicas, CoordinatorEndpoint, GetSubdomain) and the
// KEP-969 lines of constructJob (group-template-name annotation, schedulingGroup).
#include "controller/jobset/jobset_controller.h"

#include <fmt/format.h>

#include <set>

#include "controller/jobset/names.h"
#include "util/name_generation.h"

namespace wasched::controller::jobset {
namespace {

std::string GlobalJobIndex(const api::JobSet& js, const std::string& rj_name, int32_t index) {
  int64_t total = 0;
  for (const api::ReplicatedJob& rj : js.replicated_jobs) {
    if (rj.name == rj_name) return std::to_string(total + index);
    total += rj.replicas;
  }
  return "";
}

std::string GlobalReplicas(const api::JobSet& js) {
  int64_t total = 0;
  for (const api::ReplicatedJob& rj : js.replicated_jobs) total += rj.replicas;
  return std::to_string(total);
}

std::string GroupJobIndex(const api::JobSet& js, const std::string& group, const std::string& rj_name,
                          int32_t index) {
  int64_t total = 0;
  for (const api::ReplicatedJob& rj : js.replicated_jobs) {
    if (rj.group_name != group) continue;
    if (rj.name == rj_name) return std::to_string(total + index);
    total += rj.replicas;
  }
  return "";
}

std::string GroupReplicas(const api::JobSet& js, const std::string& group) {
  int64_t total = 0;
  for (const api::ReplicatedJob& rj : js.replicated_jobs) {
    if (rj.group_name == group) total += rj.replicas;
  }
  return std::to_string(total);
}

std::string Subdomain(const api::JobSet& js) {
  return js.subdomain.empty() ? js.meta.name : js.subdomain;
}

// LabelAndAnnotate: labelAndAnnotateObject (RestartJob gate off, its default).
void LabelAndAnnotate(api::ObjectMeta* meta, const api::JobSet& js, const api::ReplicatedJob& rj,
                      int32_t index) {
  const std::string job_name = JobName(js.meta.name, rj.name, index);
  const std::pair<const char*, std::string> common[] = {
      {kJobSetNameKey, js.meta.name},
      {kJobSetUidKey, js.meta.uid},
      {kReplicatedJobNameKey, rj.name},
      {kRestartsKey, std::to_string(js.restarts)},
      {kReplicatedJobReplicasKey, std::to_string(rj.replicas)},
      {kGlobalReplicasKey, GlobalReplicas(js)},
      {kJobIndexKey, std::to_string(index)},
      {kJobKey, JobKey(js.meta.namespace_, job_name)},
      {kJobGlobalIndexKey, GlobalJobIndex(js, rj.name, index)},
      {kGroupNameKey, rj.group_name},
      {kGroupReplicasKey, GroupReplicas(js, rj.group_name)},
      {kJobGroupIndexKey, GroupJobIndex(js, rj.group_name, rj.name, index)},
  };
  for (const auto& [k, v] : common) {
    meta->labels[k] = v;
    meta->annotations[k] = v;
  }
  if (js.coordinator) {
    const std::string endpoint =
        fmt::format("{}-{}-{}-{}.{}", js.meta.name, js.coordinator->replicated_job,
                    js.coordinator->job_index, js.coordinator->pod_index, Subdomain(js));
    meta->labels[kCoordinatorKey] = endpoint;
    meta->annotations[kCoordinatorKey] = endpoint;
  }
  if (auto it = js.meta.annotations.find(kExclusiveKey); it != js.meta.annotations.end()) {
    meta->annotations[kExclusiveKey] = it->second;
    if (auto s = js.meta.annotations.find(kNodeSelectorStrategyKey); s != js.meta.annotations.end()) {
      meta->annotations[kNodeSelectorStrategyKey] = s->second;
    }
  }
  const auto& rj_annotations = rj.job_template.meta.annotations;
  if (auto it = rj_annotations.find(kExclusiveKey); it != rj_annotations.end()) {
    meta->annotations[kExclusiveKey] = it->second;
    if (auto s = rj_annotations.find(kNodeSelectorStrategyKey); s != rj_annotations.end()) {
      meta->annotations[kNodeSelectorStrategyKey] = s->second;
    }
  }
}

}  // namespace

api::Job ConstructJob(const api::JobSet& js, const api::ReplicatedJob& rj, int32_t index) {
  api::Job job = rj.job_template;
  job.api_version = "batch/v1";
  job.meta = api::ObjectMeta{};
  job.meta.labels = rj.job_template.meta.labels;
  job.meta.annotations = rj.job_template.meta.annotations;
  job.meta.name = JobName(js.meta.name, rj.name, index);
  job.meta.namespace_ = js.meta.namespace_;
  job.meta.source = js.meta.source;
  LabelAndAnnotate(&job.meta, js, rj, index);
  LabelAndAnnotate(&job.pod_template.meta, js, rj, index);
  // Exclusive placement with the nodeSelector strategy: the nodes were labelled beforehand.
  if (job.meta.annotations.count(kExclusiveKey) > 0 &&
      job.meta.annotations.count(kNodeSelectorStrategyKey) > 0) {
    job.pod_template.node_selector[kNamespacedJobKey] =
        fmt::format("{}_{}", job.meta.namespace_, job.meta.name);
    api::Toleration t;
    t.key = kNoScheduleTaintKey;
    t.op = api::TolerationOperator::kExists;
    t.effect = api::TaintEffect::kNoSchedule;
    job.pod_template.tolerations.push_back(t);
  }
  job.suspend = js.suspend;
  job.status = api::JobStatus{};
  return job;
}

std::vector<std::string> WaitsFor(const api::JobSet& js, const api::ReplicatedJob& rj) {
  std::vector<std::string> out;
  for (const api::JobSetDependsOn& d : rj.depends_on) out.push_back(d.name);
  if (js.startup_in_order) {
    for (const api::ReplicatedJob& other : js.replicated_jobs) {
      if (other.name == rj.name) break;
      out.push_back(other.name);
    }
  }
  return out;
}

JobSetSyncResult JobSetController::Sync(const api::JobSet& js, const api::ObjectSet& cluster) const {
  JobSetSyncResult r;
  const std::string who = fmt::format("JobSet {}/{}", js.meta.namespace_, js.meta.name);
  std::set<std::string> existing;
  for (const api::Job& j : cluster.jobs) {
    if (j.meta.namespace_ == js.meta.namespace_) existing.insert(j.meta.name);
  }
  r.plan = PlanScheduling(js, options_.gang_of_gangs);
  if (r.plan && !r.plan->build_error.empty()) {
    r.events.push_back({"Warning", "FailedWorkloadCompilation", who,
                        "building Workload: " + r.plan->build_error});
  }
  const bool linked = r.plan && r.plan->workload && r.plan->errors.empty();
  if (linked) {
    r.events.push_back({"Normal", "WorkloadCreated", who,
                        fmt::format("Created Workload {}", r.plan->workload->meta.name)});
  }
  for (const api::ReplicatedJob& rj : js.replicated_jobs) {
    for (int32_t i = 0; i < rj.replicas; ++i) {
      const std::string name = JobName(js.meta.name, rj.name, i);
      if (existing.count(name) > 0) continue;
      api::Job job = ConstructJob(js, rj, i);
      if (linked) {
        if (auto it = r.plan->by_job.find(name); it != r.plan->by_job.end()) {
          job.meta.annotations[kGroupTemplateNameKey] = it->second.first;
          job.pod_template.pod_group_name = it->second.second;
          job.pod_template.scheduling_group_set = true;
        }
      }
      job.meta.uid = DerivedUid("Job", job.meta.namespace_, job.meta.name);
      job.meta.owner_references = {NewControllerRef(kApiVersion, kKind, js.meta)};
      r.created_jobs.push_back(std::move(job));
    }
  }
  return r;
}

}  // namespace wasched::controller::jobset
