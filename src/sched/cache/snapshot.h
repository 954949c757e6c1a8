// File: sched/cache/snapshot.h
//
// Snapshot: the per-cycle view of the cluster that scheduling decisions read and "assume" into.
// Instead of copying the node arrays each cycle (O(N × R)), it writes assumptions straight into
// the cache's NodeTable and keeps an undo log, so a failed group cycle reverts in O(assumed pods)
// and a successful one commits in O(1). Upstream: backend/cache/snapshot.go + AssumePod /
// ForgetPod.
//
//   auto mark = snapshot.Mark();
//   snapshot.Assume(pod, node);           // later pods in the cycle see it
//   if (!group_ok) snapshot.RevertTo(mark);
#pragma once

#include <cstddef>
#include <vector>

#include "sched/cache/node_table.h"
#include "sched/framework/pod_info.h"

namespace wasched::sched {

class DynamicResources;

class Snapshot {
 public:
  Snapshot(NodeTable& nodes, std::vector<PodInfo>& pods) : nodes_(nodes), pods_(pods) {}

  [[nodiscard]] const NodeTable& nodes() const { return nodes_; }

  // Assume: places pod p on node n (REQUIRES: p unplaced). O(len(requests)).
  void Assume(PodIndex p, NodeIndex n);
  // Mark / RevertTo: undo every Assume made after the mark, newest first. O(undone pods).
  [[nodiscard]] size_t Mark() const { return log_.size(); }
  void RevertTo(size_t mark);
  // Commit: forget the undo log; assumptions become bindings. O(1).
  void Commit();
  // set_dynamic_resources: Assume also reserves the pod's DRA claims and RevertTo releases them
  // (the DynamicResources plugin's Reserve / Unreserve), so every cycle's undo covers devices.
  void set_dynamic_resources(DynamicResources* dra) { dra_ = dra; }
  // Remove: releases a bound pod (deletion / eviction). O(len(requests)).
  void Remove(PodIndex p);
  // Restore: puts a pod released by Remove back on node n, unlogged (a preemption dry run
  // adding a reprieved victim back). REQUIRES: p unplaced. O(len(requests)).
  void Restore(PodIndex p, NodeIndex n);

 private:
  NodeTable& nodes_;
  std::vector<PodInfo>& pods_;
  std::vector<PodIndex> log_;
  DynamicResources* dra_ = nullptr;
};

}  // namespace wasched::sched
