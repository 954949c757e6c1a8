// Upstream cases I (spec/upstream-cases.md §I, from the pod-group preemption evaluator test,
// pkg/scheduler/framework/preemption/podgrouppreemption_test.go): one TEST per case, on the
// slot model of test_cluster.h. Priorities: low 10, mid 100, high 1000.
#include "sched/preemption/pod_group_evaluator.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "api/pod_disruption_budget.h"
#include "sched/preemption/test_cluster.h"

namespace wasched::sched::preemption {
namespace {

using test::kHigh;
using test::kLow;
using test::kMid;
using test::TestCluster;
using ::testing::ElementsAre;
using ::testing::IsEmpty;

// Preempt: preempt for `preemptor` pods (priority `priority`, quorum `min_count`) with the
// round-robin scheduling function; checks that the snapshot is unchanged afterwards.
Outcome Preempt(TestCluster& c, std::vector<PodIndex> preemptor, int32_t priority,
            int32_t min_count = 1, const PdbBudgets* budgets = nullptr,
            const ReprieveFilter& filter = {},
            api::PreemptionPolicy policy = api::PreemptionPolicy::kPreemptLowerPriority) {
  std::vector<int64_t> before;
  for (NodeIndex n = 0; n < c.nodes().size(); ++n) before.push_back(c.Usage(n));
  Preemptor p;
  p.label = "PodGroup default/preemptor";
  p.priority = priority;
  p.policy = policy;
  p.pods = preemptor;
  VictimUnitIndex units(c.pods(), c.groups());
  PodGroupEvaluator ev(c.snapshot(), c.framework(), c.pods());
  Outcome o = ev.Preempt(p, units, budgets, c.RoundRobin(preemptor, min_count), filter);
  for (NodeIndex n = 0; n < c.nodes().size(); ++n) {
    EXPECT_EQ(c.Usage(n), before[n]) << "dry run changed node " << n;
  }
  return o;
}

api::PodDisruptionBudget Pdb(const std::string& app, int32_t min_available) {
  api::PodDisruptionBudget pdb;
  pdb.meta.name = "pdb-" + app;
  pdb.meta.namespace_ = "default";
  pdb.min_available = api::IntOrString{false, min_available, ""};
  pdb.selector = api::LabelSelector{{{"app", app}}, {}};
  return pdb;
}

TEST(PodGroupEvaluatorCasesI, I01_BarePodPreferredOverPodOfSingleGroup) {
  TestCluster c;
  c.AddNode("n1", 2);
  const int32_t pg1 = c.AddGroup("pg1", kLow, false);
  c.AddPod("p1", kLow, "n1");
  c.AddPod("p2", kLow, "n1", pg1);
  const PodIndex q = c.AddPod("preemptor-0", kHigh);
  c.Build();
  Outcome o = Preempt(c, {q}, kHigh);
  ASSERT_TRUE(o.status.IsSuccess()) << o.status.Message();
  EXPECT_THAT(c.Names(o.victims), ElementsAre("p1"));
  EXPECT_EQ(o.reprieved, 1);
  EXPECT_EQ(o.status.Message(), "found a placement for podgroup, preempting 1 victims");
}

TEST(PodGroupEvaluatorCasesI, I02_LaterStartedPodOfSingleGroupIsTheVictim) {
  TestCluster c;
  c.AddNode("n1", 2);
  const int32_t pg1 = c.AddGroup("pg1", kLow, false);
  c.AddPod("p1", kLow, "n1", pg1, /*start=*/1);
  c.AddPod("p2", kLow, "n1", pg1, /*start=*/0);
  const PodIndex q = c.AddPod("preemptor-0", kHigh);
  c.Build();
  Outcome o = Preempt(c, {q}, kHigh);
  ASSERT_TRUE(o.status.IsSuccess());
  EXPECT_THAT(c.Names(o.victims), ElementsAre("p1"));
  EXPECT_EQ(o.pod_group_disruptions, 1);
}

TEST(PodGroupEvaluatorCasesI, I04_OnlyTheVictimOnTheFullNodeIsEvicted) {
  TestCluster c;
  c.AddNode("n1", 2);
  c.AddNode("n2", 1);
  c.AddNode("n3", 2);
  c.AddNode("n4", 2);
  c.AddNode("n5", 2);
  const int32_t pg1 = c.AddGroup("pg1", kLow, false);
  const int32_t pg2 = c.AddGroup("pg2", kLow, false);
  const int32_t pg3 = c.AddGroup("pg3", kHigh, false);
  c.AddPod("p1", kLow, "n1", pg1);
  c.AddPod("p2", kLow, "n2", pg1);
  c.AddPod("p3", kLow, "n3", pg2);
  c.AddPod("p4", kMid, "n4");
  c.AddPod("p5", kHigh, "n5", pg3);
  std::vector<PodIndex> q = {c.AddPod("q0", kHigh), c.AddPod("q1", kHigh), c.AddPod("q2", kHigh)};
  c.Build();
  Outcome o = Preempt(c, q, kHigh, 3);
  ASSERT_TRUE(o.status.IsSuccess());
  EXPECT_THAT(c.Names(o.victims), ElementsAre("p2"));
  EXPECT_EQ(o.pod_group_disruptions, 1);
  EXPECT_EQ(o.nominations.size(), 3u);
}

TEST(PodGroupEvaluatorCasesI, I05_PdbProtectedPodIsKept) {
  TestCluster c;
  c.AddNode("n1", 2);
  const int32_t pg1 = c.AddGroup("pg1", kLow, false);
  c.AddPod("victim-pdb", kLow, "n1", pg1, 0, 1, {{"app", "protected"}});
  c.AddPod("victim-no-pdb", kLow, "n1", pg1, 0, 1, {{"app", "free"}});
  const PodIndex q = c.AddPod("preemptor-0", kHigh);
  c.Build();
  std::vector<api::PodDisruptionBudget> pdbs = {Pdb("protected", 1)};
  PdbBudgets budgets(pdbs, c.pods());
  EXPECT_EQ(budgets.Allowed(0), 0);
  Outcome o = Preempt(c, {q}, kHigh, 1, &budgets);
  ASSERT_TRUE(o.status.IsSuccess());
  EXPECT_THAT(c.Names(o.victims), ElementsAre("victim-no-pdb"));
  EXPECT_EQ(o.pdb_violations, 0);
}

TEST(PodGroupEvaluatorCasesI, I07_EqualPriorityPodIsNoCandidate) {
  TestCluster c;
  c.AddNode("n1", 2);
  c.AddPod("p1", kLow, "n1");
  c.AddPod("p2", kMid, "n1");
  c.AddPod("p3", kHigh, "n1");
  const PodIndex q = c.AddPod("preemptor-0", kHigh);
  c.Build();
  Outcome o = Preempt(c, {q}, kHigh);
  ASSERT_TRUE(o.status.IsSuccess());
  EXPECT_THAT(c.Names(o.victims), ElementsAre("p1", "p2"));
}

TEST(PodGroupEvaluatorCasesI, I08_MinimumNumberOfVictims) {
  TestCluster c;
  c.AddNode("n1", 3);
  c.AddPod("p1", kLow, "n1", -1, 1);
  c.AddPod("p2", kLow, "n1", -1, 2);
  c.AddPod("p3", kLow, "n1", -1, 3);
  c.AddPod("p4", kLow, "n1", -1, 4);
  const PodIndex q = c.AddPod("preemptor-0", kHigh);
  c.Build();
  Outcome o = Preempt(c, {q}, kHigh);
  ASSERT_TRUE(o.status.IsSuccess());
  EXPECT_THAT(c.Names(o.victims), ElementsAre("p3", "p4"));
  EXPECT_EQ(o.reprieved, 2);
}

TEST(PodGroupEvaluatorCasesI, I10_NonViolatingVictimPreferredOverLowerPriorityViolatingOne) {
  TestCluster c;
  c.AddNode("n1", 2);
  c.AddPod("victim-pdb", kLow, "n1", -1, 0, 1, {{"app", "protected"}});
  c.AddPod("victim-no-pdb", kMid, "n1");
  const PodIndex q = c.AddPod("preemptor-0", kHigh);
  c.Build();
  std::vector<api::PodDisruptionBudget> pdbs = {Pdb("protected", 1)};
  PdbBudgets budgets(pdbs, c.pods());
  Outcome o = Preempt(c, {q}, kHigh, 1, &budgets);
  ASSERT_TRUE(o.status.IsSuccess());
  EXPECT_THAT(c.Names(o.victims), ElementsAre("victim-no-pdb"));
}

TEST(PodGroupEvaluatorCasesI, I11_BothViolatingLowerPriorityGoes) {
  TestCluster c;
  c.AddNode("n1", 2);
  c.AddPod("p1", kLow, "n1", -1, 0, 1, {{"app", "protected"}});
  c.AddPod("p2", kMid, "n1", -1, 0, 1, {{"app", "protected"}});
  const PodIndex q = c.AddPod("preemptor-0", kHigh);
  c.Build();
  std::vector<api::PodDisruptionBudget> pdbs = {Pdb("protected", 2)};
  PdbBudgets budgets(pdbs, c.pods());
  Outcome o = Preempt(c, {q}, kHigh, 1, &budgets);
  ASSERT_TRUE(o.status.IsSuccess());
  EXPECT_THAT(c.Names(o.victims), ElementsAre("p1"));
  EXPECT_EQ(o.pdb_violations, 1);
}

TEST(PodGroupEvaluatorCasesI, I13_SinglePodPreferredOverGroup) {
  TestCluster c;
  c.AddNode("n1", 3);
  const int32_t pg1 = c.AddGroup("pg1", kLow, true);
  c.AddPod("p1", kLow, "n1");
  c.AddPod("g1-1", kLow, "n1", pg1);
  c.AddPod("g1-2", kLow, "n1", pg1);
  const PodIndex q = c.AddPod("preemptor-0", kHigh);
  c.Build();
  Outcome o = Preempt(c, {q}, kHigh);
  ASSERT_TRUE(o.status.IsSuccess());
  EXPECT_THAT(c.Names(o.victims), ElementsAre("p1"));
  EXPECT_EQ(o.pod_group_disruptions, 0);
}

TEST(PodGroupEvaluatorCasesI, I14_WholeGroupIsTheVictim) {
  TestCluster c;
  c.AddNode("n1", 3);
  const int32_t pg1 = c.AddGroup("pg1", kLow, true);
  c.AddPod("g1-1", kLow, "n1", pg1);
  c.AddPod("g1-2", kLow, "n1", pg1);
  c.AddPod("p1", kMid, "n1");  // more important than the group: listed after it
  const PodIndex q = c.AddPod("preemptor-0", kHigh);
  c.Build();
  Outcome o = Preempt(c, {q}, kHigh);
  ASSERT_TRUE(o.status.IsSuccess());
  EXPECT_THAT(c.Names(o.victims), ElementsAre("g1-1", "g1-2"));
  EXPECT_EQ(o.pod_group_disruptions, 1);
  EXPECT_EQ(o.status.Message(), "found a placement for podgroup, preempting 2 victims");
}

TEST(PodGroupEvaluatorCasesI, I16_NoLowerPriorityPods) {
  TestCluster c;
  c.AddNode("n1", 100);
  c.AddPod("p1", kHigh, "n1");
  const PodIndex q = c.AddPod("preemptor-0", kMid);
  c.Build();
  Outcome o = Preempt(c, {q}, kMid);
  EXPECT_EQ(o.status.code(), Code::kUnschedulable);
  EXPECT_EQ(o.status.Message(), "No preemption victims found for incoming preemptor");
  EXPECT_THAT(o.victims, IsEmpty());
}

TEST(PodGroupEvaluatorCasesI, I17_EmptyCluster) {
  TestCluster c;
  c.AddNode("n1", 100);
  const PodIndex q = c.AddPod("preemptor-0", kMid);
  c.Build();
  Outcome o = Preempt(c, {q}, kMid);
  EXPECT_EQ(o.status.code(), Code::kUnschedulable);
  EXPECT_THAT(o.victims, IsEmpty());
}

void BuildI19(TestCluster& c, std::vector<PodIndex>* q) {
  for (const char* n : {"n1", "n2", "n3"}) c.AddNode(n, 1);
  const int32_t vpg = c.AddGroup("victim-pg", kMid, true);
  c.AddPod("v1", kMid, "n1", vpg);
  c.AddPod("v2", kMid, "n2", vpg);
  c.AddPod("v3", kLow, "n3");
  for (int i = 0; i < 3; ++i) q->push_back(c.AddPod("q" + std::to_string(i), kHigh));
  c.Build();
}

TEST(PodGroupEvaluatorCasesI, I19_GangPreemptorTakesEverything) {
  TestCluster c;
  std::vector<PodIndex> q;
  BuildI19(c, &q);
  Outcome o = Preempt(c, q, kHigh, /*min_count=*/1);
  ASSERT_TRUE(o.status.IsSuccess());
  EXPECT_THAT(c.Names(o.victims), ElementsAre("v1", "v2", "v3"));
  EXPECT_EQ(o.pod_group_disruptions, 1);
  EXPECT_EQ(o.nominations.size(), 3u);
}

TEST(PodGroupEvaluatorCasesI, I22_BasicPreemptorTakesEverything) {
  // A basic group's quorum is 1: the same outcome as I19.
  TestCluster c;
  std::vector<PodIndex> q;
  BuildI19(c, &q);
  Outcome o = Preempt(c, q, kHigh, /*min_count=*/1);
  ASSERT_TRUE(o.status.IsSuccess());
  EXPECT_THAT(c.Names(o.victims), ElementsAre("v1", "v2", "v3"));
}

void BuildI20(TestCluster& c, std::vector<PodIndex>* q) {
  for (const char* n : {"n1", "n2", "n3", "n4"}) c.AddNode(n, 1);
  const int32_t vpg = c.AddGroup("victim-pg", kMid, true);
  const int32_t vpg2 = c.AddGroup("victim-pg2", kHigh, true);
  c.AddPod("v1", kMid, "n1", vpg);
  c.AddPod("v2", kMid, "n2", vpg);
  c.AddPod("v3", kHigh, "n3", vpg2);
  c.AddPod("v4", kHigh, "n4", vpg2);
  for (int i = 0; i < 3; ++i) q->push_back(c.AddPod("q" + std::to_string(i), kHigh));
  c.Build();
}

TEST(PodGroupEvaluatorCasesI, I20_OnlyLowerPriorityGroupAndTwoPreemptorPodsPlaced) {
  TestCluster c;
  std::vector<PodIndex> q;
  BuildI20(c, &q);
  Outcome o = Preempt(c, q, kHigh, /*min_count=*/1);
  ASSERT_TRUE(o.status.IsSuccess());
  EXPECT_THAT(c.Names(o.victims), ElementsAre("v1", "v2"));
  EXPECT_EQ(o.nominations.size(), 2u);
}

TEST(PodGroupEvaluatorCasesI, I23_BasicPreemptorSameAsI20) {
  TestCluster c;
  std::vector<PodIndex> q;
  BuildI20(c, &q);
  Outcome o = Preempt(c, q, kHigh, /*min_count=*/1);
  ASSERT_TRUE(o.status.IsSuccess());
  EXPECT_THAT(c.Names(o.victims), ElementsAre("v1", "v2"));
  EXPECT_EQ(o.nominations.size(), 2u);
}

TEST(PodGroupEvaluatorCasesI, I25_ReprieveCheckErrorAborts) {
  TestCluster c;
  c.AddNode("n1", 1);
  c.AddPod("p1", kLow, "n1");
  const PodIndex q = c.AddPod("preemptor-0", kHigh);
  c.Build();
  Outcome o = Preempt(c, {q}, kHigh, 1, nullptr,
                  [](const VictimUnit&) { return Status::Error("reprieval check failed"); });
  EXPECT_EQ(o.status.code(), Code::kError);
  EXPECT_EQ(o.status.Message(), "reprieval check failed");
  EXPECT_THAT(o.victims, IsEmpty());
}

TEST(PodGroupEvaluatorCasesI, I26_ErrorOnSecondReprieveAborts) {
  TestCluster c;
  c.AddNode("n1", 2);
  c.AddPod("p1", kLow, "n1", -1, 1);
  const PodIndex p2 = c.AddPod("p2", kLow, "n1", -1, 2);
  const PodIndex q = c.AddPod("preemptor-0", kHigh);
  c.Build();
  Outcome o = Preempt(c, {q}, kHigh, 1, nullptr, [p2](const VictimUnit& u) {
    return u.pods.front() == p2 ? Status::Error("callback failed") : Status::Success();
  });
  EXPECT_EQ(o.status.code(), Code::kError);
  EXPECT_EQ(o.status.Message(), "callback failed");
  EXPECT_THAT(o.victims, IsEmpty());
}

TEST(PodGroupEvaluatorCasesI, I28_PreemptionPolicyNever) {
  TestCluster c;
  c.AddNode("n1", 1);
  c.AddPod("p1", kLow, "n1");
  const PodIndex q = c.AddPod("preemptor-0", kHigh);
  c.Build();
  Outcome o = Preempt(c, {q}, kHigh, 1, nullptr, {}, api::PreemptionPolicy::kNever);
  EXPECT_EQ(o.status.code(), Code::kUnschedulable);
  EXPECT_EQ(o.status.Message(), "not eligible due to preemptionPolicy=Never.");
  EXPECT_THAT(o.victims, IsEmpty());
}

TEST(PodGroupEvaluatorCasesI, I29_OnlyPlacedPodsAreNominated) {
  TestCluster c;
  c.AddNode("n1", 1);
  c.AddPod("p3", kLow, "n1");
  const PodIndex p1 = c.AddPod("p1", kHigh);
  const PodIndex p2 = c.AddPod("p2", kHigh);
  c.Build();
  Preemptor pre{"PodGroup default/pg", kHigh, api::PreemptionPolicy::kPreemptLowerPriority,
                {p1, p2}, {}, false};
  VictimUnitIndex units(c.pods(), c.groups());
  PodGroupEvaluator ev(c.snapshot(), c.framework(), c.pods());
  Outcome o = ev.Preempt(pre, units, nullptr, [&] {
    return SimulationResult{Status::Success(), {{p1, 0}}};  // p2 placed nowhere
  });
  ASSERT_TRUE(o.status.IsSuccess());
  ASSERT_EQ(o.nominations.size(), 1u);
  EXPECT_EQ(o.nominations[0].pod, p1);
  EXPECT_EQ(o.nominations[0].node, 0);
  EXPECT_THAT(c.Names(o.victims), ElementsAre("p3"));
}

// Node-local filters (no affinity, no spread): a unit away from every placement's node is
// reprieved without a replay once the placements were seen to fit; the outcome is the one the
// replays give (the victim is the pod on the preemptor's node only).
TEST(PodGroupEvaluator, UnitsAwayFromThePlacementsAreReprievedWithoutAReplay) {
  TestCluster c;
  for (const char* n : {"n1", "n2", "n3", "n4", "n5"}) c.AddNode(n, 1);
  for (int i = 1; i <= 5; ++i) {
    c.AddPod("p" + std::to_string(i), kLow, "n" + std::to_string(i), -1, /*start=*/i);
  }
  const PodIndex q = c.AddPod("preemptor-0", kHigh);
  c.Build();
  Preemptor p;
  p.label = "PodGroup default/preemptor";
  p.priority = kHigh;
  p.pods = {q};
  VictimUnitIndex units(c.pods(), c.groups());
  PodGroupEvaluator ev(c.snapshot(), c.framework(), c.pods());
  Outcome o = ev.Preempt(p, units, nullptr, c.RoundRobin({q}, 1));
  ASSERT_TRUE(o.status.IsSuccess()) << o.status.Message();
  ASSERT_EQ(o.victims.size(), 1u);
  ASSERT_EQ(o.nominations.size(), 1u);
  EXPECT_EQ(c.pods()[o.victims[0]].pod->node_name,
            c.nodes().node(o.nominations[0].node).meta.name);
  EXPECT_EQ(o.reprieved, 4);
  // At most: one replay that fails (the victim) and one that passes; the other three skipped.
  EXPECT_LE(ev.replays(), 2u);
  EXPECT_GE(ev.replays(), 1u);
}

TEST(PodGroupEvaluator, OngoingPreemptionKeepsNominations) {
  TestCluster c;
  c.AddNode("n1", 1);
  c.AddPod("p1", kLow, "n1");
  const PodIndex q0 = c.AddPod("q0", kHigh);
  const PodIndex q1 = c.AddPod("q1", kHigh);
  c.Build();
  Preemptor pre{"PodGroup default/pg", kHigh, api::PreemptionPolicy::kPreemptLowerPriority,
                {q0, q1}, {0, kNoNode}, true};
  VictimUnitIndex units(c.pods(), c.groups());
  PodGroupEvaluator ev(c.snapshot(), c.framework(), c.pods());
  bool simulated = false;
  Outcome o = ev.Preempt(pre, units, nullptr, [&] {
    simulated = true;
    return SimulationResult{};
  });
  EXPECT_TRUE(o.status.IsSuccess());
  EXPECT_EQ(o.status.Message(), "ongoing preemption on nominated nodes");
  EXPECT_FALSE(simulated);
  ASSERT_EQ(o.nominations.size(), 2u);
  EXPECT_EQ(o.nominations[0].node, 0);
  EXPECT_EQ(o.nominations[1].node, kNoNode);
  EXPECT_THAT(o.victims, IsEmpty());
}

TEST(PodGroupEvaluator, SimulationFailureEvictsNothing) {
  // S11: the gang cannot fit even with every lower-priority pod gone: no victims at all.
  TestCluster c;
  c.AddNode("n1", 2);
  c.AddPod("p1", kLow, "n1");
  std::vector<PodIndex> q = {c.AddPod("q0", kHigh), c.AddPod("q1", kHigh), c.AddPod("q2", kHigh)};
  c.Build();
  Outcome o = Preempt(c, q, kHigh, /*min_count=*/3);
  EXPECT_EQ(o.status.code(), Code::kUnschedulable);
  EXPECT_THAT(o.victims, IsEmpty());
}

}  // namespace
}  // namespace wasched::sched::preemption
