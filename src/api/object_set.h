// File: api/object_set.h
//
// ObjectSet: every object of one input, by kind, in input order (file order, then document
// order). The codec fills it; validation checks it; the scheduler reads it (Jobs are read and
// validated; compiling them into Workloads and PodGroups is the Job controller's work).
#pragma once

#include <algorithm>
#include <string>

#include <cstddef>
#include <vector>

#include "api/dra/device.h"
#include "api/dra/device_class.h"
#include "api/apps.h"
#include "api/dra/resource_claim.h"
#include "api/job.h"
#include "api/jobset.h"
#include "api/leader_worker_set.h"
#include "api/node.h"
#include "api/pod.h"
#include "api/pod_disruption_budget.h"
#include "api/pod_group.h"
#include "api/priority_class.h"
#include "api/workload.h"

namespace wasched::api {

struct ObjectSet {
  std::vector<Node> nodes;
  std::vector<Pod> pods;
  std::vector<PriorityClass> priority_classes;
  std::vector<Workload> workloads;
  std::vector<PodGroup> pod_groups;
  std::vector<CompositePodGroup> composite_pod_groups;
  std::vector<Job> jobs;  // batch/v1
  std::vector<PodDisruptionBudget> pod_disruption_budgets;  // policy/v1
  // resource.k8s.io/v1 (DRA, src/dra/README.md)
  std::vector<DeviceClass> device_classes;
  std::vector<ResourceSlice> resource_slices;
  std::vector<ResourceClaim> resource_claims;
  std::vector<ResourceClaimTemplate> resource_claim_templates;
  // Workload controllers' kinds (issue 19): apps/v1, jobset.x-k8s.io/v1alpha2,
  // leaderworkerset.x-k8s.io/v1. Their controllers (src/controller/) create the Jobs,
  // ReplicaSets, StatefulSets and Pods that get scheduled.
  std::vector<Deployment> deployments;
  std::vector<ReplicaSet> replica_sets;
  std::vector<StatefulSet> stateful_sets;
  std::vector<JobSet> job_sets;
  std::vector<LeaderWorkerSet> leader_worker_sets;
};

// ForEachKind: calls `f(kind, namespaced, list)` for every list of `objects` (const or not), in
// the order of the members above; `kind` is the Kubernetes kind ("Pod"), `namespaced` false for
// the cluster-scoped kinds (Node, PriorityClass, DeviceClass, ResourceSlice). For code that
// treats every object alike (names, counts). O(kinds) calls.
template <typename Set, typename F>
void ForEachKind(Set& objects, F&& f) {
  f("Node", false, objects.nodes);
  f("Pod", true, objects.pods);
  f("PriorityClass", false, objects.priority_classes);
  f("Workload", true, objects.workloads);
  f("PodGroup", true, objects.pod_groups);
  f("CompositePodGroup", true, objects.composite_pod_groups);
  f("Job", true, objects.jobs);
  f("PodDisruptionBudget", true, objects.pod_disruption_budgets);
  f("DeviceClass", false, objects.device_classes);
  f("ResourceSlice", false, objects.resource_slices);
  f("ResourceClaim", true, objects.resource_claims);
  f("ResourceClaimTemplate", true, objects.resource_claim_templates);
  f("Deployment", true, objects.deployments);
  f("ReplicaSet", true, objects.replica_sets);
  f("StatefulSet", true, objects.stateful_sets);
  f("JobSet", true, objects.job_sets);
  f("LeaderWorkerSet", true, objects.leader_worker_sets);
}

// RemoveObjectsNamed: drops every object whose "<Kind> <ns/name>" (NamespacedName; "name" for
// cluster-scoped kinds) is in `names` — the `object` of an InputError. O(objects · log names).
template <typename Names>
void RemoveObjectsNamed(ObjectSet* objects, const Names& names) {
  if (names.empty()) return;
  ForEachKind(*objects, [&](const char* kind, bool, auto& list) {
    list.erase(std::remove_if(list.begin(), list.end(),
                              [&](const auto& o) {
                                return names.count(std::string(kind) + " " +
                                                   NamespacedName(o.meta)) > 0;
                              }),
               list.end());
  });
}

// CountObjects: the number of objects of every kind in `objects`. O(kinds).
[[nodiscard]] inline std::size_t CountObjects(const ObjectSet& objects) {
  std::size_t n = 0;
  ForEachKind(objects, [&](const char*, bool, const auto& list) { n += list.size(); });
  return n;
}

}  // namespace wasched::api
