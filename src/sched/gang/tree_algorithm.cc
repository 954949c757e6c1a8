// File: sched/gang/tree_algorithm.cc
//
// TreeAlgorithm (see tree_algorithm.h). Upstream: KEP-6012 (CompositePodGroup, top-down
// multi-level placement), KEP-5732 (placement generation / evaluation / scoring).
#include "sched/gang/tree_algorithm.h"

#include <algorithm>

#include <fmt/format.h>

#include "sched/gang/pod_group_algorithm.h"
#include "sched/plugins/placement_resources_fit/placement_resources_fit.h"
#include "sched/plugins/pod_group_pods_count/pod_group_pods_count.h"

namespace wasched::sched {
namespace {

// kMaxDepth: per-depth buffers; a valid tree has at most 4 levels (KEP-6012), refused trees
// never reach the algorithm.
constexpr int32_t kMaxDepth = 8;
// kMaxListedPlacements: a failure message names at most this many placements.
constexpr size_t kMaxListedPlacements = 10;

}  // namespace

TreeAlgorithm::TreeAlgorithm(Framework& framework, Snapshot& snapshot, std::vector<PodInfo>& pods,
                             const GroupTree& tree, const std::vector<bool>& gated)
    : framework_(framework),
      snapshot_(snapshot),
      pods_(pods),
      tree_(tree),
      gated_(gated),
      nodes_(snapshot.nodes()),
      topology_(snapshot.nodes()) {
  const auto n = static_cast<size_t>(tree.size());
  outcomes_.resize(n);
  todo_.resize(n);
  scheduled_.assign(n, 0);
  pinned_.resize(n);
  demand_.resize(n);
  candidates_.resize(kMaxDepth);
  arenas_.resize(kMaxDepth);
}

int32_t TreeAlgorithm::PlacementsToFind(int64_t total_nodes, int32_t candidates) {
  // KEP-5732 PercentageOfPlacementsToScore (adaptive default): 100 % for very small clusters,
  // 10 % at 5000 nodes, never below 5 %; interpolated linearly in the nodes of all candidates.
  int64_t pct = 100;
  if (total_nodes >= 100) pct = std::max<int64_t>(5, 100 - 90 * total_nodes / 5000);
  const int64_t n = (static_cast<int64_t>(candidates) * pct + 99) / 100;
  return static_cast<int32_t>(std::max<int64_t>(1, n));
}

void TreeAlgorithm::Prepare(TreeIndex t) {
  const GroupTreeNode& node = tree_.node(t);
  outcomes_[t] = TreeNodeOutcome{Code::kSkip, {}, {}, 0};
  pinned_[t].clear();
  demand_[t].amounts.clear();
  if (!node.is_composite) {
    auto& todo = todo_[t];
    todo.clear();
    int32_t scheduled = 0;
    for (PodIndex p : node.members) {
      if (pods_[p].node != kNoNode) {
        ++scheduled;
        pinned_[t].push_back(pods_[p].node);
      } else if (!gated_[p]) {
        todo.push_back(p);
      }
    }
    std::stable_sort(todo.begin(), todo.end(),
                     [&](PodIndex a, PodIndex b) { return PodOrderLess(pods_[a], pods_[b]); });
    scheduled_[t] = scheduled;
    // Minimum demand: per resource, the `need` smallest requests among the pending members
    // (conservative: a resource fewer than `need` members request may not be needed at all).
    const int32_t need = node.quorum - scheduled;
    if (need <= 0) return;
    std::vector<std::pair<ResourceId, int64_t>> all;
    for (PodIndex p : todo) {
      for (const auto& ra : pods_[p].requests) all.emplace_back(ra.id, ra.amount);
    }
    std::sort(all.begin(), all.end());
    for (size_t i = 0; i < all.size();) {
      size_t j = i;
      while (j < all.size() && all[j].first == all[i].first) ++j;
      if (static_cast<int32_t>(j - i) >= need) {
        int64_t sum = 0;
        for (size_t k = i; k < i + static_cast<size_t>(need); ++k) sum += all[k].second;
        demand_[t].amounts.emplace_back(all[i].first, sum);
      }
      i = j;
    }
    return;
  }
  // CompositePodGroup: pinned = the children's; demand = per resource the minGroupCount smallest
  // child demands (children are prepared first: callers visit in reverse preorder).
  std::vector<std::pair<ResourceId, int64_t>> all;
  for (TreeIndex c : node.children) {
    pinned_[t].insert(pinned_[t].end(), pinned_[c].begin(), pinned_[c].end());
    for (const auto& ra : demand_[c].amounts) all.push_back(ra);
  }
  std::sort(all.begin(), all.end());
  const auto children = static_cast<int32_t>(node.children.size());
  for (size_t i = 0; i < all.size();) {
    size_t j = i;
    while (j < all.size() && all[j].first == all[i].first) ++j;
    // Children without this resource demand 0 of it: only the smallest (quorum − those) count.
    const int32_t without = children - static_cast<int32_t>(j - i);
    const int32_t take = std::max(0, node.quorum - without);
    int64_t sum = 0;
    for (size_t k = i; k < i + static_cast<size_t>(std::min<int32_t>(take, static_cast<int32_t>(j - i))); ++k) {
      sum += all[k].second;
    }
    if (sum > 0) demand_[t].amounts.emplace_back(all[i].first, sum);
    i = j;
  }
}

std::string TreeAlgorithm::PruneReason(TreeIndex t, const plugins::Placement& placement) const {
  for (const auto& [r, amount] : demand_[t].amounts) {
    if (r >= nodes_.resource_count()) {
      return fmt::format("Insufficient {}", framework_.resources().Name(r));
    }
    __int128 free = 0;
    auto add = [&](NodeIndex n) {
      free += std::max<int64_t>(0, nodes_.Allocatable(r, n) - nodes_.Requested(r, n));
      return free >= amount;
    };
    bool enough = false;
    if (placement.all) {
      for (NodeIndex n = 0; n < nodes_.size() && !enough; ++n) enough = add(n);
    } else {
      for (NodeIndex n : placement.nodes) {
        if ((enough = add(n))) break;
      }
    }
    if (!enough) {
      return fmt::format("{} (aggregate free capacity below the group's minimum)",
                         r == kPods ? std::string("Too many pods")
                                    : "Insufficient " + framework_.resources().Name(r));
    }
  }
  return {};
}

void TreeAlgorithm::FailSubtree(TreeIndex t, const std::string& message) {
  for (TreeIndex c : tree_.node(t).children) {
    TreeNodeOutcome& o = outcomes_[c];
    if (o.code == Code::kSuccess || o.code == Code::kSkip) {
      o.code = Code::kUnschedulable;
      o.message = message;
      o.placement.clear();
    }
    FailSubtree(c, message);
  }
}

Code TreeAlgorithm::EvaluateLeaf(TreeIndex t, const plugins::Placement& placement) {
  const GroupTreeNode& node = tree_.node(t);
  TreeNodeOutcome& out = outcomes_[t];
  ScopedRestriction restrict(framework_, placement.nodes, placement.all);
  PodGroupAlgorithm algorithm(framework_, snapshot_, pods_);
  GroupAttempt a = algorithm.Run(todo_[t], scheduled_[t], node.quorum);
  out.placement.clear();
  if (a.code == Code::kSuccess) {
    out.code = Code::kSuccess;
    out.message.clear();
    out.satisfied = scheduled_[t] + static_cast<int32_t>(a.placed.size());
    return Code::kSuccess;
  }
  out.code = a.code;
  out.satisfied = 0;
  out.message = GroupFailureMessage(a, node.key, scheduled_[t],
                                    static_cast<int32_t>(todo_[t].size()) + scheduled_[t],
                                    node.quorum);
  return a.code;
}

Code TreeAlgorithm::EvaluateComposite(TreeIndex t, const plugins::Placement& placement,
                                      int32_t depth) {
  const GroupTreeNode& node = tree_.node(t);
  const size_t mark = snapshot_.Mark();
  const auto children = static_cast<int32_t>(node.children.size());
  int32_t succeeded = 0, unschedulable = 0, remaining = children;
  std::string first_failure;
  for (TreeIndex c : node.children) {
    --remaining;
    const Code code = Schedule(c, placement, depth + 1);
    if (code == Code::kSuccess) {
      ++succeeded;
    } else {
      if (code == Code::kUnschedulable) ++unschedulable;
      if (first_failure.empty()) {
        first_failure = fmt::format("{}: {}", tree_.node(c).key, outcomes_[c].message);
      }
    }
    // PlacementFeasible (KEP-6012): S + R < M cannot reach the quorum any more.
    if (succeeded + remaining < node.quorum) break;
  }
  TreeNodeOutcome& out = outcomes_[t];
  out.placement.clear();
  if (succeeded >= node.quorum) {
    out.code = Code::kSuccess;
    out.message.clear();
    out.satisfied = succeeded;
    return Code::kSuccess;
  }
  snapshot_.RevertTo(mark);
  out.code = succeeded + remaining + unschedulable >= node.quorum
                 ? Code::kUnschedulable
                 : Code::kUnschedulableAndUnresolvable;
  out.satisfied = 0;
  out.message = fmt::format("CompositePodGroup {}: {} of {} child groups fit, minGroupCount {}; {}",
                            node.key, succeeded, children, node.quorum, first_failure);
  FailSubtree(t, out.message);
  return out.code;
}

Code TreeAlgorithm::Evaluate(TreeIndex t, const plugins::Placement& placement, int32_t depth) {
  return tree_.node(t).is_composite ? EvaluateComposite(t, placement, depth)
                                    : EvaluateLeaf(t, placement);
}

Code TreeAlgorithm::Schedule(TreeIndex t, const plugins::Placement& parent, int32_t depth) {
  const GroupTreeNode& node = tree_.node(t);
  TreeNodeOutcome& out = outcomes_[t];
  if (node.topology_key.empty()) return Evaluate(t, parent, depth);
  if (depth >= kMaxDepth) {
    out.code = Code::kUnschedulableAndUnresolvable;
    out.message = "group hierarchy too deep";
    FailSubtree(t, out.message);
    return out.code;
  }
  const plugins::TopologyKeyIndex& index = topology_.Get(node.topology_key);
  auto& cands = candidates_[depth];
  cands.clear();
  arenas_[depth].Clear();
  Status generated =
      plugins::GeneratePlacements(index, parent, pinned_[t], cands, arenas_[depth], domain_counts_);
  auto fail = [&](Code code, std::string message) {
    out.code = code;
    out.message = std::move(message);
    out.placement.clear();
    out.satisfied = 0;
    FailSubtree(t, out.message);
    return code;
  };
  if (!generated.IsSuccess()) {
    return fail(generated.code(), fmt::format("0/0 placements are available: {}", generated.Message()));
  }
  if (cands.empty()) {
    return fail(Code::kUnschedulableAndUnresolvable,
                fmt::format("0/0 placements are available: no node{} has label {}",
                            parent.all ? "" : " of the parent placement", node.topology_key));
  }
  int64_t total_nodes = 0;
  for (const auto& c : cands) total_nodes += static_cast<int64_t>(c.nodes.size());
  const int32_t to_find = PlacementsToFind(total_nodes, static_cast<int32_t>(cands.size()));

  struct Feasible {
    size_t index;
    int64_t fit;
    int64_t pods;
  };
  std::vector<Feasible> feasible;
  std::vector<std::pair<size_t, std::string>> reasons;
  bool any_resolvable = false;
  const size_t mark = snapshot_.Mark();
  int64_t kept = -1;  // candidate whose assumptions are still in the snapshot
  for (size_t i = 0; i < cands.size(); ++i) {
    std::string pruned = PruneReason(t, cands[i]);
    if (!pruned.empty()) {
      ++pruned_;
      any_resolvable = true;
      reasons.emplace_back(i, std::move(pruned));
      continue;
    }
    if (kept >= 0) {
      snapshot_.RevertTo(mark);
      kept = -1;
    }
    ++evaluated_;
    const Code code = Evaluate(t, cands[i], depth);
    if (code == Code::kSuccess) {
      const int64_t fit = plugins::ScorePlacementResourcesFit(nodes_, cands[i].nodes, false);
      const auto pods = static_cast<int64_t>(snapshot_.Mark() - mark + pinned_[t].size());
      feasible.push_back({i, fit, plugins::ScorePodGroupPodsCount(pods)});
      kept = static_cast<int64_t>(i);
      if (static_cast<int32_t>(feasible.size()) >= to_find) break;
    } else {
      any_resolvable = any_resolvable || code == Code::kUnschedulable;
      reasons.emplace_back(i, outcomes_[t].message);
    }
  }
  if (feasible.empty()) {
    std::string message =
        fmt::format("0/{} placements are available", cands.size());
    for (size_t k = 0; k < reasons.size() && k < kMaxListedPlacements; ++k) {
      message += fmt::format("{} {}: {}", k == 0 ? ":" : ";", cands[reasons[k].first].name,
                             reasons[k].second);
    }
    if (reasons.size() > kMaxListedPlacements) {
      message += fmt::format("; and {} more", reasons.size() - kMaxListedPlacements);
    }
    return fail(any_resolvable ? Code::kUnschedulable : Code::kUnschedulableAndUnresolvable,
                std::move(message));
  }
  // Score: NodeResourcesFit (MostAllocated, weight 1) + PodGroupPodsCount (normalised, weight 1).
  std::vector<int64_t> counts;
  counts.reserve(feasible.size());
  for (const auto& f : feasible) counts.push_back(f.pods);
  plugins::NormalizePodGroupPodsCount(counts);
  size_t best = 0;
  int64_t best_score = -1;
  for (size_t k = 0; k < feasible.size(); ++k) {
    const int64_t score = plugins::kPlacementResourcesFitWeight * feasible[k].fit +
                          plugins::kPodGroupPodsCountWeight * counts[k];
    if (score > best_score) {  // ties: the first in label-value order
      best_score = score;
      best = k;
    }
  }
  const size_t chosen = feasible[best].index;
  if (kept != static_cast<int64_t>(chosen)) {
    if (kept >= 0) snapshot_.RevertTo(mark);
    const Code again = Evaluate(t, cands[chosen], depth);
    if (again != Code::kSuccess) return fail(again, outcomes_[t].message);
  }
  out.placement = std::string(cands[chosen].name);
  return Code::kSuccess;
}

TreeAttempt TreeAlgorithm::Run(TreeIndex root) {
  subtree_.clear();
  tree_.Preorder(root, subtree_);
  for (auto it = subtree_.rbegin(); it != subtree_.rend(); ++it) Prepare(*it);
  const size_t mark = snapshot_.Mark();
  const plugins::Placement everything{{}, {}, true};
  TreeAttempt attempt;
  attempt.code = Schedule(root, everything, 0);
  attempt.message = outcomes_[root].message;
  attempt.groups = subtree_;
  if (attempt.code != Code::kSuccess) {
    snapshot_.RevertTo(mark);
    return attempt;
  }
  bool any_pending = false;
  for (TreeIndex t : subtree_) {
    if (tree_.node(t).is_composite) continue;
    for (PodIndex p : todo_[t]) {
      any_pending = true;
      (pods_[p].node != kNoNode ? attempt.placed : attempt.unplaced).push_back(p);
    }
  }
  if (any_pending && attempt.placed.empty()) {
    // Upstream: a successful group cycle that placed no pod is Unschedulable.
    attempt.code = Code::kUnschedulable;
    attempt.message = "no pods were schedulable";
    outcomes_[root].code = attempt.code;
    outcomes_[root].message = attempt.message;
    attempt.unplaced.clear();
  }
  return attempt;
}

}  // namespace wasched::sched
