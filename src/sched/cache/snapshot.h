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

#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "sched/cache/node_table.h"
#include "sched/framework/pod_info.h"

namespace wasched::sched {

class DynamicResources;

// NodePodList: one node's placed pods, for Snapshot::PodsOn. The first kInline pods live in the
// object itself (24 bytes, as a std::vector), so the usual node (a few pods) costs no
// allocation when a pod is assumed on it; beyond that a heap array doubles. Move-only.
// Push: amortised O(1); Erase (swap with the last): O(size).
class NodePodList {
 public:
  static constexpr int32_t kInline = 4;
  NodePodList() = default;
  NodePodList(NodePodList&& o) noexcept;
  NodePodList& operator=(NodePodList&& o) noexcept;
  NodePodList(const NodePodList&) = delete;
  NodePodList& operator=(const NodePodList&) = delete;
  ~NodePodList() {
    if (cap_ > kInline) delete[] heap_;
  }

  [[nodiscard]] std::span<const PodIndex> view() const {
    return {cap_ > kInline ? heap_ : inline_, static_cast<size_t>(size_)};
  }
  void Push(PodIndex p);
  // Erase: removes p, searching from the back (an undo removes the newest); the last pod takes
  // its place. No-op when p is absent.
  void Erase(PodIndex p);

 private:
  int32_t size_ = 0;
  int32_t cap_ = kInline;
  union {
    PodIndex inline_[kInline];
    PodIndex* heap_;
  };
};

class Snapshot {
 public:
  Snapshot(NodeTable& nodes, std::vector<PodInfo>& pods)
      : nodes_(nodes), pods_(pods), on_node_(static_cast<size_t>(nodes.size())) {}

  [[nodiscard]] const NodeTable& nodes() const { return nodes_; }
  [[nodiscard]] const std::vector<PodInfo>& pods() const { return pods_; }

  // PodsOn: the pods placed on node n (bound, running or assumed), in no particular order
  // (upstream NodeInfo.Pods). The pod-dependent filters (NodePorts, InterPodAffinity) read it.
  // The span is valid until the next Assume / RevertTo / Remove / Restore. O(1).
  [[nodiscard]] std::span<const PodIndex> PodsOn(NodeIndex n) const { return on_node_[n].view(); }
  // version: bumped by every change of placement (Assume, RevertTo, Remove, Restore); a
  // consumer that memoises a cluster-wide answer (InterPodAffinity's PreFilter counts) compares
  // it to know the answer still holds. O(1).
  [[nodiscard]] uint64_t version() const { return version_; }
  // ChangedPod: the pod placed or unplaced by the change that took the version from v to v + 1,
  // for the last kChangeWindow changes (REQUIRES: version() − kChangeWindow ≤ v < version()).
  // A consumer memoising at version v updates its answer for those pods instead of recomputing
  // it (InterPodAffinity, as upstream's PreFilterExtensions AddPod / RemovePod). O(1).
  static constexpr uint64_t kChangeWindow = 256;
  [[nodiscard]] PodIndex ChangedPod(uint64_t v) const { return changed_[v % kChangeWindow]; }

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
  void Place(PodIndex p, NodeIndex n);
  void Unplace(PodIndex p);

  std::vector<PodIndex> log_;
  std::vector<NodePodList> on_node_;  // node → pods placed on it
  uint64_t version_ = 0;
  std::array<PodIndex, kChangeWindow> changed_{};  // ring: pod changed at version v → [v % size]
  DynamicResources* dra_ = nullptr;
};

}  // namespace wasched::sched
