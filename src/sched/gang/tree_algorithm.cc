// File: sched/gang/tree_algorithm.cc
//
// TreeAlgorithm (see tree_algorithm.h). Upstream: KEP-6012 (CompositePodGroup, top-down
// multi-level placement), KEP-5732 (placement generation / evaluation / scoring).
#include "sched/gang/tree_algorithm.h"

#include <algorithm>
#include <limits>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "sched/gang/pod_group_algorithm.h"
#include "sched/plugins/placement_resources_fit/placement_resources_fit.h"
#include "sched/plugins/pod_group_pods_count/pod_group_pods_count.h"
#include "util/saturating.h"

namespace wasched::sched {
namespace {

// kMaxDepth: per-depth buffers; a valid tree has at most 4 levels (KEP-6012), refused trees
// never reach the algorithm.
constexpr int32_t kMaxDepth = 8;
// Failure message bounds: at most kMaxListedReasons distinct per-placement reasons (most frequent
// first), each clipped to kMaxReasonBytes, and kMaxNamedPlacements names per reason.
constexpr size_t kMaxListedReasons = 3;
constexpr size_t kMaxReasonBytes = 400;
constexpr size_t kMaxNamedPlacements = 3;

// Clip: `s` cut to kMaxReasonBytes on a UTF-8 boundary, "…" marking the cut.
std::string Clip(std::string_view s) {
  if (s.size() <= kMaxReasonBytes) return std::string(s);
  size_t cut = kMaxReasonBytes;
  while (cut > 0 && (static_cast<unsigned char>(s[cut]) & 0xC0) == 0x80) --cut;
  return std::string(s.substr(0, cut)) + "…";
}

// PlacementFailureMessage: "0/K placements are available: <groups>." where identical reasons are
// aggregated like FitError's node reasons: "100 placement(s): <reason>" ("r0: <reason>" for a
// reason of one placement; up to kMaxNamedPlacements names in parentheses for a few), most
// frequent first (ties: label order), "; and M more placement(s) with other reasons" beyond
// kMaxListedReasons. `reasons` are (candidate, reason) in label order. Ends with ".", so a
// suffix can follow after a space. O(K log K + total reason length).
std::string PlacementFailureMessage(const std::vector<plugins::Placement>& cands,
                                    const std::vector<std::pair<size_t, std::string>>& reasons) {
  struct Group {
    const std::string* reason;
    size_t count = 0;
    size_t first = 0;
    std::vector<std::string_view> names;
  };
  std::vector<Group> groups;
  std::map<std::string_view, size_t> by_reason;
  for (const auto& [i, reason] : reasons) {
    auto [it, added] = by_reason.emplace(reason, groups.size());
    if (added) groups.push_back(Group{&reason, 0, i, {}});
    Group& g = groups[it->second];
    ++g.count;
    if (g.names.size() < kMaxNamedPlacements) g.names.push_back(cands[i].name);
  }
  std::stable_sort(groups.begin(), groups.end(), [](const Group& a, const Group& b) {
    return a.count != b.count ? a.count > b.count : a.first < b.first;
  });
  std::string message = fmt::format("0/{} placements are available", cands.size());
  size_t others = 0;
  for (size_t k = 0; k < groups.size(); ++k) {
    const Group& g = groups[k];
    if (k >= kMaxListedReasons) {
      others += g.count;
      continue;
    }
    message += k == 0 ? ": " : "; ";
    if (g.count == 1) {
      message += fmt::format("{}: ", g.names.front());
    } else if (g.count <= kMaxNamedPlacements) {
      message += fmt::format("{} placement(s) ({}): ", g.count, fmt::join(g.names, ", "));
    } else {
      message += fmt::format("{} placement(s): ", g.count);
    }
    std::string_view reason = *g.reason;  // its closing period would clash with "; "
    if (!reason.empty() && reason.back() == '.') reason.remove_suffix(1);
    message += Clip(reason);
  }
  if (others > 0) {
    message += fmt::format("; and {} more placement(s) with other reasons", others);
  }
  if (message.back() != '.') message += '.';
  return message;
}

}  // namespace

TreeAlgorithm::TreeAlgorithm(Framework& framework, Snapshot& snapshot, std::vector<PodInfo>& pods,
                             const GroupTree& tree, const std::vector<bool>& gated,
                             PlacementSearch placement)
    : framework_(framework),
      snapshot_(snapshot),
      pods_(pods),
      tree_(tree),
      gated_(gated),
      nodes_(snapshot.nodes()),
      topology_(snapshot.nodes()),
      placement_search_(placement) {
  const auto n = static_cast<size_t>(tree.size());
  outcomes_.resize(n);
  todo_.resize(n);
  scheduled_.assign(n, 0);
  pinned_.resize(n);
  demand_.resize(n);
  key_index_.assign(n, nullptr);
  total_pods_.assign(n, 0);
  pending_cpu_.assign(n, 0);
  pending_mem_.assign(n, 0);
  candidates_.resize(kMaxDepth);
  arenas_.resize(kMaxDepth);
  popped_.resize(kMaxDepth);
  extras_nodes_.resize(kMaxDepth + 1);
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
    SortInQueueOrder(todo, pods_);
    scheduled_[t] = scheduled;
    total_pods_[t] = scheduled + static_cast<int64_t>(todo.size());
    pending_cpu_[t] = 0;
    pending_mem_[t] = 0;
    for (PodIndex p : todo) {
      pending_cpu_[t] = SaturatingAdd(pending_cpu_[t], pods_[p].nonzero_cpu);
      pending_mem_[t] = SaturatingAdd(pending_mem_[t], pods_[p].nonzero_memory);
    }
    // Minimum demand: per resource, the `need` smallest requests among the pending members
    // (conservative: a resource fewer than `need` members request may not be needed at all).
    const int32_t need = node.quorum - scheduled;
    if (need <= 0) return;
    std::vector<std::pair<ResourceId, int64_t>>& all = demand_scratch_;
    all.clear();
    for (PodIndex p : todo) {
      for (const auto& ra : pods_[p].requests) all.emplace_back(ra.id, ra.amount);
    }
    std::sort(all.begin(), all.end());
    for (size_t i = 0; i < all.size();) {
      size_t j = i;
      while (j < all.size() && all[j].first == all[i].first) ++j;
      if (static_cast<int32_t>(j - i) >= need) {
        int64_t sum = 0;
        for (size_t k = i; k < i + static_cast<size_t>(need); ++k) sum = SaturatingAdd(sum, all[k].second);
        demand_[t].amounts.emplace_back(all[i].first, sum);
      }
      i = j;
    }
    return;
  }
  // CompositePodGroup: pinned = the children's; demand = per resource the minGroupCount smallest
  // child demands (children are prepared first: callers visit in reverse preorder).
  std::vector<std::pair<ResourceId, int64_t>>& all = demand_scratch_;
  all.clear();
  total_pods_[t] = 0;
  pending_cpu_[t] = 0;
  pending_mem_[t] = 0;
  for (TreeIndex c : node.children) {
    total_pods_[t] += total_pods_[c];
    pending_cpu_[t] = SaturatingAdd(pending_cpu_[t], pending_cpu_[c]);
    pending_mem_[t] = SaturatingAdd(pending_mem_[t], pending_mem_[c]);
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
      sum = SaturatingAdd(sum, all[k].second);
    }
    if (sum > 0) demand_[t].amounts.emplace_back(all[i].first, sum);
    i = j;
  }
}

std::string TreeAlgorithm::PrunedMessage(ResourceId r) const {
  return fmt::format("{} (aggregate free capacity below the group's minimum)",
                     r == kPods ? std::string("Too many pods")
                                : "Insufficient " + framework_.resources().Name(r));
}

std::string TreeAlgorithm::PrunedReason(TreeIndex t, const plugins::Placement& placement,
                                        ResourceId short_of) {
  std::vector<TreeIndex> leaves;
  tree_.Leaves(t, leaves);
  for (TreeIndex leaf : leaves) {
    if (todo_[leaf].empty()) continue;
    const PodInfo& first = pods_[todo_[leaf].front()];
    ScopedRestriction restrict(framework_, placement.nodes, placement.all);
    if (framework_.FindNode(first) != kNoNode) break;
    bool filtered = false;
    std::string why = framework_.Diagnose(first, nullptr, {}, &filtered);
    if (filtered) return why;
    break;
  }
  return PrunedMessage(short_of);
}

void TreeAlgorithm::Contribution(NodeIndex n, int32_t resources, int64_t* out) const {
  out[0] = nodes_.Allocatable(kCpu, n);
  out[1] = nodes_.Allocatable(kMemory, n);
  out[2] = nodes_.NonZeroCPU(n);
  out[3] = nodes_.NonZeroMemory(n);
  for (ResourceId r = 0; r < resources; ++r) {
    out[4 + r] =
        std::max<int64_t>(0, SaturatingAdd(nodes_.Allocatable(r, n), -nodes_.Requested(r, n)));
  }
}

void TreeAlgorithm::Resum(const plugins::TopologyKeyIndex& index, DomainSums& sums,
                          int32_t d) const {
  int64_t ac = 0, am = 0, rc = 0, rm = 0;
  const auto width = static_cast<size_t>(4 + sums.resources);
  int64_t* free = sums.free.data() + static_cast<size_t>(d) * sums.resources;
  std::fill(free, free + sums.resources, 0);
  // Saturating sums: a domain's total can pass 2^63 (8 × 1Ei of memory; QA2 finding 18).
  for (NodeIndex n : index.NodesOf(d)) {
    int64_t* c = sums.seen.data() + static_cast<size_t>(n) * width;
    Contribution(n, sums.resources, c);
    ac = SaturatingAdd(ac, c[0]);
    am = SaturatingAdd(am, c[1]);
    rc = SaturatingAdd(rc, c[2]);
    rm = SaturatingAdd(rm, c[3]);
    for (ResourceId r = 0; r < sums.resources; ++r) free[r] = SaturatingAdd(free[r], c[4 + r]);
  }
  sums.alloc_cpu[d] = ac;
  sums.alloc_mem[d] = am;
  sums.req_cpu[d] = rc;
  sums.req_mem[d] = rm;
}

bool TreeAlgorithm::ApplyChange(DomainSums& sums, int32_t d, NodeIndex n) const {
  // Exact only while no sum ever saturated: with non-negative terms a sum below INT64_MAX is the
  // true total, so subtracting the old term and adding the new one is exact.
  constexpr int32_t kMaxResources = 64;
  if (sums.resources > kMaxResources) return false;
  int64_t now[4 + kMaxResources];
  Contribution(n, sums.resources, now);
  const auto width = static_cast<size_t>(4 + sums.resources);
  int64_t* was = sums.seen.data() + static_cast<size_t>(n) * width;
  int64_t* free = sums.free.data() + static_cast<size_t>(d) * sums.resources;
  int64_t* total[4] = {&sums.alloc_cpu[d], &sums.alloc_mem[d], &sums.req_cpu[d], &sums.req_mem[d]};
  int64_t next[4 + kMaxResources];
  for (size_t k = 0; k < width; ++k) {
    const int64_t sum = k < 4 ? *total[k] : free[k - 4];
    if (now[k] < 0 || was[k] < 0 || sum == std::numeric_limits<int64_t>::max() ||
        __builtin_add_overflow(sum - was[k], now[k], &next[k])) {
      return false;
    }
  }
  for (size_t k = 0; k < width; ++k) {
    (k < 4 ? *total[k] : free[k - 4]) = next[k];
    was[k] = now[k];
  }
  return true;
}

namespace {
// kResumDomainSize: domains of at most this many nodes are re-summed rather than updated per
// changed node (measured: racks of 10 nodes were 36% cheaper re-summed in TopologyAware, zones of
// 100 nodes 40% cheaper updated in CompositePodGroup).
constexpr size_t kResumDomainSize = 16;
}  // namespace

TreeAlgorithm::DomainSums& TreeAlgorithm::SumsOf(const plugins::TopologyKeyIndex& index) {
  DomainSums& sums = domain_sums_[&index];
  const auto& log = nodes_.change_log();
  const auto domains = static_cast<size_t>(index.domain_count());
  if (!sums.built || sums.epoch != nodes_.log_epoch() || sums.resources != nodes_.resource_count() ||
      sums.cursor > log.size()) {
    sums.resources = nodes_.resource_count();
    sums.alloc_cpu.assign(domains, 0);
    sums.alloc_mem.assign(domains, 0);
    sums.req_cpu.assign(domains, 0);
    sums.req_mem.assign(domains, 0);
    sums.free.assign(domains * static_cast<size_t>(sums.resources), 0);
    sums.seen.assign(
        static_cast<size_t>(nodes_.size()) * static_cast<size_t>(4 + sums.resources), 0);
    sums.dirty.assign(domains, 0);
    for (int32_t d = 0; d < index.domain_count(); ++d) Resum(index, sums, d);
    sums.built = true;
    sums.epoch = nodes_.log_epoch();
    sums.cursor = log.size();
    return sums;
  }
  for (size_t i = sums.cursor; i < log.size(); ++i) {
    const int32_t d = index.domain_of_node[log[i]];
    if (d < 0 || sums.dirty[d]) continue;
    // A small domain (a rack) is re-summed once however many of its nodes changed (a gang's
    // trial assumes and reverts several); a large one (a zone) takes each node's difference.
    if (index.NodesOf(d).size() > kResumDomainSize && ApplyChange(sums, d, log[i])) continue;
    sums.dirty[d] = 1;
    sums.dirty_list.push_back(d);
  }
  for (int32_t d : sums.dirty_list) {
    Resum(index, sums, d);
    sums.dirty[d] = 0;
  }
  sums.dirty_list.clear();
  sums.cursor = log.size();
  return sums;
}

std::vector<verify::DomainSumsView> TreeAlgorithm::CachedDomainSums() {
  std::vector<verify::DomainSumsView> out;
  for (auto& [index, unused] : domain_sums_) {
    const DomainSums& sums = SumsOf(*index);
    out.push_back({*index, sums.alloc_cpu, sums.alloc_mem, sums.req_cpu, sums.req_mem, sums.free,
                   sums.resources});
  }
  return out;
}

void TreeAlgorithm::AggregateOf(TreeIndex t, const plugins::Placement& placement, Aggregate& out) {
  // One pass, no allocation: per-domain aggregate free capacity (design.md "a placement that
  // cannot fit by aggregate free capacity is pruned before any trial placement").
  const auto& demand = demand_[t].amounts;
  free_scratch_.assign(demand.size(), 0);
  out = Aggregate{};
  auto visit = [&](NodeIndex n) {
    out.alloc_cpu += nodes_.Allocatable(kCpu, n);
    out.alloc_mem += nodes_.Allocatable(kMemory, n);
    out.req_cpu += nodes_.NonZeroCPU(n);
    out.req_mem += nodes_.NonZeroMemory(n);
    for (size_t k = 0; k < demand.size(); ++k) {
      const ResourceId r = demand[k].first;
      if (r < nodes_.resource_count()) {
        free_scratch_[k] = SaturatingAdd(
            free_scratch_[k],
            std::max<int64_t>(0, SaturatingAdd(nodes_.Allocatable(r, n), -nodes_.Requested(r, n))));
      }
    }
  };
  if (placement.all) {
    for (NodeIndex n = 0; n < nodes_.size(); ++n) visit(n);
  } else {
    for (NodeIndex n : placement.nodes) visit(n);
  }
  for (size_t k = 0; k < demand.size(); ++k) {
    if (free_scratch_[k] < demand[k].second) {
      out.pruned = demand[k].first;
      return;
    }
  }
}

int64_t TreeAlgorithm::FitScore(const Aggregate& a, __int128 add_cpu, __int128 add_mem) {
  return plugins::kPlacementResourcesFitWeight *
         plugins::MostAllocatedScore(a.alloc_cpu, a.req_cpu + add_cpu, a.alloc_mem,
                                     a.req_mem + add_mem);
}

int64_t TreeAlgorithm::PlacementScore(const Aggregate& a, __int128 add_cpu, __int128 add_mem,
                                      int64_t pods, TreeIndex t) const {
  const int64_t count = plugins::ScorePodGroupPodsCount(pods, total_pods_[t]);
  return FitScore(a, add_cpu, add_mem) + plugins::kPodGroupPodsCountWeight * count;
}

int64_t TreeAlgorithm::BestTried(const std::vector<Tried>& tried) {
  int64_t max_pods = 0;
  for (const Tried& x : tried) max_pods = std::max(max_pods, x.pods);
  int64_t best = -1;
  int64_t best_score = -1;
  for (const Tried& x : tried) {
    const int64_t score =
        x.fit + plugins::kPodGroupPodsCountWeight * plugins::ScorePodGroupPodsCount(x.pods, max_pods);
    if (score > best_score) {
      best_score = score;
      best = x.id;
    }
  }
  return best;
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
  PodGroupAlgorithm algorithm(framework_, snapshot_, pods_, placement_search_);
  GroupAttempt a = algorithm.Run(todo_[t], scheduled_[t], node.quorum, minimum_first_);
  out.placement.clear();
  if (a.code == Code::kSuccess) {
    out.code = Code::kSuccess;
    out.message.clear();
    out.satisfied = scheduled_[t] + static_cast<int32_t>(a.placed.size());
    return Code::kSuccess;
  }
  out.code = a.code;
  out.satisfied = 0;
  const bool gang = node.pod_group->scheduling_policy.gang.has_value();
  out.message = GroupFailureMessage(a, node.key, scheduled_[t],
                                    static_cast<int32_t>(todo_[t].size()) + scheduled_[t],
                                    node.quorum, gang);
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
    // Minimum-first: the quorum of children first; PlaceExtras tries the rest.
    if (minimum_first_ && succeeded >= node.quorum) break;
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
  if (key_index_[t] == nullptr) key_index_[t] = &topology_.Get(node.topology_key);
  const plugins::TopologyKeyIndex& index = *key_index_[t];
  if (parent.all && pinned_[t].empty()) return ScheduleInCluster(t, index, depth);
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

  // Branch and bound over the candidates: each gets an upper bound of its score from one
  // aggregate pass (all pending pods placed in it); candidates are tried best bound first and
  // the search stops once the best score found reaches the next bound (a placing all pods
  // scores exactly its bound), or after `to_find` feasible ones (PercentageOfPlacementsToScore).
  struct Ranked {
    size_t index;
    int64_t bound;
  };
  std::vector<Ranked> ranked;
  ranked.reserve(cands.size());
  std::vector<std::pair<size_t, ResourceId>> pruned;     // candidate, resource short of demand
  std::vector<std::pair<size_t, std::string>> reasons;   // candidate, why its trial failed
  bool any_resolvable = false;
  Aggregate agg;
  DomainSums& sums = SumsOf(index);
  for (size_t i = 0; i < cands.size(); ++i) {
    const int32_t d = cands[i].domain;
    if (d >= 0) {
      ResourceId short_of = -1;
      const int64_t bound = BoundOf(t, sums, d, &short_of);
      if (bound < 0) {
        ++pruned_;
        any_resolvable = true;
        pruned.emplace_back(i, short_of);
      } else {
        ranked.push_back({i, bound});
      }
      continue;
    } else {
      AggregateOf(t, cands[i], agg);
      if (agg.pruned >= 0) {
        ++pruned_;
        any_resolvable = true;
        pruned.emplace_back(i, agg.pruned);
        continue;
      }
    }
    ranked.push_back({i, PlacementScore(agg, pending_cpu_[t], pending_mem_[t], total_pods_[t], t)});
  }
  // Best bound first, then label-value order: a heap, so a search that stops after one trial
  // costs O(k) instead of a sort.
  auto worse = [](const Ranked& a, const Ranked& b) {
    return a.bound != b.bound ? a.bound < b.bound : a.index > b.index;
  };
  std::make_heap(ranked.begin(), ranked.end(), worse);
  const size_t mark = snapshot_.Mark();
  int64_t kept = -1;  // candidate whose assumptions are still in the snapshot
  int64_t best = -1;
  int64_t best_score = -1;  // normalised by total_pods_[t]: final once max_pods reaches it
  int64_t max_pods = 0;
  std::vector<Tried> tried;  // feasible trials, in evaluation order
  int32_t found = 0;
  while (!ranked.empty()) {
    std::pop_heap(ranked.begin(), ranked.end(), worse);
    const Ranked c = ranked.back();
    ranked.pop_back();
    if (best >= 0 && max_pods >= total_pods_[t] && c.bound <= best_score) break;
    if (kept >= 0) {
      snapshot_.RevertTo(mark);
      kept = -1;
    }
    ++evaluated_;
    const Code code = Evaluate(t, cands[c.index], depth);
    if (code == Code::kSuccess) {
      AggregateOf(t, cands[c.index], agg);  // usage now includes the trial's pods
      const auto pods = static_cast<int64_t>(snapshot_.Mark() - mark + pinned_[t].size());
      const int64_t fit = FitScore(agg, 0, 0);
      tried.push_back({static_cast<int64_t>(c.index), fit, pods});
      max_pods = std::max(max_pods, pods);
      const int64_t score = PlacementScore(agg, 0, 0, pods, t);
      if (score > best_score) {  // ties: the better bound, then label-value order
        best_score = score;
        best = static_cast<int64_t>(c.index);
      }
      kept = static_cast<int64_t>(c.index);
      if (++found >= to_find) break;
    } else {
      any_resolvable = any_resolvable || code == Code::kUnschedulable;
      reasons.emplace_back(c.index, outcomes_[t].message);
    }
  }
  if (best < 0) {
    for (const auto& [i, r] : pruned) reasons.emplace_back(i, PrunedReason(t, cands[i], r));
    std::sort(reasons.begin(), reasons.end(),
              [](const auto& a, const auto& b) { return a.first < b.first; });
    std::string message = PlacementFailureMessage(cands, reasons);
    return fail(any_resolvable ? Code::kUnschedulable : Code::kUnschedulableAndUnresolvable,
                std::move(message));
  }
  best = BestTried(tried);  // PodGroupPodsCount normalised by the largest count tried
  const auto chosen = static_cast<size_t>(best);
  if (kept != best) {
    if (kept >= 0) snapshot_.RevertTo(mark);
    const Code again = Evaluate(t, cands[chosen], depth);
    if (again != Code::kSuccess) return fail(again, outcomes_[t].message);
  }
  out.placement = std::string(cands[chosen].name);
  return Code::kSuccess;
}

int64_t TreeAlgorithm::BoundOf(TreeIndex t, const DomainSums& sums, int32_t d,
                               ResourceId* short_of) const {
  const int64_t* free = sums.free.data() + static_cast<size_t>(d) * sums.resources;
  for (const auto& [r, amount] : demand_[t].amounts) {
    if (r >= sums.resources || free[r] < amount) {
      if (short_of != nullptr) *short_of = r;
      return -1;
    }
  }
  constexpr int64_t kFast = int64_t{1} << 52;  // sums small enough for 64-bit score arithmetic
  const int64_t ac = sums.alloc_cpu[d], am = sums.alloc_mem[d];
  const int64_t rc = SaturatingAdd(sums.req_cpu[d], pending_cpu_[t]);
  const int64_t rm = SaturatingAdd(sums.req_mem[d], pending_mem_[t]);
  if (ac > 0 && am > 0 && ac < kFast && am < kFast && rc < kFast && rm < kFast) {
    // Hot path (whole-domain candidate): MostAllocatedScore in 64-bit integers.
    const int64_t fit = (std::min<int64_t>(rc * 100 / ac, 100) + std::min<int64_t>(rm * 100 / am, 100)) / 2;
    return plugins::kPlacementResourcesFitWeight * fit +
           plugins::kPodGroupPodsCountWeight *
               plugins::ScorePodGroupPodsCount(total_pods_[t], total_pods_[t]);
  }
  const Aggregate agg{sums.alloc_cpu[d], sums.alloc_mem[d], sums.req_cpu[d], sums.req_mem[d], -1};
  return PlacementScore(agg, pending_cpu_[t], pending_mem_[t], total_pods_[t], t);
}

TreeAlgorithm::BoundIndex& TreeAlgorithm::BoundsOf(TreeIndex t,
                                                   const plugins::TopologyKeyIndex& index,
                                                   const DomainSums& sums) {
  BoundKey key{&index, demand_[t].amounts, pending_cpu_[t], pending_mem_[t], total_pods_[t]};
  BoundIndex* b = nullptr;
  if (auto it = bound_indexes_.find(key); it != bound_indexes_.end()) {
    b = &it->second;
  } else if (bound_indexes_.size() < kMaxBoundIndexes) {
    b = &bound_indexes_[std::move(key)];
  } else {
    b = &scratch_bounds_;
    b->built = false;  // it may hold another shape's bounds
  }
  const auto& log = nodes_.change_log();
  const int32_t k = index.domain_count();
  if (!b->built || b->epoch != nodes_.log_epoch() || b->cursor > log.size() ||
      b->bounds.size() != k || log.size() - b->cursor > static_cast<size_t>(k)) {
    bound_scratch_.resize(static_cast<size_t>(k));
    for (int32_t d = 0; d < k; ++d) bound_scratch_[d] = BoundOf(t, sums, d);
    b->bounds.Build(bound_scratch_);
    b->dirty.assign(static_cast<size_t>(k), 0);
    b->dirty_list.clear();
    b->built = true;
    b->epoch = nodes_.log_epoch();
    b->cursor = log.size();
    return *b;
  }
  for (size_t i = b->cursor; i < log.size(); ++i) {
    const int32_t d = index.domain_of_node[log[i]];
    if (d >= 0 && !b->dirty[d]) {
      b->dirty[d] = 1;
      b->dirty_list.push_back(d);
    }
  }
  for (int32_t d : b->dirty_list) {
    b->bounds.Set(d, BoundOf(t, sums, d));
    b->dirty[d] = 0;
  }
  b->dirty_list.clear();
  b->cursor = log.size();
  return *b;
}

Code TreeAlgorithm::ScheduleInCluster(TreeIndex t, const plugins::TopologyKeyIndex& index,
                                      int32_t depth) {
  const GroupTreeNode& node = tree_.node(t);
  TreeNodeOutcome& out = outcomes_[t];
  auto fail = [&](Code code, std::string message) {
    out.code = code;
    out.message = std::move(message);
    out.placement.clear();
    out.satisfied = 0;
    FailSubtree(t, out.message);
    return code;
  };
  const int32_t k = index.domain_count();
  if (k == 0) {
    return fail(Code::kUnschedulableAndUnresolvable,
                fmt::format("0/0 placements are available: no node has label {}", node.topology_key));
  }
  auto placement = [&](int32_t d) {
    return plugins::Placement{index.values[d], index.NodesOf(d), false, d};
  };
  const int32_t to_find = PlacementsToFind(static_cast<int64_t>(index.nodes.size()), k);
  BoundIndex& b = BoundsOf(t, index, SumsOf(index));
  // Branch and bound as in Schedule: domains best bound first (ties: lower domain, i.e. label
  // order), each taken out of the index while the search runs and put back after.
  std::vector<std::pair<int32_t, int64_t>>& popped = popped_[static_cast<size_t>(depth)];
  popped.clear();
  std::vector<std::pair<size_t, std::string>> reasons;  // domain, why its trial failed
  bool any_resolvable = false;
  Aggregate agg;
  const size_t mark = snapshot_.Mark();
  int64_t kept = -1;  // domain whose assumptions are still in the snapshot
  int64_t best = -1;
  int64_t best_score = -1;  // normalised by total_pods_[t]: final once max_pods reaches it
  int64_t max_pods = 0;
  std::vector<Tried> tried;  // feasible trials, in evaluation order
  int32_t found = 0;
  while (true) {
    const int32_t d = b.bounds.BestPos();
    if (d < 0) break;
    const int64_t bound = b.bounds.ScoreAt(d);
    popped.emplace_back(d, bound);
    b.bounds.Set(d, -1);
    if (best >= 0 && max_pods >= total_pods_[t] && bound <= best_score) break;
    if (kept >= 0) {
      snapshot_.RevertTo(mark);
      kept = -1;
    }
    ++evaluated_;
    const plugins::Placement candidate = placement(d);
    // The domain's sums before the trial (current: earlier trials were reverted, and SumsOf
    // re-sums the domains they touched); the trial's aggregate is these plus its pods.
    const DomainSums& before = SumsOf(index);
    const int64_t ac = before.alloc_cpu[d], am = before.alloc_mem[d];
    const int64_t rc = before.req_cpu[d], rm = before.req_mem[d];
    const Code code = Evaluate(t, candidate, depth);
    if (code == Code::kSuccess) {
      // Usage now includes the trial's pods: the pending members of t's subtree that hold a
      // node (all placed by this trial, inside domain d). Exact while every sum stays far
      // below 2^63 (the domain sums saturate, AggregateOf does not); else AggregateOf.
      // O(subtree pods) instead of O(domain nodes).
      __int128 add_cpu = 0, add_mem = 0;
      auto add = [&](auto& self, TreeIndex u) -> void {
        const GroupTreeNode& n = tree_.node(u);
        if (n.is_composite) {
          for (TreeIndex c : n.children) self(self, c);
          return;
        }
        for (PodIndex p : todo_[u]) {
          if (pods_[p].node == kNoNode) continue;
          add_cpu += pods_[p].nonzero_cpu;
          add_mem += pods_[p].nonzero_memory;
        }
      };
      add(add, t);
      constexpr int64_t kFast = int64_t{1} << 52;
      auto small = [&](__int128 v) { return v >= 0 && v < kFast; };
      if (small(ac) && small(am) && small(rc) && small(rm) && small(add_cpu) && small(add_mem)) {
        agg = Aggregate{ac, am, rc + add_cpu, rm + add_mem, -1};
      } else {
        AggregateOf(t, candidate, agg);
      }
      const auto pods = static_cast<int64_t>(snapshot_.Mark() - mark + pinned_[t].size());
      tried.push_back({d, FitScore(agg, 0, 0), pods});
      max_pods = std::max(max_pods, pods);
      const int64_t score = PlacementScore(agg, 0, 0, pods, t);
      if (score > best_score) {  // ties: the better bound, then label-value order
        best_score = score;
        best = d;
      }
      kept = d;
      if (++found >= to_find) break;
    } else {
      any_resolvable = any_resolvable || code == Code::kUnschedulable;
      reasons.emplace_back(static_cast<size_t>(d), outcomes_[t].message);
    }
  }
  for (const auto& [d, bound] : popped) b.bounds.Set(d, bound);
  if (best < 0) {
    // Every trial was reverted, so the sums are those the bounds were taken from.
    const DomainSums& sums = SumsOf(index);
    for (int32_t d = 0; d < k; ++d) {
      ResourceId short_of = -1;
      if (BoundOf(t, sums, d, &short_of) >= 0) continue;
      ++pruned_;
      any_resolvable = true;
      reasons.emplace_back(static_cast<size_t>(d), PrunedReason(t, placement(d), short_of));
    }
    std::sort(reasons.begin(), reasons.end(),
              [](const auto& x, const auto& y) { return x.first < y.first; });
    auto& cands = candidates_[depth];
    cands.clear();
    for (int32_t d = 0; d < k; ++d) cands.push_back(placement(d));
    std::string message = PlacementFailureMessage(cands, reasons);
    return fail(any_resolvable ? Code::kUnschedulable : Code::kUnschedulableAndUnresolvable,
                std::move(message));
  }
  best = BestTried(tried);  // PodGroupPodsCount normalised by the largest count tried
  if (kept != best) {
    if (kept >= 0) snapshot_.RevertTo(mark);
    const Code again = Evaluate(t, placement(static_cast<int32_t>(best)), depth);
    if (again != Code::kSuccess) return fail(again, outcomes_[t].message);
  }
  out.placement = std::string(index.values[best]);
  return Code::kSuccess;
}

bool TreeAlgorithm::HasExtras(TreeIndex root) const {
  if (!tree_.node(root).is_composite) return false;  // a lone leaf places its quorum first anyway
  for (TreeIndex t : subtree_) {
    const GroupTreeNode& node = tree_.node(t);
    const int64_t members = node.is_composite ? static_cast<int64_t>(node.children.size())
                                              : total_pods_[t];
    if (members > node.quorum) return true;
  }
  return false;
}

void TreeAlgorithm::PlaceExtras(TreeIndex t, int32_t depth) {
  const GroupTreeNode& node = tree_.node(t);
  TreeNodeOutcome& out = outcomes_[t];
  // The nodes t's chosen domains (and its ancestors') allow; none chosen = the whole cluster.
  std::vector<NodeIndex>& allowed = extras_nodes_[static_cast<size_t>(std::min(depth, kMaxDepth))];
  std::string description;
  const bool restricted = PlacementOf(t, allowed, description);
  if (!node.is_composite) {
    ScopedRestriction restrict(framework_, allowed, !restricted);
    for (PodIndex p : todo_[t]) {
      if (pods_[p].node != kNoNode) continue;
      const NodeIndex n = framework_.FindNode(pods_[p]);
      if (n == kNoNode) continue;
      snapshot_.Assume(p, n);
      ++out.satisfied;
    }
    return;
  }
  const plugins::Placement inside{{}, allowed, !restricted};
  for (TreeIndex c : node.children) {
    const Code code = outcomes_[c].code;
    if (code == Code::kSuccess) {
      PlaceExtras(c, depth + 1);
    } else if (code == Code::kSkip && depth + 1 < kMaxDepth) {
      // A child beyond the quorum, not tried yet: scheduled as in upstream's order, inside t.
      if (Schedule(c, inside, depth + 1) == Code::kSuccess) ++out.satisfied;
    }
  }
}

bool TreeAlgorithm::PlacementOf(TreeIndex t, std::vector<NodeIndex>& nodes,
                                std::string& description) {
  // Levels from t up to the root that chose a domain (outer first in the description).
  std::vector<std::pair<const plugins::TopologyKeyIndex*, int32_t>> levels;
  std::vector<TreeIndex> chain;
  for (TreeIndex u = t; u >= 0; u = tree_.node(u).parent) chain.push_back(u);
  std::string text;
  for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
    const GroupTreeNode& node = tree_.node(*it);
    const TreeNodeOutcome& o = outcomes_[*it];
    if (node.topology_key.empty() || o.code != Code::kSuccess || o.placement.empty()) continue;
    const plugins::TopologyKeyIndex& index = topology_.Get(node.topology_key);
    const auto v = std::lower_bound(index.values.begin(), index.values.end(), o.placement);
    if (v == index.values.end() || *v != o.placement) continue;
    levels.emplace_back(&index, static_cast<int32_t>(v - index.values.begin()));
    text += fmt::format("{}{}={}", text.empty() ? "" : ", ", node.topology_key, o.placement);
  }
  if (levels.empty()) return false;
  nodes.clear();
  for (NodeIndex n = 0; n < nodes_.size(); ++n) {
    bool inside = true;
    for (const auto& [index, d] : levels) inside = inside && index->domain_of_node[n] == d;
    if (inside) nodes.push_back(n);
  }
  description = std::move(text);
  return true;
}

TreeAttempt TreeAlgorithm::Run(TreeIndex root) {
  subtree_.clear();
  tree_.Preorder(root, subtree_);
  for (auto it = subtree_.rbegin(); it != subtree_.rend(); ++it) Prepare(*it);
  const size_t mark = snapshot_.Mark();
  const plugins::Placement everything{{}, {}, true};
  TreeAttempt attempt;
  attempt.code = Schedule(root, everything, 0);
  if (attempt.code == Code::kUnschedulable && placement_search_ == PlacementSearch::kComplete &&
      HasExtras(root)) {
    // Minimum-first (see the header): every level's quorum first, then the extras.
    snapshot_.RevertTo(mark);
    saved_outcomes_.clear();
    for (TreeIndex t : subtree_) saved_outcomes_.push_back(outcomes_[t]);
    for (auto it = subtree_.rbegin(); it != subtree_.rend(); ++it) Prepare(*it);
    minimum_first_ = true;
    const Code retry = Schedule(root, everything, 0);
    minimum_first_ = false;
    if (retry == Code::kSuccess) PlaceExtras(root, 0);
    if (retry == Code::kSuccess && snapshot_.Mark() != mark) {
      attempt.code = Code::kSuccess;
    } else {
      // Failed too, or placed nothing (a retry of leftovers): the first attempt's report.
      snapshot_.RevertTo(mark);
      for (size_t i = 0; i < subtree_.size(); ++i) outcomes_[subtree_[i]] = saved_outcomes_[i];
    }
  }
  attempt.message = outcomes_[root].message;
  attempt.groups = subtree_;
  if (attempt.code != Code::kSuccess) {
    snapshot_.RevertTo(mark);
    return attempt;
  }
  bool any_pending = false;
  size_t pending = 0;
  for (TreeIndex t : subtree_) pending += tree_.node(t).is_composite ? 0 : todo_[t].size();
  attempt.placed.reserve(pending);  // one allocation, not one per doubling
  for (TreeIndex t : subtree_) {
    if (tree_.node(t).is_composite) continue;
    for (PodIndex p : todo_[t]) {
      any_pending = true;
      (pods_[p].node != kNoNode ? attempt.placed : attempt.unplaced).push_back(p);
    }
  }
  if (any_pending && attempt.placed.empty()) {
    // Upstream: a successful group cycle that placed no pod is Unschedulable. The reason is the
    // first failed level's under the root (preorder), as the flat algorithm names its first
    // failed pod's.
    attempt.code = Code::kUnschedulable;
    attempt.message = "no pods were schedulable";
    for (TreeIndex t : subtree_) {
      if (t == root || outcomes_[t].code == Code::kSuccess || outcomes_[t].message.empty()) continue;
      attempt.message += ": " + outcomes_[t].message;
      break;
    }
    outcomes_[root].code = attempt.code;
    outcomes_[root].message = attempt.message;
    attempt.unplaced.clear();
  }
  return attempt;
}

}  // namespace wasched::sched
