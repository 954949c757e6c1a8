// File: codec/decode_apps.h
//
// Decoders for apps/v1 Deployment, ReplicaSet and StatefulSet (internal to codec/): metadata,
// spec.{replicas, selector, template} (+ StatefulSet serviceName, podManagementPolicy,
// ordinals.start, volumeClaimTemplates; Deployment paused, status.collisionCount). Fields that
// do not matter to the pods their controllers create (strategy, minReadySeconds,
// revisionHistoryLimit, …) are ignored silently; unknown fields warn. Source: kubernetes/api
// apps/v1/types.go (v0.37.2).
#pragma once

#include "api/apps.h"
#include "codec/yaml_reader.h"

namespace wasched::codec::internal {

void DecodeDeployment(const Reader& root, api::Deployment* out);
void DecodeReplicaSet(const Reader& root, api::ReplicaSet* out);
void DecodeStatefulSet(const Reader& root, api::StatefulSet* out);

}  // namespace wasched::codec::internal
