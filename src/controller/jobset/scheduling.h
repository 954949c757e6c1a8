// File: controller/jobset/scheduling.h
//
// What a JobSet becomes for workload-aware scheduling, compiled through the workloadbuilder
// (src/workloadbuilder/), in one of two modes:
//
// KEP-969 (kubernetes-sigs/jobset keps/969-WAS-integration, alpha for Kubernetes 1.37, the
// published integration; implementation pkg/controllers/scheduling.go, workload_builder.go):
// a JobSet with `spec.scheduling` gets one Workload with flat podGroupTemplates and one
// PodGroup per template, no CompositePodGroup:
//   - top-level mode (no replicatedJobs entries, policy unset or gang, no DependsOn / InOrder
//     startup): one template for the whole JobSet, gang minCount Σ replicas × parallelism;
//   - per-ReplicatedJob mode otherwise: one template per replicatedJobs entry (its targets
//     share it; minCount the sum of theirs) and one per untargeted ReplicatedJob (the top-level
//     blocks as fallback), or one per Job when the entry sets `job` (minCount parallelism).
//   Names: Workload `<jobset>-<hash>`, templates `<item>-<hash>` (hash: 10 hex of SHA-1 of the
//   item's kind/namespace/identity), PodGroups the template name in top-level mode, else
//   `<jobset>-<template>`. Child Jobs get the annotation scheduling.k8s.io/group-template-name
//   and their pod template `schedulingGroup.podGroupName`.
//
// Gang of gangs (wasched option `jobset_gang_of_gangs`, CLI `--jobset-gang-of-gangs`): the
// KEP's "Gang of Gangs Support" design, planned upstream for a later alpha (JobSetGangOfGangs
// gate, CompositePodGroup) and not published as code: every JobSet (with or without
// spec.scheduling) gets one Workload whose root compositePodGroupTemplate (gang, minGroupCount =
// its children; basic with sequenced startup or a basic top-level policy) holds one
// podGroupTemplate per ReplicatedJob (gang minCount replicas × parallelism, the entry's blocks),
// or, for an entry with `job`, a compositePodGroupTemplate per ReplicatedJob (gang over its Jobs)
// with one podGroupTemplate per Job. Objects: the root CompositePodGroup, the middle ones, and
// the leaf PodGroups with their parent set.
//
// A suspended JobSet gets none (KEP-969 deletes them on suspend), and so does a JobSet whose pod
// templates already name a PodGroup in gang-of-gangs mode without spec.scheduling (the user's
// own Workload, as the JobSet WAS examples do). Pure; no I/O.
#pragma once

#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "api/jobset.h"
#include "api/pod_group.h"
#include "api/workload.h"
#include "util/field_error.h"

namespace wasched::controller::jobset {

// SchedulingPlan: the objects to create and, per child Job name, the template and PodGroup its
// pods join. `errors`: the workloadbuilder's validation errors (field paths under
// spec.scheduling), which JobSet's webhook would refuse the JobSet with; `build_error` a
// compilation failure (an event upstream). Either leaves the plan without objects.
struct SchedulingPlan {
  std::optional<api::Workload> workload;
  std::vector<api::CompositePodGroup> composite_pod_groups;
  std::vector<api::PodGroup> pod_groups;
  std::map<std::string, std::pair<std::string, std::string>> by_job;  // job → (template, PodGroup)
  std::vector<FieldError> errors;
  std::string build_error;
};

// PlanScheduling: the plan of `js` (metadata.uid set); nullopt when the JobSet gets no
// scheduling objects in this mode. O(replicated jobs × replicas).
[[nodiscard]] std::optional<SchedulingPlan> PlanScheduling(const api::JobSet& js,
                                                           bool gang_of_gangs);

// HasSequencedStartup: startupPolicyOrder InOrder, or a ReplicatedJob with dependsOn.
[[nodiscard]] bool HasSequencedStartup(const api::JobSet& js);

}  // namespace wasched::controller::jobset
