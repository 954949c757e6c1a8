// File: sched/preemption/pod_group_evaluator.h
//
// PodGroupEvaluator: workload-aware preemption for a group preemptor (spec/was-v1.37.md §6,
// KEP-5710; upstream pkg/scheduler/framework/preemption/podgrouppreemption.go
// PodGroupEvaluator.Preempt / selectVictimsOnDomain). The domain is the whole cluster:
//
//  1. eligibility: policy Never → Unschedulable "not eligible due to preemptionPolicy=Never.";
//     victims of an earlier attempt still terminating → Success "ongoing preemption on
//     nominated nodes", reusing each pod's nomination;
//  2. candidates: every victim unit (victim_unit.h) with priority < the preemptor's; none →
//     Unschedulable "No preemption victims found for incoming preemptor";
//  3. remove ALL candidates from the snapshot and run the group scheduling algorithm ONCE (the
//     injected GroupSchedulingFn); failure → its status, nothing preempted;
//  4. reprieve: PDB-violating units first, then the others, each from the most important down:
//     add the unit back and replay every proposed placement in cycle order (earlier preemptor
//     pods assumed); all still fit → reprieved, else removed again and a victim. When every
//     preemptor pod's Filter is node-local (Framework::FitIsNodeLocal) and the placements were
//     already seen to fit, a unit with no pod on a placement's node is reprieved without the
//     replay: adding it back changes no node the replay reads, so the replay would pass. With
//     pod (anti-)affinity the same holds for a unit whose pods no placement's filters can see
//     (Framework::PlacementMayAffect: no terms of their own, outside the placements' term
//     domains or not selected; not for pods with spread constraints or the first-pod rule,
//     Framework::FitReadsWholeCluster);
//  5. Success "found a placement for podgroup, preempting N victims" (N victim pods), the
//     victims most important first and every placed preemptor pod nominated to its node.
//
// The evaluator is a dry run: the snapshot is exactly as before on return. The caller evicts
// `victims` (Snapshot::Remove) and then schedules the preemptor. The reprieve replay keeps the
// number of preemptor pods the simulation placed (a group with more pods than minCount keeps
// all of them), as upstream.
//
//   PodGroupEvaluator ev(snapshot, framework, pods);
//   Outcome o = ev.Preempt(preemptor, units, &budgets, [&] { return RunGroupAlgorithm(); });
#pragma once

#include <functional>
#include <vector>

#include "sched/cache/snapshot.h"
#include "sched/framework/framework.h"
#include "sched/preemption/pdb_budgets.h"
#include "sched/preemption/preemption_types.h"
#include "sched/preemption/victim_unit.h"

namespace wasched::sched::preemption {

// kOngoingPreemption, kNoVictimsForPreemptor, kPodGroupPreemptionPrefix: upstream messages.
inline constexpr const char* kOngoingPreemption = "ongoing preemption on nominated nodes";
inline constexpr const char* kNoVictimsForPreemptor =
    "No preemption victims found for incoming preemptor";
// kPodGroupPreemptionPrefix: prefixed to the messages bubbled to the preemptor's pods.
inline constexpr const char* kPodGroupPreemptionPrefix = "pod group preemption: ";

// SimulationResult: what one run of the group scheduling algorithm proposed. `placements` in
// cycle order (pods that found no node are left out).
struct SimulationResult {
  Status status;
  std::vector<Placement> placements;
};

// GroupSchedulingFn: runs the group scheduling algorithm (§4.4/§5) for the preemptor on the
// current snapshot. CONTRACT: on return the snapshot is as it was (placements reverted).
using GroupSchedulingFn = std::function<SimulationResult()>;

// ReprieveFilter: upstream ShouldAttemptReprieval. Success: try to reprieve the unit; Skip: do
// not (it stays a victim); Error: abort the whole preemption with that status.
using ReprieveFilter = std::function<Status(const VictimUnit&)>;

class PodGroupEvaluator {
 public:
  PodGroupEvaluator(Snapshot& snapshot, const Framework& framework,
                    const std::vector<PodInfo>& pods)
      : snapshot_(snapshot), framework_(framework), pods_(pods) {}

  // Preempt: steps 1–5 above. `budgets` may be null (no PodDisruptionBudgets).
  // Cost: O(P) to list units + one simulation + Σ_units (|unit| + |placements| × R).
  [[nodiscard]] Outcome Preempt(const Preemptor& preemptor, VictimUnitIndex& units,
                                const PdbBudgets* budgets, const GroupSchedulingFn& schedule,
                                const ReprieveFilter& reprieve_filter = {});

  // replays: how many reprieve replays (step 4) the last Preempt / Evaluate ran; for tests.
  [[nodiscard]] size_t replays() const { return replays_; }

  // Evaluate: steps 3–5 for an explicit candidate list (slots of `units`, any order; they are
  // sorted by importance here). Used by Preempt and by tests that hand the evaluator a list.
  [[nodiscard]] Outcome Evaluate(std::vector<int32_t> candidates, VictimUnitIndex& units,
                                 const PdbBudgets* budgets, const GroupSchedulingFn& schedule,
                                 const ReprieveFilter& reprieve_filter = {});

 private:
  struct Removed {
    PodIndex pod;
    NodeIndex node;
  };
  // RemoveUnit: releases the unit's pods, recording where they ran; RestoreUnit puts them back.
  void RemoveUnit(const VictimUnit& u, std::vector<Removed>* removed);
  void RestoreUnit(const std::vector<Removed>& removed);
  [[nodiscard]] bool PlacementsFit(const std::vector<Placement>& placements);

  Snapshot& snapshot_;
  const Framework& framework_;
  const std::vector<PodInfo>& pods_;
  size_t replays_ = 0;
};

}  // namespace wasched::sched::preemption
