// File: sched/plugins/node_unschedulable/node_unschedulable.h
//
// NodeUnschedulable: rejects nodes with spec.unschedulable unless the pod tolerates the taint
// node.kubernetes.io/unschedulable:NoSchedule. Upstream:
// pkg/scheduler/framework/plugins/nodeunschedulable. Requeue events: Node/Update (unschedulable
// cleared), Node/Add.
#pragma once

#include "sched/framework/plugin.h"

namespace wasched::sched::plugins {

class NodeUnschedulable final : public NodeStaticFilterPlugin {
 public:
  static constexpr std::string_view kName = "NodeUnschedulable";
  static constexpr const char* kReason = "node(s) were unschedulable";
  [[nodiscard]] std::string_view Name() const override { return kName; }
  [[nodiscard]] Status Filter(const api::Pod& pod, const api::Node& node) const override;
};

}  // namespace wasched::sched::plugins
