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
    int32_t pdb_violations = 0;
    int32_t pod_group_disruptions = 0;
    int32_t highest_priority = 0;
    int64_t sum_priorities = 0;
    int64_t num_pods = 0;
    int64_t highest_start = 0;
  };
  // Better: a is preferred to b by pickOneNodeForPreemption's criteria (ties: lower node).
  [[nodiscard]] static bool Better(const Candidate& a, const Candidate& b);

  Snapshot& snapshot_;
  const Framework& framework_;
  std::vector<std::pair<int32_t, PodIndex>> removed_;  // dry run: (unit position, pod) removed
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
};

}  // namespace wasched::sched::preemption
