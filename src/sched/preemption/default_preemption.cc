#include "sched/preemption/default_preemption.h"

#include <algorithm>
#include <cassert>
#include <limits>
#include <map>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "sched/preemption/fit_check.h"
#include "sched/preemption/preemption_policy.h"
#include "util/saturating.h"

namespace wasched::sched::preemption {

bool DefaultPreemption::SelectVictimsOnNode(const PodInfo& pod, NodeIndex n, int32_t priority,
                                            VictimUnitIndex& units, const NodePods& node_pods,
                                            const PdbBudgets* budgets, Candidate* out,
                                            int32_t* reason, bool* memoisable) {
  // Potential victims: every unit with a pod here and a lower priority (isPreemptionAllowed).
  scratch_units_.clear();
  *memoisable = budgets == nullptr || budgets->empty();
  for (PodIndex p : node_pods.On(n)) {
    const int32_t slot = units.SlotOf(p);
    const VictimUnit& u = units.Unit(slot);
    if (u.whole_group) *memoisable = false;  // its pods elsewhere may change
    if (u.priority >= priority) continue;
    if (std::find(scratch_units_.begin(), scratch_units_.end(), slot) == scratch_units_.end()) {
      scratch_units_.push_back(slot);
    }
  }
  if (scratch_units_.empty()) {
    *reason = kNoVictims;
    return false;
  }
  // Insertion sort (stable, no allocation; a node holds few units).
  for (size_t i = 1; i < scratch_units_.size(); ++i) {
    const int32_t slot = scratch_units_[i];
    size_t j = i;
    for (; j > 0 && MoreImportantUnit(units.Unit(slot), units.Unit(scratch_units_[j - 1])); --j) {
      scratch_units_[j] = scratch_units_[j - 1];
    }
    scratch_units_[j] = slot;
  }
  // The node is simulated on the preemptor's requested resources only, without touching the
  // NodeTable: free[k] = allocatable − requested for request k; a unit's amount[k] is what its
  // pods on this node request of it (pods elsewhere do not matter for this node).
  const NodeTable& nodes = snapshot_.nodes();
  const size_t width = pod.requests.size();
  free_.resize(width);
  for (size_t k = 0; k < width; ++k) {
    const ResourceId r = pod.requests[k].id;
    free_[k] = r < nodes.resource_count() ? nodes.Allocatable(r, n) - nodes.Requested(r, n) : 0;
  }
  amount_.assign(scratch_units_.size() * width, 0);
  for (size_t i = 0; i < scratch_units_.size(); ++i) {
    for (PodIndex q : units.Unit(scratch_units_[i]).pods) {
      if (pods_[q].node != n) continue;
      for (const ResourceAmount& ra : pods_[q].requests) {
        for (size_t k = 0; k < width; ++k) {
          if (pod.requests[k].id == ra.id) {
            amount_[i * width + k] = SaturatingAdd(amount_[i * width + k], ra.amount);
          }
        }
      }
    }
    for (size_t k = 0; k < width; ++k) free_[k] = SaturatingAdd(free_[k], amount_[i * width + k]);
  }
  auto fits = [&]() -> int64_t {  // index of the first request that does not fit, or -1
    for (size_t k = 0; k < width; ++k) {
      if (free_[k] < pod.requests[k].amount) return static_cast<int64_t>(k);
    }
    return -1;
  };
  if (const int64_t bad = fits(); bad >= 0) {
    *reason = pod.requests[bad].id;
    return false;
  }
  // Pod-dependent filters (NodePorts, PodTopologySpread, InterPodAffinity) read the placements:
  // the victims' pods on this node are removed from the snapshot for the dry run and put back
  // after it (upstream runs every filter on a NodeInfo copy without them).
  const bool dependent = framework_.PodDependent(pod);
  removed_.clear();
  if (dependent) {
    *memoisable = false;
    for (size_t i = 0; i < scratch_units_.size(); ++i) {
      for (PodIndex q : units.Unit(scratch_units_[i]).pods) {
        if (pods_[q].node != n) continue;
        snapshot_.Remove(q);
        removed_.push_back({static_cast<int32_t>(i), q});
      }
    }
    if (!framework_.PodFits(pod, n)) {
      for (const auto& [i, q] : removed_) snapshot_.Restore(q, n);
      *reason = kNoVictims;
      return false;
    }
  }
  // RestoreUnit / RemoveUnit: unit i's pods on this node back into (out of) the snapshot.
  auto restore_unit = [&](size_t i) {
    for (const auto& [u, q] : removed_) {
      if (u == static_cast<int32_t>(i)) snapshot_.Restore(q, n);
    }
  };
  auto remove_unit = [&](size_t i) {
    for (const auto& [u, q] : removed_) {
      if (u == static_cast<int32_t>(i)) snapshot_.Remove(q);
    }
  };
  // PDB classification in importance order, then reprieve: violating first, most important
  // first within each class.
  violations_.assign(scratch_units_.size(), 0);
  if (budgets != nullptr && !budgets->empty()) {
    PdbBudgets::Counter counter = budgets->NewCounter();
    for (size_t i = 0; i < scratch_units_.size(); ++i) {
      violations_[i] = budgets->Take(counter, units.Unit(scratch_units_[i]).pods);
    }
  }
  victim_.assign(scratch_units_.size(), 0);
  for (int pass = 0; pass < 2; ++pass) {
    for (size_t i = 0; i < scratch_units_.size(); ++i) {
      if ((violations_[i] > 0) != (pass == 0)) continue;
      for (size_t k = 0; k < width; ++k) free_[k] = SaturatingAdd(free_[k], -amount_[i * width + k]);
      if (dependent) restore_unit(i);
      if (fits() < 0 && (!dependent || framework_.PodFits(pod, n))) continue;  // reprieved
      for (size_t k = 0; k < width; ++k) free_[k] = SaturatingAdd(free_[k], amount_[i * width + k]);
      if (dependent) remove_unit(i);
      victim_[i] = 1;
    }
  }
  if (dependent) {
    for (size_t i = 0; i < scratch_units_.size(); ++i) {
      if (victim_[i]) restore_unit(i);
    }
  }
  out->node = n;
  out->units.clear();
  out->highest_priority = std::numeric_limits<int32_t>::min();
  for (size_t i = 0; i < scratch_units_.size(); ++i) {
    if (!victim_[i]) continue;
    const VictimUnit& u = units.Unit(scratch_units_[i]);
    out->units.push_back(scratch_units_[i]);
    out->pdb_violations += violations_[i];
    if (u.kind != UnitKind::kPod) ++out->pod_group_disruptions;
    const auto count = static_cast<int64_t>(u.pods.size());
    out->num_pods += count;
    out->sum_priorities += count * (static_cast<int64_t>(u.priority) + (1LL << 31));
    if (u.priority > out->highest_priority) {
      out->highest_priority = u.priority;
      out->highest_start = u.earliest_start;
    } else if (u.priority == out->highest_priority) {
      out->highest_start = std::min(out->highest_start, u.earliest_start);
    }
  }
  return true;
}

bool DefaultPreemption::Better(const Candidate& a, const Candidate& b) {
  if (a.pdb_violations != b.pdb_violations) return a.pdb_violations < b.pdb_violations;
  if (a.highest_priority != b.highest_priority) return a.highest_priority < b.highest_priority;
  if (a.sum_priorities != b.sum_priorities) return a.sum_priorities < b.sum_priorities;
  if (a.num_pods != b.num_pods) return a.num_pods < b.num_pods;
  if (a.highest_start != b.highest_start) return a.highest_start > b.highest_start;
  return a.node < b.node;
}


Outcome DefaultPreemption::Preempt(const Preemptor& preemptor, VictimUnitIndex& units,
                                   const NodePods& node_pods, const PdbBudgets* budgets) {
  Outcome out;
  if (preemptor.policy == api::PreemptionPolicy::kNever) {
    out.status = Status::Unschedulable(kNotEligibleNever);
    return out;
  }
  const PodIndex p = preemptor.pods.front();
  const PodInfo& pod = pods_[p];
  const std::vector<NodeIndex>* nodes_to_try = &framework_.StaticallyFeasible(pod.static_class);
  if (framework_.PodDependent(pod)) {
    // A node a pod-dependent filter rejects as UnschedulableAndUnresolvable (pod affinity not
    // met, a missing spread label) cannot be helped by preemption (nodesWherePreemptionMightHelp).
    resolvable_.clear();
    for (NodeIndex n : *nodes_to_try) {
      bool unresolvable = false;
      (void)framework_.PodFilterReason(pod, n, /*before_resources=*/true, &unresolvable);
      if (!unresolvable) {
        (void)framework_.PodFilterReason(pod, n, /*before_resources=*/false, &unresolvable);
      }
      if (!unresolvable) resolvable_.push_back(n);
    }
    nodes_to_try = &resolvable_;
  }
  const std::vector<NodeIndex>& potential = *nodes_to_try;
  const auto node_count = static_cast<int64_t>(snapshot_.nodes().size());
  const auto potential_count = static_cast<int64_t>(potential.size());
  int64_t wanted = std::max<int64_t>(potential_count * kMinCandidateNodesPercentage / 100,
                                     kMinCandidateNodesAbsolute);
  wanted = std::min(wanted, potential_count);

  // Dry run node by node; the best candidate so far is kept (pickOneNodeForPreemption's
  // criteria are a total order, so a running minimum picks the same node). A node whose usage
  // did not change since its last dry run for the same preemptor shape answers from its memo.
  const NodeTable& nodes = snapshot_.nodes();
  if (memo_.size() != static_cast<size_t>(nodes.size())) memo_.assign(static_cast<size_t>(nodes.size()), NodeMemo{});
  reason_count_.assign(static_cast<size_t>(resources_.size()) + 1, 0);
  int64_t violating = 0, non_violating = 0;
  Candidate best, c;
  bool found = false;
  bool best_from_memo = false;
  const size_t count = potential.size();
  const size_t offset = count == 0 ? 0 : next_offset_ % count;
  for (size_t visited = 0; visited < count; ++visited) {
    const NodeIndex n = potential[(offset + visited) % count];
    NodeMemo& m = memo_[n];
    const bool hit = m.valid && m.version == nodes.Version(n) && m.priority == preemptor.priority &&
                     m.requests == pod.requests.data() && m.width == pod.requests.size();
    bool ok = false;
    int32_t reason = 0;
    c.Reset();
    if (hit) {
      ok = m.ok;
      reason = m.reason;
      c.node = n;
      c.pdb_violations = m.pdb_violations;
      c.pod_group_disruptions = m.pod_group_disruptions;
      c.highest_priority = m.highest_priority;
      c.sum_priorities = m.sum_priorities;
      c.num_pods = m.num_pods;
      c.highest_start = m.highest_start;
    } else {
      bool memoisable = false;
      ok = SelectVictimsOnNode(pod, n, preemptor.priority, units, node_pods, budgets, &c, &reason,
                               &memoisable);
      m.valid = memoisable;
      if (memoisable) {
        m = NodeMemo{nodes.Version(n), true, ok, reason, preemptor.priority, pod.requests.data(),
                     pod.requests.size(), c.pdb_violations, c.pod_group_disruptions,
                     c.highest_priority, c.sum_priorities, c.num_pods, c.highest_start};
      }
    }
    if (ok) {
      (c.pdb_violations > 0 ? violating : non_violating)++;
      if (!found || Better(c, best)) {
        std::swap(best, c);
        best_from_memo = hit;
      }
      found = true;
    } else {
      ++reason_count_[static_cast<size_t>(reason + 1)];
    }
    if (non_violating > 0 && non_violating + violating >= wanted) break;
  }
  if (!found) {
    // Reason strings only now, for the message: "Insufficient <resource>", "Too many pods", …
    std::map<std::string, int32_t> reasons;
    for (size_t k = 0; k < reason_count_.size(); ++k) {
      if (reason_count_[k] == 0) continue;
      const auto r = static_cast<ResourceId>(k) - 1;
      const std::string text = r == kNoVictims ? std::string(kNoVictimsForPod)
                               : r == kPods    ? std::string("Too many pods")
                                               : "Insufficient " + resources_.Name(r);
      reasons[text] += reason_count_[k];
    }
    if (node_count > potential_count) reasons[kPreemptionNotHelpful] += node_count - potential_count;
    std::vector<std::string> parts;
    for (const auto& [r, k] : reasons) parts.push_back(fmt::format("{} {}", k, r));
    std::sort(parts.begin(), parts.end());
    out.status = Status::Unschedulable(fmt::format(
        "preemption: 0/{} nodes are available: {}.", node_count, fmt::join(parts, ", ")));
    return out;
  }
  if (best_from_memo) {
    // The memo holds the criteria only: the chosen node's victims are selected again (same
    // node, same usage, same answer).
    const NodeIndex chosen = best.node;
    int32_t reason = 0;
    bool memoisable = false;
    best.Reset();
    const bool ok = SelectVictimsOnNode(pod, chosen, preemptor.priority, units, node_pods, budgets,
                                        &best, &reason, &memoisable);
    assert(ok && "a memoised candidate node must stay a candidate");
    (void)ok;
  }
  // The next search starts after the chosen node (upstream starts at a random offset).
  next_offset_ = static_cast<size_t>(
      std::lower_bound(potential.begin(), potential.end(), best.node) - potential.begin() + 1);
  out.victim_units = best.units;
  for (int32_t slot : best.units) {
    const VictimUnit& u = units.Unit(slot);
    out.victims.insert(out.victims.end(), u.pods.begin(), u.pods.end());
  }
  out.pdb_violations = best.pdb_violations;
  out.pod_group_disruptions = best.pod_group_disruptions;
  out.nominations.push_back({p, best.node});
  out.status = Status::Success();
  return out;
}

}  // namespace wasched::sched::preemption
