// File: tests/support/result_checks.h
//
// Checks every ScheduleResult must pass whatever the input, written independently of the
// engine so that golden files and property tests cannot agree with a wrong scheduler:
//   - every pod that arrived without spec.nodeName is either bound or pending, exactly once;
//     pods that arrived running appear in neither list; bindings name existing nodes;
//   - a pending pod has a reason and a message, or (held at PreEnqueue) only `held`; reason
//     SchedulingGated only for a pod with spec.schedulingGates;
//   - a gang is all-or-nothing: if this run bound any member, the members bound at the end
//     (already running + bound now) reach minCount;
//   - no node is over-committed on any resource nor on its pod count;
//   - each PodGroup's GroupResult counts its bound members and carries its minCount.
//
//   auto violations = test::CheckResultInvariants(objects, result);
//   EXPECT_THAT(violations, ::testing::IsEmpty());
//
// Plus small lookups the scenario and property tests share.
#pragma once

#include <map>
#include <set>
#include <string>
#include <vector>

#include "api/object_set.h"
#include "sched/schedule_result.h"

namespace wasched::test {

// CheckResultInvariants: every violation found, as readable sentences (empty = all hold).
// O(pods · log pods + nodes · resources).
[[nodiscard]] std::vector<std::string> CheckResultInvariants(const api::ObjectSet& objects,
                                                             const sched::ScheduleResult& result);

// BindingMap: pod ("ns/name") → node for this run's bindings.
[[nodiscard]] std::map<std::string, std::string> BindingMap(const sched::ScheduleResult& result);

// PendingMap: pod ("ns/name") → its PendingPod entry.
[[nodiscard]] std::map<std::string, sched::PendingPod> PendingMap(const sched::ScheduleResult& result);

// MembersOf: "ns/name" of the pods naming PodGroup `group` ("ns/name"), in input order.
[[nodiscard]] std::vector<std::string> MembersOf(const api::ObjectSet& objects, const std::string& group);

// FindGroup: the GroupResult of kind `kind` named `name`, or nullptr.
[[nodiscard]] const sched::GroupResult* FindGroup(const sched::ScheduleResult& result,
                                                  const std::string& kind, const std::string& name);

// FindCondition: the condition of `type` in `group`, or nullptr. For
// CompositePodGroupInitiallyScheduled it is the group's `outcome` (v1.37.2 writes no
// CompositePodGroup condition, so the decision is not among `conditions`; finding it there fails
// the test).
[[nodiscard]] const api::Condition* FindCondition(const sched::GroupResult& group, const std::string& type);

}  // namespace wasched::test
