// File: sched/preemption/preemption_types.h
//
// The shapes preemption passes around: the preemptor, a proposed placement, the outcome of a
// preemption attempt (victims, nominations, status). Upstream: framework PostFilterResult /
// PodGroupPostFilterResult (NominatingInfo, mode Override), extenderv1.Victims.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "api/pod.h"
#include "sched/framework/pod_info.h"
#include "sched/framework/status.h"

namespace wasched::sched::preemption {

// Placement: preemptor pod → node proposed by a (simulated) scheduling cycle.
struct Placement {
  PodIndex pod = -1;
  NodeIndex node = kNoNode;
};

// Preemptor: who wants room.
//  * label: "PodGroup ns/name" or "Pod ns/name" (eviction records, messages).
//  * priority: the group's (root's) priority, or the pod's.
//  * pods: the unscheduled pods the cycle tries (one for a bare pod).
//  * nominated: per pod, its current nominatedNodeName (kNoNode = none); may be empty.
//  * victims_pending: victims chosen by an earlier attempt are still terminating (upstream:
//    a lower-priority pod terminating by preemption on a nominated node). `schedule` deletes
//    victims at once, so it never sets this; a live scheduler would.
struct Preemptor {
  std::string label;
  int32_t priority = 0;
  api::PreemptionPolicy policy = api::PreemptionPolicy::kPreemptLowerPriority;
  std::vector<PodIndex> pods;
  std::vector<NodeIndex> nominated;
  bool victims_pending = false;
};

// Outcome: result of one preemption attempt.
//  * status: Success (victims chosen, or an ongoing preemption), Unschedulable /
//    UnschedulableAndUnresolvable (nothing to do; message says why), Error.
//  * victim_units: slots in the VictimUnitIndex used, most important first.
//  * victims: their pods, in the same order (unit by unit).
//  * nominations: preemptor pod → node (override mode); for a bare pod one entry.
//  * pdb_violations: victims (pods) whose eviction exceeds a PodDisruptionBudget.
//  * pod_group_disruptions: victim units that belong to a pod group (an `all` group, or a
//    pod of a `single` group): upstream Candidate.NumPodGroupDisruptions.
//  * reprieved: candidate units given back after the simulation.
struct Outcome {
  Status status;
  std::vector<int32_t> victim_units;
  std::vector<PodIndex> victims;
  std::vector<Placement> nominations;
  int32_t pdb_violations = 0;
  int32_t pod_group_disruptions = 0;
  int32_t reprieved = 0;
};

}  // namespace wasched::sched::preemption
