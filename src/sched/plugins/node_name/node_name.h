// File: sched/plugins/node_name/node_name.h
//
// NodeName: a pod that names a node in spec.nodeName fits only that node. Upstream:
// pkg/scheduler/framework/plugins/nodename. wasched treats pods that arrive with spec.nodeName
// as already running, so this filter matters only for pods handed to the framework directly
// (library use). Requeue events: Node/Add.
#pragma once

#include "sched/framework/plugin.h"

namespace wasched::sched::plugins {

class NodeName final : public NodeStaticFilterPlugin {
 public:
  static constexpr std::string_view kName = "NodeName";
  static constexpr const char* kReason = "node(s) didn't match the requested node name";
  [[nodiscard]] std::string_view Name() const override { return kName; }
  [[nodiscard]] Status Filter(const api::Pod& pod, const api::Node& node) const override {
    if (pod.node_name.empty() || pod.node_name == node.meta.name) return Status::Success();
    return Status::UnschedulableAndUnresolvable(kReason, std::string(kName));
  }
};

}  // namespace wasched::sched::plugins
