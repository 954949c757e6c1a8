// File: sched/gang/tree_algorithm.h
//
// TreeAlgorithm: the scheduling algorithm for a root unit that is a CompositePodGroup tree or a
// topology-constrained PodGroup (spec/was-v1.37.md §4.4, §5.1–5.3; KEP-6012, KEP-5732; upstream
// pkg/scheduler/framework/…/algorithm_podgroup.go "placement algorithm").
//
// Schedule(group, parent placement):
//   * no topology key → Evaluate(group, parent placement);
//   * else candidates = TopologyPlacement(key, parent placement, pinned by running pods). Each
//     candidate first gets, from per-domain aggregate sums (DomainSums, no trial placement), a
//     pruning test — the sum over its nodes of free capacity per resource must hold the group's
//     minimum demand (MinDemand, see Prepare) — and an upper bound of its placement score (all
//     pending pods placed in it); a pruned placement whose nodes all reject the group's first
//     pod, some for a reason other than capacity, reports that pod's FitError, not the
//     aggregate shortfall. Then branch and bound:
//     candidates are tried best bound first (assume, score, revert); the search stops when the
//     best score found reaches the next bound (a candidate that places every pod scores exactly
//     its bound, so usually after one trial) or after `PlacementsToFind` feasible ones. The best
//     score wins (ties: better bound, then label-value order; upstream picks at random) and is
//     evaluated again to keep its assumptions (skipped when it was the last one tried). None
//     feasible →
//     "0/N placements are available: 100 placement(s): <why>; r7: <why>." — identical reasons
//     aggregated like FitError's node reasons, most frequent first, at most 3 reasons of at
//     most 400 bytes each, then "; and M more placement(s) with other reasons"; ends with ".".
// Evaluate(group, placement):
//   * leaf PodGroup → PodGroupAlgorithm on its pending members with the Framework restricted to
//     the placement's nodes (the whole cluster: unrestricted, indexed);
//   * CompositePodGroup → its children in order (GroupTree), each Schedule(child, placement) with
//     sibling assignments kept assumed; after each child PlacementFeasible with M =
//     minGroupCount (basic → 1), S successes, R untried, U Unschedulable children: S+R < M stops
//     the group (Unschedulable when S+R+U ≥ M, else UnschedulableAndUnresolvable) and reverts
//     every assumption made under it (Snapshot Mark/RevertTo); all children are tried otherwise,
//     and S ≥ M is Success. A failed group marks its whole subtree failed: a leaf's assignments
//     count only if all its ancestors succeed.
// Minimum-first (PlacementSearch::kComplete, beyond upstream; README "Choices"). Upstream
// (pkg/scheduler/schedule_one_podgroup.go, podGroupSchedulingDefaultAlgorithm and
// compositePodGroupSchedulingDefaultAlgorithm, v1.37.2) lets every leaf try all its pods and
// every composite all its children, in order, so an earlier child's pods beyond its minCount can
// take the room a later child's quorum needs. When a
// CompositePodGroup tree fails Unschedulable in upstream's order and some group of it has more
// members (or children) than its quorum, the tree is tried once more with every level placing
// only its quorum — a leaf stops at minCount pods (PodGroupAlgorithm stop_at_quorum), a
// CompositePodGroup at minGroupCount successful children, placement domains chosen and scored
// the same way — and, once the root succeeds that way, the extras: preorder, a successful
// composite's untried children (each scheduled as in upstream's order inside the composite's
// chosen domains) and a successful leaf's remaining members (each its best node inside its
// chosen domains), those that do not fit staying pending. So an earlier child that would take
// room beyond its minCount no longer starves a later child's quorum. If the retry fails too,
// the first attempt's outcomes are reported. One extra tree run, no search: bounded.
//
// Placement score (documented choice, KEP-5732 defaults): NodeResourcesFit MostAllocated over the
// placement's nodes (weight 1; bin-packing: the fullest domain that fits wins, keeping whole
// domains free for later large groups) + PodGroupPodsCount, 100 · placed / the largest placed
// count among the feasible placements tried (weight 1, upstream NormalizePlacementScore; prefers a
// domain where more of the group fits when minCount < size). The bound of a candidate counts
// 100 for PodGroupPodsCount; the search stops on bounds only once some feasible placement holds
// every pod of the group (then no later placement can change the normalisation).
// PlacementsToFind: pct = 100 for < 100 nodes across all candidates, else
// max(5, 100 − 90 · nodes / 5000) (100 % for small clusters, 10 % at 5000 nodes, floor 5 %,
// KEP-5732 PercentageOfPlacementsToScore), count = max(1, ceil(candidates · pct / 100)).
//
// Cost per group with a key: O(candidates × resources) ranking (+ O(domain size) per domain
// whose nodes changed since the last look), + Σ over tried candidates of the PodGroupAlgorithm
// cost restricted to the candidate (O(pods × candidate nodes)). Candidates cut by a parent that
// is not aligned with the key's domains are summed by a scan. Not thread-safe; reuses its
// buffers across cycles (create once per run).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "sched/cache/snapshot.h"
#include "sched/framework/framework.h"
#include "sched/framework/score_index.h"
#include "sched/framework/status.h"
#include "sched/gang/group_tree.h"
#include "sched/plugins/topology_placement/topology_placement.h"
#include "sched/verify/invariants.h"

namespace wasched::sched {

// TreeNodeOutcome: the last decided result of one group of the tree in this cycle.
//  * code: Success, Unschedulable or UnschedulableAndUnresolvable.
//  * message: why it failed ("" on success).
//  * placement: the chosen domain's label value ("" without topology key / on failure).
//  * satisfied: CompositePodGroup: children that succeeded; PodGroup: members placed.
struct TreeNodeOutcome {
  Code code = Code::kSuccess;
  std::string message;
  std::string placement;
  int32_t satisfied = 0;
};

// TreeAttempt: the result of TreeAlgorithm::Run for a root.
//  * code / message: the root's outcome. On Success the placements stay assumed in the snapshot
//    (caller commits); otherwise the snapshot is as before the call.
//  * placed: pods placed (Success only); unplaced: pending pods of the subtree left without a
//    node (members beyond a satisfied quorum, or of a failed sub-group of a successful root).
//  * groups: every group of the subtree (preorder), with its outcome.
struct TreeAttempt {
  Code code = Code::kSuccess;
  std::string message;
  std::vector<PodIndex> placed;
  std::vector<PodIndex> unplaced;
  std::vector<TreeIndex> groups;
};

class TreeAlgorithm {
 public:
  // TreeAlgorithm: `gated[p]` true for pods the cycle must not place (scheduling-gated,
  // unsupported); `placement` kUpstream turns minimum-first and every PodGroupAlgorithm
  // fallback off. All references must outlive it.
  TreeAlgorithm(Framework& framework, Snapshot& snapshot, std::vector<PodInfo>& pods,
                const GroupTree& tree, const std::vector<bool>& gated,
                PlacementSearch placement = PlacementSearch::kComplete);

  // Run: schedules the tree under `root` (a root CompositePodGroup or a standalone PodGroup).
  [[nodiscard]] TreeAttempt Run(TreeIndex root);

  // Outcome: the outcome of group t from the last Run (t in that Run's subtree).
  [[nodiscard]] const TreeNodeOutcome& Outcome(TreeIndex t) const { return outcomes_[t]; }

  // PlacementOf: after a successful Run, the nodes the chosen placements allow for the pods of
  // group t — the domains chosen for t and each ancestor with a topology key, intersected,
  // ascending — and their description "rack=r1" (outer levels first: "block=b0, rack=r1").
  // False (outputs untouched) when no level at or above t chose a domain. O(N × levels).
  [[nodiscard]] bool PlacementOf(TreeIndex t, std::vector<NodeIndex>& nodes,
                                 std::string& description);

  // PlacementsToFind: feasible placements to find before scoring, for `candidates` placements
  // holding `total_nodes` nodes together. O(1).
  [[nodiscard]] static int32_t PlacementsToFind(int64_t total_nodes, int32_t candidates);

  // PlacementsEvaluated: trial evaluations since construction (benchmarks, tests).
  [[nodiscard]] int64_t placements_evaluated() const { return evaluated_; }
  [[nodiscard]] int64_t placements_pruned() const { return pruned_; }

  // CachedDomainSums: every label key's per-domain sums (DomainSums below), first brought
  // current from the NodeTable change log as a placement would; verify mode compares them with a
  // recomputation (verify/invariants.h CheckDomainSums). Views valid until the next Run.
  // O(nodes of the domains changed since the last look).
  [[nodiscard]] std::vector<verify::DomainSumsView> CachedDomainSums();

 private:
  struct Demand {
    std::vector<std::pair<ResourceId, int64_t>> amounts;  // resource → minimum total request
  };

  Code Schedule(TreeIndex t, const plugins::Placement& parent, int32_t depth);
  Code Evaluate(TreeIndex t, const plugins::Placement& placement, int32_t depth);
  Code EvaluateLeaf(TreeIndex t, const plugins::Placement& placement);
  Code EvaluateComposite(TreeIndex t, const plugins::Placement& placement, int32_t depth);
  void Prepare(TreeIndex t);
  // HasExtras: some group under `root` has more pending-or-placed members (leaf) or children
  // (CompositePodGroup) than its quorum, so minimum-first could order differently. O(subtree).
  [[nodiscard]] bool HasExtras(TreeIndex root) const;
  // PlaceExtras: minimum-first's second phase under successful group t (see the header). Never
  // fails: what does not fit stays pending. O(extra pods × allowed nodes + extra children's
  // Schedule).
  void PlaceExtras(TreeIndex t, int32_t depth);
  void FailSubtree(TreeIndex t, const std::string& message);
  // Aggregate: one pass over a placement's nodes: allocatable and (non-zero) requested cpu and
  // memory, and whether its free capacity holds demand_[t] (else `pruned` says why).
  struct Aggregate {
    __int128 alloc_cpu = 0, alloc_mem = 0, req_cpu = 0, req_mem = 0;
    ResourceId pruned = -1;  // a demanded resource the free capacity cannot hold, or -1
  };
  void AggregateOf(TreeIndex t, const plugins::Placement& placement, Aggregate& out);
  // DomainSums: per-domain sums of one label key, kept current from NodeTable::change_log():
  // a changed node's domain gets the difference between the node's contribution now and when it
  // was last summed (`seen`), O(R) per changed node; a small domain (≤ 16 nodes), a domain whose
  // sums may have saturated or a node with a negative contribution is re-summed instead (O(domain
  // size), once per SumsOf call), so the sums equal a recomputation's. Ranking k whole-domain candidates costs O(k × R), not O(their nodes).
  struct DomainSums {
    std::vector<int64_t> alloc_cpu, alloc_mem, req_cpu, req_mem;
    std::vector<int64_t> free;  // [domain × resources + r]
    // seen[n × (4 + resources) + k]: node n's last summed contribution: allocatable cpu and
    // memory, non-zero requested cpu and memory, then free capacity per resource.
    std::vector<int64_t> seen;
    int32_t resources = 0;
    size_t cursor = 0;
    uint64_t epoch = 0;
    bool built = false;
    std::vector<char> dirty;
    std::vector<int32_t> dirty_list;
  };
  DomainSums& SumsOf(const plugins::TopologyKeyIndex& index);
  // BoundOf: the upper bound of group t's placement score in domain d (all pending pods placed
  // there), or -1 when the domain's free capacity cannot hold the group's minimum demand
  // (`*short_of`, when given, then names the first resource short). O(R).
  [[nodiscard]] int64_t BoundOf(TreeIndex t, const DomainSums& sums, int32_t d,
                                ResourceId* short_of = nullptr) const;
  // BoundIndex: the bounds of one group shape (label key, minimum demand, pending cpu/memory,
  // pod count) over every domain of the key, for groups placed in the whole cluster with nothing
  // pinned: a ScoreIndex over domains (max bound, lowest domain on ties; -1 = pruned), kept
  // current from the NodeTable change log (a domain whose node changed gets its bound again), so
  // identical groups are not re-ranked: O(log k) per changed domain and per candidate tried,
  // instead of O(k) candidates generated and ranked per group.
  struct BoundKey {
    const plugins::TopologyKeyIndex* index = nullptr;
    std::vector<std::pair<ResourceId, int64_t>> demand;
    int64_t pending_cpu = 0, pending_mem = 0, total_pods = 0;
    bool operator<(const BoundKey& o) const {
      return std::tie(index, demand, pending_cpu, pending_mem, total_pods) <
             std::tie(o.index, o.demand, o.pending_cpu, o.pending_mem, o.total_pods);
    }
  };
  struct BoundIndex {
    ScoreIndex bounds;
    size_t cursor = 0;
    uint64_t epoch = 0;
    bool built = false;
    std::vector<char> dirty;
    std::vector<int32_t> dirty_list;
  };
  // kMaxBoundIndexes: group shapes with a cached BoundIndex; more shapes share one scratch
  // index, rebuilt per group (O(k), what ranking costs anyway).
  static constexpr size_t kMaxBoundIndexes = 256;
  BoundIndex& BoundsOf(TreeIndex t, const plugins::TopologyKeyIndex& index, const DomainSums& sums);
  // ScheduleInCluster: Schedule for a group with key `index` whose parent placement is the whole
  // cluster and which has no placed pod: candidates are every domain, taken best bound first
  // from the BoundIndex (same order, same stop rule, same outcome as ranking them all).
  Code ScheduleInCluster(TreeIndex t, const plugins::TopologyKeyIndex& index, int32_t depth);
  void Resum(const plugins::TopologyKeyIndex& index, DomainSums& sums, int32_t d) const;
  // Contribution: node n's terms of the sums (see DomainSums::seen) into out[0 .. 4 + R).
  void Contribution(NodeIndex n, int32_t resources, int64_t* out) const;
  // ApplyChange: moves node n's contribution to domain d's sums from `seen` to its current
  // value; false (nothing changed) when the difference cannot be applied exactly (a sum at an
  // int64 bound, an overflow, a negative term): the caller re-sums the domain.
  bool ApplyChange(DomainSums& sums, int32_t d, NodeIndex n) const;
  [[nodiscard]] std::string PrunedMessage(ResourceId r) const;
  // PrunedReason: why `placement`, pruned for group t because its aggregate free capacity is
  // short of `short_of`, cannot host the group (issue 20 item 11): when the group's first pending
  // pod (queue order, subtree preorder) fits none of its nodes and some node rejects it for a
  // reason other than capacity, that pod's FitError over them — the filters' own reasons (an
  // untolerated taint, a selector) as a trial would report them; otherwise PrunedMessage (a
  // shortfall of capacity only keeps the aggregate reason, so equal racks still aggregate).
  // Failure path only: O(placement nodes × filters).
  [[nodiscard]] std::string PrunedReason(TreeIndex t, const plugins::Placement& placement,
                                         ResourceId short_of);
  // PlacementScore: NodeResourcesFit (MostAllocated over the placement, with `add_cpu` /
  // `add_mem` more requested) + PodGroupPodsCount (100 · pods / total pods of the group): the
  // bound of a candidate, and the final score while some feasible placement holds all pods.
  [[nodiscard]] int64_t PlacementScore(const Aggregate& a, __int128 add_cpu, __int128 add_mem,
                                       int64_t pods, TreeIndex t) const;
  // FitScore: the weighted NodeResourcesFit part of PlacementScore alone.
  [[nodiscard]] static int64_t FitScore(const Aggregate& a, __int128 add_cpu, __int128 add_mem);
  // Tried: a feasible trial of a search: candidate (or domain) id, weighted FitScore, and raw
  // PodGroupPodsCount (scheduled + proposed pods of the group in it).
  struct Tried {
    int64_t id;
    int64_t fit;
    int64_t pods;
  };
  // BestTried: the id of the best of `tried` (non-empty) by fit + PodGroupPodsCount normalised
  // by the largest pods among them (upstream NormalizePlacementScore over the feasible
  // placements); ties: the earliest tried. O(|tried|).
  [[nodiscard]] static int64_t BestTried(const std::vector<Tried>& tried);

  Framework& framework_;
  Snapshot& snapshot_;
  std::vector<PodInfo>& pods_;
  const GroupTree& tree_;
  const std::vector<bool>& gated_;
  const NodeTable& nodes_;
  plugins::TopologyIndex topology_;
  std::vector<TreeNodeOutcome> outcomes_;
  std::vector<std::vector<PodIndex>> todo_;      // per leaf: pending members, queue order
  std::vector<int32_t> scheduled_;               // per leaf: members placed before the cycle
  std::vector<std::vector<NodeIndex>> pinned_;   // per group: nodes of placed members (subtree)
  std::vector<Demand> demand_;                   // per group: minimum aggregate demand
  std::vector<std::pair<ResourceId, int64_t>> demand_scratch_;  // Prepare's (resource, amount) list
  std::vector<int64_t> total_pods_;              // per group: pending + placed pods (subtree)
  std::vector<int64_t> pending_cpu_;             // per group: non-zero cpu of pending pods
  std::vector<int64_t> pending_mem_;             // per group: non-zero memory of pending pods
  std::vector<int64_t> free_scratch_;            // per demanded resource, AggregateOf
  std::map<const plugins::TopologyKeyIndex*, DomainSums> domain_sums_;
  std::map<BoundKey, BoundIndex> bound_indexes_;
  BoundIndex scratch_bounds_;                    // beyond kMaxBoundIndexes shapes
  std::vector<int64_t> bound_scratch_;           // BoundIndex rebuilds
  std::vector<std::vector<std::pair<int32_t, int64_t>>> popped_;  // per depth: domains taken out
  std::vector<const plugins::TopologyKeyIndex*> key_index_;  // per group, resolved on first use
  std::vector<TreeIndex> subtree_;
  // Per-depth buffers (depth ≤ kWorkloadMaxTreeDepth + 1): siblings reuse them in turn.
  std::vector<std::vector<plugins::Placement>> candidates_;
  std::vector<plugins::PlacementArena> arenas_;
  std::vector<int32_t> domain_counts_;
  PlacementSearch placement_search_;
  bool minimum_first_ = false;                   // first phase of the minimum-first retry
  std::vector<TreeNodeOutcome> saved_outcomes_;  // the first attempt's, while retrying
  std::vector<std::vector<NodeIndex>> extras_nodes_;  // per depth: PlaceExtras' allowed nodes
  int64_t evaluated_ = 0;
  int64_t pruned_ = 0;
};

}  // namespace wasched::sched
