// File: api/workload_building_blocks.h
//
// The scheduling.k8s.io/v1alpha3 "building block" types that controllers embed in their own
// objects (batch/v1 Job `spec.scheduling` today) to say how their pods are to be grouped. They
// mirror the PodGroupTemplate / CompositePodGroupTemplate fields but make the counts optional,
// so that a controller can default them (a Job's gang minCount defaults to its parallelism).
// Source: kubernetes/api scheduling/v1alpha3/types.go `Workload*` types
// (spec/was-v1.37.md §2.6, KEP-6089). Pure data; no I/O.
//
// Validation difference that follows from the pointer counts: `gang: {minCount: 0}` is
// Invalid(minimum) here, while a PodGroupTemplate's non-pointer minCount 0 is Required.
#pragma once

#include <cstdint>
#include <optional>

#include "api/workload.h"

namespace wasched::api {

// WorkloadPodGroupGangSchedulingPolicy: gang{minCount *int32}; nullopt = "controller decides".
struct WorkloadPodGroupGangSchedulingPolicy {
  std::optional<int32_t> min_count;
  friend bool operator==(const WorkloadPodGroupGangSchedulingPolicy&,
                         const WorkloadPodGroupGangSchedulingPolicy&) = default;
};

// WorkloadPodGroupSchedulingPolicy: union, exactly one of basic / gang (basic immutable, gang
// NoSet/NoUnset, only gang.minCount may change).
struct WorkloadPodGroupSchedulingPolicy {
  std::optional<BasicSchedulingPolicy> basic;
  std::optional<WorkloadPodGroupGangSchedulingPolicy> gang;
  friend bool operator==(const WorkloadPodGroupSchedulingPolicy&,
                         const WorkloadPodGroupSchedulingPolicy&) = default;
};

// WorkloadPodGroupSchedulingConstraints: `topology` has at most one item.
using WorkloadPodGroupSchedulingConstraints = SchedulingConstraints;
// WorkloadPodGroupDisruptionMode: union single{} | all{}.
using WorkloadPodGroupDisruptionMode = DisruptionMode;
// WorkloadPodGroupResourceClaim: `name` + union resourceClaimName | resourceClaimTemplateName.
using WorkloadPodGroupResourceClaim = PodGroupResourceClaim;

// WorkloadCompositePodGroupGangSchedulingPolicy: gang{minGroupCount *int32}.
struct WorkloadCompositePodGroupGangSchedulingPolicy {
  std::optional<int32_t> min_group_count;
  friend bool operator==(const WorkloadCompositePodGroupGangSchedulingPolicy&,
                         const WorkloadCompositePodGroupGangSchedulingPolicy&) = default;
};

// WorkloadCompositePodGroupSchedulingPolicy: union basic{} | gang{minGroupCount}.
struct WorkloadCompositePodGroupSchedulingPolicy {
  std::optional<BasicSchedulingPolicy> basic;
  std::optional<WorkloadCompositePodGroupGangSchedulingPolicy> gang;
  friend bool operator==(const WorkloadCompositePodGroupSchedulingPolicy&,
                         const WorkloadCompositePodGroupSchedulingPolicy&) = default;
};

// WorkloadCompositePodGroupSchedulingConstraints: `topology` has at most one item.
using WorkloadCompositePodGroupSchedulingConstraints = SchedulingConstraints;
// WorkloadCompositePodGroupDisruptionMode: union single{} | all{}.
using WorkloadCompositePodGroupDisruptionMode = DisruptionMode;

}  // namespace wasched::api
