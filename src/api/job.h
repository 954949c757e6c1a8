// File: api/job.h
//
// batch/v1 Job: the fields workload-aware scheduling reads — parallelism, completions,
// completionMode, the pod template and `spec.scheduling` (JobSchedulingConfiguration, gate
// WorkloadWithJob), from which the Job controller compiles a Workload and a PodGroup
// (spec/was-v1.37.md §2.8, §8). Source: kubernetes/api batch/v1/types.go; KEP-5547.
// Pure data; no I/O.
//
//   api::Job job;                    // as decoded from
//   // spec: {parallelism: 8, scheduling: {schedulingPolicy: {gang: {minCount: 8}}}}
//   job.scheduling->scheduling_policy->gang->min_count == 8
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "api/object_meta.h"
#include "api/pod.h"
#include "api/workload_building_blocks.h"

namespace wasched::api {

// The JobSchedulingConfiguration field names (k8s.io/api batch/v1 v0.37.2; the older alpha
// spellings `policy` / `constraints` are unknown fields in v1.37.2, observed).
inline constexpr const char* kJobSchedulingPolicyField = "schedulingPolicy";
inline constexpr const char* kJobSchedulingConstraintsField = "schedulingConstraints";

// JobSchedulingConfiguration: batch/v1 JobSpec.scheduling. Mutability (DV): the whole struct
// NoSet/NoUnset; schedulingPolicy NoSet/NoUnset with only gang.minCount mutable;
// schedulingConstraints, disruptionMode and resourceClaims immutable.
struct JobSchedulingConfiguration {
  std::optional<WorkloadPodGroupSchedulingPolicy> scheduling_policy;
  std::optional<WorkloadPodGroupSchedulingConstraints> scheduling_constraints;
  std::optional<WorkloadPodGroupDisruptionMode> disruption_mode;
  std::vector<WorkloadPodGroupResourceClaim> resource_claims;  // ≤ 4, map key `name`

  // operator==: every field.
  friend bool operator==(const JobSchedulingConfiguration& a, const JobSchedulingConfiguration& b) {
    return a.scheduling_policy == b.scheduling_policy &&
           a.scheduling_constraints == b.scheduling_constraints &&
           a.disruption_mode == b.disruption_mode && a.resource_claims == b.resource_claims;
  }
};

// CompletionMode: batch/v1 CompletionMode.
enum class CompletionMode { kNonIndexed, kIndexed };

// JobStatus: the counters of batch/v1 JobStatus (other status fields are not read).
struct JobStatus {
  int32_t active = 0;
  int32_t succeeded = 0;
  int32_t failed = 0;
};

// Job: batch/v1 Job, the scheduling-relevant subset.
// `parallelism` / `completions` nullopt = not set in the input (API defaulting, not applied by the
// codec: both unset → 1 and 1; parallelism unset → 1; see EffectiveParallelism).
// `pod_template` is spec.template: its `meta` holds only the template's labels and annotations
// (no name), the rest is the PodSpec exactly as a Pod's.
struct Job {
  ObjectMeta meta;
  std::string api_version;
  std::optional<int32_t> parallelism;
  std::optional<int32_t> completions;
  std::optional<CompletionMode> completion_mode;
  bool suspend = false;
  Pod pod_template;
  // template_restart_policy: spec.template.spec.restartPolicy as written ("" = unset; the Pod
  // model keeps no restartPolicy). Validated as a Job's: OnFailure or Never.
  std::string template_restart_policy;
  std::optional<JobSchedulingConfiguration> scheduling;
  JobStatus status;
};

// EffectiveParallelism: spec.parallelism after API defaulting (SetDefaults_Job: unset → 1).
[[nodiscard]] inline int32_t EffectiveParallelism(const Job& job) {
  return job.parallelism.value_or(1);
}

// EffectiveCompletions: spec.completions after API defaulting (pkg/apis/batch/v1 SetDefaults_Job:
// completions and parallelism both unset → both 1); nullopt when unset otherwise (a work queue).
[[nodiscard]] inline std::optional<int32_t> EffectiveCompletions(const Job& job) {
  if (!job.completions && !job.parallelism) return 1;
  return job.completions;
}

[[nodiscard]] inline const char* CompletionModeName(CompletionMode mode) {
  return mode == CompletionMode::kIndexed ? "Indexed" : "NonIndexed";
}

}  // namespace wasched::api
