// File: sched/plugins/pod_topology_spread/pod_topology_spread.h
//
// PodTopologySpread (upstream pkg/scheduler/framework/plugins/podtopologyspread, v1.37 gates:
// NodeInclusionPolicyInPodTopologySpread and MatchLabelKeysInPodTopologySpread on).
//
// Filter (whenUnsatisfiable DoNotSchedule): for each constraint, the pods matching its selector
// in the pod's namespace are counted per topology domain over the eligible nodes (those holding
// every constraint's key and, per constraint, matching the pod's required node affinity and
// nodeSelector unless nodeAffinityPolicy is Ignore, and tolerating its NoSchedule/NoExecute taints
// when nodeTaintsPolicy is Honor). A node is rejected when count(its domain) + (1 if the pod
// matches the selector) − min(count over eligible domains) > maxSkew; the minimum is 0 while
// fewer than minDomains domains are eligible. A node without the key: UnschedulableAndUnresolvable
// kReasonMissingLabel; too much skew: Unschedulable kReasonSkew.
//
// Score (ScheduleAnyway, or the default profile's cluster-default constraints when the pod has
// no constraint at all: kubernetes.io/hostname maxSkew 3 and topology.kubernetes.io/zone maxSkew
// 5, both selecting with the ReplicaSets and StatefulSets of the pod's namespace that select it;
// Services are not in wasched's input): per feasible node Σ count(domain) × log(domains + 2) +
// maxSkew − 1, rounded; normalised as upstream (fewer is better; a node lacking a key of the pod's
// own constraints scores 0), weight 2.
//
// A selector is the constraint's labelSelector (null selects no pod; `{}` counts none) with
// `key in (the pod's value)` added for each matchLabelKeys key the pod has (upstream merges them;
// the API server's own merge at creation yields the same requirements).
//
// Speed: Prepare walks the nodes once per pod (eligibility) and the placed pods once per placement
// version (counts), O(N × constraints + P); Filter is O(constraints) per node, no allocation.
// Score: O(N + P) per pod. Pods with no constraint and no default selector skip the plugin in
// O(ReplicaSets + StatefulSets of the input) (memoised per pod).
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "api/object_set.h"
#include "api/pod.h"
#include "sched/cache/snapshot.h"
#include "sched/plugins/topology_placement/topology_placement.h"

namespace wasched::sched::plugins {

inline constexpr std::string_view kPodTopologySpreadName = "PodTopologySpread";
inline constexpr std::string_view kReasonSkew =
    "node(s) didn't match pod topology spread constraints";
inline constexpr std::string_view kReasonMissingLabel =
    "node(s) didn't match pod topology spread constraints (missing required label)";

class PodTopologySpread {
 public:
  // PodTopologySpread: `objects` gives the ReplicaSets and StatefulSets of the default
  // constraints; all references must outlive the plugin.
  PodTopologySpread(const api::ObjectSet& objects, const NodeTable& nodes, TopologyIndex& topology)
      : objects_(objects), nodes_(nodes), topology_(topology) {}

  static constexpr int64_t kWeight = 2;

  // HasHardConstraints: the pod has a DoNotSchedule constraint (the default constraints are all
  // ScheduleAnyway). O(constraints).
  [[nodiscard]] static bool HasHardConstraints(const api::Pod& pod);

  // AssignedPodMayHelp: PodTopologySpread's queueing hint for an assigned pod added (upstream
  // podtopologyspread/plugin.go isSchedulableAfterAssignedPodChange, the Add case, over
  // getConstraints: the pod's DoNotSchedule constraints; the cluster-default ones are all
  // ScheduleAnyway): true (Queue) when `assigned` is in the rejected `pod`'s namespace and its
  // labels match the selector of one of them (matchLabelKeys merged; a null selector matches
  // nothing, `{}` everything, podLabelsMatchSpreadConstraints). O(constraints × selector).
  [[nodiscard]] static bool AssignedPodMayHelp(const api::Pod& pod, const api::Pod& assigned);

  // Prepare: PreFilter for `pod` over `snapshot`; false when the pod has no DoNotSchedule
  // constraint (Skip). Memoised per pod and placement version.
  bool Prepare(const api::Pod& pod, const Snapshot& snapshot);
  // Filter: after Prepare: the reason node n is rejected, "" when it passes; `*unresolvable` for
  // a missing topology label. O(constraints).
  [[nodiscard]] std::string_view Filter(NodeIndex n, bool* unresolvable) const;

  // ScoreApplies: the pod has ScheduleAnyway constraints, or none at all and a non-empty default
  // selector (memoised per pod). Then BeginScore, AddFeasible for each node that passed the
  // filters, FinishScore, and NormalizedScore per feasible node.
  bool ScoreApplies(const api::Pod& pod);
  void BeginScore(const api::Pod& pod, const Snapshot& snapshot);
  void AddFeasible(NodeIndex n);
  void FinishScore();
  // NormalizedScore: the plugin's score of feasible node n in [0, 100] (not weighted). O(keys),
  // O(pods on n) for a hostname constraint.
  [[nodiscard]] int64_t NormalizedScore(NodeIndex n) const;

 private:
  struct Constraint {
    int32_t max_skew = 1;
    int32_t min_domains = 1;
    bool honor_affinity = true;
    bool honor_taints = false;
    bool hostname = false;
    const TopologyKeyIndex* index = nullptr;
    const api::TopologySpreadConstraint* spec = nullptr;  // nullptr: a default constraint
    const api::Pod* owner = nullptr;  // the pod whose constraint it is
    bool counts_nothing = false;  // null selector, or one without requirements
    bool empty_present = false;   // score: a feasible node lacks the key (value "")
    bool self_match = false;
    std::vector<int32_t> count;    // matching pods per domain (eligible nodes only)
    std::vector<char> present;     // domain has an eligible node
    int32_t domains = 0;
    int32_t min_count = 0;
    double weight = 0;             // score: log(domains + 2)
  };

  // Build: the constraints of `pod` with `when` ("DoNotSchedule" / "ScheduleAnyway"), or the
  // default ones (when the pod has none and `defaults`).
  void Build(const api::Pod& pod, std::string_view when, bool defaults,
             std::vector<Constraint>& out);
  [[nodiscard]] bool Selects(const Constraint& c, const api::Pod& target) const;
  [[nodiscard]] int32_t CountOnNode(const Constraint& c, NodeIndex n) const;
  [[nodiscard]] bool Included(const Constraint& c, const api::Node& node) const;
  [[nodiscard]] bool HasAllKeys(const std::vector<Constraint>& cs, NodeIndex n) const;
  void CollectDefaultSelectors(const api::Pod& pod);

  const api::ObjectSet& objects_;
  const NodeTable& nodes_;
  TopologyIndex& topology_;
  std::vector<const api::LabelSelector*> default_selectors_;  // ANDed (DefaultSelector)
  // Filter state.
  std::vector<Constraint> hard_;
  std::vector<uint64_t> node_mask_;  // per node: bit i = eligible for hard_[i]
  const api::Pod* filter_pod_ = nullptr;
  uint64_t filter_version_ = 0;
  bool filter_applies_ = false;
  // Score state.
  std::vector<Constraint> soft_;
  const api::Pod* score_pod_ = nullptr;
  bool score_applies_ = false;
  bool require_all_ = false;
  const Snapshot* snapshot_ = nullptr;
  std::vector<NodeIndex> feasible_;
  std::vector<char> ignored_;  // per node: feasible but lacking a key (score 0)
  int64_t min_raw_ = 0, max_raw_ = 0;
  [[nodiscard]] int64_t RawScore(NodeIndex n) const;
};

}  // namespace wasched::sched::plugins
