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
// then O(those pods × their terms) to find none matches. The counts are kept across snapshot
// changes: a later Prepare for the same pod, or for an equivalent one (same namespace, labels
// and required terms, matching none of its own terms, e.g. another member of the same gang),
// applies only the placements changed since (Snapshot::ChangedPod, as upstream's
// PreFilterExtensions AddPod / RemovePod update the PreFilter state), O(changes × terms), with
// each pod's term matches remembered per pod class. A preemption dry run that removes and adds
// back victims and replays a gang's placements then pays O(1)-ish per filter call instead of
// O(P × terms). ExcludedNodes answers the common shapes (no required pod affinity, anti-affinity
// selectors with matchLabels) as a list of rejected nodes without Prepare, from indexes built
// once per pod list, so FindNode keeps such pods on the score index (issue 19). The plugin
// identifies pods by address: they must stay alive and unchanged while it is used (the
// scheduler's pods do for a whole run). Not thread-safe (one scheduling loop owns it).
//
//   InterPodAffinity ipa(topology);
//   if (ipa.Prepare(pod, snapshot)) { bool hard; std::string_view why = ipa.Filter(n, &hard); }
#pragma once

#include <cstdint>
#include <map>
#include <span>
#include <string>
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
// (QueueSkip) when it does not or `pod` has no such term (podMatchesAllAffinityTerms). As
// upstream, a term's namespaceSelector is matched here against no namespace labels (the hint
// does not merge it into the namespace set, interpodaffinity/filtering.go Matches(pod, nil)):
// a term that reaches another namespace only through a non-empty namespaceSelector never
// requeues the pod (observed on v1.37.2, differential case affinity.a1-0242). O(terms ×
// selector), no allocation.
[[nodiscard]] bool AssignedPodMayHelp(const api::Pod& pod, const api::Pod& assigned);

class InterPodAffinity {
 public:
  // InterPodAffinity: domains come from `topology` (shared, must outlive the plugin).
  explicit InterPodAffinity(TopologyIndex& topology) : topology_(topology) {}

  // Prepare: PreFilter for `pod` over the placements of `snapshot`. False when the plugin has
  // nothing to check for this pod (upstream Skip: no required terms of its own and no placed
  // pod's anti-affinity matches it); then Filter must not be called. The answer is memoised
  // until the pod or the snapshot's version changes, and then updated for the changed pods
  // when the pod (or an equivalent one) was prepared at most Snapshot::kChangeWindow changes
  // ago: O(changes × terms). Otherwise O(P × terms) for a pod with terms, O(anti-affinity pods ×
  // terms) without (the term matches of pods already seen for this pod class are reused).
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

  // HasScoringAffinityPods: some pod of the snapshot has a pod affinity term (required or
  // preferred) or a preferred anti-affinity term, i.e. a term PrepareScore adds a weight for when
  // it selects another pod. Without one, PrepareScore records nothing for a pod that has no
  // preferred term of its own (only a pod's required anti-affinity terms are not scored). O(1)
  // after the first scan of the snapshot's pods.
  [[nodiscard]] bool HasScoringAffinityPods(const Snapshot& snapshot);

  // ExcludedNodes: Filter's verdicts for `pod` without a PreFilter walk or a per-node Filter
  // call, for the common shapes (issue 19): a pod with no required pod affinity term and
  // required anti-affinity terms (none at all included) whose label selectors name a
  // matchLabels pair (preferred terms only score: the caller checks PrepareScore). Appends to `out` every node Filter would reject for the pod on the current
  // placements (a node may appear more than once) and returns true; returns false, with `out`
  // unspecified, when the shape does not qualify, more than kMaxFastMatches placed-or-pending
  // pods could match, or more than `limit` nodes would be appended: then Prepare / Filter must
  // answer. Exactly Prepare + Filter's verdicts: a node is rejected when it is in the topology
  // domain (of the term's key) of a placed pod q ≠ pod that one of the pod's required
  // anti-affinity terms selects, or whose own required anti-affinity term selects the pod
  // (symmetry, upstream filtering.go satisfyExistingPodsAntiAffinity /
  // satisfyPodAntiAffinity).
  //
  // How: which pods can match is static (labels, namespaces and terms do not change during a
  // run), so it is worked out once per affinity class (namespace, labels and required
  // anti-affinity terms; the last class is kept, e.g. for the members of one gang) from two
  // indexes built once per snapshot pod list: pods by the value of a label key a term names
  // (one sorted array per key), and the placed-or-pending pods' required anti-affinity terms by
  // their first matchLabels pair (terms without one are matched against every class). Per pod
  // then: the class's candidate pods, each looked up for its current node. O(candidates +
  // rejected nodes) per pod, no allocation after warm-up; per new class O(labels × log T +
  // matching candidates × selector); per index build O(P × log P).
  static constexpr size_t kMaxFastMatches = 2048;
  bool ExcludedNodes(const api::Pod& pod, const Snapshot& snapshot, size_t limit,
                     std::vector<NodeIndex>& out);

  // kHardPodAffinityWeight: InterPodAffinityArgs.hardPodAffinityWeight, default 1.
  static constexpr int64_t kHardPodAffinityWeight = 1;
  // kWeight: the plugin's default-profile score weight.
  static constexpr int64_t kWeight = 2;

 private:
  // Slot: match counts of one topology key, per domain id; `touched` lists the domains counted
  // since the last reset, once each (`listed`), so a reset is O(touched).
  struct Slot {
    const TopologyKeyIndex* index = nullptr;
    std::vector<int32_t> affinity, anti, existing;
    std::vector<int32_t> touched;
    std::vector<uint8_t> listed;
  };
  // PodMatch: how one pod counts for the prepared pod class: it matches every affinity term;
  // bit i of `anti`: it matches the class's anti-affinity term i; bit i of `existing`: its own
  // required anti-affinity term i selects the class. Valid while `epoch` is the class's and
  // `pod` is still the pod at that index.
  struct PodMatch {
    uint64_t epoch = 0;
    const api::Pod* pod = nullptr;
    bool affinity = false;
    bool counts = false;  // affinity, a bit set, or a term past the 64th to match each time
    uint64_t anti = 0;
    uint64_t existing = 0;
  };
  int32_t SlotOf(const std::string& key);
  void Count(std::vector<int32_t> Slot::*counts, int32_t slot, NodeIndex n, int32_t delta);
  void ScanAntiAffinityPods(const Snapshot& snapshot);
  // SameClass: `pod` may reuse the prepared counts (the prepared pod itself, or an equivalent
  // pod that matches none of the class's terms, so that which one is excluded does not matter).
  bool SameClass(const api::Pod& pod);
  // NewClass: records `pod` as the prepared class (a copy of what its matches depend on).
  void NewClass(const api::Pod& pod);
  // MatchOf: pod q's PodMatch for the current class, computed on first use. O(terms).
  const PodMatch& MatchOf(const std::vector<PodInfo>& pods, PodIndex q);
  // Apply: adds (delta +1) or removes (−1) pod q's matches on node n to the counts.
  void Apply(const PodMatch& m, const api::Pod& target, NodeIndex n, int32_t delta);
  // Recount: the counts from scratch over `snapshot` (full PreFilter). Update: the counts moved
  // forward from version_ to the snapshot's version over the changed pods.
  void Recount(const Snapshot& snapshot);
  void Update(const Snapshot& snapshot);
  // ScoreSlot: summed weights of one topology key per domain id.
  struct ScoreSlot {
    const TopologyKeyIndex* index = nullptr;
    std::vector<int64_t> score;
    std::vector<int32_t> touched;
  };
  void AddScore(const std::string& key, NodeIndex n, int64_t weight);

  // Fast path (ExcludedNodes). FastMatch: a pod that may reject nodes for the class, and the
  // topology key of the term that makes it so.
  struct FastMatch {
    PodIndex pod = 0;
    const TopologyKeyIndex* key = nullptr;
  };
  // LabelValues: pods by the (hashed) value of one label key, sorted; hash collisions are sorted
  // out by TermMatches.
  struct LabelValues {
    std::string key;
    std::vector<std::pair<uint64_t, PodIndex>> pods;
  };
  // TermRef: required anti-affinity term `term` of pod `pod`, indexed under `hash` (its first
  // matchLabels pair).
  struct TermRef {
    uint64_t hash = 0;
    PodIndex pod = 0;
    int32_t term = 0;
    bool operator<(const TermRef& o) const { return hash < o.hash; }
  };
  void BuildFastIndex(const Snapshot& snapshot);
  const LabelValues& ValuesOf(const std::vector<PodInfo>& pods, const std::string& key);
  // FastClassOf: the fast class of `pod`, recomputed when `pod` is not equivalent to the last.
  // False when the pod's shape does not qualify.
  bool FastClassOf(const api::Pod& pod, const std::vector<PodInfo>& pods);
  bool SameFastClass(const api::Pod& pod) const;

  const PodInfo* fast_pods_data_ = nullptr;  // the pod list the indexes were built for
  size_t fast_pods_size_ = 0;
  std::vector<LabelValues> label_values_;     // per label key asked for, built on first use
  std::vector<TermRef> term_index_;           // sorted by hash
  std::vector<TermRef> unindexed_terms_;      // terms without a matchLabels pair
  bool fast_valid_ = false;                   // the class below is computed
  bool fast_eligible_ = false;
  const api::Pod* fast_pod_ = nullptr;        // the pod the class was last asked for
  const api::Pod* fast_rep_ = nullptr;        // the pod the class was computed for
  std::vector<FastMatch> fast_matches_;

  TopologyIndex& topology_;
  std::vector<Slot> slots_;
  std::vector<PodIndex> anti_pods_;  // pods with required anti-affinity terms
  std::vector<PodIndex> affinity_pods_;  // pods with pod affinity or anti-affinity
  bool scoring_affinity_pods_ = false;   // HasScoringAffinityPods
  size_t scanned_pods_ = 0;          // snapshot.pods().size() when anti_pods_ was built
  // Prepared state.
  const api::Pod* pod_ = nullptr;
  const Snapshot* snapshot_ = nullptr;
  uint64_t version_ = 0;
  bool applies_ = false;
  std::span<const api::PodAffinityTerm> affinity_terms_, anti_terms_;
  std::vector<int32_t> affinity_slot_, anti_slot_;  // slot per term
  int64_t affinity_matches_ = 0, anti_matches_ = 0, existing_matches_ = 0;
  bool self_match_ = false;  // the pod matches all its own affinity terms
  // Prepared class: what the counts depend on besides the placements.
  uint64_t epoch_ = 0;              // bumped per new class; PodMatch entries of older ones are stale
  bool incremental_ = false;        // the class's matches fit PodMatch's bit masks
  bool self_relevant_ = false;      // the class matches one of its own terms
  std::string class_namespace_;
  std::map<std::string, std::string> class_labels_;
  std::vector<api::PodAffinityTerm> class_affinity_, class_anti_;
  // Pods already found equivalent to the class: a direct-mapped cache on the address.
  static constexpr size_t kEquivalentSlots = 512;
  std::vector<const api::Pod*> equivalent_;
  std::vector<PodMatch> match_;              // per pod
  std::vector<NodeIndex> counted_node_;      // per pod: where its matches are counted
  // Prepared score state.
  std::vector<ScoreSlot> score_slots_;
  const api::Pod* score_pod_ = nullptr;
  uint64_t score_version_ = 0;
  bool score_applies_ = false;
};

}  // namespace wasched::sched::plugins
