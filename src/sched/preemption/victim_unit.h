// File: sched/preemption/victim_unit.h
//
// Victim units: what preemption evicts together (spec/was-v1.37.md §6.2; KEP-5710; upstream
// pkg/scheduler/framework/preemption: getCrossNodesVictims / getHighestAllAncestor /
// NewPodVictim / moreImportantVictim).
//
//  * A running pod whose group hierarchy has an ancestor (or its own PodGroup) with
//    `disruptionMode: all` belongs to the unit of the HIGHEST such ancestor: every running pod
//    under it, on every node, is evicted with it.
//  * Any other pod is a unit of its own (a bare pod, or a pod of a `single` group).
//  * Unit priority: the group's priority for grouped pods (the `all` ancestor's, else the pod's
//    own PodGroup's), the pod's priority for bare pods.
//  * Importance (most important first): higher priority; then kind (CompositePodGroup unit >
//    PodGroup unit, which includes a lone pod of a `single` group, as upstream's NewPodVictim
//    types it PodGroup > bare pod); then more pods; then earlier start. Nothing after that:
//    equal units are equally important, and the callers sort stably, so ties keep the caller's
//    list order, as upstream's sort.Slice does for lists of at most 12 (Go's insertion sort):
//      - DefaultPreemption: the node's pods in NodeInfo order (NodePods: running pods in input
//        order, then bindings in bind order; a removal moves the node's last pod into the gap,
//        upstream framework/types.go removeFromSlice).
//      - PodGroupEvaluator: every unit in order of its first running pod (AllSlots). Upstream
//        lists them node by node (getCrossNodesVictims) and sorts lists longer than 12 with
//        pdqsort, which is not stable: wasched does not reproduce either (docs/known-gaps.md
//        "Order of equal victims").
//
//   VictimUnitIndex units(pods, groups);
//   const VictimUnit& u = units.UnitOf(p);        // built lazily, cached
//   std::stable_sort(list.begin(), list.end(), MoreImportantUnit);
//
// Start time: a pod's status.startTime, or "now" when it has none (PodInfo::start; upstream
// pkg/scheduler/util GetPodStartTime), never its creationTimestamp. A unit's start is the
// earliest of its pods' (preemption/types.go NewVictim); DefaultPreemption's node choice uses
// the earliest start of a candidate's highest-priority victims (preemption.go
// pickOneNodeForPreemption, util.GetEarliestPodStartTime).
#pragma once

#include <cstdint>
#include <initializer_list>
#include <span>
#include <string>
#include <vector>

#include "sched/framework/pod_info.h"

namespace wasched::sched::preemption {

// UnitKind: upstream fwk.EntityKeyType of a victim, in importance order.
enum class UnitKind : uint8_t { kPod = 0, kPodGroup = 1, kCompositePodGroup = 2 };

// GroupNode: one PodGroup or CompositePodGroup as preemption sees it. Indices are the caller's
// (PodInfo::group indexes PodGroups in the same table; CompositePodGroups may follow them).
//  * parent: index of the parent CompositePodGroup, or -1 for a root.
//  * members: the PodGroup's pods (any state; empty for a CompositePodGroup).
//  * children: child groups (PodGroups and CompositePodGroups) of a CompositePodGroup.
//  * label: "PodGroup ns/name" / "CompositePodGroup ns/name" (messages, eviction reasons).
struct GroupNode {
  int32_t parent = -1;
  bool composite = false;
  bool disruption_all = false;
  int32_t priority = 0;
  std::string uid;
  std::string label;
  std::vector<PodIndex> members;
  std::vector<int32_t> children;
};

// PodList: a unit's pods without a heap allocation for the common one-pod unit (bare-pod
// preemption builds thousands of units per preemptor). Iterable, indexable, a span.
class PodList {
 public:
  PodList() = default;
  PodList(std::initializer_list<PodIndex> pods) {
    for (PodIndex p : pods) push_back(p);
  }
  void push_back(PodIndex p) {
    if (size_ == 0) {
      one_ = p;
    } else {
      if (size_ == 1) many_.push_back(one_);
      many_.push_back(p);
    }
    ++size_;
  }
  [[nodiscard]] size_t size() const { return size_; }
  [[nodiscard]] bool empty() const { return size_ == 0; }
  [[nodiscard]] const PodIndex* begin() const { return size_ <= 1 ? &one_ : many_.data(); }
  [[nodiscard]] const PodIndex* end() const { return begin() + size_; }
  [[nodiscard]] PodIndex front() const { return *begin(); }
  [[nodiscard]] PodIndex operator[](size_t i) const { return begin()[i]; }
  operator std::span<const PodIndex>() const { return {begin(), size_}; }  // NOLINT: a view

 private:
  PodIndex one_ = -1;
  size_t size_ = 0;
  std::vector<PodIndex> many_;  // all pods when size_ ≥ 2
};

// VictimUnit: pods evicted together (label: VictimUnitIndex::Label). `group` is the `all` group the unit is (or, for a lone pod
// of a `single` group, that pod's PodGroup; -1 for a bare pod). `pods` are running pods
// (PodInfo::node set), in input order. `earliest_start`: smallest PodInfo::start among them.
struct VictimUnit {
  PodList pods;
  int32_t priority = 0;
  UnitKind kind = UnitKind::kPod;
  bool whole_group = false;  // the unit is an `all` group (evicting it evicts every pod)
  int32_t group = -1;
  int64_t earliest_start = 0;
};

// MoreImportantUnit: strict weak order, most important first (§6.2).
[[nodiscard]] bool MoreImportantUnit(const VictimUnit& a, const VictimUnit& b);

// UnitKey: identifies a unit: a pod index (≥ 0) for a single-pod unit, -1 - group for an
// `all` group unit. Units with equal keys are the same unit.
using UnitKey = int64_t;

// VictimUnitIndex: maps running pods to their victim units, building each unit the first time a
// member is asked for. `pods` and `groups` must outlive the index and not change shape; pod
// placements are read at build time (a unit lists the pods running then). A single-pod unit
// never changes, so the index may live across preemptions: call Refresh() before each one to
// forget the group units (their membership follows bindings and evictions).
// Cost: UnitOf is O(depth) for a single-pod unit and O(pods under the group) the first time for
// a group unit, O(1) after; Refresh is O(pods of the group units built).
class VictimUnitIndex {
 public:
  VictimUnitIndex(const std::vector<PodInfo>& pods, const std::vector<GroupNode>& groups)
      : pods_(pods), groups_(groups) {}

  // KeyOf: the unit key of running pod p. O(depth ≤ 4).
  [[nodiscard]] UnitKey KeyOf(PodIndex p) const;
  // UnitOf: the unit of running pod p (cached). REQUIRES: pods_[p].node set. The reference is
  // valid until the next UnitOf / All call.
  [[nodiscard]] const VictimUnit& UnitOf(PodIndex p);
  // SlotOf: a dense id of p's unit (position in the index, stable for the index's life).
  [[nodiscard]] int32_t SlotOf(PodIndex p);
  [[nodiscard]] const VictimUnit& Unit(int32_t slot) const { return units_[slot]; }
  // Label: "Pod ns/name", or the `all` group's label ("PodGroup ns/name", "CompositePodGroup
  // ns/name"); a lone pod of a `single` group is labelled as a Pod.
  [[nodiscard]] std::string Label(const VictimUnit& u) const;
  // Refresh: forgets every group unit (a later UnitOf rebuilds it from the current placements).
  void Refresh();
  // AllSlots: the slot of every unit of the running pods, in order of first pod (input order).
  // O(P).
  [[nodiscard]] std::vector<int32_t> AllSlots();

 private:
  VictimUnit Build(PodIndex p, UnitKey key);
  void CollectRunning(int32_t group, std::vector<PodIndex>* out, int depth) const;

  const std::vector<PodInfo>& pods_;
  const std::vector<GroupNode>& groups_;
  std::vector<VictimUnit> units_;     // stable addresses not needed: callers copy or re-ask
  std::vector<int32_t> pod_slot_;     // pod → position in units_ + 1 (0 = not built)
  std::vector<int32_t> group_slot_;   // group → position in units_ + 1 (0 = not built)
  std::vector<PodIndex> grouped_;     // pods whose pod_slot_ points at a group unit
  std::vector<int32_t> built_groups_; // groups whose group_slot_ is set
};

}  // namespace wasched::sched::preemption
