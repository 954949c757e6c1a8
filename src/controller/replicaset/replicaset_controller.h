// File: controller/replicaset/replicaset_controller.h
//
// The pod-creating part of the ReplicaSet controller (kubernetes/kubernetes
// pkg/controller/replicaset/replica_set.go manageReplicas, pkg/controller/controller_utils.go
// GetPodFromTemplate / getPodsPrefix): a ReplicaSet wants spec.replicas (default 1) active pods;
// it creates the missing ones from spec.template with generateName `<rs>-` and a controller
// owner reference. v1.37 gives ReplicaSets no Workload integration: the pods are plain pods
// (or name the PodGroup their template names).
//
//   std::unordered_set<std::string> taken;             // "ns/name" of every pod
//   auto r = replicaset::Sync(rs, cluster, &taken);    // r.created_pods
//
// Names: the API server's generateName with wasched's derived suffix
// (util/name_generation.h, seed `<rs uid>/<ordinal>`, derived again on a collision). Upstream
// creates at most burstReplicas (500) pods per sync and syncs again; wasched creates all at
// once. Not thread-safe (writes `taken`); no I/O.
#pragma once

#include <string>
#include <unordered_set>
#include <vector>

#include "api/apps.h"
#include "api/object_set.h"

namespace wasched::controller::replicaset {

inline constexpr const char* kApiVersion = "apps/v1";
inline constexpr const char* kKind = "ReplicaSet";

struct SyncResult {
  std::vector<api::Pod> created_pods;
};

// ActivePods: the pods of `cluster` the ReplicaSet controls that are not Succeeded / Failed
// (upstream FilterActivePods over the controlled pods). O(pods).
[[nodiscard]] std::vector<const api::Pod*> ActivePods(const api::ReplicaSet& rs,
                                                      const api::ObjectSet& cluster);

// Sync: replicas − |active pods| new pods (none when not positive). `rs.meta.uid` must be set.
// Each created pod's "ns/name" is added to `taken`. O(pods of the cluster + created).
[[nodiscard]] SyncResult Sync(const api::ReplicaSet& rs, const api::ObjectSet& cluster,
                              std::unordered_set<std::string>* taken);

// PodsPrefix: upstream getPodsPrefix: `<name>-`, or `<name>` when `<name>-` is not a valid pod
// name prefix.
[[nodiscard]] std::string PodsPrefix(const std::string& controller_name);

}  // namespace wasched::controller::replicaset
