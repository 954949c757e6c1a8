// File: sched/preemption/node_pods.h
//
// NodePods: the pods placed on each node (upstream NodeInfo.Pods), which bare-pod preemption
// walks per candidate node. The scheduler keeps it in step with bindings and evictions.
// A node's order is upstream's NodeInfo.Pods order, which DefaultPreemption's victim ties keep
// (see victim_unit.h): Add appends; Remove moves the node's last pod into the removed pod's slot
// (upstream pkg/scheduler/framework/types.go removeFromSlice).
// Add is amortised O(1), Remove O(pods on the node); On is O(1).
#pragma once

#include <algorithm>
#include <span>
#include <vector>

#include "sched/framework/pod_info.h"

namespace wasched::sched::preemption {

class NodePods {
 public:
  NodePods() = default;
  // NodePods: `node_count` nodes holding no pod yet (built). O(N).
  explicit NodePods(int32_t node_count) : on_(node_count), built_(true) {}
  // NodePods: every placed pod of `pods` on its node, in pod order. O(P + N).
  NodePods(int32_t node_count, const std::vector<PodInfo>& pods) : on_(node_count), built_(true) {
    for (size_t p = 0; p < pods.size(); ++p) {
      if (pods[p].node != kNoNode) on_[pods[p].node].push_back(static_cast<PodIndex>(p));
    }
  }
  // built: constructed with a node count (a default-constructed NodePods is not).
  [[nodiscard]] bool built() const { return built_; }
  void Add(PodIndex p, NodeIndex n) { on_[n].push_back(p); }
  void Remove(PodIndex p, NodeIndex n) {
    auto& v = on_[n];
    auto it = std::find(v.begin(), v.end(), p);
    if (it == v.end()) return;
    *it = v.back();
    v.pop_back();
  }
  [[nodiscard]] std::span<const PodIndex> On(NodeIndex n) const { return on_[n]; }

 private:
  std::vector<std::vector<PodIndex>> on_;
  bool built_ = false;
};

}  // namespace wasched::sched::preemption
