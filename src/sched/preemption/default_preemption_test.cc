// DefaultPreemption (bare-pod PostFilter): kube-scheduler's SelectVictimsOnNode /
// pickOneNodeForPreemption behaviour plus v1.37's whole-unit victims.
#include "sched/preemption/default_preemption.h"

#include <optional>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "sched/preemption/test_cluster.h"

namespace wasched::sched::preemption {
namespace {

using test::kHigh;
using test::kLow;
using test::kMid;
using test::TestCluster;
using ::testing::ElementsAre;
using ::testing::IsEmpty;

Outcome PreemptFor(TestCluster& c, PodIndex pod, const PdbBudgets* budgets = nullptr,
                   api::PreemptionPolicy policy = api::PreemptionPolicy::kPreemptLowerPriority) {
  std::vector<int64_t> before;
  for (NodeIndex n = 0; n < c.nodes().size(); ++n) before.push_back(c.Usage(n));
  Preemptor p{"Pod " + PodKey(c.pods()[pod]), c.pods()[pod].priority, policy, {pod}, {}, false};
  VictimUnitIndex units(c.pods(), c.groups());
  NodePods node_pods(c.nodes().size(), c.pods());
  DefaultPreemption dp(c.snapshot(), c.framework(), c.pods(), c.resources());
  Outcome o = dp.Preempt(p, units, node_pods, budgets);
  for (NodeIndex n = 0; n < c.nodes().size(); ++n) {
    EXPECT_EQ(c.Usage(n), before[n]) << "dry run changed node " << n;
  }
  return o;
}

TEST(DefaultPreemption, MinimalVictimsOnOneNode) {
  TestCluster c;
  c.AddNode("n1", 3);
  c.AddPod("a", kLow, "n1", -1, 1);
  c.AddPod("b", kLow, "n1", -1, 2);
  c.AddPod("c", kLow, "n1", -1, 3);
  const PodIndex q = c.AddPod("q", kHigh);
  c.Build();
  Outcome o = PreemptFor(c, q);
  ASSERT_TRUE(o.status.IsSuccess()) << o.status.Message();
  // The least important (latest started) pod goes; the others are reprieved.
  EXPECT_THAT(c.Names(o.victims), ElementsAre("c"));
  ASSERT_EQ(o.nominations.size(), 1u);
  EXPECT_EQ(o.nominations[0].node, 0);
}

TEST(DefaultPreemption, VictimInAllGroupTakesItsWholeUnitAcrossNodes) {
  TestCluster c;
  c.AddNode("n1", 1);
  c.AddNode("n2", 1);
  c.AddNode("n3", 1);
  const int32_t g = c.AddGroup("gang", kLow, /*all=*/true);
  c.AddPod("g-0", kLow, "n1", g);
  c.AddPod("g-1", kLow, "n2", g);
  c.AddPod("g-2", kLow, "n3", g);
  const PodIndex q = c.AddPod("q", kHigh);
  c.Build();
  Outcome o = PreemptFor(c, q);
  ASSERT_TRUE(o.status.IsSuccess());
  EXPECT_THAT(c.Names(o.victims), ElementsAre("g-0", "g-1", "g-2"));
  EXPECT_EQ(o.pod_group_disruptions, 1);
}

// Issue 15: the reprieve order and pickOneNodeForPreemption's "latest start time of the
// highest-priority victims" read status.startTime (util.GetPodStartTime,
// GetEarliestPodStartTime), not creationTimestamp; each case below has the two orders disagree.
TEST(DefaultPreemption, ReprievesTheEarlierStartedPod) {
  TestCluster c;
  c.AddNode("n1", 2);
  const PodIndex old_start = c.AddPod("created-last", kLow, "n1", -1, /*start=*/10);
  const PodIndex new_start = c.AddPod("created-first", kLow, "n1", -1, /*start=*/20);
  c.SetCreation(old_start, 200);
  c.SetCreation(new_start, 100);
  const PodIndex q = c.AddPod("q", kHigh);
  c.Build();
  Outcome o = PreemptFor(c, q);
  ASSERT_TRUE(o.status.IsSuccess()) << o.status.Message();
  // Started earlier = more important = reprieved first; the later-started pod is the victim.
  EXPECT_THAT(c.Names(o.victims), ElementsAre("created-first"));
}

TEST(DefaultPreemption, PicksTheNodeWhoseVictimsStartedLatest) {
  TestCluster c;
  c.AddNode("n1", 1);
  c.AddNode("n2", 1);
  c.AddNode("n3", 1);
  const PodIndex p1 = c.AddPod("on-n1", kLow, "n1", -1, /*start=*/100);
  const PodIndex p2 = c.AddPod("on-n2", kLow, "n2", -1, /*start=*/200);
  const PodIndex p3 = c.AddPod("on-n3", kLow, "n3", -1, /*start=*/50);
  c.SetCreation(p1, 30);
  c.SetCreation(p2, 10);
  c.SetCreation(p3, 20);
  const PodIndex q = c.AddPod("q", kHigh);
  c.Build();
  Outcome o = PreemptFor(c, q);
  ASSERT_TRUE(o.status.IsSuccess()) << o.status.Message();
  EXPECT_THAT(c.Names(o.victims), ElementsAre("on-n2"));
  EXPECT_EQ(o.nominations[0].node, 1);
}

// A victim without status.startTime has not started: GetPodStartTime says "now", so its node is
// the one with the latest start.
TEST(DefaultPreemption, UnstartedVictimCountsAsStartedNow) {
  TestCluster c;
  c.AddNode("n1", 1);
  c.AddNode("n2", 1);
  c.AddPod("started", kLow, "n1", -1, /*start=*/1000);
  const PodIndex unstarted = c.AddPod("unstarted", kLow, "n2");
  c.SetStartTime(unstarted, std::nullopt);
  c.SetCreation(unstarted, 1);
  const PodIndex q = c.AddPod("q", kHigh);
  c.Build();
  Outcome o = PreemptFor(c, q);
  ASSERT_TRUE(o.status.IsSuccess()) << o.status.Message();
  EXPECT_THAT(c.Names(o.victims), ElementsAre("unstarted"));
}

TEST(DefaultPreemption, PrefersTheNodeWithTheLowerPriorityVictim) {
  TestCluster c;
  c.AddNode("n1", 1);
  c.AddNode("n2", 1);
  c.AddPod("mid", kMid, "n1");
  c.AddPod("low", kLow, "n2");
  const PodIndex q = c.AddPod("q", kHigh);
  c.Build();
  Outcome o = PreemptFor(c, q);
  ASSERT_TRUE(o.status.IsSuccess());
  EXPECT_THAT(c.Names(o.victims), ElementsAre("low"));
  EXPECT_EQ(o.nominations[0].node, 1);
}

TEST(DefaultPreemption, PrefersASinglePodOverAWholeGang) {
  // Same priority: node n1 costs one pod, node n2 a 3-pod `all` gang (sum of priorities).
  TestCluster c;
  c.AddNode("n1", 1);
  c.AddNode("n2", 1);
  c.AddNode("n3", 1);
  c.AddNode("n4", 1);
  const int32_t g = c.AddGroup("gang", kLow, true);
  c.AddPod("g-0", kLow, "n2", g);
  c.AddPod("g-1", kLow, "n3", g);
  c.AddPod("g-2", kLow, "n4", g);
  c.AddPod("single", kLow, "n1");
  const PodIndex q = c.AddPod("q", kHigh);
  c.Build();
  Outcome o = PreemptFor(c, q);
  ASSERT_TRUE(o.status.IsSuccess());
  EXPECT_THAT(c.Names(o.victims), ElementsAre("single"));
}

TEST(DefaultPreemption, PrefersTheNodeWithoutPdbViolations) {
  TestCluster c;
  c.AddNode("n1", 1);
  c.AddNode("n2", 1);
  c.AddPod("protected", kLow, "n1", -1, 0, 1, {{"app", "db"}});
  c.AddPod("free", kMid, "n2");
  const PodIndex q = c.AddPod("q", kHigh);
  c.Build();
  api::PodDisruptionBudget pdb;
  pdb.meta.name = "db";
  pdb.meta.namespace_ = "default";
  pdb.max_unavailable = api::IntOrString{false, 0, ""};
  pdb.selector = api::LabelSelector{{{"app", "db"}}, {}};
  std::vector<api::PodDisruptionBudget> pdbs = {pdb};
  PdbBudgets budgets(pdbs, c.pods());
  Outcome o = PreemptFor(c, q, &budgets);
  ASSERT_TRUE(o.status.IsSuccess());
  EXPECT_THAT(c.Names(o.victims), ElementsAre("free"));
  EXPECT_EQ(o.pdb_violations, 0);
}

TEST(DefaultPreemption, NoVictimsMessage) {
  TestCluster c;
  c.AddNode("n1", 1);
  c.AddNode("n2", 1);
  c.AddPod("a", kHigh, "n1");
  c.AddPod("b", kHigh, "n2");
  const PodIndex q = c.AddPod("q", kMid);
  c.Build();
  Outcome o = PreemptFor(c, q);
  EXPECT_EQ(o.status.code(), Code::kUnschedulable);
  EXPECT_EQ(o.status.Message(),
            "preemption: 0/2 nodes are available: 2 No preemption victims found for incoming "
            "pod.");
  EXPECT_THAT(o.victims, IsEmpty());
}

TEST(DefaultPreemption, EvictingEverythingStillDoesNotFit) {
  // S14 in miniature: 8-slot nodes, 6 high + 2 low pods each; an 8-slot pod evicts nothing.
  TestCluster c;
  for (int n = 0; n < 4; ++n) {
    const std::string node = "n" + std::to_string(n);
    c.AddNode(node, 8);
    for (int i = 0; i < 6; ++i) c.AddPod(node + "-high-" + std::to_string(i), kHigh, node);
    for (int i = 0; i < 2; ++i) c.AddPod(node + "-low-" + std::to_string(i), kLow, node);
  }
  const PodIndex q = c.AddPod("big", kHigh, "", -1, 0, /*slots=*/8);
  c.Build();
  Outcome o = PreemptFor(c, q);
  EXPECT_EQ(o.status.code(), Code::kUnschedulable);
  EXPECT_EQ(o.status.Message(), "preemption: 0/4 nodes are available: 4 Too many pods.");
  EXPECT_THAT(o.victims, IsEmpty());
}

TEST(DefaultPreemption, PolicyNever) {
  TestCluster c;
  c.AddNode("n1", 1);
  c.AddPod("a", kLow, "n1");
  const PodIndex q = c.AddPod("q", kHigh);
  c.Build();
  Outcome o = PreemptFor(c, q, nullptr, api::PreemptionPolicy::kNever);
  EXPECT_EQ(o.status.Message(), "not eligible due to preemptionPolicy=Never.");
  EXPECT_THAT(o.victims, IsEmpty());
}

}  // namespace
}  // namespace wasched::sched::preemption
