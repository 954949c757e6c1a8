// File: sched/framework/framework.h
//
// Framework: runs the Filter and Score extension points for one pod against the current
// snapshot and picks a node (upstream pkg/scheduler/schedule_one.go findNodesThatFitPod /
// prioritizeNodes / selectHost, default profile: NodeUnschedulable, NodeName, TaintToleration,
// NodeAffinity, NodePorts, NodeResourcesFit, InterPodAffinity; scores NodeResourcesFit×1,
// NodeResourcesBalancedAllocation×1, NodeAffinity×2, TaintToleration×3, InterPodAffinity×2).
//
// Equivalence classes: pods with the same node-static constraints (nodeSelector, node
// affinity, tolerations, nodeName) share one class; the static filters and scores are computed
// once per class over all nodes and cached. The per-pod hot path then only checks free capacity
// on the class's statically feasible nodes and adds the cached static scores: no allocation, no
// string compare, no virtual call per node. Pods that pod-dependent plugins apply to (host ports:
// NodePorts; pod (anti-)affinity terms, or a placed pod's anti-affinity selecting them:
// InterPodAffinity) take the scan path and are also checked by PodFits per node, except pods
// whose InterPodAffinity verdicts are a short list of rejected nodes (no required pod affinity,
// required anti-affinity with matchLabels selectors: FindNode), which stay on the index.
//
// Choices (documented deviations): every node is evaluated (upstream's adaptive
// percentageOfNodesToScore would sample); ties between equally scored nodes go to the lowest
// node index (nodes are sorted by name) instead of upstream's random pick, for determinism.
#pragma once

#include <algorithm>
#include <climits>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string_view>
#include <string>
#include <unordered_map>
#include <vector>

#include "api/object_set.h"
#include "sched/cache/node_name_index.h"
#include "sched/cache/node_table.h"
#include "sched/framework/plugin.h"
#include "sched/framework/pod_info.h"
#include "sched/plugins/dynamic_resources/dynamic_resources.h"
#include "sched/framework/score_index.h"
#include "sched/scheduler.h"

namespace wasched::sched {

class Snapshot;
namespace plugins {
class InterPodAffinity;
class PodTopologySpread;
class TopologyIndex;
}  // namespace plugins

class Framework {
 public:
  // Framework: the default plugin set over `nodes` (which must outlive it).
  Framework(const NodeTable& nodes, const ResourceTable& resources, ScoringStrategy scoring);
  ~Framework();

  // ClassOf: the equivalence class of `pod`'s node-static constraints, creating it (and
  // evaluating the static plugins over every node, O(N × plugins)) when new.
  [[nodiscard]] ClassIndex ClassOf(const api::Pod& pod);

  // SignatureOf: the signature (class + requests) of `pod`, or -1 when it gets no score index
  // (the class has node-static scores, whose normalisation needs a scan, or the cap of
  // kMaxSignatures indexes is reached). REQUIRES: pod.static_class set; `pod.requests` must
  // outlive the Framework (the scheduler asks once per pod template, PodTemplates).
  // O(log signatures × len(requests)).
  [[nodiscard]] int32_t SignatureOf(const PodInfo& pod);

  // AffinitySignatureOf: for a pod whose only pod-dependent plugin is InterPodAffinity
  // (pod_filters == kPodAffinity), the signature it would have without its terms (shared with
  // the pods of the same class and requests), else -1. FindNode uses it when InterPodAffinity can
  // name the nodes it rejects (InterPodAffinity::ExcludedNodes). Same cost as SignatureOf.
  [[nodiscard]] int32_t AffinitySignatureOf(const PodInfo& pod);

  // FindNode: the best node for `pod` given current usage, or kNoNode. With a signature:
  // O(k log P) for the k nodes changed since the signature's last query; otherwise a scan,
  // O(feasible nodes × len(requests)). Allocation-free after warm-up.
  // Pods InterPodAffinity applies to (their own required anti-affinity terms, or placed pods'
  // anti-affinity terms selecting them; issue 19) stay on the index when they have no required
  // pod affinity term, no preferred term and nothing else scores them (ScoreDependent), and the
  // plugin can list the nodes it rejects (InterPodAffinity::ExcludedNodes: O(candidate pods),
  // ≤ 2 × the class's nodes listed): the index's best node is taken out while it is one of them
  // and put back after, O(listed + k log P) for the k of them that outscore the answer. Same node as the scan path:
  // the index's leaves are the scan's Fits + scores, the exclusions its PodFits verdicts.
  // Upstream: schedule_one.go findNodesThatPassFilters / prioritizeNodes / selectHost with
  // interpodaffinity/filtering.go as the only pod-dependent filter.
  [[nodiscard]] NodeIndex FindNode(const PodInfo& pod);

  // set_dynamic_resources: pods with DRA claims are also filtered by the DynamicResources plugin
  // (upstream excludes them from pod signatures: they take the scan path) and Diagnose names its
  // reasons ("cannot allocate all claims"). nullptr (default) = no DRA.
  void set_dynamic_resources(DynamicResources* dra) { dra_ = dra; }
  // dynamic_resources: the plugin set above (nullptr when none; not owned).
  [[nodiscard]] DynamicResources* dynamic_resources() const { return dra_; }
  // set_snapshot: the placements the pod-dependent filters read (Snapshot::PodsOn); must outlive
  // the Framework. Without one (tests of node-static behaviour) those filters pass every node.
  void set_snapshot(const Snapshot* snapshot) { snapshot_ = snapshot; }
  // set_objects: the input objects PodTopologySpread reads (ReplicaSets and StatefulSets for the
  // cluster-default constraints); must outlive the Framework. Without them (tests of node-static
  // behaviour) PodTopologySpread is off.
  void set_objects(const api::ObjectSet& objects);
  // PodFits: the pod-dependent Filter plugins of the default profile on node n given the
  // current placements: NodePorts (O(pods on n × ports)) and InterPodAffinity (its PreFilter
  // memoised per pod and placement version, then O(terms)). No allocation after warm-up.
  [[nodiscard]] bool PodFits(const PodInfo& pod, NodeIndex n) const;
  // PodDependent: PodFits may reject some node for `pod` (it has host ports, or InterPodAffinity
  // has something to check: its own terms, or a placed pod's anti-affinity selects it). Such a
  // pod takes the scan path. O(1) for pods without terms while no pod has required
  // anti-affinity.
  [[nodiscard]] bool PodDependent(const PodInfo& pod) const;
  // DynamicResourcesFit: DynamicResources' Filter for `pod` on node n as the devices are
  // allocated now (true for a pod without claims or a run without DRA). Preemption asks it: a
  // node where the pod's claims cannot be allocated is not a candidate (upstream's
  // DynamicResources Filter rejects it), and a nominated node is retried only when they can
  // (kubernetes pkg/scheduler/framework/plugins/dynamicresources). Devices held by victims are
  // not counted as freed: such a preemption is not attempted. O(claims × devices of n).
  // The claims are looked up once (DraClaims) and checked per node (DraFits).
  [[nodiscard]] bool DynamicResourcesFit(const PodInfo& pod, NodeIndex n) const {
    return DraFits(DraClaims(pod), n);
  }
  // DraClaims: the pod's DRA claims (nullptr when none or no plugin); looked up once per call.
  [[nodiscard]] const DynamicResources::PodClaims* DraClaims(const PodInfo& pod) const {
    return dra_ == nullptr ? nullptr : dra_->ClaimsOf(*pod.pod);
  }
  // DraFits: DynamicResourcesFit with the claims already looked up (nullptr fits anywhere).
  [[nodiscard]] bool DraFits(const DynamicResources::PodClaims* claims, NodeIndex n) const {
    return claims == nullptr || dra_->Fits(*claims, n);
  }
  // FitIsNodeLocal: PodFits's verdict for `pod` on a node depends only on the pods placed on that
  // node (NodePorts at most): the pod has no pod (anti-)affinity term and no topology spread
  // constraint, and no pod of the snapshot has required anti-affinity (upstream's
  // InterPodAffinity and PodTopologySpread are the default profile's only filters that read
  // other nodes). Preemption's reprieve uses it to skip replays a victim cannot change. O(1)
  // after InterPodAffinity's first scan of the snapshot's pods.
  [[nodiscard]] bool FitIsNodeLocal(const PodInfo& pod) const;
  // FitReadsWholeCluster: PodFits's verdict for `pod` may depend on pods anywhere, not only in
  // the topology domains of its required pod (anti-)affinity terms: `pod` has a topology spread
  // constraint, or an affinity term of its own selects it (the first-pod rule counts matching
  // pods in the whole cluster). O(terms × selector).
  [[nodiscard]] bool FitReadsWholeCluster(const PodInfo& pod) const;
  // PlacementMayAffect: whether `other`, on node m, being placed or removed can change PodFits's
  // verdict for `pod` on node n ≠ m. REQUIRES: !FitReadsWholeCluster(pod). False only when
  // `other` has no pod (anti-)affinity term of its own (no symmetry) and each required affinity
  // or anti-affinity term of `pod` either has a topology key both nodes carry with different
  // values (another domain) or does not select `other` (plugins::TermMatches, namespaces
  // included). Reads the api objects, not PodInfo::pod_filters. O(terms × log labels), plus the
  // selector for terms whose domain is shared; no allocation.
  [[nodiscard]] bool PlacementMayAffect(const PodInfo& pod, NodeIndex n, const PodInfo& other,
                                        NodeIndex m) const;
  // ScoreDependent: InterPodAffinity scores nodes differently for `pod` (its preferred terms, or
  // placed pods' affinity terms selecting it, match something) or PodTopologySpread scores it
  // (ScheduleAnyway constraints, or the cluster-default ones for a pod of a ReplicaSet or
  // StatefulSet); such a pod takes the scan path and gets the plugins' normalised scores ×2.
  // O(1) while no pod has pod affinity, plus O(ReplicaSets + StatefulSets) once per pod.
  [[nodiscard]] bool ScoreDependent(const PodInfo& pod) const;
  // PodFilterReason: the reason of the first pod-dependent filter that rejects node n, in the
  // default profile's order, and whether it is UnschedulableAndUnresolvable; empty when none.
  // `before_resources` selects the filters that run before NodeResourcesFit (NodePorts) or
  // after it.
  [[nodiscard]] std::string_view PodFilterReason(const PodInfo& pod, NodeIndex n,
                                                 bool before_resources, bool* unresolvable) const;
  // PodDependentRejectors: the Rejector bits (sched/queue/cluster_event.h)
  // kRejectorPodTopologySpread / kRejectorInterPodAffinity of the pod-dependent plugins that
  // reject some statically feasible node for `pod` now, a node counting for the first plugin in
  // Filter order that rejects it (upstream Diagnosis.UnschedulablePlugins). 0 when the pod has no
  // required pod affinity term and no DoNotSchedule spread constraint: their assigned-pod hints
  // never queue such a pod. Failure path only: O(F × (R + terms)), no allocation.
  [[nodiscard]] uint32_t PodDependentRejectors(const PodInfo& pod) const;
  // set_use_score_index: false forces the scan path (tests compare both). Default true.
  void set_use_score_index(bool on) { use_score_index_ = on; }

  static constexpr int32_t kMaxSignatures = 512;

  // Restrict: limits FindNode, FeasibleNodes and Diagnose to `nodes` (a placement's nodes, KEP-5732
  // "restrict the snapshot view to the placement's nodes"; sorted ascending, unique, must outlive
  // the restriction) until Unrestrict. While restricted FindNode scans the allowed nodes,
  // O(|nodes| × len(requests)), allocation-free; static scores normalise over the allowed nodes
  // that pass the filters. Not nested: one restriction at a time. See ScopedRestriction.
  void Restrict(std::span<const NodeIndex> nodes) {
    restricted_ = true;
    allowed_ = nodes;
    ++restriction_;  // a new view: the allowed-node score memo starts over
  }
  void Unrestrict() {
    restricted_ = false;
    allowed_ = {};
  }
  [[nodiscard]] bool restricted() const { return restricted_; }
  // resources: the resource-name table (diagnostics).
  [[nodiscard]] const ResourceTable& resources() const { return resources_; }

  // FeasibleNodes: nodes where `pod` fits now, best score first (ties by node index). Used by
  // the gang search. O(F log F).
  void FeasibleNodes(const PodInfo& pod, std::vector<NodeIndex>& out);

  // Diagnose: why `pod` fits nowhere, in upstream's FitError form:
  // "0/N nodes are available: 3 Insufficient cpu, 1 node(s) were unschedulable."
  // `status` receives Unschedulable, or UnschedulableAndUnresolvable when every node was
  // rejected by a filter that preemption cannot fix.
  // Always "0/N" (upstream FitError: the pod is pending); a node where the pod fits alone (it
  // was left out by its group's context) is counted in N but given no reason. While restricted,
  // N is the allowed nodes; with a non-empty `outside` it is every node, the ones outside the
  // restriction counted under that reason (e.g. "node(s) didn't match the pod group's topology
  // placement (rack=r1)"). `filtered`, when given, is set true when some node was rejected
  // for a reason other than NodeResourcesFit's ("Insufficient …", "Too many pods"): a static
  // filter (taint, selector, unschedulable), a pod-dependent one or DynamicResources.
  [[nodiscard]] std::string Diagnose(const PodInfo& pod, Code* code = nullptr,
                                     std::string_view outside = {},
                                     bool* filtered = nullptr) const;

  // StaticallyFeasible: node indices passing every node-static filter for the class.
  [[nodiscard]] const std::vector<NodeIndex>& StaticallyFeasible(ClassIndex c) const {
    return classes_[c].feasible;
  }

 private:
  struct PodClass {
    std::vector<NodeIndex> feasible;       // nodes passing the static filters, ascending
    std::vector<int64_t> static_score;     // weighted static score per feasible position;
                                           // empty when every node scores the same
    std::vector<int64_t> raw_affinity;     // raw NodeAffinity score per feasible position
    std::vector<int64_t> raw_taint;        // raw TaintToleration score per feasible position
    std::unordered_map<std::string, int32_t> static_reasons;  // reason → node count
    std::vector<int32_t> position_of_node;  // node → position in `feasible`, or -1
                                            // (empty for restricted classes)
    bool restricted = false;  // PreFilter named the candidate nodes (matchFields metadata.name)
  };

  // Signature: equivalent pods (same class, same requests) share one ScoreIndex.
  struct Signature {
    ClassIndex cls = 0;
    PodInfo probe;          // requests and non-zero requests of the signature
    ScoreIndex index;
    size_t cursor = 0;      // position in NodeTable::change_log() already applied
    uint64_t epoch = 0;
    bool built = false;
  };

  NodeIndex FindNodeScan(const PodInfo& pod);
  NodeIndex FindNodeAllowed(const PodInfo& pod);
  // PositionIn: position of node n in cls.feasible, or -1. O(1), or O(log F) for restricted classes.
  [[nodiscard]] int32_t PositionIn(const PodClass& cls, NodeIndex n) const;
  [[nodiscard]] bool Allowed(NodeIndex n) const;
  // FindNodeIndexed: the signature's best node that is not in `excluded` (may repeat nodes).
  NodeIndex FindNodeIndexed(Signature& sig, std::span<const NodeIndex> excluded);
  // IndexSignature: SignatureOf without the pod_filters check.
  int32_t IndexSignature(const PodInfo& pod);
  int64_t LeafScore(const PodInfo& probe, NodeIndex n) const;
  int64_t DynamicScore(const PodInfo& pod, NodeIndex n) const;

  void BuildClass(const api::Pod& pod, PodClass& cls) const;
  [[nodiscard]] std::optional<std::vector<NodeIndex>> PreFilterNodeNames(const api::Pod& pod) const;
  int64_t TotalScore(const PodInfo& pod, const PodClass& cls, size_t pos, int64_t max_aff,
                     int64_t max_taint) const;

  const NodeTable& nodes_;
  const ResourceTable& resources_;
  ScoringStrategy scoring_;
  std::vector<std::unique_ptr<NodeStaticFilterPlugin>> filters_;
  std::vector<PodClass> classes_;
  std::unordered_map<std::string, ClassIndex> class_ids_;
  mutable std::optional<NodeNameIndex> node_by_name_;  // built on first use
  std::vector<uint32_t> scratch_;  // feasible positions of the current pod
  std::vector<Signature> signatures_;
  std::map<std::vector<int64_t>, int32_t> signature_ids_;  // class, non-zero cpu/memory, requests
  std::vector<int64_t> leaf_scratch_;
  // FindNode's exclusions (InterPodAffinity::ExcludedNodes), marked per query by stamp, and the
  // leaves taken out of an index while they are skipped (position, score).
  std::vector<NodeIndex> excluded_;
  std::vector<uint32_t> excluded_mark_;
  uint32_t exclude_stamp_ = 0;
  std::vector<std::pair<int32_t, int64_t>> taken_out_;
  bool use_score_index_ = true;
  DynamicResources* dra_ = nullptr;
  const Snapshot* snapshot_ = nullptr;
  std::unique_ptr<plugins::TopologyIndex> topology_;
  std::unique_ptr<plugins::InterPodAffinity> inter_pod_affinity_;  // memoises its PreFilter
  std::unique_ptr<plugins::PodTopologySpread> spread_;  // nullptr until set_objects
  [[nodiscard]] bool SpreadApplies(const PodInfo& pod) const;
  [[nodiscard]] bool SpreadScores(const PodInfo& pod) const;
  [[nodiscard]] bool AffinityScores(const PodInfo& pod) const;
  // SpreadScore: PodTopologySpread's weighted score of feasible node n (after FinishScore).
  [[nodiscard]] int64_t SpreadScore(NodeIndex n) const;
  [[nodiscard]] bool AffinityApplies(const PodInfo& pod) const;
  // AffinityRange: min and max of InterPodAffinity's raw scores over the feasible nodes.
  struct AffinityRange {
    int64_t min = INT64_MAX;
    int64_t max = INT64_MIN;
    void Add(int64_t v) {
      min = std::min(min, v);
      max = std::max(max, v);
    }
  };
  // AffinityScore: InterPodAffinity's normalised, weighted score of node n. O(keys).
  [[nodiscard]] int64_t AffinityScore(const AffinityRange& range, NodeIndex n) const;

  bool restricted_ = false;
  std::span<const NodeIndex> allowed_;
  std::vector<int32_t> allowed_scratch_;  // positions of allowed nodes that fit (two-pass scan)
  // FindNodeAllowedMemo: the restricted single-pass scan for a pod with a signature (its
  // verdict and score on a node depend on that node's usage only), answered from the allowed
  // nodes' scores of the same signature kept since the last call and refreshed from the
  // NodeTable change log: a gang's identical members placed in one placement score each allowed
  // node once plus the nodes that changed, not every node per member. Same answer as the scan
  // (first allowed node of the highest score). O(changes × log |allowed| + |allowed|).
  NodeIndex FindNodeAllowedMemo(const PodInfo& pod);
  struct AllowedMemo {
    uint64_t restriction = 0;  // restriction_ it was built under (0: never)
    int32_t signature = -1;
    uint64_t epoch = 0;        // NodeTable::log_epoch()
    size_t cursor = 0;         // change-log entries already applied
    std::vector<int64_t> scores;  // per allowed position: DynamicScore, or -1 (no fit)
  };
  AllowedMemo allowed_memo_;
  uint64_t restriction_ = 0;  // Restrict calls so far
};

// ScopedRestriction: Framework::Restrict for a scope; a no-op when `all` (the placement is the
// whole cluster, so the unrestricted, indexed path stays in use).
class ScopedRestriction {
 public:
  ScopedRestriction(Framework& framework, std::span<const NodeIndex> nodes, bool all)
      : framework_(framework), active_(!all) {
    if (active_) framework_.Restrict(nodes);
  }
  ~ScopedRestriction() {
    if (active_) framework_.Unrestrict();
  }
  ScopedRestriction(const ScopedRestriction&) = delete;
  ScopedRestriction& operator=(const ScopedRestriction&) = delete;

 private:
  Framework& framework_;
  bool active_;
};

// StaticSignature: the serialized node-static constraints of a pod (class key).
[[nodiscard]] std::string StaticSignature(const api::Pod& pod);

}  // namespace wasched::sched
