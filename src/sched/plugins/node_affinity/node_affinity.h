// File: sched/plugins/node_affinity/node_affinity.h
//
// NodeAffinity: Filter requires spec.nodeSelector (all labels equal) and, when present, one of
// the required nodeSelectorTerms (In, NotIn, Exists, DoesNotExist, Gt, Lt on labels; matchFields
// on metadata.name); Score sums the weights of matching preferred terms, normalised by the
// maximum, weight 2. Upstream: pkg/scheduler/framework/plugins/nodeaffinity and
// k8s.io/component-helpers/scheduling/corev1/nodeaffinity. Requeue events: Node/Add,
// Node/UpdateNodeLabel.
#pragma once

#include "sched/framework/plugin.h"

namespace wasched::sched::plugins {

// MatchesNodeSelectorTerm: all requirements of the term hold for the node; a term with no
// requirements matches nothing (upstream). Gt/Lt need an integer label value.
[[nodiscard]] bool MatchesNodeSelectorTerm(const api::NodeSelectorTerm& term,
                                           const api::Node& node);

class NodeAffinityFilter final : public NodeStaticFilterPlugin {
 public:
  static constexpr std::string_view kName = "NodeAffinity";
  static constexpr const char* kReason = "node(s) didn't match Pod's node affinity/selector";
  [[nodiscard]] std::string_view Name() const override { return kName; }
  [[nodiscard]] Status Filter(const api::Pod& pod, const api::Node& node) const override;
};

class NodeAffinityScore final : public NodeStaticScorePlugin {
 public:
  [[nodiscard]] std::string_view Name() const override { return NodeAffinityFilter::kName; }
  [[nodiscard]] int64_t Weight() const override { return 2; }
  [[nodiscard]] int64_t Score(const api::Pod& pod, const api::Node& node) const override;
  void NormalizeScore(std::span<int64_t> scores) const override {
    DefaultNormalizeScore(kMaxNodeScore, /*reverse=*/false, scores);
  }
};

}  // namespace wasched::sched::plugins
