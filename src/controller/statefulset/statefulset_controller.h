// File: controller/statefulset/statefulset_controller.h
//
// The pod-creating part of the StatefulSet controller (kubernetes/kubernetes
// pkg/controller/statefulset/stateful_set_control.go, stateful_set_utils.go
// newVersionedStatefulSetPod / getPodName): pods named `<set>-<ordinal>` for the ordinals
// [spec.ordinals.start, start + replicas), each a copy of the template with the labels
// `statefulset.kubernetes.io/pod-name`, `apps.kubernetes.io/pod-index` and
// `controller-revision-hash` and a controller owner reference. v1.37 gives StatefulSets no
// Workload integration: the pods are plain pods (or name the PodGroup their template names).
//
//   auto r = statefulset::Sync(sts, cluster);
//   // r.created_pods: the pods that can be created now
//   // r.deferred: with podManagementPolicy OrderedReady, pod N+1 waits for pod N
//
// OrderedReady (the default) creates the next ordinal only once the previous pod is Running
// and Ready; wasched has no kubelet, so "bound" stands for "Ready": pod N+1 is deferred until
// pod N is bound (controller.h DeferredPods). Parallel creates every pod at once. The revision
// hash is wasched's stand-in (controller/template_hash.h). Volume claim templates are not
// modelled (the controller returns a warning). Pure; no I/O.
#pragma once

#include <string>
#include <vector>

#include "api/apps.h"
#include "api/object_set.h"
#include "controller/controller.h"

namespace wasched::controller::statefulset {

inline constexpr const char* kApiVersion = "apps/v1";
inline constexpr const char* kKind = "StatefulSet";
inline constexpr const char* kPodNameLabel = "statefulset.kubernetes.io/pod-name";
inline constexpr const char* kPodIndexLabel = "apps.kubernetes.io/pod-index";
inline constexpr const char* kRevisionLabel = "controller-revision-hash";

struct SyncResult {
  std::vector<api::Pod> created_pods;
  std::vector<DeferredPods> deferred;
  std::vector<std::string> warnings;
};

// RevisionName: `<set>-<PodTemplateHash(template)>` (the ControllerRevision's name).
[[nodiscard]] std::string RevisionName(const api::StatefulSet& sts);

// NewPod: the pod of `ordinal` (name, labels, owner, uid), not yet in any list.
[[nodiscard]] api::Pod NewPod(const api::StatefulSet& sts, int32_t ordinal);

// Sync: the missing pods of [start, start + replicas) (a pod of the set with that name already
// in `cluster` counts as existing). O(pods of the cluster + replicas).
[[nodiscard]] SyncResult Sync(const api::StatefulSet& sts, const api::ObjectSet& cluster);

}  // namespace wasched::controller::statefulset
