// File: sched/framework/framework.h
//
// Framework: runs the Filter and Score extension points for one pod against the current
// snapshot and picks a node (upstream pkg/scheduler/schedule_one.go findNodesThatFitPod /
// prioritizeNodes / selectHost, default profile: NodeUnschedulable, NodeName, TaintToleration,
// NodeAffinity, NodeResourcesFit; scores NodeResourcesFit×1, NodeAffinity×2,
// TaintToleration×3).
//
// Equivalence classes: pods with the same node-static constraints (nodeSelector, node
// affinity, tolerations, nodeName) share one class; the static filters and scores are computed
// once per class over all nodes and cached. The per-pod hot path then only checks free capacity
// on the class's statically feasible nodes and adds the cached static scores: no allocation, no
// string compare, no virtual call per node.
//
// Choices (documented deviations): every node is evaluated (upstream's adaptive
// percentageOfNodesToScore would sample); ties between equally scored nodes go to the lowest
// node index (nodes are sorted by name) instead of upstream's random pick, for determinism.
#pragma once

#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "sched/cache/node_table.h"
#include "sched/framework/plugin.h"
#include "sched/framework/pod_info.h"
#include "sched/scheduler.h"

namespace wasched::sched {

class Framework {
 public:
  // Framework: the default plugin set over `nodes` (which must outlive it).
  Framework(const NodeTable& nodes, const ResourceTable& resources, ScoringStrategy scoring);
  ~Framework();

  // ClassOf: the equivalence class of `pod`'s node-static constraints, creating it (and
  // evaluating the static plugins over every node, O(N × plugins)) when new.
  [[nodiscard]] ClassIndex ClassOf(const api::Pod& pod);

  // FindNode: the best node for `pod` given current usage, or kNoNode. O(feasible nodes ×
  // len(requests)); allocation-free after warm-up.
  [[nodiscard]] NodeIndex FindNode(const PodInfo& pod);

  // FeasibleNodes: nodes where `pod` fits now, best score first (ties by node index). Used by
  // the gang search. O(F log F).
  void FeasibleNodes(const PodInfo& pod, std::vector<NodeIndex>& out);

  // Diagnose: why `pod` fits nowhere, in upstream's FitError form:
  // "0/N nodes are available: 3 Insufficient cpu, 1 node(s) were unschedulable."
  // `status` receives Unschedulable, or UnschedulableAndUnresolvable when every node was
  // rejected by a filter that preemption cannot fix.
  [[nodiscard]] std::string Diagnose(const PodInfo& pod, Code* code = nullptr) const;

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
  };

  void BuildClass(const api::Pod& pod, PodClass& cls) const;
  int64_t TotalScore(const PodInfo& pod, const PodClass& cls, size_t pos, int64_t max_aff,
                     int64_t max_taint) const;

  const NodeTable& nodes_;
  const ResourceTable& resources_;
  ScoringStrategy scoring_;
  std::vector<std::unique_ptr<NodeStaticFilterPlugin>> filters_;
  std::vector<PodClass> classes_;
  std::unordered_map<std::string, ClassIndex> class_ids_;
  std::vector<uint32_t> scratch_;  // feasible positions of the current pod
};

// StaticSignature: the serialized node-static constraints of a pod (class key).
[[nodiscard]] std::string StaticSignature(const api::Pod& pod);

}  // namespace wasched::sched
