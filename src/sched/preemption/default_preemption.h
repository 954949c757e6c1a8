// File: sched/preemption/default_preemption.h
//
// DefaultPreemption: PostFilter for a bare pod, as kube-scheduler's DefaultPreemption plugin
// (upstream pkg/scheduler/framework/plugins/defaultpreemption/default_preemption.go
// SelectVictimsOnNode, GetOffsetAndNumCandidates; pkg/scheduler/framework/preemption/
// preemption.go Evaluator.Preempt, DryRunPreemption, pickOneNodeForPreemption), extended by
// v1.37: a victim that belongs to a `disruptionMode: all` group takes its whole unit with it
// (victim_unit.h), so no group is left partly running.
//
//  1. eligibility: policy Never → Unschedulable "not eligible due to preemptionPolicy=Never.";
//  2. candidate nodes: the nodes where only Unschedulable (resource) filters rejected the pod —
//     its statically feasible nodes — dry-run in node order from an offset until
//     max(100, 10% of them) candidates are found with at least one not violating a PDB.
//     Upstream draws the offset at random; wasched, to stay deterministic, starts after the
//     node the previous preemption chose (so successive preemptors spread as with a random
//     start, instead of re-walking exhausted nodes);
//  3. per node (SelectVictimsOnNode): remove every unit with a pod on the node whose priority is
//     below the pod's; none → "No preemption victims found for incoming pod"; the pod still
//     does not fit → that node's reason ("Insufficient cpu"); else reprieve units, PDB-violating
//     first, then the rest, most important first: add back, keep if the pod still fits;
//  4. pick one node (pickOneNodeForPreemption): fewest PDB violations; lowest highest victim
//     priority; smallest sum of victim priorities; fewest victims; latest start of the
//     highest-priority victims; then the lowest node index (upstream: first in its list);
//  5. no candidate → Unschedulable "preemption: 0/N nodes are available: <reasons>." (the
//     caller appends it to the pod's FitError message, as upstream's FitError.Error()).
//
// A dry run on local arithmetic over the preemptor's requested resources: the snapshot is never
// written; the caller evicts `victims` and binds the pod to `nominations[0].node`. Not
// thread-safe; keep one instance per scheduling run (it remembers the search offset and, per
// node, the last dry run's answer while NodeTable::Version of the node is unchanged: callers
// change the pods on a node only through the Snapshot, which bumps it).
//
// Candidate index: when two preemptors in a row have the same shape (static class, requests,
// priority), no PodDisruptionBudget counts and the pod has no pod-dependent filter, the per-node
// answers for that shape are kept for every potential node in a segment tree (per subtree: how
// many nodes are candidates, and the best of them by step 4's order), refreshed only for the
// nodes in NodeTable::change_log() since the last preemptor. Step 2's walk (the first `wanted`
// candidates from the offset) and step 4's choice are then two O(log N) queries instead of a
// walk over ~10% of the nodes; the result is the walk's (same candidates, same total order).
// A node holding a `disruptionMode: all` unit (whose answer can change without its own version
// changing) sends the preemptor back to the walk.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "sched/cache/resource_table.h"
#include "sched/cache/snapshot.h"
#include "sched/framework/framework.h"
#include "sched/preemption/node_pods.h"
#include "sched/preemption/pdb_budgets.h"
#include "sched/preemption/preemption_types.h"
#include "sched/preemption/victim_unit.h"

namespace wasched::sched::preemption {

inline constexpr const char* kNoVictimsForPod = "No preemption victims found for incoming pod";
inline constexpr const char* kPreemptionNotHelpful = "Preemption is not helpful for scheduling";
// Upstream DefaultPreemptionArgs defaults.
inline constexpr int32_t kMinCandidateNodesPercentage = 10;
inline constexpr int32_t kMinCandidateNodesAbsolute = 100;

class DefaultPreemption {
 public:
  DefaultPreemption(Snapshot& snapshot, const Framework& framework,
                    const std::vector<PodInfo>& pods, const ResourceTable& resources)
      : snapshot_(snapshot), framework_(framework), pods_(pods), resources_(resources) {}

  // Preempt: steps 1–5 for preemptor.pods[0]. `budgets` may be null.
  // Cost: O(C × (victims on a node × R)) for C dry-run candidate nodes (≤ max(100, N/10) unless
  // every one violates a PDB), allocation only for the candidates kept.
  [[nodiscard]] Outcome Preempt(const Preemptor& preemptor, VictimUnitIndex& units,
                                const NodePods& node_pods, const PdbBudgets* budgets);

  // set_candidate_index: whether Preempt may use the candidate index (default true); tests
  // turn it off to compare with the walk.
  void set_candidate_index(bool on) { index_enabled_ = on; }
  // indexed_preemptions: how many Preempt calls were answered from the candidate index.
  [[nodiscard]] int64_t indexed_preemptions() const { return indexed_preemptions_; }

 private:
  struct Candidate {
    NodeIndex node = kNoNode;
    std::vector<int32_t> units;  // victim slots, most important first
    int32_t pdb_violations = 0;
    int32_t pod_group_disruptions = 0;
    int32_t highest_priority = 0;
    int64_t sum_priorities = 0;
    int64_t num_pods = 0;
    int64_t highest_start = 0;  // earliest start among the highest-priority victims
    void Reset() {
      node = kNoNode;
      units.clear();  // keeps capacity
      pdb_violations = pod_group_disruptions = highest_priority = 0;
      sum_priorities = num_pods = highest_start = 0;
    }
  };
  // kNoVictims: SelectVictimsOnNode's reason when no unit on the node has a lower priority;
  // any other reason is the ResourceId the preemptor still lacks (no string per node).
  static constexpr int32_t kNoVictims = -1;
  // SelectVictimsOnNode: a candidate, or false and `*reason` when the node can't help.
  // `*memoisable`: the answer depends only on the node's pods, which are all single-pod units,
  // and no PodDisruptionBudget counts (so it holds while the node's usage is unchanged).
  bool SelectVictimsOnNode(const PodInfo& pod, NodeIndex n, int32_t priority,
                           VictimUnitIndex& units, const NodePods& node_pods,
                           const PdbBudgets* budgets, Candidate* out, int32_t* reason,
                           bool* memoisable);
  // NodeMemo: the last dry run on a node (the victim profile of the node for one preemptor
  // shape): valid while NodeTable::Version(node) is `version` and the preemptor has the same
  // requests (template storage) and priority. Holds the pickOneNodeForPreemption criteria, not
  // the victims: those are recomputed for the one node chosen. 5000 identical preemptors on
  // 5000 nodes then dry-run each node once plus one node per preemption, instead of ~950
  // nodes per preemptor.
  struct NodeMemo {
    uint32_t version = 0;
    bool valid = false;
    bool ok = false;
    int32_t reason = 0;
    int32_t priority = 0;
    const ResourceAmount* requests = nullptr;
    size_t width = 0;
    NodeIndex node = kNoNode;
    int32_t pdb_violations = 0;
    int32_t pod_group_disruptions = 0;
    int32_t highest_priority = 0;
    int64_t sum_priorities = 0;
    int64_t num_pods = 0;
    int64_t highest_start = 0;
    // CopyCriteria: this node's pickOneNodeForPreemption criteria into `c` (victims not kept).
    void CopyCriteria(Candidate* c) const {
      c->node = node;
      c->pdb_violations = pdb_violations;
      c->pod_group_disruptions = pod_group_disruptions;
      c->highest_priority = highest_priority;
      c->sum_priorities = sum_priorities;
      c->num_pods = num_pods;
      c->highest_start = highest_start;
    }
  };
  // Better: a is preferred to b by pickOneNodeForPreemption's criteria (ties: lower node).
  // For Candidate and NodeMemo alike.
  template <class T>
  [[nodiscard]] static bool Better(const T& a, const T& b) {
    if (a.pdb_violations != b.pdb_violations) return a.pdb_violations < b.pdb_violations;
    if (a.highest_priority != b.highest_priority) return a.highest_priority < b.highest_priority;
    if (a.sum_priorities != b.sum_priorities) return a.sum_priorities < b.sum_priorities;
    if (a.num_pods != b.num_pods) return a.num_pods < b.num_pods;
    if (a.highest_start != b.highest_start) return a.highest_start > b.highest_start;
    return a.node < b.node;
  }
  // Probe: node n's answer for the preemptor: from memo_ while it holds (`*hit`), else by
  // SelectVictimsOnNode (memoised when it may be). `*c` gets the criteria (and, after a dry
  // run, the victims); returns memo_[n] as it now is, whose `valid` says whether the answer
  // may be kept while the node's version is unchanged.
  const NodeMemo& Probe(const PodInfo& pod, NodeIndex n, int32_t priority, VictimUnitIndex& units,
                        const NodePods& node_pods, const PdbBudgets* budgets, Candidate* c,
                        bool* ok, int32_t* reason, bool* hit);

  // CandidateIndex: the per-node answers of one preemptor shape over its potential nodes (the
  // class's statically feasible list, sorted), as a segment tree over positions. See the file
  // comment. leaves: NodeMemo per position (`valid` false = volatile: the walk is used while
  // any is); tree: [1, 2P) with P = bit_ceil(count), per entry the number of candidate leaves
  // below and the position of the best (−1 none). reason_total: per failure reason (as
  // reason_count_), the leaves failing with it. O(count) memory.
  struct CandidateIndex {
    bool built = false;
    ClassIndex static_class = 0;
    const NodeIndex* potential_data = nullptr;  // the class's list's storage (part of the key)
    const std::vector<NodeIndex>* potential = nullptr;  // that list, as last passed in
    size_t count = 0;
    int32_t priority = 0;
    const ResourceAmount* requests = nullptr;
    size_t width = 0;
    uint64_t epoch = 0;
    size_t cursor = 0;  // position in NodeTable::change_log() applied
    size_t size = 1;    // P
    int32_t volatile_leaves = 0;
    std::vector<NodeMemo> leaves;
    std::vector<int32_t> ok;
    std::vector<int32_t> best;
    std::vector<int32_t> reason_total;
  };
  // UseIndex: brings index_ up to date for this preemptor (building it when the previous
  // preemptor had the same shape) and says whether it may answer. O(changed nodes × log N)
  // when built, O(count) dry runs or memo reads to build.
  bool UseIndex(const PodInfo& pod, int32_t priority, const std::vector<NodeIndex>& potential,
                VictimUnitIndex& units, const NodePods& node_pods, const PdbBudgets* budgets);
  // SetLeaf: leaf i of index_ from a fresh Probe, and the tree above it. O(log N).
  void SetLeaf(size_t i, const PodInfo& pod, VictimUnitIndex& units, const NodePods& node_pods,
               const PdbBudgets* budgets);
  void Pull(size_t t);  // recomputes tree entry t from its two children
  // BestIn: the best candidate position in [lo, hi) of index_, or −1. O(log N).
  [[nodiscard]] int32_t BestIn(size_t lo, size_t hi) const;
  // NthCandidate: the position of the k-th (1-based) candidate leaf of index_. REQUIRES:
  // 1 ≤ k ≤ number of candidates. O(log N).
  [[nodiscard]] size_t NthCandidate(int32_t k) const;
  // CandidatesBefore: candidate leaves at positions < i. O(log N).
  [[nodiscard]] int32_t CandidatesBefore(size_t i) const;

  Snapshot& snapshot_;
  const Framework& framework_;
  std::vector<std::pair<int32_t, PodIndex>> removed_;  // dry run: (unit position, pod) removed
  std::vector<NodeIndex> dra_nodes_;   // potential nodes where a pod's DRA claims fit now
  std::vector<NodeIndex> resolvable_;  // potential nodes of a pod with pod-dependent filters
  const std::vector<PodInfo>& pods_;
  const ResourceTable& resources_;
  std::vector<int32_t> scratch_units_;
  std::vector<int64_t> free_;         // per preemptor request: free on the node being tried
  std::vector<int64_t> amount_;       // [unit × request]: the unit's pods' requests there
  std::vector<int32_t> violations_;   // per unit of scratch_units_
  size_t next_offset_ = 0;            // where the next candidate search starts
  std::vector<char> victim_;          // per unit of scratch_units_
  std::vector<NodeMemo> memo_;        // per node
  std::vector<int32_t> reason_count_; // per failure reason: [0] no victims, [1 + r] resource r
  CandidateIndex index_;
  Candidate probe_;  // SetLeaf's scratch (keeps its victims' capacity)
  bool index_enabled_ = true;
  int64_t indexed_preemptions_ = 0;
  // The previous preemptor's shape: the index is built when the next one has the same.
  const NodeIndex* last_potential_ = nullptr;
  ClassIndex last_class_ = 0;
  int32_t last_priority_ = 0;
  const ResourceAmount* last_requests_ = nullptr;
  size_t last_width_ = 0;
};

}  // namespace wasched::sched::preemption
