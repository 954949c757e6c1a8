// File: sched/plugins/inter_pod_affinity/inter_pod_affinity.h
//
// InterPodAffinity, Filter (upstream pkg/scheduler/framework/plugins/interpodaffinity,
// filtering.go, with the InterPodAffinityHostnameFastPath gate off as v1.37 ships it). A pod's
// required pod affinity terms need, in the node's topology domain, a placed pod matching all of
// them; its required anti-affinity terms forbid domains holding a pod matching any of them; and
// the required anti-affinity terms of placed pods forbid their domains to a pod they match
// (symmetry). "Placed" means bound, running or assumed in this cycle: a gang's members assumed
// earlier in its trial placement count, as upstream's assumed pods do.
//
// Term semantics (upstream fwk.AffinityTerm.Matches): a term selects pods by `labelSelector`
// (null selects none) in its namespaces: `namespaces` plus those matched by `namespaceSelector`
// (`{}` = every namespace), or the owner pod's namespace when both are unset. A namespace's
// labels are taken as {kubernetes.io/metadata.name: <name>} (the label the API server sets; the
// input holds no Namespace objects). `matchLabelKeys` / `mismatchLabelKeys` add `key in (v)` /
// `key notin (v)` for the owner's label value v, as the API server merges them into the
// selector at pod creation (KEP-3633; applying them again to a merged selector changes nothing).
//
// Reasons and codes (upstream ErrReason*): affinity not met: UnschedulableAndUnresolvable
// kReasonAffinity; own anti-affinity: Unschedulable kReasonAntiAffinity; a placed pod's
// anti-affinity: Unschedulable kReasonExistingAntiAffinity. Events that can make a rejected pod
// schedulable (upstream EventsToRegister): an assigned pod added, deleted or relabelled, the pod's
// own labels updated, a node added or relabelled.
//
// Speed: Prepare (PreFilter) walks the placed pods once, O(P × terms), and counts matches per
// topology domain (TopologyIndex domain ids, no string keys); Filter is then O(terms) per node,
// no allocation. Pods with no terms pay only when a placed pod has required anti-affinity, and
// then O(those pods × their terms) to find none matches.
//
//   InterPodAffinity ipa(topology);
//   if (ipa.Prepare(pod, snapshot)) { bool hard; std::string_view why = ipa.Filter(n, &hard); }
#pragma once

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "api/pod.h"
#include "sched/cache/snapshot.h"
#include "sched/plugins/topology_placement/topology_placement.h"

namespace wasched::sched::plugins {

inline constexpr std::string_view kInterPodAffinityName = "InterPodAffinity";
inline constexpr std::string_view kReasonExistingAntiAffinity =
    "node(s) didn't satisfy existing pods anti-affinity rules";
inline constexpr std::string_view kReasonAffinity = "node(s) didn't match pod affinity rules";
inline constexpr std::string_view kReasonAntiAffinity =
    "node(s) didn't match pod anti-affinity rules";

// TermMatches: `term`, a term of pod `owner`, selects pod `target` (upstream
// AffinityTerm.Matches after newAffinityTerm and the API server's matchLabelKeys merge).
// O(selector × log labels), no allocation.
[[nodiscard]] bool TermMatches(const api::PodAffinityTerm& term, const api::Pod& owner,
                               const api::Pod& target);

// RequiredAffinityTerms / RequiredAntiAffinityTerms: the pod's required terms (empty when none).
[[nodiscard]] std::span<const api::PodAffinityTerm> RequiredAffinityTerms(const api::Pod& pod);
[[nodiscard]] std::span<const api::PodAffinityTerm> RequiredAntiAffinityTerms(const api::Pod& pod);

// AssignedPodMayHelp: InterPodAffinity's queueing hint for an assigned pod added (upstream
// interpodaffinity/plugin.go isSchedulableAfterAssignedPodChange, the Add case): true (Queue)
// when `assigned` matches every required pod affinity term of the rejected `pod`; false
// (QueueSkip) when it does not or `pod` has no such term (podMatchesAllAffinityTerms). O(terms ×
// selector), no allocation.
[[nodiscard]] bool AssignedPodMayHelp(const api::Pod& pod, const api::Pod& assigned);

class InterPodAffinity {
 public:
  // InterPodAffinity: domains come from `topology` (shared, must outlive the plugin).
  explicit InterPodAffinity(TopologyIndex& topology) : topology_(topology) {}

  // Prepare: PreFilter for `pod` over the placements of `snapshot`. False when the plugin has
  // nothing to check for this pod (upstream Skip: no required terms of its own and no placed
  // pod's anti-affinity matches it); then Filter must not be called. The answer is memoised
  // until the pod or the snapshot's version changes. O(P × terms) for a pod with terms,
  // O(anti-affinity pods × terms) otherwise.
  bool Prepare(const api::Pod& pod, const Snapshot& snapshot);
  // Filter: the reason node n is rejected for the prepared pod, "" when it passes;
  // `*unresolvable` tells UnschedulableAndUnresolvable from Unschedulable. O(terms + keys).
  [[nodiscard]] std::string_view Filter(NodeIndex n, bool* unresolvable) const;
  // HasAntiAffinityPods: some pod of the snapshot has required anti-affinity terms (placed or
  // not): pods without terms of their own must then be prepared too. O(1) after the first call.
  [[nodiscard]] bool HasAntiAffinityPods(const Snapshot& snapshot);

  // PrepareScore: PreScore for `pod` (upstream scoring.go): per topology domain, the weights of
  // the pod's preferred terms matching placed pods (anti-affinity negative), plus, for each placed
  // pod with pod affinity, kHardPodAffinityWeight per required affinity term and the weight of
  // each preferred term that selects `pod`. False when nothing was recorded (upstream Skip: the
  // plugin adds 0 everywhere). Memoised like Prepare. O(P × terms) when the pod has preferred
  // terms, O(pods with affinity × terms) otherwise.
  bool PrepareScore(const api::Pod& pod, const Snapshot& snapshot);
  // RawScore: Score for node n after PrepareScore: the sum of the node's domains' weights.
  // O(keys). NormalizeScore maps the feasible nodes' raw scores to [0, 100] by min and max.
  [[nodiscard]] int64_t RawScore(NodeIndex n) const;
  // HasAffinityPods: some pod of the snapshot has pod affinity or anti-affinity (upstream
  // NodeInfo.PodsWithAffinity): pods without preferred terms must then be scored too. O(1).
  [[nodiscard]] bool HasAffinityPods(const Snapshot& snapshot);

  // kHardPodAffinityWeight: InterPodAffinityArgs.hardPodAffinityWeight, default 1.
  static constexpr int64_t kHardPodAffinityWeight = 1;
  // kWeight: the plugin's default-profile score weight.
  static constexpr int64_t kWeight = 2;

 private:
  // Slot: match counts of one topology key, per domain id; `touched` lists the non-zero ones
  // (reset at the next Prepare in O(touched)).
  struct Slot {
    const TopologyKeyIndex* index = nullptr;
    std::vector<int32_t> affinity, anti, existing;
    std::vector<int32_t> touched;
  };
  int32_t SlotOf(const std::string& key);
  void Count(std::vector<int32_t> Slot::*counts, int32_t slot, NodeIndex n);
  void ScanAntiAffinityPods(const Snapshot& snapshot);
  // ScoreSlot: summed weights of one topology key per domain id.
  struct ScoreSlot {
    const TopologyKeyIndex* index = nullptr;
    std::vector<int64_t> score;
    std::vector<int32_t> touched;
  };
  void AddScore(const std::string& key, NodeIndex n, int64_t weight);

  TopologyIndex& topology_;
  std::vector<Slot> slots_;
  std::vector<PodIndex> anti_pods_;  // pods with required anti-affinity terms
  std::vector<PodIndex> affinity_pods_;  // pods with pod affinity or anti-affinity
  size_t scanned_pods_ = 0;          // snapshot.pods().size() when anti_pods_ was built
  // Prepared state.
  const api::Pod* pod_ = nullptr;
  uint64_t version_ = 0;
  bool applies_ = false;
  std::span<const api::PodAffinityTerm> affinity_terms_, anti_terms_;
  std::vector<int32_t> affinity_slot_, anti_slot_;  // slot per term
  int64_t affinity_matches_ = 0, anti_matches_ = 0, existing_matches_ = 0;
  bool self_match_ = false;  // the pod matches all its own affinity terms
  // Prepared score state.
  std::vector<ScoreSlot> score_slots_;
  const api::Pod* score_pod_ = nullptr;
  uint64_t score_version_ = 0;
  bool score_applies_ = false;
};

}  // namespace wasched::sched::plugins
