// File: validation/hierarchy_validation.h
//
// Runtime hierarchy validation of PodGroup / CompositePodGroup trees, as the v1.37.2
// kube-scheduler does when it schedules a tree: a tree whose CompositePodGroup chain loops is
// refused (pkg/scheduler/backend/cache/cache.go buildPodGroupStateSnapshotTree: "cycle detected
// in composite pod group hierarchy"). Every group of a refused tree gets a False
// *InitiallyScheduled condition with reason `SchedulerError` and no pod binds.
//
// Observed on the v1.37.2 control plane (tests/differential, scenarios hv-g04 … hv-g08 and
// p19-tree-mixed-group-policy; docs/upstream.md "Runtime hierarchy validation"): the other rules
// KEP-6012 proposes (depth above 4, several Workloads in one tree, a Gang CompositePodGroup over a
// Basic PodGroup, an `all` CompositePodGroup over a `single` child) are not applied: such trees
// are scheduled. wasched adds one limit of its own: a chain deeper than kMaxSchedulingTreeDepth is
// refused, so that hostile input cannot make a tree of unbounded depth (upstream's upward walk
// stops after 4 levels).
//
// This is not API validation (each object alone is valid); the scheduler applies it per tree.
//
//   for (const HierarchyProblem& p : FindInvalidHierarchies(objects)) { ... p.message ... }
#pragma once

#include <string>
#include <vector>

#include "api/object_set.h"
#include "api/pod_group.h"

namespace wasched::validation {

inline constexpr const char* kInvalidHierarchyReason = api::kReasonSchedulerError;

// kMaxSchedulingTreeDepth: the deepest CompositePodGroup wasched schedules (root = depth 1).
inline constexpr int kMaxSchedulingTreeDepth = 64;

// HierarchyProblem: one refused tree: every group in it (pointers into the ObjectSet, input
// order) and why it is refused.
struct HierarchyProblem {
  std::vector<const api::CompositePodGroup*> composite_pod_groups;
  std::vector<const api::PodGroup*> pod_groups;
  std::string message;
};

// FindInvalidHierarchies: the refused trees among `objects`, ordered by their first group in
// input order. Groups are linked by spec.parentCompositePodGroupName within a namespace; a group
// whose parent is not in the input waits (PreEnqueue) and is not reported; a chain that loops is
// one cyclic tree. One problem per tree.
// O(groups · depth).
[[nodiscard]] std::vector<HierarchyProblem> FindInvalidHierarchies(const api::ObjectSet& objects);

}  // namespace wasched::validation
