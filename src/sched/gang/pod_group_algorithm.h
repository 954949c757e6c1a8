// File: sched/gang/pod_group_algorithm.h
//
// The pod-group scheduling algorithm for a leaf PodGroup (spec/was-v1.37.md §4.4; upstream
// pkg/scheduler/…/algorithm_podgroup.go "default algorithm"): try the group's unscheduled pods
// in queue order, assume each placed pod in the snapshot so later pods see it, and ask
// PlacementFeasible after each pod; the group succeeds once at least minCount members are
// scheduled, and fails as soon as the quorum is out of reach. A failed attempt leaves the
// snapshot exactly as it found it.
//
// Beyond upstream (documented choice): when the in-order greedy pass fails although the group's
// aggregate demand fits the free capacity of its feasible nodes, two more searches run before
// giving up — the same greedy pass with pods ordered largest-first (dominant share), then, for
// groups of at most kMaxSearchPods pods, a bounded depth-first search over each pod's
// kSearchBranching best feasible nodes (budget kSearchBudget node trials). Groups of identical
// pods skip both: for them the greedy pass is already optimal.
// This fixes the greedy misses users reported against other gang schedulers
// (spec/bug-scenarios.md S6) without changing any result upstream would find.
// Last, when a member's DRA claim chooses among `firstAvailable` subrequests (KEP-4816), the
// device alternatives (kubernetes/kubernetes#138765: upstream fails the gang when the first pod's
// first choice took the device a later pod needs): the greedy pass with later members first,
// then for each of at most kMaxAlternativeMembers such members (queue order) the greedy pass
// with that member trying its later subrequests first. All of these are off under
// PlacementSearch::kUpstream (`--placement upstream`): upstream's order only.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "sched/cache/snapshot.h"
#include "sched/framework/framework.h"
#include "sched/framework/status.h"

namespace wasched::sched {

// GroupAttempt: outcome of one group cycle.
//  * code: Success (placements assumed in the snapshot, caller binds) or Unschedulable /
//    UnschedulableAndUnresolvable (snapshot reverted).
//  * placed: pods placed, in placement order (empty on failure).
//  * unplaced: pods of a successful group that found no node; they stay pending on their own.
//  * fit_count: on failure, how many pods the best attempt placed; first_failed / message: the
//    first pod that found no node and its FitError message at that point, when
//    placed_before_failure of the attempt's pods were already placed (assumed).
struct GroupAttempt {
  Code code = Code::kSuccess;
  std::vector<PodIndex> placed;
  std::vector<PodIndex> unplaced;
  int32_t fit_count = 0;
  PodIndex first_failed = -1;
  std::string first_failed_message;
  int32_t placed_before_failure = 0;
  bool none_schedulable = false;  // quorum met by bound members, but no new pod fit
};

// GroupFailureMessage: the message of a failed group attempt (upstream fails every pod with the
// group's status, whose message is the failing pod's FitError). wasched says first how many pods
// fit against minCount, then whose FitError it is — the first pod that did not fit, counted
// after the group's pods placed before it, so "0/32 nodes are available" next to "24 of 40 pods
// fit" does not read as a contradiction (issue 20 item 11):
//   "Pod group ns/pg: 24 of 40 pods fit, minCount 40; for the first pod that did not fit (after
//    24 of the group's pods were placed): 0/32 nodes are available: 32 Insufficient cpu."
// (no parenthesis when none was placed before it). `scheduled` members were placed before the
// cycle, `total` counts them too. A basic group (`gang` false) has no minCount: "Pod group ns/pg
// (basic): 0 of 2 pods fit; for the first pod that did not fit: <FitError>" (issue 20 item 10).
// Without a failed pod only the counts, ending with ".".
[[nodiscard]] std::string GroupFailureMessage(const GroupAttempt& a, const std::string& group_key,
                                              int32_t scheduled, int32_t total, int32_t min_count,
                                              bool gang = true);

class PodGroupAlgorithm {
 public:
  static constexpr int64_t kSearchBudget = 20000;
  // kMaxSearchPods: groups with more unscheduled pods skip the depth-first search.
  static constexpr int32_t kMaxSearchPods = 64;
  // kSearchBranching: nodes tried per pod in the search, best-scored first.
  static constexpr int32_t kSearchBranching = 16;
  // kMaxAlternativeMembers: members with DRA firstAvailable alternatives retried one at a time
  // (one greedy pass each).
  static constexpr int32_t kMaxAlternativeMembers = 8;

  // PodGroupAlgorithm: `placement` kComplete adds the fallbacks above; kUpstream is the in-order
  // greedy pass only. All references must outlive it.
  PodGroupAlgorithm(Framework& framework, Snapshot& snapshot, std::vector<PodInfo>& pods,
                    PlacementSearch placement = PlacementSearch::kComplete)
      : framework_(framework), snapshot_(snapshot), pods_(pods), placement_(placement) {}

  // Run: schedules `members` (the group's unscheduled pods, in queue order) of a group that
  // already has `scheduled` members bound, with quorum `min_count`.
  // On Success the placements remain assumed (the caller commits); otherwise nothing changed.
  // `stop_at_quorum`: stop once the quorum is placed and leave the other members unplaced (not
  // tried, not in `unplaced`): the first phase of TreeAlgorithm's minimum-first retry. A group
  // whose quorum is already met places nothing and succeeds.
  // Complexity: O(|members| × feasible nodes) per greedy pass (kComplete: at most
  // 2 + 1 + kMaxAlternativeMembers passes), plus the bounded search (kSearchBudget node trials).
  [[nodiscard]] GroupAttempt Run(std::span<const PodIndex> members, int32_t scheduled,
                                 int32_t min_count, bool stop_at_quorum = false);

 private:
  GroupAttempt Greedy(std::span<const PodIndex> order, int32_t scheduled, int32_t min_count);
  // SearchOrders: largest-first, then the depth-first search; `first` is the failed in-order
  // pass. Returns a Success, or the failure to report.
  GroupAttempt SearchOrders(std::span<const PodIndex> members, int32_t scheduled,
                            int32_t min_count, GroupAttempt first);
  // DeviceAlternatives: the DRA firstAvailable retries; true and `*out` on Success.
  bool DeviceAlternatives(std::span<const PodIndex> members, int32_t scheduled,
                          int32_t min_count, GroupAttempt* out);
  bool AggregateFits(std::span<const PodIndex> members, int32_t needed) const;
  bool Search(std::span<const PodIndex> order, size_t i, int32_t placed, int32_t needed,
              std::vector<PodIndex>& chosen);

  Framework& framework_;
  Snapshot& snapshot_;
  std::vector<PodInfo>& pods_;
  PlacementSearch placement_;
  bool stop_at_quorum_ = false;
  int64_t budget_ = 0;
};

}  // namespace wasched::sched
