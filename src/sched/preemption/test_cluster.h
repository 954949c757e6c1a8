// File: sched/preemption/test_cluster.h
//
// TestCluster (tests only): a small cluster for preemption unit tests, built on the real
// NodeTable / Framework / Snapshot. Node capacity is counted in slots (the `pods` resource) and
// every pod takes one slot unless given more, as the upstream evaluator tests' mock model
// (spec/upstream-cases.md §I). `RoundRobin` is that model's scheduling function: it places the
// preemptor's pods round-robin on nodes with room and succeeds when ≥ min_count are placed.
#pragma once

#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "api/node.h"
#include "api/pod.h"
#include "sched/cache/node_table.h"
#include "sched/cache/snapshot.h"
#include "sched/framework/framework.h"
#include "sched/preemption/fit_check.h"
#include "sched/preemption/pod_group_evaluator.h"
#include "sched/preemption/victim_unit.h"

namespace wasched::sched::preemption::test {

inline constexpr int32_t kLow = 10;
inline constexpr int32_t kMid = 100;
inline constexpr int32_t kHigh = 1000;

class TestCluster {
 public:
  // AddNode: a node with `slots` pods of capacity (plus 64 CPU, unused by slot pods).
  void AddNode(const std::string& name, int64_t slots) {
    api::Node n;
    n.meta.name = name;
    n.allocatable = {{"pods", slots}, {"cpu", 64000}};
    node_objs_.push_back(std::move(n));
  }
  // AddGroup: a PodGroup (or CompositePodGroup) row; returns its index.
  int32_t AddGroup(const std::string& name, int32_t priority, bool all, int32_t parent = -1,
                   bool composite = false) {
    GroupNode g;
    g.label = std::string(composite ? "CompositePodGroup" : "PodGroup") + " default/" + name;
    g.uid = name;
    g.priority = priority;
    g.disruption_all = all;
    g.parent = parent;
    g.composite = composite;
    groups_.push_back(g);
    const auto index = static_cast<int32_t>(groups_.size()) - 1;
    if (parent >= 0) groups_[parent].children.push_back(index);
    return index;
  }
  // AddPod: a running pod on `node` (empty = pending), with `slots` slots, started at `start`
  // (status.startTime; SetStartTime(p, nullopt) unsets it) and no creationTimestamp.
  PodIndex AddPod(const std::string& name, int32_t priority, const std::string& node = "",
                  int32_t group = -1, int64_t start = 0, int64_t slots = 1,
                  std::map<std::string, std::string> labels = {}) {
    api::Pod p;
    p.meta.name = name;
    p.meta.namespace_ = "default";
    p.meta.uid = name;
    p.meta.labels = std::move(labels);
    p.node_name = node;
    p.priority = priority;
    p.start_time = start;
    pod_objs_.push_back(std::move(p));
    specs_.push_back({group, slots});
    return static_cast<PodIndex>(pod_objs_.size()) - 1;
  }
  // SetCreation / SetStartTime: metadata.creationTimestamp / status.startTime of pod p. Call
  // before Build.
  void SetCreation(PodIndex p, int64_t seconds) { pod_objs_[p].meta.creation_timestamp = seconds; }
  void SetStartTime(PodIndex p, std::optional<int64_t> seconds) {
    pod_objs_[p].start_time = seconds;
  }

  // Build: the cache, with running pods placed. Call once after every Add*.
  void Build() {
    std::vector<const api::Node*> sorted;
    for (const auto& n : node_objs_) sorted.push_back(&n);
    nodes_ = std::make_unique<NodeTable>(sorted, resources_);
    framework_ = std::make_unique<Framework>(*nodes_, resources_, ScoringStrategy::kLeastAllocated);
    snapshot_ = std::make_unique<Snapshot>(*nodes_, pods_);
    for (size_t i = 0; i < pod_objs_.size(); ++i) {
      PodInfo pi;
      pi.pod = &pod_objs_[i];
      pi.requests = request_storage_.emplace_back(1, ResourceAmount{kPods, specs_[i].slots});
      pi.priority = *pod_objs_[i].priority;
      pi.creation = pod_objs_[i].meta.creation_timestamp.value_or(0);
      pi.start = PodStartTime(pod_objs_[i], kStartedLast);  // as a run without a clock
      pi.input_order = static_cast<int32_t>(i);
      pi.group = specs_[i].group;
      if (pi.group >= 0) groups_[pi.group].members.push_back(static_cast<PodIndex>(i));
      pods_.push_back(std::move(pi));
    }
    for (size_t i = 0; i < pods_.size(); ++i) {
      if (pod_objs_[i].node_name.empty()) {
        pods_[i].static_class = framework_->ClassOf(pod_objs_[i]);
        continue;
      }
      for (NodeIndex n = 0; n < nodes_->size(); ++n) {
        if (nodes_->node(n).meta.name == pod_objs_[i].node_name) {
          snapshot_->Assume(static_cast<PodIndex>(i), n);
        }
      }
    }
    snapshot_->Commit();
  }

  // RoundRobin: the mock scheduling function over `preemptor` pods.
  GroupSchedulingFn RoundRobin(std::vector<PodIndex> preemptor, int32_t min_count) {
    return [this, preemptor, min_count] {
      SimulationResult r;
      const size_t mark = snapshot_->Mark();
      NodeIndex cursor = 0;
      for (PodIndex p : preemptor) {
        for (NodeIndex k = 0; k < nodes_->size(); ++k) {
          const NodeIndex n = (cursor + k) % nodes_->size();
          if (FitsOn(*framework_, *nodes_, pods_[p], n)) {
            snapshot_->Assume(p, n);
            r.placements.push_back({p, n});
            cursor = (n + 1) % nodes_->size();
            break;
          }
        }
      }
      snapshot_->RevertTo(mark);
      if (static_cast<int32_t>(r.placements.size()) < min_count) {
        r.status = Status::Unschedulable("not enough room");
        r.placements.clear();
      }
      return r;
    };
  }

  [[nodiscard]] std::vector<std::string> Names(const std::vector<PodIndex>& pods) const {
    std::vector<std::string> out;
    for (PodIndex p : pods) out.push_back(pod_objs_[p].meta.name);
    std::sort(out.begin(), out.end());
    return out;
  }
  // Usage: pods slots used on node n (to check the dry run left the snapshot alone).
  [[nodiscard]] int64_t Usage(NodeIndex n) const { return nodes_->Requested(kPods, n); }

  std::vector<PodInfo>& pods() { return pods_; }
  std::vector<GroupNode>& groups() { return groups_; }
  Snapshot& snapshot() { return *snapshot_; }
  Framework& framework() { return *framework_; }
  NodeTable& nodes() { return *nodes_; }
  ResourceTable& resources() { return resources_; }
  std::deque<api::Pod>& pod_objects() { return pod_objs_; }

 private:
  struct Spec {
    int32_t group;
    int64_t slots;
  };
  std::deque<api::Node> node_objs_;
  std::deque<api::Pod> pod_objs_;
  std::vector<Spec> specs_;
  std::vector<GroupNode> groups_;
  ResourceTable resources_;
  std::unique_ptr<NodeTable> nodes_;
  std::unique_ptr<Framework> framework_;
  std::unique_ptr<Snapshot> snapshot_;
  std::deque<std::vector<ResourceAmount>> request_storage_;  // PodInfo::requests views
  std::vector<PodInfo> pods_;
};

}  // namespace wasched::sched::preemption::test
