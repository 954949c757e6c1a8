// PostFilter through sched::Schedule: preemptionPolicy resolution (pod, PriorityClass, group with
// gate PodGroupPreemptionPolicy on and off), PodDisruptionBudgets end to end, eviction records.
#include "sched/preemption/post_filter.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "sched/scheduler.h"
#include "support/builders.h"

namespace wasched::sched::preemption {
namespace {

using ::testing::HasSubstr;
using ::testing::IsEmpty;
using test::MakeNode;
using test::MakePod;
using test::MakePodGroup;
using test::MakePriorityClass;

// Cluster: one 2-CPU node running two low-priority 1-CPU pods; the caller adds a preemptor.
api::ObjectSet Cluster() {
  api::ObjectSet o;
  o.nodes.push_back(MakeNode().Name("n1").Resource("cpu", 2000).Resource("pods", 110).Obj());
  o.priority_classes.push_back(MakePriorityClass().Name("low").Value(10).Obj());
  o.priority_classes.push_back(MakePriorityClass().Name("high").Value(1000).Obj());
  for (const char* name : {"a", "b"}) {
    o.pods.push_back(MakePod().Name(name).PriorityClassName("low").Priority(10).Node("n1")
                         .Req({{"cpu", 1000}}).CreationTimestamp(name[0] == 'a' ? 1 : 2).Obj());
  }
  return o;
}

void AddGroupPreemptor(api::ObjectSet& o, std::optional<api::PreemptionPolicy> group_policy,
                       std::optional<api::PreemptionPolicy> pod_policy) {
  api::PodGroup g = MakePodGroup().Name("urgent").PriorityClassName("high").Priority(1000).MinCount(1).Obj();
  g.preemption_policy = group_policy;
  o.pod_groups.push_back(g);
  auto p = MakePod().Name("urgent-0").PriorityClassName("high").Priority(1000).Group("urgent")
               .Req({{"cpu", 1000}});
  if (pod_policy) p.PreemptionPolicy(*pod_policy);
  o.pods.push_back(p.Obj());
}

TEST(PostFilterSchedule, BarePodEvictsTheLeastImportantPod) {
  api::ObjectSet o = Cluster();
  o.pods.push_back(MakePod().Name("q").PriorityClassName("high").Priority(1000).Req({{"cpu", 1000}}).Obj());
  ScheduleResult r = Schedule(o, SchedulerOptions{.verify = true});
  ASSERT_EQ(r.evictions.size(), 1u);
  EXPECT_EQ(r.evictions[0].pod, "default/b");  // started later: less important
  EXPECT_EQ(r.evictions[0].node, "n1");
  EXPECT_EQ(r.evictions[0].preemptor, "Pod default/q");
  EXPECT_THAT(r.evictions[0].reason, HasSubstr("priority 10 < 1000"));
  ASSERT_EQ(r.bindings.size(), 1u);
  EXPECT_EQ(r.bindings[0].pod, "default/q");
  EXPECT_THAT(r.pending, IsEmpty());
}

TEST(PostFilterSchedule, BarePodPolicyNeverFromItsPriorityClass) {
  api::ObjectSet o = Cluster();
  o.priority_classes.push_back(MakePriorityClass().Name("high-never").Value(1000)
                                   .PreemptionPolicy(api::PreemptionPolicy::kNever).Obj());
  o.pods.push_back(MakePod().Name("q").PriorityClassName("high-never").Priority(1000).Req({{"cpu", 1000}}).Obj());
  ScheduleResult r = Schedule(o, SchedulerOptions{.verify = true});
  EXPECT_THAT(r.evictions, IsEmpty());
  ASSERT_EQ(r.pending.size(), 1u);
  EXPECT_THAT(r.pending[0].message, HasSubstr("not eligible due to preemptionPolicy=Never."));
}

TEST(PostFilterSchedule, GroupPolicyNeverWithGateOn) {
  api::ObjectSet o = Cluster();
  // Pods and group agree (validatePodGroup refuses a mismatch, see below).
  AddGroupPreemptor(o, api::PreemptionPolicy::kNever, api::PreemptionPolicy::kNever);
  ScheduleResult r = Schedule(o, SchedulerOptions{.verify = true});
  EXPECT_THAT(r.evictions, IsEmpty());
  ASSERT_EQ(r.pending.size(), 1u);
  EXPECT_THAT(r.pending[0].message,
              HasSubstr("pod group preemption: not eligible due to preemptionPolicy=Never."));
}

// With the gate on, a pod whose resolved policy differs from its group's fails validatePodGroup
// (upstream schedule_one_podgroup.go): SchedulerError, no preemption at all.
TEST(PostFilterSchedule, PodPolicyDifferentFromTheGroupsIsASchedulerErrorWithGateOn) {
  api::ObjectSet o = Cluster();
  AddGroupPreemptor(o, std::nullopt, api::PreemptionPolicy::kNever);
  ScheduleResult r = Schedule(o, SchedulerOptions{.verify = true});
  EXPECT_THAT(r.evictions, IsEmpty());
  ASSERT_EQ(r.pending.size(), 1u);
  EXPECT_EQ(r.pending[0].reason, "SchedulerError");
  EXPECT_THAT(r.pending[0].message, HasSubstr("should have the same preemption policy"));
}

TEST(PostFilterSchedule, GateOffFallsBackToThePodsPolicy) {
  api::ObjectSet o = Cluster();
  AddGroupPreemptor(o, std::nullopt, api::PreemptionPolicy::kNever);
  SchedulerOptions options{.verify = true};
  options.pod_group_preemption_policy = false;
  ScheduleResult r = Schedule(o, options);
  EXPECT_THAT(r.evictions, IsEmpty());

  api::ObjectSet allowed = Cluster();
  AddGroupPreemptor(allowed, std::nullopt, api::PreemptionPolicy::kPreemptLowerPriority);
  EXPECT_EQ(Schedule(allowed, options).evictions.size(), 1u);
}

// The victim group is reported disrupted but gets no DisruptionTarget condition: v1.37.2 sets
// that condition on the victim pods only (pkg/scheduler/framework/preemption/executor.go), as
// observed on the control plane.
TEST(PostFilterSchedule, VictimGroupIsDisruptedWithoutACondition) {
  api::ObjectSet o;
  o.nodes.push_back(MakeNode().Name("n1").Resource("cpu", 2000).Resource("pods", 110).Obj());
  o.priority_classes.push_back(MakePriorityClass().Name("low").Value(10).Obj());
  o.priority_classes.push_back(MakePriorityClass().Name("high").Value(1000).Obj());
  o.pod_groups.push_back(MakePodGroup().Name("gang").PriorityClassName("low").Priority(10).MinCount(2).DisruptionAll().Obj());
  for (const char* name : {"g-0", "g-1"}) {
    o.pods.push_back(MakePod().Name(name).PriorityClassName("low").Priority(10).Group("gang").Node("n1")
                         .Req({{"cpu", 1000}}).Obj());
  }
  o.pods.push_back(MakePod().Name("q").PriorityClassName("high").Priority(1000).Req({{"cpu", 1000}}).Obj());
  ScheduleResult r = Schedule(o, SchedulerOptions{.verify = true});
  ASSERT_EQ(r.evictions.size(), 2u);  // the whole gang, although one pod would make room
  const GroupResult& g = r.groups.front();
  EXPECT_EQ(g.scheduled, 0);
  EXPECT_TRUE(g.disrupted);
  for (const api::Condition& c : g.conditions) EXPECT_NE(c.type, api::kDisruptionTarget);
}

TEST(PostFilterSchedule, PdbSteersTheBarePodToTheOtherNode) {
  api::ObjectSet o;
  for (const char* n : {"n1", "n2"}) {
    o.nodes.push_back(MakeNode().Name(n).Resource("cpu", 1000).Resource("pods", 110).Obj());
  }
  o.priority_classes.push_back(MakePriorityClass().Name("low").Value(10).Obj());
  o.priority_classes.push_back(MakePriorityClass().Name("mid").Value(100).Obj());
  o.priority_classes.push_back(MakePriorityClass().Name("high").Value(1000).Obj());
  o.pods.push_back(MakePod().Name("db").Label("app", "db").PriorityClassName("low").Priority(10)
                       .Node("n1").Req({{"cpu", 1000}}).Obj());
  o.pods.push_back(MakePod().Name("web").PriorityClassName("mid").Priority(100).Node("n2")
                       .Req({{"cpu", 1000}}).Obj());
  o.pods.push_back(MakePod().Name("q").PriorityClassName("high").Priority(1000).Req({{"cpu", 1000}}).Obj());
  api::PodDisruptionBudget pdb;
  pdb.meta.name = "db";
  pdb.meta.namespace_ = "default";
  pdb.min_available = api::IntOrString{false, 1, ""};
  pdb.selector = api::LabelSelector{{{"app", "db"}}, {}};
  o.pod_disruption_budgets.push_back(pdb);
  ScheduleResult r = Schedule(o, SchedulerOptions{.verify = true});
  ASSERT_EQ(r.evictions.size(), 1u);
  EXPECT_EQ(r.evictions[0].pod, "default/web");  // higher priority, but no PDB violated
  ASSERT_EQ(r.bindings.size(), 1u);
  EXPECT_EQ(r.bindings[0].node, "n2");
  o.pod_disruption_budgets.clear();
  EXPECT_EQ(Schedule(o, SchedulerOptions{.verify = true}).evictions[0].pod, "default/db");
}

}  // namespace
}  // namespace wasched::sched::preemption
