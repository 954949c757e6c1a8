// File: sim/job_objects.cc
#include "sim/job_objects.h"

#include "api/object_set.h"
#include "controller/job/job_controller.h"
#include "controller/job/names.h"

namespace wasched::sim {

namespace cj = controller::job;

JobObjects CompileJob(const TraceJob& tj, const std::string& gpu_resource, const JobCompileOptions& options) {
  JobObjects out;
  api::Job& job = out.job;
  job.api_version = "batch/v1";
  job.meta.name = tj.name;
  job.meta.namespace_ = kSimNamespace;
  job.meta.uid = cj::DerivedUid("Job", job.meta.namespace_, job.meta.name);
  job.meta.creation_timestamp = tj.submit_seconds;
  job.parallelism = tj.pod_count;
  job.completions = tj.pod_count;
  job.template_restart_policy = "Never";

  api::Pod& t = job.pod_template;
  api::Container c;
  c.name = "c";
  c.image = "registry.k8s.io/pause:3.10";
  c.requests[gpu_resource] = tj.gpu_per_pod;
  c.requests[api::kResourceCPU] = tj.cpu_milli_per_pod;
  c.requests[api::kResourceMemory] = tj.memory_bytes_per_pod;
  t.containers.push_back(std::move(c));
  t.priority = tj.priority;
  if (!options.preemption) t.preemption_policy = api::PreemptionPolicy::kNever;
  if (!tj.gpu_models.empty()) {
    api::NodeAffinity a;
    a.required.emplace();
    api::NodeSelectorTerm term;
    term.match_expressions.push_back({kGpuModelLabel, api::NodeSelectorOperator::kIn, tj.gpu_models});
    a.required->push_back(std::move(term));
    t.node_affinity = std::move(a);
  }

  const bool gang = options.policy != Policy::kBasic;
  if (gang && tj.pod_count > 1) {
    api::JobSchedulingConfiguration s;
    s.scheduling_policy.emplace();
    s.scheduling_policy->gang = api::WorkloadPodGroupGangSchedulingPolicy{tj.pod_count};
    if (options.topology_key != nullptr) {
      s.scheduling_constraints.emplace();
      s.scheduling_constraints->topology.push_back({options.topology_key});
    }
    job.scheduling = std::move(s);
  }

  // The controller syncs against the objects it owns for this Job: none, the Job is new. An
  // empty set keeps the sync O(pods) instead of O(everything created so far).
  FeatureGates gates;
  gates.workload_with_job = gang;
  static const api::ObjectSet kNoObjects;
  cj::JobSyncResult r = cj::JobController(gates).Sync(job, kNoObjects);

  const int64_t created = tj.submit_seconds;
  out.errors = std::move(r.errors);
  out.workloads = std::move(r.created_workloads);
  for (api::Workload& wl : out.workloads) wl.meta.creation_timestamp = created;
  if (!r.created_pod_groups.empty()) {
    out.pod_group = std::move(r.created_pod_groups.front());
    api::PodGroup& g = *out.pod_group;
    g.meta.creation_timestamp = created;
    g.priority = tj.priority;
    if (!options.preemption) g.preemption_policy = api::PreemptionPolicy::kNever;
  }
  out.pods = std::move(r.created_pods);
  for (api::Pod& p : out.pods) p.meta.creation_timestamp = created;
  if (!out.pods.empty() && tj.last_pod_gpu != tj.gpu_per_pod) {
    out.pods.back().containers[0].requests[gpu_resource] = tj.last_pod_gpu;
  }
  return out;
}

}  // namespace wasched::sim
