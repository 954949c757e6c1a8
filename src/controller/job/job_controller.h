// File: controller/job/job_controller.h
//
// The Job controller's workload-aware part (kubernetes/kubernetes pkg/controller/job:
// job_scheduling_manager.go, and the pod creation of job_controller.go; spec/was-v1.37.md §8,
// KEP-5547): for a batch/v1 Job it compiles `spec.scheduling` through the workloadbuilder into
// a Workload and a PodGroup it owns (or, when a parent delegates, only a PodGroup from the
// parent's Workload), keeps a gang's minCount following the Job (elastic resize patches the live
// objects), and creates the Job's pods naming that PodGroup in `spec.schedulingGroup`.
//
//   JobController controller(gates);
//   JobSyncResult r = controller.Sync(job, cluster);   // cluster: Workloads, PodGroups, Pods
//   // r.created_workloads, r.created_pod_groups, r.created_pods, r.patches, r.events
//
//   ControllerRun run = RunJobController(&objects, gates);   // every Job; objects updated
//
// Management mode (§8.1): gate WorkloadWithJob off, or the pod template already names a
// PodGroup → nothing; no controller owner → Workload + PodGroup; a controller owner and the
// annotation scheduling.k8s.io/group-template-name → PodGroup only, from the parent's Workload
// (its spec.controllerRef is the Job's owner); otherwise nothing. Objects are created only for a
// Job that never started (§8.2); a started Job only discovers existing ones.
//
// What the API server would fill in and wasched cannot ask for is derived deterministically:
// uids of created objects (names.h DerivedUid) and the 5-character generateName suffix of pod
// names (NameSuffix of the Job uid and the pod's ordinal). Not thread-safe; no I/O.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_set>
#include <vector>

#include "api/job.h"
#include "api/object_set.h"
#include "util/feature_gates.h"

namespace wasched::controller::job {

// Annotation and label names (upstream constants).
inline constexpr const char* kGroupTemplateNameAnnotation = "scheduling.k8s.io/group-template-name";
inline constexpr const char* kJobNameLabel = "batch.kubernetes.io/job-name";
inline constexpr const char* kControllerUidLabel = "batch.kubernetes.io/controller-uid";
inline constexpr const char* kLegacyJobNameLabel = "job-name";
inline constexpr const char* kLegacyControllerUidLabel = "controller-uid";
inline constexpr const char* kJobCompletionIndexAnnotation = "batch.kubernetes.io/job-completion-index";
// kDerivedUidAnnotation: wasched-only; on every object generated for a Job that had no
// metadata.uid, holding the uid wasched derived for it (the Workload's name depends on it).
inline constexpr const char* kDerivedUidAnnotation = "wasched.io/derived-job-uid";

// ManagementMode: which scheduling objects the controller manages for a Job (upstream
// managementMode).
enum class ManagementMode { kNone, kBoth, kPodGroupOnly };

[[nodiscard]] const char* ManagementModeName(ManagementMode mode);  // "none", "both", "podGroupOnly"

// GetManagementMode: §8.1 above. O(owner references).
[[nodiscard]] ManagementMode GetManagementMode(const api::Job& job, const FeatureGates& gates);

// IsNewJob: upstream isNewJob: no pods of the Job, and nothing in its status says it started.
// wasched reads no status.startTime or conditions; `status.active`, `succeeded`, `failed` all
// zero stand for them.
[[nodiscard]] bool IsNewJob(const api::Job& job, size_t pod_count);

// ControlledBy: `meta` has a controller owner reference with the Job's uid (metav1.IsControlledBy).
[[nodiscard]] bool ControlledBy(const api::ObjectMeta& meta, const api::Job& job);

// Event: a core/v1 Event the controller records on the Job ("Normal" / "Warning").
struct Event {
  std::string type;
  std::string reason;
  std::string message;
};

// MinCountPatch: a strategic-merge patch of gang.minCount on a live object (kind "Workload":
// podGroupTemplates[0]; kind "PodGroup": spec.schedulingPolicy).
struct MinCountPatch {
  std::string kind;
  std::string namespace_;
  std::string name;
  int32_t old_min_count = 0;
  int32_t min_count = 0;
};

// JobSyncResult: what one sync of one Job did. `pod_group_name` is the PodGroup the Job's pods
// name (created or found), nullopt when the Job falls back to default scheduling.
// `errors` are sync errors upstream would requeue on (logged), e.g. a Workload with two templates.
struct JobSyncResult {
  ManagementMode mode = ManagementMode::kNone;
  std::vector<api::Workload> created_workloads;
  std::vector<api::PodGroup> created_pod_groups;
  std::vector<api::Pod> created_pods;
  std::vector<MinCountPatch> patches;
  std::vector<Event> events;
  std::vector<std::string> errors;
  std::optional<std::string> pod_group_name;
};

// JobController: see the file comment.
class JobController {
 public:
  explicit JobController(FeatureGates gates) : gates_(gates) {}

  // Sync: one reconcile of `job` (metadata.uid set) against the existing objects of `cluster`.
  // Does not modify `cluster`. `taken_pod_keys` ("ns/name" of every pod that exists, when the
  // caller has them): a created pod's derived name avoids them, as the API server's
  // generateName retry would (nullptr: only the Job's own pods are avoided).
  // O(objects of the Job's namespace + pods created).
  [[nodiscard]] JobSyncResult Sync(
      const api::Job& job, const api::ObjectSet& cluster,
      const std::unordered_set<std::string>* taken_pod_keys = nullptr) const;

 private:
  FeatureGates gates_;
};

// ControllerRun: what RunJobController did over a whole input. `generated` holds the created
// Workloads, PodGroups and Pods in Job order; `warnings` are for stderr (derived uids, sync
// errors); `events` are "<type> <reason> Job <ns/name>: <message>" lines; `patches` the elastic
// minCount patches applied to live objects.
struct ControllerRun {
  api::ObjectSet generated;
  std::vector<std::string> warnings;
  std::vector<std::string> events;
  std::vector<MinCountPatch> patches;
};

// RunJobController: syncs every Job of `objects` in input order. A Job without metadata.uid
// gets DerivedUid("Job", ns, name) (warning; generated objects carry kDerivedUidAnnotation).
// Created objects are appended to `objects` (so the scheduler sees them, and later Jobs see
// earlier Jobs' objects), patches are applied to the live objects in `objects`.
[[nodiscard]] ControllerRun RunJobController(api::ObjectSet* objects, const FeatureGates& gates);

}  // namespace wasched::controller::job
