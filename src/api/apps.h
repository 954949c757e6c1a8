// File: api/apps.h
//
// apps/v1 Deployment, ReplicaSet and StatefulSet: the fields their controllers read to create
// pods (replicas, selector, pod template; StatefulSet serviceName, ordinals and
// podManagementPolicy). Source: kubernetes/api apps/v1/types.go (v0.37.2). In v1.37 none of
// them has a Workload / PodGroup integration (the API has no scheduling field for them), so
// their pods are plain pods unless the template names a PodGroup itself. Pure data; no I/O.
//
//   api::Deployment d;   // spec: {replicas: 3, template: {...}}
//   EffectiveReplicas(d.replicas) == 3
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "api/label_selector.h"
#include "api/object_meta.h"
#include "api/pod.h"

namespace wasched::api {

// EffectiveReplicas: spec.replicas after API defaulting (apps/v1 SetDefaults_*: unset → 1).
[[nodiscard]] inline int32_t EffectiveReplicas(const std::optional<int32_t>& replicas) {
  return replicas.value_or(1);
}

// Deployment: apps/v1. `pod_template` is spec.template: its `meta` holds only the template's
// labels and annotations, the rest is the PodSpec as a Pod's (as api::Job's template).
// `collision_count` is status.collisionCount (part of the pod-template-hash).
struct Deployment {
  ObjectMeta meta;
  std::optional<int32_t> replicas;
  std::optional<LabelSelector> selector;
  Pod pod_template;
  bool paused = false;
  std::optional<int32_t> collision_count;
};

// ReplicaSet: apps/v1. `status_replicas` is status.replicas (not read by the controller, which
// counts the pods it finds).
struct ReplicaSet {
  ObjectMeta meta;
  std::optional<int32_t> replicas;
  std::optional<LabelSelector> selector;
  Pod pod_template;
};

// PodManagementPolicy: apps/v1 (OrderedReady is the default).
enum class PodManagementPolicy { kOrderedReady, kParallel };

// StatefulSet: apps/v1. `ordinals_start` is spec.ordinals.start (default 0);
// `volume_claim_templates` counts spec.volumeClaimTemplates (volume binding is not modelled).
struct StatefulSet {
  ObjectMeta meta;
  std::optional<int32_t> replicas;
  std::optional<LabelSelector> selector;
  Pod pod_template;
  std::string service_name;
  PodManagementPolicy pod_management_policy = PodManagementPolicy::kOrderedReady;
  int32_t ordinals_start = 0;
  int volume_claim_templates = 0;
};

}  // namespace wasched::api
