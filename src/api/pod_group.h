// File: api/pod_group.h
//
// scheduling.k8s.io PodGroup (v1beta1 and v1alpha3) and CompositePodGroup (v1alpha3): the
// runtime objects the scheduler schedules as units. Source: kubernetes/api
// scheduling/v1beta1/types.go, scheduling/v1alpha3/types.go (spec/was-v1.37.md §2.4–2.5).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "api/object_meta.h"
#include "api/workload.h"

namespace wasched::api {

// Condition types and reasons (API constants).
inline constexpr const char* kPodGroupInitiallyScheduled = "PodGroupInitiallyScheduled";
inline constexpr const char* kCompositePodGroupInitiallyScheduled =
    "CompositePodGroupInitiallyScheduled";
inline constexpr const char* kDisruptionTarget = "DisruptionTarget";
inline constexpr const char* kReasonScheduled = "Scheduled";
inline constexpr const char* kReasonUnschedulable = "Unschedulable";
inline constexpr const char* kReasonSchedulerError = "SchedulerError";
inline constexpr const char* kReasonPreemptionByScheduler = "PreemptionByScheduler";
// kReasonInvalid: CompositePodGroupInitiallyScheduled reason when the scheduler finds the runtime
// hierarchy invalid (cycle, depth > 4, several Workloads); v1alpha3 type docs.
inline constexpr const char* kReasonInvalid = "Invalid";

// WorkloadReference: PodGroup/CompositePodGroup spec.workloadRef.
struct WorkloadReference {
  std::string workload_name;
  std::string template_name;
  friend bool operator==(const WorkloadReference&, const WorkloadReference&) = default;
};

// PodGroupResourceClaimStatus: status.resourceClaimStatuses[].
struct PodGroupResourceClaimStatus {
  std::string name;
  std::optional<std::string> resource_claim_name;
  friend bool operator==(const PodGroupResourceClaimStatus&,
                         const PodGroupResourceClaimStatus&) = default;
};

// PodGroup: the gang (or basic group) that member pods name in spec.schedulingGroup.
// A standalone PodGroup has no parent; `workload_ref` is optional.
struct PodGroup {
  ObjectMeta meta;
  std::string api_version;
  std::optional<std::string> parent_composite_pod_group_name;
  std::optional<WorkloadReference> workload_ref;
  PodGroupSchedulingPolicy scheduling_policy;
  std::optional<SchedulingConstraints> scheduling_constraints;
  std::vector<PodGroupResourceClaim> resource_claims;
  std::optional<DisruptionMode> disruption_mode;
  std::string priority_class_name;
  std::optional<int32_t> priority;
  std::optional<PreemptionPolicy> preemption_policy;
  std::vector<Condition> conditions;
  std::vector<PodGroupResourceClaimStatus> resource_claim_statuses;
};

// CompositePodGroup: a node of a group tree (v1alpha3 only); `workload_ref` is required.
struct CompositePodGroup {
  ObjectMeta meta;
  std::string api_version;
  std::optional<std::string> parent_composite_pod_group_name;
  std::optional<WorkloadReference> workload_ref;
  CompositePodGroupSchedulingPolicy scheduling_policy;
  std::optional<SchedulingConstraints> scheduling_constraints;
  std::optional<DisruptionMode> disruption_mode;
  std::string priority_class_name;
  std::optional<int32_t> priority;
  std::optional<PreemptionPolicy> preemption_policy;
  std::vector<Condition> conditions;
};

// MinCount: the effective quorum of a PodGroup's policy: gang.minCount, 1 for basic.
[[nodiscard]] inline int32_t MinCount(const PodGroupSchedulingPolicy& policy) {
  return policy.gang ? policy.gang->min_count : 1;
}

}  // namespace wasched::api
