// File: controller/jobset/jobset_controller.h
//
// The JobSet controller's creating part (kubernetes-sigs/jobset pkg/controllers
// jobset_controller.go: constructJobsFromTemplate, constructJob, labelAndAnnotateObject; the
// KEP-969 scheduling objects of scheduling.go): for every ReplicatedJob, `replicas` child Jobs
// `<jobset>-<replicatedJob>-<index>` (completionMode Indexed by JobSet's defaulting), each a copy
// of the Job template whose Job and pod template carry the jobset.sigs.k8s.io/* labels and
// annotations, the exclusive-placement annotations (JobSet- or ReplicatedJob-level), the
// nodeSelector strategy's nodeSelector and toleration, the JobSet's suspend, and a controller
// owner reference. With workload-aware scheduling (controller/jobset/scheduling.h) it also
// creates the Workload, CompositePodGroups and PodGroups first and points each Job at its
// PodGroup (annotation scheduling.k8s.io/group-template-name, pod template
// schedulingGroup.podGroupName). The Job controller then creates the pods; JobSet's pod webhook
// (controller/jobset/pod_webhook.h) adjusts them as they are created.
//
//   JobSetController c({.gang_of_gangs = false});
//   JobSetSyncResult r = c.Sync(js, cluster);   // r.created_jobs, r.plan
//
// Jobs that exist (by name, in the namespace) are not created again. Startup ordering: a
// ReplicatedJob that waits (InOrder, dependsOn) still gets its Jobs here; the manager defers
// its pods until the ReplicatedJobs it waits for have all their pods bound
// (`WaitsFor`). Not thread-safe; no I/O.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "api/jobset.h"
#include "api/object_set.h"
#include "controller/controller.h"
#include "controller/jobset/scheduling.h"

namespace wasched::controller::jobset {

struct JobSetOptions {
  // gang_of_gangs: the CompositePodGroup tree of scheduling.h (not published upstream).
  bool gang_of_gangs = false;
};

struct JobSetSyncResult {
  std::vector<api::Job> created_jobs;
  std::optional<SchedulingPlan> plan;
  std::vector<ControllerEvent> events;
};

class JobSetController {
 public:
  explicit JobSetController(JobSetOptions options) : options_(options) {}

  // Sync: see the file comment. `js.meta.uid` must be set. O(replicated jobs × replicas).
  [[nodiscard]] JobSetSyncResult Sync(const api::JobSet& js, const api::ObjectSet& cluster) const;

 private:
  JobSetOptions options_;
};

// ConstructJob: constructJob for the `index`th Job of `rj` (no owner, uid or scheduling link).
[[nodiscard]] api::Job ConstructJob(const api::JobSet& js, const api::ReplicatedJob& rj,
                                    int32_t index);

// WaitsFor: the ReplicatedJobs whose pods must all be running before `rj`'s start (InOrder: the
// ReplicatedJobs before it; dependsOn: the named ones). Empty when it starts at once.
[[nodiscard]] std::vector<std::string> WaitsFor(const api::JobSet& js, const api::ReplicatedJob& rj);

}  // namespace wasched::controller::jobset
