// File: live/api_writer.h
//
// The live scheduler's writes to the API server (`wasched run`, issue 17), each the request
// kube-scheduler v1.37.2 makes for the same decision:
//   - Bind: POST pods/binding with the pod's UID as precondition (DefaultBinder,
//     pkg/scheduler/framework/plugins/defaultbinder);
//   - DeletePod: DELETE of a preemption victim with a UID precondition (pkg/scheduler/framework/
//     preemption: the victim is deleted, not evicted through the eviction API);
//   - SetPodScheduledFalse: the PodScheduled=False condition (reason Unschedulable or
//     SchedulerError, the message) and status.nominatedNodeName through a strategic-merge PATCH
//     of pods/status (pkg/scheduler/schedule_one.go updatePod, util.PatchPodStatus);
//   - SetGroupCondition: a PodGroup's condition (PodGroupInitiallyScheduled; the scheduling loop
//     writes none on a CompositePodGroup, as v1.37.2) by a strategic-merge PATCH of its /status (the
//     conditions merge by type: patchMergeKey in k8s.io/api scheduling/v1beta1 and v1alpha3);
//   - ReserveClaim / UnreserveClaim: a ResourceClaim's finalizer (PUT of the claim), its
//     status.allocation and status.reservedFor (PUT of resourceclaims/status, re-read and retried
//     on a resourceVersion conflict: retry.DefaultRetry's 5 attempts), and the pod's reservation
//     removed again by a strategic-merge PATCH of /status (the DynamicResources plugin's PreBind
//     and Unreserve; payloads in live/claim_status.h);
//   - Event: an events.k8s.io/v1 Event (reasons Scheduled, FailedScheduling, Preempted;
//     reportingController "wasched"), as the scheduler's event recorder writes them.
// Errors are KubeErrors (kube/kube_error.h); nothing throws. A Writer owns nothing but its client:
// one Writer per thread (the client is not thread-safe).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include <tl/expected.hpp>

#include "kube/api_client.h"
#include "kube/kube_error.h"
#include "live/claim_status.h"
#include "live/object_store.h"

namespace wasched::live {

// WallClock: the current time as Unix microseconds (injected: tests pass a fixed one).
using WallClock = std::function<int64_t()>;
[[nodiscard]] WallClock SystemWallClock();
// FormatRfc3339 / FormatMicroTime: "2026-12-02T15:04:05Z" (metav1.Time) and
// "2026-12-02T15:04:05.000000Z" (metav1.MicroTime) of Unix microseconds, UTC.
[[nodiscard]] std::string FormatRfc3339(int64_t unix_micros);
[[nodiscard]] std::string FormatMicroTime(int64_t unix_micros);

// ObjectRef: a namespaced object and its UID ("" = no precondition).
struct ObjectRef {
  std::string namespace_;
  std::string name;
  std::string uid;
};

// EventSpec: one events.k8s.io/v1 Event about `regarding` (kind "Pod", "PodGroup", …).
struct EventSpec {
  std::string regarding_kind;
  std::string regarding_api_version;
  ObjectRef regarding;
  std::string type;    // "Normal" or "Warning"
  std::string reason;  // "Scheduled", "FailedScheduling", "Preempted"
  std::string action;  // "Binding", "Scheduling", "Preempting"
  std::string note;    // at most 1 KiB (the API server's limit), cut here
};

class Writer {
 public:
  // `client` must outlive the Writer; `instance` is the event's reportingInstance.
  Writer(kube::ApiClient* client, WallClock clock, std::string instance);

  [[nodiscard]] tl::expected<void, kube::KubeError> Bind(const ObjectRef& pod,
                                                         const std::string& node);
  [[nodiscard]] tl::expected<void, kube::KubeError> DeletePod(const ObjectRef& pod);
  // SetDisruptionTarget: the victim's DisruptionTarget=True condition, reason
  // PreemptionByScheduler, `message` (strategic-merge PATCH of pods/status), written before the
  // deletion as upstream's preemption does.
  [[nodiscard]] tl::expected<void, kube::KubeError> SetDisruptionTarget(const ObjectRef& pod,
                                                                        const std::string& message);
  // SetPodScheduledFalse: `nominated_node` "" leaves status.nominatedNodeName as it is.
  [[nodiscard]] tl::expected<void, kube::KubeError> SetPodScheduledFalse(
      const ObjectRef& pod, const std::string& reason, const std::string& message,
      const std::string& nominated_node);
  // SetNominatedNodeName: status.nominatedNodeName of a preemptor waiting for its victims to
  // go (strategic-merge PATCH of pods/status).
  [[nodiscard]] tl::expected<void, kube::KubeError> SetNominatedNodeName(const ObjectRef& pod,
                                                                         const std::string& node);
  // SetGroupCondition: `resource` "podgroups" (scheduling.k8s.io/v1beta1) or
  // "compositepodgroups" (v1alpha3): one strategic-merge PATCH of /status (the conditions list
  // merges by type, so other conditions are kept), with the group's UID as precondition.
  // lastTransitionTime is `previous`'s when the status did not change (previous = the condition
  // the group shows now, nullptr when it has none).
  [[nodiscard]] tl::expected<void, kube::KubeError> SetGroupCondition(
      const std::string& resource, const ObjectRef& group, const StoredCondition& condition,
      const StoredCondition* previous);
  [[nodiscard]] tl::expected<void, kube::KubeError> Event(const EventSpec& event);
  // ReserveClaim: records `w` on its claim (PrepareClaimStatus), starting from `cached` (the
  // claim as the watch delivered it; nullptr: read first). A claim `w` allocates gets the
  // delete-protection finalizer first (an update of the claim). A 409 re-reads the claim and
  // tries again, 5 attempts in all; PrepareClaimStatus's refusals are kConflict errors. Nothing
  // is sent when the claim already shows the write. At most 1 + 2 × 5 requests.
  [[nodiscard]] tl::expected<void, kube::KubeError> ReserveClaim(
      const ClaimWrite& w, const std::shared_ptr<const std::string>& cached);
  // UnreserveClaim: removes the pod `pod_uid` from status.reservedFor of `claim` (its UID as
  // precondition; a claim gone counts as done).
  [[nodiscard]] tl::expected<void, kube::KubeError> UnreserveClaim(const ObjectRef& claim,
                                                                   const std::string& pod_uid);

 private:
  kube::ApiClient* client_;
  WallClock clock_;
  std::string instance_;
  uint64_t event_counter_ = 0;
};

}  // namespace wasched::live
