// DefaultPreemption (bare-pod PostFilter): kube-scheduler's SelectVictimsOnNode /
// pickOneNodeForPreemption behaviour plus v1.37's whole-unit victims.
#include "sched/preemption/default_preemption.h"

#include <algorithm>
#include <optional>

#include <fmt/format.h>

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

// r1-0448 against v1.37.2: equal victims (same priority, kind, size and start) are reprieved in
// the node's pod order (upstream sorts NodeInfo.Pods with sort.Slice, an insertion sort for ≤ 12
// elements, so ties keep that order), not by name or uid. Node order here: zz, aa, mm; the one
// slot the preemptor needs costs the last of them. By name or uid "zz-first" would go.
TEST(DefaultPreemption, EqualVictimsAreReprievedInTheNodesPodOrder) {
  TestCluster c;
  c.AddNode("n1", 3);
  c.AddPod("zz-first", kLow, "n1", -1, /*start=*/5);
  c.AddPod("aa-second", kLow, "n1", -1, /*start=*/5);
  c.AddPod("mm-third", kLow, "n1", -1, /*start=*/5);
  const PodIndex q = c.AddPod("q", kHigh);
  c.Build();
  Outcome o = PreemptFor(c, q);
  ASSERT_TRUE(o.status.IsSuccess()) << o.status.Message();
  EXPECT_THAT(c.Names(o.victims), ElementsAre("mm-third"));
}

// The r1-0448 shape: a `disruptionMode: all` group unit of one running pod ("PodGroup
// default/a-gang", whose label sorts first) and a pod of a `single` group are equal units; the
// one earlier on the node is reprieved. Upstream evicted run-g26-1 and run-g30-0 there.
TEST(DefaultPreemption, EqualGroupAndPodUnitsFollowTheNodesPodOrder) {
  TestCluster c;
  c.AddNode("n1", 2);
  const int32_t gang = c.AddGroup("a-gang", kLow, /*all=*/true);
  const int32_t single = c.AddGroup("z-single", kLow, /*all=*/false);
  c.AddPod("b-pod", kLow, "n1", single, /*start=*/5);
  c.AddPod("a-gang-0", kLow, "n1", gang, /*start=*/5);
  const PodIndex q = c.AddPod("q", kHigh);
  c.Build();
  Outcome o = PreemptFor(c, q);
  ASSERT_TRUE(o.status.IsSuccess()) << o.status.Message();
  EXPECT_THAT(c.Names(o.victims), ElementsAre("a-gang-0"));
}

// NodePods keeps upstream's NodeInfo.Pods order: Remove moves the node's last pod into the gap
// (framework/types.go removeFromSlice), and the reprieve order of equal victims follows it.
TEST(DefaultPreemption, NodePodsRemoveMovesTheLastPodIntoTheGap) {
  TestCluster c;
  c.AddNode("n1", 3);
  const PodIndex a = c.AddPod("a", kLow, "n1", -1, /*start=*/5);
  const PodIndex b = c.AddPod("b", kLow, "n1", -1, /*start=*/5);
  const PodIndex d = c.AddPod("d", kLow, "n1", -1, /*start=*/5);
  const PodIndex q = c.AddPod("q", kHigh);
  c.Build();
  NodePods node_pods(c.nodes().size(), c.pods());
  node_pods.Remove(a, 0);
  EXPECT_THAT(node_pods.On(0), ElementsAre(d, b));
  node_pods.Add(a, 0);  // back at the end: d, b, a
  ASSERT_THAT(node_pods.On(0), ElementsAre(d, b, a));
  Preemptor p{"Pod default/q", c.pods()[q].priority, api::PreemptionPolicy::kPreemptLowerPriority,
              {q}, {}, false};
  VictimUnitIndex units(c.pods(), c.groups());
  DefaultPreemption dp(c.snapshot(), c.framework(), c.pods(), c.resources());
  Outcome o = dp.Preempt(p, units, node_pods, nullptr);
  ASSERT_TRUE(o.status.IsSuccess()) << o.status.Message();
  EXPECT_THAT(c.Names(o.victims), ElementsAre("a"));  // last in the node's order
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


// The candidate index (two preemptors in a row of one shape, no PDB) answers as the walk over
// ~10% of the nodes would: same victims, same node, same failure message, preemptor after
// preemptor, with the evictions and bindings between them applied. Clusters are drawn from a
// fixed seed: 150–400 nodes (so max(100, 10%) candidates is a strict subset of the nodes and
// the search wraps around), low and mid pods of 1–3 slots with varied starts, preemptors of one
// shape (mid or high priority, 2 or 4 slots), and, in one cluster in three, a `disruptionMode:
// all` gang (its nodes' answers change with pods elsewhere: the index must hand over to the
// walk).
TEST(DefaultPreemption, CandidateIndexAnswersAsTheWalk) {
  uint64_t seed = 0x9e3779b97f4a7c15ULL;
  auto next = [&](int64_t bound) {  // splitmix64, [0, bound)
    seed += 0x9e3779b97f4a7c15ULL;
    uint64_t z = seed;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return static_cast<int64_t>((z ^ (z >> 31)) % static_cast<uint64_t>(bound));
  };
  int64_t indexed = 0, placed = 0, failed = 0, gang_clusters = 0;
  for (int trial = 0; trial < 12; ++trial) {
    const int node_count = 150 + static_cast<int>(next(251));
    const bool with_gang = trial % 3 == 2;
    const int32_t preemptor_priority = next(2) == 0 ? kMid : kHigh;
    const int64_t preemptor_slots = next(2) == 0 ? 2 : 4;
    // More preemptors than the cluster holds: the last ones find no candidate.
    const int preemptors = node_count * (preemptor_slots == 4 ? 1 : 2) * 11 / 10 + 10;
    // Two identical clusters: one preempts with the index, one with the walk.
    TestCluster a, b;
    std::vector<PodIndex> queue;
    for (TestCluster* c : {&a, &b}) {
      const uint64_t saved = seed;
      for (int n = 0; n < node_count; ++n) c->AddNode(fmt::format("n{:04}", n), 4);
      const int32_t gang = with_gang ? c->AddGroup("gang", kLow, /*all=*/true) : -1;
      int pod = 0;
      for (int n = 0; n < node_count; ++n) {
        int64_t used = 0;
        while (used < 4) {
          const int64_t slots = std::min<int64_t>(1 + next(3), 4 - used);
          if (next(6) == 0) break;  // leave some room on some nodes
          const int32_t priority = next(4) == 0 ? kMid : kLow;
          const int32_t group = gang >= 0 && priority == kLow && next(25) == 0 ? gang : -1;
          c->AddPod(fmt::format("p{}", pod++), priority, fmt::format("n{:04}", n), group,
                    /*start=*/next(50), slots);
          used += slots;
        }
      }
      queue.clear();
      for (int i = 0; i < preemptors; ++i) {
        queue.push_back(c->AddPod(fmt::format("q{}", i), preemptor_priority, "", -1, 0,
                                  preemptor_slots));
      }
      c->Build();
      // One template for all preemptors (as PodTemplates gives identical pods).
      for (PodIndex q : queue) c->pods()[q].requests = c->pods()[queue.front()].requests;
      if (c == &a) {
        seed = saved;  // the same draws for b
      }
    }
    gang_clusters += with_gang ? 1 : 0;
    VictimUnitIndex units_a(a.pods(), a.groups()), units_b(b.pods(), b.groups());
    NodePods pods_a(a.nodes().size(), a.pods()), pods_b(b.nodes().size(), b.pods());
    DefaultPreemption dp_a(a.snapshot(), a.framework(), a.pods(), a.resources());
    DefaultPreemption dp_b(b.snapshot(), b.framework(), b.pods(), b.resources());
    dp_b.set_candidate_index(false);
    auto apply = [](TestCluster& c, NodePods& node_pods, const Outcome& o, PodIndex q) {
      for (PodIndex v : o.victims) {
        node_pods.Remove(v, c.pods()[v].node);
        c.snapshot().Remove(v);
      }
      c.snapshot().Assume(q, o.nominations[0].node);
      c.snapshot().Commit();
      node_pods.Add(q, o.nominations[0].node);
    };
    for (PodIndex q : queue) {
      units_a.Refresh();
      units_b.Refresh();
      const Preemptor who{"Pod default/q", preemptor_priority,
                          api::PreemptionPolicy::kPreemptLowerPriority, {q}, {}, false};
      const Outcome oa = dp_a.Preempt(who, units_a, pods_a, nullptr);
      const Outcome ob = dp_b.Preempt(who, units_b, pods_b, nullptr);
      ASSERT_EQ(oa.status.IsSuccess(), ob.status.IsSuccess()) << "trial " << trial << " pod " << q;
      ASSERT_EQ(oa.status.Message(), ob.status.Message()) << "trial " << trial << " pod " << q;
      ASSERT_EQ(oa.victims, ob.victims) << "trial " << trial << " pod " << q;
      ASSERT_EQ(oa.nominations.size(), ob.nominations.size());
      if (!oa.status.IsSuccess()) {
        ++failed;
        continue;
      }
      ASSERT_EQ(oa.nominations[0].node, ob.nominations[0].node) << "trial " << trial << " pod " << q;
      apply(a, pods_a, oa, q);
      apply(b, pods_b, ob, q);
      ++placed;
    }
    EXPECT_EQ(dp_b.indexed_preemptions(), 0);
    indexed += dp_a.indexed_preemptions();
  }
  // The comparison covered both outcomes and the index answered most preemptors.
  EXPECT_GT(placed, 200);
  EXPECT_GT(failed, 20);
  EXPECT_GT(indexed, 300);
  EXPECT_EQ(gang_clusters, 4);
}

}  // namespace
}  // namespace wasched::sched::preemption
