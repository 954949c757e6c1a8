// File: validation/hierarchy_validation.h
//
// Runtime hierarchy validation of PodGroup / CompositePodGroup trees, as kube-scheduler v1.37
// does when it schedules a tree (KEP-6012; spec/was-v1.37.md §4.6, cases G04–G08): a tree is
// refused when it is cyclic, too deep (a CompositePodGroup at depth 4 or a PodGroup at depth 5,
// the root being depth 1), spans several Workloads, has a Gang CompositePodGroup with a Basic
// child PodGroup, or an `all` CompositePodGroup with a child whose disruption mode is `single`
// (absent = single). Every group of a refused tree gets a False *InitiallyScheduled condition and
// no pod binds.
//
// Choice (spec §12 item 2: the tests show SchedulerError, the v1alpha3 type doc mentions
// `Invalid`): the condition reason is `SchedulerError` (kInvalidHierarchyReason) for PodGroups
// and CompositePodGroups alike — the behaviour upstream's integration test observes, and the only
// False reason PodGroupInitiallyScheduled defines. The message says what is wrong.
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
// one cyclic tree. One problem per tree (the first rule that fails, in the order above).
// O(groups · depth).
[[nodiscard]] std::vector<HierarchyProblem> FindInvalidHierarchies(const api::ObjectSet& objects);

}  // namespace wasched::validation
