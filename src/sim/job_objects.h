// File: sim/job_objects.h
//
// How a trace job enters the simulated cluster (issue 8: "job arrivals → Job with
// .spec.scheduling → Workload/PodGroup/pods"): the TraceJob becomes a batch/v1 Job and the Job
// controller's reconcile (controller/job JobController::Sync; kubernetes/kubernetes
// pkg/controller/job job_scheduling_manager.go, KEP-5547, spec/was-v1.37.md §8) creates the
// Workload, the PodGroup and the pods, with the upstream names (controller/job/names.h).
//
//   JobObjects o = CompileJob(trace.jobs[j], trace.gpu_resource,
//                             {.policy = Policy::kGang, .preemption = false});
//   // o.job.scheduling->scheduling_policy->gang->min_count == pod_count (multi-pod jobs)
//   // o.workloads[0].meta.name == ComputeWorkloadName(o.job), o.pod_group->meta.name ==
//   // ComputePodGroupName(<workload>, "<job>-pgt-0"), o.pods[i].pod_group_name == that name
//
// Per policy:
// - kBasic: a cluster without the workload-aware gates: WorkloadWithJob off, the Job has no
//   .spec.scheduling, the controller manages nothing and creates only the pods.
// - kGang / kGangTopology: WorkloadWithJob on. A multi-pod job's Job carries
//   .spec.scheduling.schedulingPolicy.gang.minCount = its pod count (kGangTopology adds
//   schedulingConstraints.topology [{key: topology_key}] when a key is given); a single-pod job's
//   Job has no .spec.scheduling, so the controller (manageBoth, default policy Basic) still
//   creates a Workload and a basic PodGroup of one pod, as a v1.37 cluster with the gate on does.
//
// What the API server and admission would fill in is set after the controller ran (the
// controller itself never sets it): metadata.creationTimestamp of every created object = the
// job's submit time; the PodGroup's priority = the trace priority (priority admission) and, with
// preemption off, preemptionPolicy Never on pods and PodGroup. Names: Job = TraceJob.name,
// namespace kSimNamespace, uid DerivedUid("Job", ns, name) (so no derived-uid warning).
//
// Deviation (the trace, not Kubernetes): a job whose GPUs do not divide by --gpus-per-pod has a
// smaller last pod; a Job's pods share one template, so the last created pod's GPU request is
// cut to TraceJob.last_pod_gpu after the controller created it.
// Errors: none expected (the Job is valid by construction); a controller sync error leaves the
// pods without a PodGroup (upstream falls back to default scheduling) and is in `errors`.
// Complexity: O(pod count). No I/O, no clock.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "api/job.h"
#include "api/pod.h"
#include "api/pod_group.h"
#include "api/workload.h"
#include "sim/simulator.h"
#include "sim/trace.h"

namespace wasched::sim {

inline constexpr const char* kSimNamespace = "sim";

// JobCompileOptions: the policy decides the gate and .spec.scheduling; `topology_key` (nullptr =
// none) is the kGangTopology constraint for this job, chosen by the simulator.
struct JobCompileOptions {
  Policy policy = Policy::kGang;
  bool preemption = false;
  const char* topology_key = nullptr;
};

// JobObjects: the Job and what the controller created for it (pods in ordinal order).
struct JobObjects {
  api::Job job;
  std::vector<api::Workload> workloads;
  std::optional<api::PodGroup> pod_group;
  std::vector<api::Pod> pods;
  std::vector<std::string> errors;
};

// CompileJob: see the file comment. `gpu_resource` is Trace::gpu_resource.
[[nodiscard]] JobObjects CompileJob(const TraceJob& job, const std::string& gpu_resource,
                                    const JobCompileOptions& options);

}  // namespace wasched::sim
