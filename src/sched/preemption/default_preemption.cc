#include "sched/preemption/default_preemption.h"

#include <algorithm>
#include <bit>
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

const DefaultPreemption::NodeMemo& DefaultPreemption::Probe(
    const PodInfo& pod, NodeIndex n, int32_t priority, VictimUnitIndex& units,
    const NodePods& node_pods, const PdbBudgets* budgets, Candidate* c, bool* ok, int32_t* reason,
    bool* hit) {
  const NodeTable& nodes = snapshot_.nodes();
  NodeMemo& m = memo_[n];
  *hit = m.valid && m.version == nodes.Version(n) && m.priority == priority &&
         m.requests == pod.requests.data() && m.width == pod.requests.size();
  c->Reset();
  if (*hit) {
    *ok = m.ok;
    *reason = m.reason;
    m.CopyCriteria(c);
    return m;
  }
  bool memoisable = false;
  *reason = 0;
  *ok = SelectVictimsOnNode(pod, n, priority, units, node_pods, budgets, c, reason, &memoisable);
  m = NodeMemo{nodes.Version(n),     memoisable,           *ok,
               *reason,              priority,             pod.requests.data(),
               pod.requests.size(),  n,                    c->pdb_violations,
               c->pod_group_disruptions, c->highest_priority, c->sum_priorities,
               c->num_pods,          c->highest_start};
  return m;
}

void DefaultPreemption::Pull(size_t t) {
  CandidateIndex& x = index_;
  x.ok[t] = x.ok[2 * t] + x.ok[2 * t + 1];
  const int32_t a = x.best[2 * t];
  const int32_t b = x.best[2 * t + 1];
  x.best[t] = a < 0 ? b : b < 0 ? a : Better(x.leaves[b], x.leaves[a]) ? b : a;
}

void DefaultPreemption::SetLeaf(size_t i, const PodInfo& pod, VictimUnitIndex& units,
                                const NodePods& node_pods, const PdbBudgets* budgets) {
  CandidateIndex& x = index_;
  NodeMemo& leaf = x.leaves[i];
  if (leaf.node != kNoNode) {  // take the old answer out of the totals
    if (!leaf.valid) --x.volatile_leaves;
    if (!leaf.ok) --x.reason_total[static_cast<size_t>(leaf.reason + 1)];
  }
  bool ok = false, hit = false;
  int32_t reason = 0;
  leaf = Probe(pod, (*x.potential)[i], x.priority, units, node_pods, budgets, &probe_, &ok,
               &reason, &hit);
  if (!leaf.valid) ++x.volatile_leaves;
  if (!leaf.ok) ++x.reason_total[static_cast<size_t>(leaf.reason + 1)];
  size_t t = x.size + i;
  x.ok[t] = leaf.ok ? 1 : 0;
  x.best[t] = leaf.ok ? static_cast<int32_t>(i) : -1;
  for (t >>= 1; t >= 1; t >>= 1) Pull(t);
}

bool DefaultPreemption::UseIndex(const PodInfo& pod, int32_t priority,
                                 const std::vector<NodeIndex>& potential, VictimUnitIndex& units,
                                 const NodePods& node_pods, const PdbBudgets* budgets) {
  const bool same_as_last = last_potential_ == potential.data() && last_class_ == pod.static_class &&
                            last_priority_ == priority &&
                            last_requests_ == pod.requests.data() &&
                            last_width_ == pod.requests.size();
  last_potential_ = potential.data();
  last_class_ = pod.static_class;
  last_priority_ = priority;
  last_requests_ = pod.requests.data();
  last_width_ = pod.requests.size();
  // The memo's conditions: no budget counts and no filter reads other placements.
  if (!index_enabled_ || (budgets != nullptr && !budgets->empty()) || framework_.PodDependent(pod) ||
      framework_.DraClaims(pod) != nullptr) {
    return false;
  }
  CandidateIndex& x = index_;
  const NodeTable& nodes = snapshot_.nodes();
  const std::vector<NodeIndex>& log = nodes.change_log();
  // Keyed by the class and its list's storage (a class's list never changes in a run).
  const bool matches = x.built && x.static_class == pod.static_class &&
                       x.potential_data == potential.data() && x.count == potential.size() &&
                       x.priority == priority && x.requests == pod.requests.data() &&
                       x.width == pod.requests.size();
  x.potential = &potential;
  if (!matches) {
    // A shape seen once may not come again: build only for the second preemptor in a row.
    if (!same_as_last) return false;
    x.built = true;
    x.static_class = pod.static_class;
    x.potential_data = potential.data();
    x.count = potential.size();
    x.priority = priority;
    x.requests = pod.requests.data();
    x.width = pod.requests.size();
    x.size = std::bit_ceil(std::max<size_t>(x.count, 1));
    x.volatile_leaves = 0;
    x.leaves.assign(x.count, NodeMemo{});
    x.ok.assign(2 * x.size, 0);
    x.best.assign(2 * x.size, -1);
    x.reason_total.assign(static_cast<size_t>(resources_.size()) + 1, 0);
    for (size_t i = 0; i < x.count; ++i) SetLeaf(i, pod, units, node_pods, budgets);
  } else if (x.epoch != nodes.log_epoch() || x.cursor > log.size()) {
    // The log was reset since: compare every leaf's version.
    for (size_t i = 0; i < x.count; ++i) {
      if (x.leaves[i].version != nodes.Version(potential[i])) SetLeaf(i, pod, units, node_pods, budgets);
    }
  } else {
    for (size_t k = x.cursor; k < log.size(); ++k) {
      const NodeIndex n = log[k];
      const auto it = std::lower_bound(potential.begin(), potential.end(), n);
      if (it == potential.end() || *it != n) continue;
      const auto i = static_cast<size_t>(it - potential.begin());
      if (x.leaves[i].version != nodes.Version(n)) SetLeaf(i, pod, units, node_pods, budgets);
    }
  }
  x.epoch = nodes.log_epoch();
  x.cursor = log.size();
  return x.volatile_leaves == 0;
}

int32_t DefaultPreemption::BestIn(size_t lo, size_t hi) const {
  const CandidateIndex& x = index_;
  int32_t best = -1;
  auto take = [&](int32_t b) {
    if (b >= 0 && (best < 0 || Better(x.leaves[b], x.leaves[best]))) best = b;
  };
  for (size_t l = lo + x.size, r = hi + x.size; l < r; l >>= 1, r >>= 1) {
    if (l & 1) take(x.best[l++]);
    if (r & 1) take(x.best[--r]);
  }
  return best;
}

int32_t DefaultPreemption::CandidatesBefore(size_t i) const {
  const CandidateIndex& x = index_;
  int32_t sum = 0;
  for (size_t l = x.size, r = i + x.size; l < r; l >>= 1, r >>= 1) {
    if (l & 1) sum += x.ok[l++];
    if (r & 1) sum += x.ok[--r];
  }
  return sum;
}

size_t DefaultPreemption::NthCandidate(int32_t k) const {
  const CandidateIndex& x = index_;
  size_t t = 1;
  while (t < x.size) {
    if (x.ok[2 * t] >= k) {
      t = 2 * t;
    } else {
      k -= x.ok[2 * t];
      t = 2 * t + 1;
    }
  }
  return t - x.size;
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
  if (const auto* claims = framework_.DraClaims(pod); claims != nullptr) {
    // DynamicResources' Filter: a node where the pod's claims cannot be allocated is not a
    // candidate (differential suite, random r1-0359 / r1-0469: GPU-less nodes were taken).
    dra_nodes_.clear();
    for (NodeIndex n : *nodes_to_try) {
      if (framework_.DraFits(claims, n)) dra_nodes_.push_back(n);
    }
    nodes_to_try = &dra_nodes_;
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
  if (UseIndex(pod, preemptor.priority, potential, units, node_pods, budgets)) {
    // The walk's answer from the index: the candidates it would visit are the first `wanted`
    // (or all) from the offset, wrapping around; the best of them by Better.
    ++indexed_preemptions_;
    const CandidateIndex& x = index_;
    const int32_t total = x.ok[1];
    if (total == 0) {
      // The walk visits every node; each fails with its reason.
      reason_count_.resize(std::max(reason_count_.size(), x.reason_total.size()), 0);
      std::copy(x.reason_total.begin(), x.reason_total.end(), reason_count_.begin());
    } else {
      const auto take = static_cast<int32_t>(std::min<int64_t>(wanted, total));
      const int32_t before = CandidatesBefore(offset);
      const int32_t from_offset = total - before;
      int32_t b = -1;
      if (take <= from_offset) {
        b = BestIn(offset, NthCandidate(before + take) + 1);
      } else {
        const int32_t tail = BestIn(offset, count);
        const int32_t head = BestIn(0, NthCandidate(take - from_offset) + 1);
        b = tail < 0 ? head : Better(x.leaves[head], x.leaves[tail]) ? head : tail;
      }
      const NodeMemo& m = x.leaves[static_cast<size_t>(b)];
      m.CopyCriteria(&best);
      found = true;
      best_from_memo = true;
    }
  } else {
    for (size_t visited = 0; visited < count; ++visited) {
      const NodeIndex n = potential[(offset + visited) % count];
      bool ok = false, hit = false;
      int32_t reason = 0;
      (void)Probe(pod, n, preemptor.priority, units, node_pods, budgets, &c, &ok, &reason, &hit);
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
