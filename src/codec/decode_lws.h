// File: codec/decode_lws.h
//
// Decoder for leaderworkerset.x-k8s.io/v1 LeaderWorkerSet (internal to codec/): metadata,
// spec.{replicas, startupPolicy, networkConfig.subdomainPolicy, scheduling (KEP-666),
// leaderWorkerTemplate {leaderTemplate, workerTemplate, size, restartPolicy, subGroupPolicy,
// volumeClaimTemplates}}, with the LWS webhook defaults (replicas 1, size 1, startupPolicy
// LeaderCreated, subdomainPolicy Shared). rolloutStrategy and status are ignored silently;
// unknown fields warn. Source: kubernetes-sigs/lws api/leaderworkerset/v1.
#pragma once

#include "api/leader_worker_set.h"
#include "codec/yaml_reader.h"

namespace wasched::codec::internal {

void DecodeLeaderWorkerSet(const Reader& root, api::LeaderWorkerSet* out);

}  // namespace wasched::codec::internal
