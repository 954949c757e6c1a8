// File: controller/manager/controller_manager.h
//
// The controllers wasched runs before scheduling, as a kube-controller-manager (plus the JobSet
// and LeaderWorkerSet operators and their pod webhooks) would on a new input: every controller
// creates what its objects want, and what it creates is reconciled by the next one:
//
//   Deployment ──► ReplicaSet ──► Pods             (controller/deployment, controller/replicaset)
//   StatefulSet ──► Pods                            (controller/statefulset)
//   JobSet ──► Workload, PodGroups, Jobs ──► Pods   (controller/jobset, then controller/job)
//   LeaderWorkerSet ──► Workload, PodGroups, leader StatefulSet ──► leader Pods
//                   ──► a worker StatefulSet per leader ──► worker Pods     (controller/lws)
//   Job ──► Workload, PodGroup, Pods                (controller/job, the v1.37 Job controller)
//
// Every created pod passes the pod webhooks of JobSet and LeaderWorkerSet (labels, exclusive
// placement's affinity terms, schedulingGroup). Pods that exist upstream only once another pod
// runs (exclusive placement's followers, StatefulSet OrderedReady, LeaderReady workers, JobSet
// startup ordering) are returned as `deferred`; after a scheduling round ReleaseDeferred creates
// those whose leaders were bound.
//
//   ControllerManager manager({.gates = gates});
//   ManagerRun run = manager.Run(&objects);         // objects gain what was created
//   sched::ScheduleResult r = sched::Schedule(objects, ...);
//   ... bind r's pods in objects ...
//   manager.ReleaseDeferred(&objects, &run);         // pods whose leaders are now bound
//
// Objects without metadata.uid get one derived from kind, namespace and name (the Job
// controller warns per Job; the other kinds get one summary warning). Deterministic. Not
// thread-safe; no I/O.
#pragma once

#include <string>
#include <vector>

#include "api/object_set.h"
#include "controller/controller.h"
#include "controller/job/job_controller.h"
#include "util/feature_gates.h"
#include "util/field_error.h"

namespace wasched::controller {

struct ManagerOptions {
  FeatureGates gates;
  // jobset_gang_of_gangs / lws_composite_groups: the CompositePodGroup trees JobSet and
  // LeaderWorkerSet have designed but not published (controller/jobset/scheduling.h,
  // controller/lws/lws_controller.h).
  bool jobset_gang_of_gangs = false;
  bool lws_composite_groups = false;
};

// ManagerRun: what the controllers did. `generated` holds every created object (Jobs,
// ReplicaSets, StatefulSets, Workloads, CompositePodGroups, PodGroups, Pods; each kind in
// creation order); `warnings` for stderr; `events` "<type> <reason> <Kind ns/name>: <message>";
// `patches` the Job controller's elastic minCount patches; `errors` what JobSet's or
// LeaderWorkerSet's webhook would refuse their object for (spec.scheduling through the
// workloadbuilder's Validate), located at the object; `deferred` the pods still waiting.
struct ManagerRun {
  api::ObjectSet generated;
  std::vector<std::string> warnings;
  std::vector<std::string> events;
  std::vector<job::MinCountPatch> patches;
  InputErrors errors;
  std::vector<DeferredPods> deferred;
};

class ControllerManager {
 public:
  explicit ControllerManager(ManagerOptions options) : options_(options) {}

  // Run: every controller over `objects` (see the file comment); created objects are appended
  // to `objects` and to the result's `generated`. O(objects + created).
  [[nodiscard]] ManagerRun Run(api::ObjectSet* objects) const;

  // ReleaseDeferred: creates the deferred pods (and worker StatefulSets) whose leaders are all
  // bound in `objects` (Pod::node_name set), with their nodeSelector; appends them to `objects`
  // and `run->generated` and drops them from `run->deferred`. A leader's node without the
  // topology label leaves its followers deferred (upstream's webhook fails them). Returns the
  // number of pods created. O(deferred × leaders + pods).
  size_t ReleaseDeferred(api::ObjectSet* objects, ManagerRun* run) const;

  // DeferredWarnings: one line per deferred set still waiting (for stderr after the last round).
  [[nodiscard]] static std::vector<std::string> DeferredWarnings(const ManagerRun& run);

 private:
  ManagerOptions options_;
};

}  // namespace wasched::controller
