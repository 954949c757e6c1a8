// File: api/leader_worker_set.h
//
// leaderworkerset.x-k8s.io/v1 LeaderWorkerSet: the fields its controllers read to create the
// leader StatefulSet, one worker StatefulSet per group and their pods, plus `spec.scheduling`,
// the workload-aware scheduling configuration of LWS KEP-666 (kubernetes-sigs/lws
// keps/666-gang-scheduling-in-lws, rewritten for 1.37; v1beta1 PodGroup policy types: a gang
// `minCount` of 0 means "not set, defaults to the group size"). Source: kubernetes-sigs/lws
// api/leaderworkerset/v1/leaderworkerset_types.go. Pure data; no I/O.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "api/object_meta.h"
#include "api/pod.h"
#include "api/workload.h"

namespace wasched::api {

// LeaderWorkerSetScheduling: KEP-666 spec.scheduling.
struct LeaderWorkerSetScheduling {
  std::optional<PodGroupSchedulingPolicy> scheduling_policy;
  std::optional<SchedulingConstraints> scheduling_constraints;
  std::optional<DisruptionMode> disruption_mode;
  std::vector<PodGroupResourceClaim> resource_claims;
};

// SubGroupPolicy: spec.leaderWorkerTemplate.subGroupPolicy (type LeaderWorker | LeaderExcluded).
struct LwsSubGroupPolicy {
  std::string type = "LeaderWorker";
  int32_t sub_group_size = 0;
};

// LeaderWorkerSet: leaderworkerset.x-k8s.io/v1. `leader_template` nullopt = the leader uses the
// worker template. `size` defaults to 1, `replicas` to 1; `startup_policy` is "LeaderCreated"
// (default) or "LeaderReady"; `subdomain_policy` "Shared" (default) or "UniquePerReplica".
struct LeaderWorkerSet {
  ObjectMeta meta;
  std::string api_version;
  int32_t replicas = 1;
  int32_t size = 1;
  std::optional<Pod> leader_template;
  Pod worker_template;
  std::string restart_policy;
  std::string startup_policy = "LeaderCreated";
  std::string subdomain_policy = "Shared";
  std::optional<LwsSubGroupPolicy> sub_group_policy;
  int volume_claim_templates = 0;
  std::optional<LeaderWorkerSetScheduling> scheduling;
};

}  // namespace wasched::api
