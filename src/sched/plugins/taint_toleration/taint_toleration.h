// File: sched/plugins/taint_toleration/taint_toleration.h
//
// TaintToleration: Filter rejects nodes with a NoSchedule/NoExecute taint the pod does not
// tolerate ("node(s) had untolerated taint {key: value}"); Score counts intolerable
// PreferNoSchedule taints and normalises in reverse (fewer is better), weight 3. Upstream:
// pkg/scheduler/framework/plugins/tainttoleration and
// k8s.io/component-helpers/scheduling/corev1 (toleration matching). Requeue events: Node/Add,
// Node/UpdateNodeTaint.
#pragma once

#include <vector>

#include "sched/framework/plugin.h"

namespace wasched::sched::plugins {

// TolerationsTolerateTaint: any toleration matches the taint (key, operator, value, effect).
[[nodiscard]] bool TolerationsTolerateTaint(const std::vector<api::Toleration>& tolerations,
                                            const api::Taint& taint);

class TaintTolerationFilter final : public NodeStaticFilterPlugin {
 public:
  static constexpr std::string_view kName = "TaintToleration";
  [[nodiscard]] std::string_view Name() const override { return kName; }
  [[nodiscard]] Status Filter(const api::Pod& pod, const api::Node& node) const override;
};

class TaintTolerationScore final : public NodeStaticScorePlugin {
 public:
  [[nodiscard]] std::string_view Name() const override { return TaintTolerationFilter::kName; }
  [[nodiscard]] int64_t Weight() const override { return 3; }
  [[nodiscard]] int64_t Score(const api::Pod& pod, const api::Node& node) const override;
  void NormalizeScore(std::span<int64_t> scores) const override {
    DefaultNormalizeScore(kMaxNodeScore, /*reverse=*/true, scores);
  }
};

}  // namespace wasched::sched::plugins
