// File: controller/jobset/pod_webhook.h
//
// JobSet's pod admission webhook (kubernetes-sigs/jobset pkg/webhooks/pod_webhook.go Default and
// ValidateCreate), applied to every pod the Job controller creates for a JobSet's Job (a pod
// annotated jobset.sigs.k8s.io/jobset-name):
//   - unless the nodeSelector strategy is used, the label jobset.sigs.k8s.io/priority = the
//     pod's priority (as the Priority admission plugin resolved it);
//   - exclusive placement (annotation alpha.jobset.sigs.k8s.io/exclusive-topology = topology
//     key, not the nodeSelector strategy): the leader pod (completion index 0) gets
//     setExclusiveAffinities' two required terms — podAffinity to pods with its job-key in the
//     topology domain, podAntiAffinity against pods of another job-key with the same priority,
//     both with namespaceSelector {} (every namespace); a follower pod is refused until the
//     leader is scheduled, then created with nodeSelector[topology key] = the leader's domain.
//
//   int32_t priority = ...;                     // resolved from priorityClassName
//   WebhookResult w = jobset::AdmitPod(&pod, priority);
//   if (w.deferred) { ... wait for w.leader_job's index-0 pod ... }
//
// Pure; O(labels).
#pragma once

#include <cstdint>
#include <string>

#include "api/pod.h"

namespace wasched::controller::jobset {

// WebhookResult: `deferred` = the pod's creation is refused until the leader of its Job is
// scheduled; then it gets nodeSelector[`topology_key`].
struct WebhookResult {
  bool deferred = false;
  std::string topology_key;
};

// AdmitPod: Default then ValidateCreate on `pod` (mutated in place). A pod that is not a
// JobSet's is left alone.
[[nodiscard]] WebhookResult AdmitPod(api::Pod* pod, int32_t priority);

// IsLeaderPod: placement.IsLeaderPod (completion-index annotation "0").
[[nodiscard]] bool IsLeaderPod(const api::Pod& pod);

}  // namespace wasched::controller::jobset
