#include "sched/preemption/pod_group_evaluator.h"

#include <algorithm>

#include <fmt/format.h>

#include "sched/preemption/fit_check.h"
#include "sched/preemption/preemption_policy.h"

namespace wasched::sched::preemption {

void PodGroupEvaluator::RemoveUnit(const VictimUnit& u, std::vector<Removed>* removed) {
  removed->clear();
  for (PodIndex p : u.pods) {
    if (pods_[p].node == kNoNode) continue;
    removed->push_back({p, pods_[p].node});
    snapshot_.Remove(p);
  }
}

void PodGroupEvaluator::RestoreUnit(const std::vector<Removed>& removed) {
  for (const Removed& r : removed) snapshot_.Restore(r.pod, r.node);
}

bool PodGroupEvaluator::PlacementsFit(const std::vector<Placement>& placements) {
  ++replays_;
  // Replay in cycle order: each preemptor pod must pass Filter with the earlier ones assumed
  // (upstream reprieveVictim: RunFilterPluginsWithNominatedPods, then AddPod + Reserve).
  const size_t mark = snapshot_.Mark();
  bool fits = true;
  for (const Placement& pl : placements) {
    if (!FitsOn(framework_, snapshot_.nodes(), pods_[pl.pod], pl.node)) {
      fits = false;
      break;
    }
    snapshot_.Assume(pl.pod, pl.node);
  }
  snapshot_.RevertTo(mark);
  return fits;
}

Outcome PodGroupEvaluator::Preempt(const Preemptor& preemptor, VictimUnitIndex& units,
                                   const PdbBudgets* budgets, const GroupSchedulingFn& schedule,
                                   const ReprieveFilter& reprieve_filter) {
  Outcome out;
  if (preemptor.policy == api::PreemptionPolicy::kNever) {
    out.status = Status::Unschedulable(kNotEligibleNever);
    return out;
  }
  if (preemptor.victims_pending) {
    // Ongoing preemption: keep waiting for the victims; each pod keeps its nomination (pods
    // without one get an empty override).
    out.status = Status(Code::kSuccess, {kOngoingPreemption});
    for (size_t i = 0; i < preemptor.pods.size(); ++i) {
      const NodeIndex n = i < preemptor.nominated.size() ? preemptor.nominated[i] : kNoNode;
      out.nominations.push_back({preemptor.pods[i], n});
    }
    return out;
  }
  std::vector<int32_t> candidates;
  for (int32_t slot : units.AllSlots()) {
    if (units.Unit(slot).priority < preemptor.priority) candidates.push_back(slot);
  }
  if (candidates.empty()) {
    // Newest upstream: Unschedulable (earlier 1.37 snapshots: UnschedulableAndUnresolvable).
    out.status = Status::Unschedulable(kNoVictimsForPreemptor);
    return out;
  }
  return Evaluate(std::move(candidates), units, budgets, schedule, reprieve_filter);
}

Outcome PodGroupEvaluator::Evaluate(std::vector<int32_t> candidates, VictimUnitIndex& units,
                                    const PdbBudgets* budgets, const GroupSchedulingFn& schedule,
                                    const ReprieveFilter& reprieve_filter) {
  Outcome out;
  replays_ = 0;
  if (candidates.empty()) {
    out.status = Status::Unschedulable(kNoVictimsForPreemptor);
    return out;
  }
  // Most important first; PDB classification consumes budgets in that order (upstream
  // filterVictimsWithPDBViolation after sorting by moreImportantVictim).
  std::stable_sort(candidates.begin(), candidates.end(), [&](int32_t a, int32_t b) {
    return MoreImportantUnit(units.Unit(a), units.Unit(b));
  });
  std::vector<int32_t> violations(candidates.size(), 0);
  if (budgets != nullptr && !budgets->empty()) {
    PdbBudgets::Counter counter = budgets->NewCounter();
    for (size_t i = 0; i < candidates.size(); ++i) {
      violations[i] = budgets->Take(counter, units.Unit(candidates[i]).pods);
    }
  }

  // 1. Remove every candidate, 2. simulate once.
  std::vector<std::vector<Removed>> removed(candidates.size());
  for (size_t i = 0; i < candidates.size(); ++i) {
    RemoveUnit(units.Unit(candidates[i]), &removed[i]);
  }
  auto restore_all = [&] {
    for (size_t i = candidates.size(); i-- > 0;) {
      if (!removed[i].empty() && pods_[removed[i].front().pod].node == kNoNode) {
        RestoreUnit(removed[i]);
      }
    }
  };
  SimulationResult sim = schedule();
  if (!sim.status.IsSuccess()) {
    restore_all();
    out.status = std::move(sim.status);
    return out;
  }

  // 3. Reprieve: violating units first, then the others, most important first within each.
  // With node-local filters, a unit none of whose pods ran on a placement's node cannot change
  // the replay's verdict: once the placements were seen to fit (`known_fit`, which a failed
  // attempt leaves as it was, since the unit is removed again), such a unit is reprieved
  // without replaying.
  bool local = true;
  bool domain_local = true;  // every placement's fit reads only its terms' domains
  std::vector<char> on_placement(static_cast<size_t>(snapshot_.nodes().size()), 0);
  for (const Placement& pl : sim.placements) {
    local = local && framework_.FitIsNodeLocal(pods_[pl.pod]);
    if (pl.node != kNoNode) on_placement[static_cast<size_t>(pl.node)] = 1;
    domain_local = domain_local && pl.node != kNoNode &&
                   !framework_.FitReadsWholeCluster(pods_[pl.pod]);
  }
  bool known_fit = false;
  auto untouched = [&](const std::vector<Removed>& unit) {
    return std::none_of(unit.begin(), unit.end(), [&](const Removed& r) {
      return on_placement[static_cast<size_t>(r.node)] != 0;
    });
  };
  // Without node-local filters (pod affinity): a unit away from the placements' nodes whose
  // pods no placed preemptor pod's filters can see (Framework::PlacementMayAffect) cannot change
  // the verdict either. O(unit pods × placements × terms).
  auto unseen = [&](const std::vector<Removed>& unit) {
    for (const Removed& r : unit) {
      for (const Placement& pl : sim.placements) {
        if (framework_.PlacementMayAffect(pods_[pl.pod], pl.node, pods_[r.pod], r.node)) {
          return false;
        }
      }
    }
    return true;
  };
  std::vector<bool> victim(candidates.size(), false);
  for (int pass = 0; pass < 2; ++pass) {
    const bool violating_pass = pass == 0;
    for (size_t i = 0; i < candidates.size(); ++i) {
      if ((violations[i] > 0) != violating_pass) continue;
      const VictimUnit& u = units.Unit(candidates[i]);
      bool attempt = true;
      if (reprieve_filter) {
        Status s = reprieve_filter(u);
        if (s.code() == Code::kError) {
          restore_all();
          out.status = std::move(s);
          return out;
        }
        attempt = s.IsSuccess();
      }
      if (attempt) {
        RestoreUnit(removed[i]);
        if ((known_fit && untouched(removed[i]) &&
             (local || (domain_local && unseen(removed[i])))) ||
            PlacementsFit(sim.placements)) {
          known_fit = true;
          ++out.reprieved;
          continue;
        }
        for (const Removed& r : removed[i]) snapshot_.Remove(r.pod);
      }
      victim[i] = true;
    }
  }

  for (size_t i = 0; i < candidates.size(); ++i) {
    if (!victim[i]) continue;
    const VictimUnit& u = units.Unit(candidates[i]);
    out.victim_units.push_back(candidates[i]);
    out.victims.insert(out.victims.end(), u.pods.begin(), u.pods.end());
    out.pdb_violations += violations[i];
    if (u.kind != UnitKind::kPod) ++out.pod_group_disruptions;
  }
  restore_all();  // dry run: the caller evicts
  out.nominations = std::move(sim.placements);
  out.status = Status(Code::kSuccess,
                      {fmt::format("found a placement for podgroup, preempting {} victims",
                                   out.victims.size())});
  return out;
}

}  // namespace wasched::sched::preemption
