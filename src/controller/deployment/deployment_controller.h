// File: controller/deployment/deployment_controller.h
//
// The ReplicaSet-creating part of the Deployment controller (kubernetes/kubernetes
// pkg/controller/deployment/sync.go getNewReplicaSet, util/deployment_util.go): a Deployment
// that is not paused and controls no ReplicaSet yet gets its first one, named
// `<deployment>-<pod-template-hash>`, with the template's labels plus `pod-template-hash` (also
// added to its selector and pod template), the Deployment's annotations plus
// `deployment.kubernetes.io/revision: "1"` and `deployment.kubernetes.io/desired-replicas`,
// spec.replicas of the Deployment (a first rollout scales the new ReplicaSet straight to it) and
// a controller owner reference. The ReplicaSet controller then creates the pods.
//
//   auto r = deployment::Sync(d, cluster);   // r.created (0 or 1 ReplicaSet)
//
// The pod-template-hash is wasched's stand-in (controller/template_hash.h); rollouts (a changed
// template, old ReplicaSets scaled down) are not modelled: a Deployment that already controls a
// ReplicaSet is left as it is. Pure; no I/O.
#pragma once

#include <optional>

#include "api/apps.h"
#include "api/object_set.h"

namespace wasched::controller::deployment {

inline constexpr const char* kApiVersion = "apps/v1";
inline constexpr const char* kKind = "Deployment";
inline constexpr const char* kPodTemplateHashLabel = "pod-template-hash";
inline constexpr const char* kRevisionAnnotation = "deployment.kubernetes.io/revision";
inline constexpr const char* kDesiredReplicasAnnotation = "deployment.kubernetes.io/desired-replicas";

struct SyncResult {
  std::optional<api::ReplicaSet> created;
};

// Sync: see the file comment. `d.meta.uid` must be set. O(ReplicaSets of the cluster).
[[nodiscard]] SyncResult Sync(const api::Deployment& d, const api::ObjectSet& cluster);

}  // namespace wasched::controller::deployment
