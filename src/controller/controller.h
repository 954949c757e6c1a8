// File: controller/controller.h
//
// The vocabulary wasched's workload controllers share (src/controller/<name>/): controller owner
// references (metav1.NewControllerRef / GetControllerOf / IsControlledBy), the events a sync
// records, and a pod whose creation an admission webhook refuses until another pod is scheduled
// (JobSet's and LeaderWorkerSet's exclusive placement: followers get the leader's topology
// domain as a nodeSelector once the leader is bound). Pure data and small helpers; no I/O.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "api/apps.h"
#include "api/object_meta.h"
#include "api/pod.h"

namespace wasched::controller {

// ControllerEvent: a core/v1 Event a controller records on its object: type "Normal" /
// "Warning", `object` "Kind ns/name".
struct ControllerEvent {
  std::string type;
  std::string reason;
  std::string object;
  std::string message;
};

// DeferredPods: pods (and the StatefulSet that owns them, for LeaderWorkerSet's worker set)
// that exist upstream only once every pod of `leaders` ("ns/name") is bound (wasched has no
// kubelet: "bound" stands for "running and ready"). When `topology_key` is set, each pod then
// gets `nodeSelector[topology_key] = <that label of the first leader's node>` (JobSet's and
// LeaderWorkerSet's exclusive placement). `why` is for the warning when that never happens.
struct DeferredPods {
  std::vector<std::string> leaders;
  std::string topology_key;
  std::vector<api::Pod> pods;
  std::optional<api::StatefulSet> stateful_set;
  std::string why;
};

// NewControllerRef: metav1.NewControllerRef(owner, gvk): controller and blockOwnerDeletion true.
[[nodiscard]] inline api::OwnerReference NewControllerRef(const std::string& api_version,
                                                         const std::string& kind,
                                                         const api::ObjectMeta& owner) {
  return api::OwnerReference{api_version, kind, owner.name, owner.uid, true, true};
}

// GetControllerOf: api/object_meta.h's, named here as upstream's controller code names it.
using api::GetControllerOf;

// IsControlledBy: `meta`'s controller reference names `owner` (by uid when both have one, else
// by kind and name).
[[nodiscard]] inline bool IsControlledBy(const api::ObjectMeta& meta, const std::string& kind,
                                         const api::ObjectMeta& owner) {
  const api::OwnerReference* c = GetControllerOf(meta);
  if (c == nullptr) return false;
  if (!c->uid.empty() && !owner.uid.empty()) return c->uid == owner.uid;
  return c->kind == kind && c->name == owner.name;
}

}  // namespace wasched::controller
