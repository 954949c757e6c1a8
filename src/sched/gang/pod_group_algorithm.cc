#include "sched/gang/pod_group_algorithm.h"

#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "sched/plugins/gang_scheduling/gang_scheduling.h"

namespace wasched::sched {

std::string GroupFailureMessage(const GroupAttempt& a, const std::string& group_key,
                                int32_t scheduled, int32_t total, int32_t min_count, bool gang) {
  if (a.none_schedulable) return "no pods were schedulable: " + a.first_failed_message;
  std::string summary =
      gang ? fmt::format("Pod group {}: {} of {} pods fit, minCount {}", group_key,
                         a.fit_count + scheduled, total, min_count)
           : fmt::format("Pod group {} (basic): {} of {} pods fit", group_key,
                         a.fit_count + scheduled, total);
  if (a.first_failed < 0) return summary + ".";
  const int32_t before = a.placed_before_failure + scheduled;
  return before > 0 ? fmt::format("{}; for the first pod that did not fit (after {} of the group's "
                                  "pods were placed): {}",
                                  summary, before, a.first_failed_message)
                    : fmt::format("{}; for the first pod that did not fit: {}", summary,
                                  a.first_failed_message);
}

GroupAttempt PodGroupAlgorithm::Greedy(std::span<const PodIndex> order, int32_t scheduled,
                                       int32_t min_count) {
  GroupAttempt a;
  if (stop_at_quorum_ && scheduled >= min_count) return a;  // quorum met: nothing to place
  const size_t mark = snapshot_.Mark();
  a.placed.reserve(order.size());  // one allocation, not one per doubling
  int32_t now_scheduled = scheduled;
  Code feasible = Code::kWait;
  for (size_t i = 0; i < order.size(); ++i) {
    PodIndex p = order[i];
    NodeIndex n = framework_.FindNode(pods_[p]);
    if (n != kNoNode) {
      snapshot_.Assume(p, n);
      a.placed.push_back(p);
      ++now_scheduled;
    } else {
      if (a.first_failed < 0) {
        a.first_failed = p;
        a.first_failed_message = framework_.Diagnose(pods_[p]);
        a.placed_before_failure = static_cast<int32_t>(a.placed.size());
      }
      a.unplaced.push_back(p);
    }
    auto remaining = static_cast<int32_t>(order.size() - i - 1);
    feasible = plugins::PlacementFeasible(now_scheduled, remaining, min_count);
    if (stop_at_quorum_ && now_scheduled >= min_count) {
      a.unplaced.clear();  // the rest were not tried: the caller places them as extras
      feasible = Code::kSuccess;
      break;
    }
    if (feasible == Code::kUnschedulable) {
      // Keep trying the rest only to explain how many pods fit; nothing is kept.
      for (size_t j = i + 1; j < order.size(); ++j) {
        NodeIndex m = framework_.FindNode(pods_[order[j]]);
        if (m != kNoNode) {
          snapshot_.Assume(order[j], m);
          a.placed.push_back(order[j]);
        }
      }
      break;
    }
  }
  if (feasible == Code::kWait) {
    feasible = plugins::PlacementFeasible(now_scheduled, 0, min_count);
  }
  if (feasible == Code::kSuccess && a.placed.empty() && !order.empty()) {
    // Quorum already met by running members but no new pod fits: upstream turns the cycle into
    // Unschedulable "no pods were schedulable" (algorithm_podgroup.go).
    a.code = Code::kUnschedulable;
    a.none_schedulable = true;
    a.unplaced.clear();
    return a;
  }
  if (feasible != Code::kSuccess) {
    a.code = Code::kUnschedulable;
    a.fit_count = static_cast<int32_t>(a.placed.size());
    a.placed.clear();
    a.unplaced.clear();
    snapshot_.RevertTo(mark);
    return a;
  }
  a.code = Code::kSuccess;
  return a;
}

bool PodGroupAlgorithm::AggregateFits(std::span<const PodIndex> members, int32_t needed) const {
  // Prune: the `needed` smallest members must fit into the free capacity summed over every node.
  // Conservative (never prunes a feasible group): uses per-resource sums of the cheapest pods.
  const NodeTable& nodes = snapshot_.nodes();
  std::map<ResourceId, std::vector<int64_t>> demand;
  for (PodIndex p : members) {
    for (const auto& ra : pods_[p].requests) demand[ra.id].push_back(ra.amount);
  }
  for (auto& [r, amounts] : demand) {
    if (static_cast<int32_t>(amounts.size()) < needed) {
      // Some members do not request r: the cheapest `needed` may need none of it.
      continue;
    }
    std::sort(amounts.begin(), amounts.end());
    // 128-bit sums: many nodes with huge allocatable must not overflow (and wrongly prune).
    __int128 need = 0;
    for (int32_t i = 0; i < needed; ++i) need += amounts[i];
    __int128 free = 0;
    for (NodeIndex n = 0; n < nodes.size(); ++n) {
      free += std::max<int64_t>(0, nodes.Allocatable(r, n) - nodes.Requested(r, n));
    }
    if (need > free) return false;
  }
  return true;
}

bool PodGroupAlgorithm::Search(std::span<const PodIndex> order, size_t i, int32_t placed,
                               int32_t needed, std::vector<PodIndex>& chosen) {
  if (placed >= needed) return true;
  if (placed + static_cast<int32_t>(order.size() - i) < needed) return false;
  if (budget_ <= 0) return false;
  PodIndex p = order[i];
  std::vector<NodeIndex> candidates;
  framework_.FeasibleNodes(pods_[p], candidates);
  budget_ -= static_cast<int64_t>(candidates.size()) / 64;  // computing candidates costs too
  if (candidates.size() > static_cast<size_t>(kSearchBranching)) {
    candidates.resize(kSearchBranching);  // best-scored nodes first
  }
  for (NodeIndex n : candidates) {
    if (--budget_ < 0) return false;
    const size_t mark = snapshot_.Mark();
    snapshot_.Assume(p, n);
    chosen.push_back(p);
    if (Search(order, i + 1, placed + 1, needed, chosen)) return true;
    chosen.pop_back();
    snapshot_.RevertTo(mark);
  }
  // Leave this pod out (only the quorum must be placed).
  return Search(order, i + 1, placed, needed, chosen);
}

GroupAttempt PodGroupAlgorithm::Run(std::span<const PodIndex> members, int32_t scheduled,
                                    int32_t min_count, bool stop_at_quorum) {
  stop_at_quorum_ = stop_at_quorum;
  GroupAttempt first = Greedy(members, scheduled, min_count);
  if (first.code == Code::kSuccess || placement_ == PlacementSearch::kUpstream) return first;
  const int32_t needed = min_count - scheduled;
  if (needed <= 0 || !AggregateFits(members, needed)) return first;
  GroupAttempt best = SearchOrders(members, scheduled, min_count, std::move(first));
  if (best.code == Code::kSuccess) return best;
  GroupAttempt alternative;
  if (DeviceAlternatives(members, scheduled, min_count, &alternative)) return alternative;
  return best;
}

bool PodGroupAlgorithm::DeviceAlternatives(std::span<const PodIndex> members, int32_t scheduled,
                                           int32_t min_count, GroupAttempt* out) {
  // kubernetes/kubernetes#138765: the in-order pass lets each member's claim take its first
  // firstAvailable choice, which may be the device a later member needs. Failure path only.
  DynamicResources* dra = framework_.dynamic_resources();
  if (dra == nullptr) return false;
  std::vector<PodIndex> choosers;
  for (PodIndex p : members) {
    if (!dra->HasAlternatives(*pods_[p].pod)) continue;
    choosers.push_back(p);
    if (static_cast<int32_t>(choosers.size()) >= kMaxAlternativeMembers) break;
  }
  if (choosers.empty()) return false;
  // Later members first: their first choices are served before an earlier member chooses.
  std::vector<PodIndex> reversed(members.rbegin(), members.rend());
  GroupAttempt a = Greedy(reversed, scheduled, min_count);
  if (a.code == Code::kSuccess) {
    *out = std::move(a);
    return true;
  }
  // One member at a time takes its later subrequests first, the others as upstream.
  for (PodIndex p : choosers) {
    dra->set_later_alternatives_first(pods_[p].pod);
    a = Greedy(members, scheduled, min_count);
    dra->set_later_alternatives_first(nullptr);
    if (a.code == Code::kSuccess) {
      *out = std::move(a);
      return true;
    }
  }
  return false;
}

GroupAttempt PodGroupAlgorithm::SearchOrders(std::span<const PodIndex> members, int32_t scheduled,
                                             int32_t min_count, GroupAttempt first) {
  const int32_t needed = min_count - scheduled;
  // Identical pods (one signature): pods on one node never change what fits on another, so the
  // greedy pass already placed the most pods possible; no other order can do better.
  const bool homogeneous = std::all_of(members.begin(), members.end(), [&](PodIndex p) {
    return pods_[p].signature >= 0 && pods_[p].signature == pods_[members.front()].signature;
  });
  if (homogeneous) return first;

  // Largest-first: order by dominant share of the biggest node's allocatable.
  const NodeTable& nodes = snapshot_.nodes();
  std::vector<int64_t> max_alloc(static_cast<size_t>(nodes.resource_count()), 0);
  for (ResourceId r = 0; r < nodes.resource_count(); ++r) {
    for (NodeIndex n = 0; n < nodes.size(); ++n) {
      max_alloc[r] = std::max(max_alloc[r], nodes.Allocatable(r, n));
    }
  }
  auto share = [&](PodIndex p) {
    double s = 0;
    for (const auto& ra : pods_[p].requests) {
      if (ra.id == kPods) continue;
      double d = max_alloc[ra.id] > 0 ? static_cast<double>(ra.amount) / max_alloc[ra.id] : 1e9;
      s = std::max(s, d);
    }
    return s;
  };
  std::vector<PodIndex> order(members.begin(), members.end());
  std::stable_sort(order.begin(), order.end(),
                   [&](PodIndex a, PodIndex b) { return share(a) > share(b); });
  GroupAttempt second = Greedy(order, scheduled, min_count);
  if (second.code == Code::kSuccess) return second;

  // The depth-first search is for small heterogeneous groups (the S6 shape); its depth is the
  // number of pods, so larger groups stop at the two greedy passes.
  if (order.size() > static_cast<size_t>(kMaxSearchPods)) {
    if (second.fit_count > first.fit_count) {
      second.code = first.code;
      return second;
    }
    return first;
  }
  budget_ = kSearchBudget;
  std::vector<PodIndex> chosen;
  const size_t mark = snapshot_.Mark();
  if (Search(order, 0, 0, needed, chosen)) {
    GroupAttempt a;
    a.code = Code::kSuccess;
    a.placed = chosen;
    // Members left out of the quorum placement try to fit on their own, as extras (unless the
    // caller places the extras itself: stop_at_quorum).
    for (PodIndex p : members) {
      if (stop_at_quorum_) break;
      if (pods_[p].node != kNoNode) continue;
      NodeIndex n = framework_.FindNode(pods_[p]);
      if (n != kNoNode) {
        snapshot_.Assume(p, n);
        a.placed.push_back(p);
      } else {
        a.unplaced.push_back(p);
      }
    }
    return a;
  }
  snapshot_.RevertTo(mark);
  if (second.fit_count > first.fit_count) {
    second.code = first.code;
    return second;
  }
  return first;
}

}  // namespace wasched::sched
