// File: api/jobset.h
//
// jobset.x-k8s.io/v1alpha2 JobSet: the fields its controller reads to create child Jobs and the
// pod-webhook fields (exclusive placement), plus `spec.scheduling`, the workload-aware
// scheduling configuration of JobSet KEP-969 (kubernetes-sigs/jobset keps/969-WAS-integration,
// alpha behind JobSet's JobSetWorkloadAwareSchedulingAPI gate; types from the KEP's
// implementation, api/jobset/v1alpha2/jobset_types.go JobSetScheduling). Source:
// kubernetes-sigs/jobset api/jobset/v1alpha2/jobset_types.go. Pure data; no I/O.
//
//   api::JobSet js;   // spec.replicatedJobs: [{name: rj, replicas: 3, template: {spec: {...}}}]
//   js.replicated_jobs[0].job_template.parallelism == 2
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "api/job.h"
#include "api/object_meta.h"
#include "api/workload.h"

namespace wasched::api {

// DependsOn: spec.replicatedJobs[].dependsOn[] {name, status Ready|Complete}.
struct JobSetDependsOn {
  std::string name;
  std::string status;
};

// ReplicatedJob: spec.replicatedJobs[]. `job_template` holds the JobTemplateSpec: its `meta`
// only the template's labels and annotations, the rest a Job's spec. `group_name` defaults to
// "default", `replicas` to 1 (CRD defaults).
struct ReplicatedJob {
  std::string name;
  std::string group_name = "default";
  int32_t replicas = 1;
  Job job_template;
  std::vector<JobSetDependsOn> depends_on;
};

// JobScheduling / ReplicatedJobScheduling / JobSetScheduling: KEP-969 `spec.scheduling`
// (v1alpha3 PodGroupSchedulingPolicy: a gang `minCount` of 0 means "not set, the controller
// computes it"). Optional blocks are nullopt when absent.
struct JobSetJobScheduling {
  std::optional<PodGroupSchedulingPolicy> scheduling_policy;
  std::optional<SchedulingConstraints> scheduling_constraints;
  std::optional<DisruptionMode> disruption_mode;
  std::vector<PodGroupResourceClaim> resource_claims;
};
struct ReplicatedJobScheduling {
  std::vector<std::string> target_replicated_jobs;
  std::optional<PodGroupSchedulingPolicy> scheduling_policy;
  std::optional<SchedulingConstraints> scheduling_constraints;
  std::optional<DisruptionMode> disruption_mode;
  std::vector<PodGroupResourceClaim> resource_claims;
  std::optional<JobSetJobScheduling> job;
};
struct JobSetScheduling {
  std::optional<PodGroupSchedulingPolicy> scheduling_policy;
  std::optional<SchedulingConstraints> scheduling_constraints;
  std::optional<DisruptionMode> disruption_mode;
  std::vector<ReplicatedJobScheduling> replicated_jobs;
};

// JobSetCoordinator: spec.coordinator.
struct JobSetCoordinator {
  std::string replicated_job;
  int32_t job_index = 0;
  int32_t pod_index = 0;
};

// JobSet: jobset.x-k8s.io/v1alpha2. `startup_in_order` is spec.startupPolicy.startupPolicyOrder
// InOrder (AnyOrder is the default). `enable_dns_hostnames` defaults to true (webhook),
// `subdomain` to the JobSet's name. `restarts` is status.restarts (a label of every child).
struct JobSet {
  ObjectMeta meta;
  std::string api_version;
  std::vector<ReplicatedJob> replicated_jobs;
  bool startup_in_order = false;
  bool suspend = false;
  std::optional<JobSetCoordinator> coordinator;
  bool enable_dns_hostnames = true;
  std::string subdomain;
  std::optional<JobSetScheduling> scheduling;
  int32_t restarts = 0;
};

}  // namespace wasched::api
