// Tree and topology placement through sched::Schedule (spec §4.4, §5; KEP-6012, KEP-5732).
#include "sched/gang/tree_algorithm.h"

#include <map>
#include <set>
#include <tuple>

#include <fmt/format.h>
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "sched/plugins/placement_resources_fit/placement_resources_fit.h"
#include "sched/plugins/pod_group_pods_count/pod_group_pods_count.h"
#include "sched/scheduler.h"
#include "support/builders.h"

namespace wasched::sched {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;
using test::MakeCompositePodGroup;
using test::MakeNode;
using test::MakePod;
using test::MakePodGroup;

constexpr const char* kBlock = "block";
constexpr const char* kRack = "rack";

api::Node LabelledNode(const std::string& name, int64_t cpu_milli,
                       std::map<std::string, std::string> labels) {
  auto b = MakeNode().Name(name).Capacity({{"cpu", cpu_milli}, {"memory", 64 * test::kGi}, {"pods", 110}});
  for (auto& [k, v] : labels) b.Label(k, v);
  return b.Obj();
}

api::PodGroup Child(const std::string& name, int32_t min_count, const std::string& parent,
                    const std::string& key = {}) {
  auto b = MakePodGroup().Name(name).MinCount(min_count).Parent(parent).WorkloadRef("wl", name);
  if (!key.empty()) b.TopologyKey(key);
  return b.Obj();
}

void AddPods(api::ObjectSet& s, const std::string& group, int count, int64_t cpu_milli) {
  for (int i = 0; i < count; ++i) {
    s.pods.push_back(MakePod().Name(group + "-" + std::to_string(i)).Group(group)
                         .Req({{"cpu", cpu_milli}}).Obj());
  }
}

std::map<std::string, std::string> Bound(const ScheduleResult& r) {
  std::map<std::string, std::string> out;
  for (const auto& b : r.bindings) out[b.pod] = b.node;
  return out;
}

const GroupResult* FindGroup(const ScheduleResult& r, const std::string& kind, const std::string& name) {
  for (const auto& g : r.groups) {
    if (g.kind == kind && g.name == name) return &g;
  }
  return nullptr;
}

// ConditionOf: a PodGroup's first condition or a CompositePodGroup's outcome (v1.37.2 writes no
// CompositePodGroup condition, so a composite must carry none), as "status/reason".
std::string ConditionOf(const ScheduleResult& r, const std::string& kind, const std::string& name) {
  const GroupResult* g = FindGroup(r, kind, name);
  if (g == nullptr) return "none";
  if (kind == "CompositePodGroup") {
    EXPECT_TRUE(g->conditions.empty()) << name;
    return g->outcome ? g->outcome->status + "/" + g->outcome->reason : "none";
  }
  if (g->conditions.empty()) return "none";
  return g->conditions.front().status + "/" + g->conditions.front().reason;
}

ScheduleResult ScheduleVerified(const api::ObjectSet& s) { return Schedule(s, SchedulerOptions{.verify = true}); }

// KEP-6012 worked example: block-a racks hold 3 and 5 slots, block-b 5 and 5.
api::ObjectSet Kep6012() {
  api::ObjectSet s;
  for (auto [blk, r1, r2] : {std::tuple{"a", 3, 5}, std::tuple{"b", 5, 5}}) {
    int i = 0;
    for (int k = 0; k < r1; ++k) {
      s.nodes.push_back(LabelledNode(fmt::format("{}1-n{}", blk, k), 1000,
                                     {{kBlock, std::string("block-") + blk}, {kRack, std::string("rack-") + blk + "1"}}));
    }
    for (int k = 0; k < r2; ++k) {
      s.nodes.push_back(LabelledNode(fmt::format("{}2-n{}", blk, k), 1000,
                                     {{kBlock, std::string("block-") + blk}, {kRack, std::string("rack-") + blk + "2"}}));
    }
    (void)i;
  }
  s.composite_pod_groups.push_back(MakeCompositePodGroup().Name("root").MinGroupCount(2).TopologyKey(kBlock).Obj());
  s.pod_groups.push_back(Child("pg-1", 5, "root", kRack));
  s.pod_groups.push_back(Child("pg-2", 5, "root", kRack));
  AddPods(s, "pg-1", 5, 1000);
  AddPods(s, "pg-2", 5, 1000);
  return s;
}

TEST(TreeAlgorithm, Kep6012BlockBHostsBothChildren) {
  const ScheduleResult r = ScheduleVerified(Kep6012());
  const auto bound = Bound(r);
  ASSERT_EQ(bound.size(), 10U);
  std::set<std::string> pg1_racks, pg2_racks;
  for (const auto& [pod, node] : bound) {
    EXPECT_EQ(node[0], 'b') << pod << " on " << node;
    (pod.find("pg-1") != std::string::npos ? pg1_racks : pg2_racks).insert(node.substr(0, 2));
  }
  EXPECT_EQ(pg1_racks, (std::set<std::string>{"b1"}));
  EXPECT_EQ(pg2_racks, (std::set<std::string>{"b2"}));
  EXPECT_EQ(ConditionOf(r, "CompositePodGroup", "default/root"), "True/Scheduled");
  EXPECT_EQ(ConditionOf(r, "PodGroup", "default/pg-1"), "True/Scheduled");
}

TEST(TreeAlgorithm, PendingPodOfPlacedGroupCountsEveryNode) {
  // QA finding 9: pg-1 gets a 6th pod beyond minCount 5; the group is placed in one rack of one
  // block, the extra pod stays pending with a FitError over all 18 nodes, the 13 outside the
  // chosen block and rack under their own reason (never "k/18 nodes are available").
  api::ObjectSet s = Kep6012();
  s.pods.push_back(MakePod().Name("pg-1-5").Group("pg-1").Req({{"cpu", 1000}}).Obj());
  const ScheduleResult r = ScheduleVerified(s);
  ASSERT_EQ(r.bindings.size(), 10U);
  ASSERT_EQ(r.pending.size(), 1U);
  const auto bound = Bound(r);
  const std::string rack = bound.at("default/pg-1-0").substr(0, 2);  // "b1" for rack-b1
  // The leftover was retried at once (issue 20 A.1): the PostFilter's result and the retry note
  // follow the FitError of its level.
  EXPECT_THAT(r.pending.front().message,
              StartsWith(fmt::format(
                  "0/18 nodes are available: 13 node(s) didn't match the pod group's topology "
                  "placement (block=block-{}, rack=rack-{}), 5 Insufficient cpu. pod group "
                  "preemption: No preemption victims found for incoming preemptor. No retry pending",
                  rack[0], rack)));
  EXPECT_EQ(ConditionOf(r, "PodGroup", "default/pg-1"), "True/Scheduled");
}

TEST(TreeAlgorithm, Kep6012WithoutRoomExplainsEveryBlock) {
  api::ObjectSet s = Kep6012();
  // Block b loses a slot in rack b2: no block can host both 5-pod gangs any more.
  s.pods.push_back(MakePod().Name("blocker").Node("b2-n0").Req({{"cpu", 1000}}).Obj());
  const ScheduleResult r = ScheduleVerified(s);
  EXPECT_TRUE(r.bindings.empty());
  ASSERT_EQ(r.pending.size(), 10U);
  // Both blocks fail for the same reason: aggregated like node reasons (QA finding 15).
  EXPECT_THAT(r.pending.front().message,
              StartsWith("0/2 placements are available: 2 placement(s) (block-a, block-b): "
                         "Insufficient cpu (aggregate free capacity below the group's minimum). "
                         "pod group preemption: "));
  EXPECT_EQ(ConditionOf(r, "CompositePodGroup", "default/root"), "False/Unschedulable");
  EXPECT_EQ(ConditionOf(r, "PodGroup", "default/pg-2"), "False/Unschedulable");
}

TEST(TreeAlgorithm, PrunedPlacementReportsTheFilterThatRejectsItsNodes) {
  // Issue 20 item 11: a rack of one tainted 4-CPU node cannot hold 2 × 3 CPU by aggregate free
  // capacity either; the placement is pruned, but what keeps the gang out is the taint, which a
  // trial would report: the taint is named, not "Insufficient cpu (aggregate …)". Rack r1's
  // untainted node is short of capacity only and keeps the aggregate reason.
  api::ObjectSet s;
  auto tainted = MakeNode().Name("n0").Capacity({{"cpu", 4000}, {"memory", 64 * test::kGi}, {"pods", 110}})
                     .Label(kRack, "r0").Taint("dedicated", "infra", api::TaintEffect::kNoSchedule).Obj();
  s.nodes.push_back(tainted);
  s.nodes.push_back(LabelledNode("n1", 4000, {{kRack, "r1"}}));
  s.pod_groups.push_back(MakePodGroup().Name("gang").MinCount(2).TopologyKey(kRack).Obj());
  AddPods(s, "gang", 2, 3000);
  const ScheduleResult r = ScheduleVerified(s);
  EXPECT_TRUE(r.bindings.empty());
  ASSERT_EQ(r.pending.size(), 2U);
  EXPECT_THAT(r.pending.front().message,
              StartsWith("0/2 placements are available: r0: 0/1 nodes are available: 1 node(s) had "
                         "untolerated taint {dedicated: infra}; r1: Insufficient cpu (aggregate free "
                         "capacity below the group's minimum). "));
}

TEST(TreeAlgorithm, HardRackConstraintIsNeverSplit) {
  // S16: 3 nodes × 2 CPU, each its own rack; 2 × 1 CPU pods must share one node.
  api::ObjectSet s;
  for (int i = 0; i < 3; ++i) {
    s.nodes.push_back(LabelledNode("n" + std::to_string(i), 2000, {{kRack, "r" + std::to_string(i)}}));
  }
  s.pod_groups.push_back(MakePodGroup().Name("ok").MinCount(2).TopologyKey(kRack).Obj());
  s.pod_groups.push_back(MakePodGroup().Name("too-big").MinCount(2).TopologyKey(kRack).Obj());
  AddPods(s, "ok", 2, 1000);
  AddPods(s, "too-big", 2, 1500);
  const ScheduleResult r = ScheduleVerified(s);
  const auto bound = Bound(r);
  ASSERT_EQ(bound.size(), 2U);
  EXPECT_EQ(bound.at("default/ok-0"), bound.at("default/ok-1"));
  EXPECT_THAT(r.pending.front().message,
              StartsWith("0/3 placements are available: 3 placement(s) (r0, r1, r2): "));
}

TEST(TreeAlgorithm, RunningPodsPinTheDomain) {
  api::ObjectSet s;
  s.nodes.push_back(LabelledNode("a", 8000, {{kRack, "rack-a"}}));
  s.nodes.push_back(LabelledNode("b", 4000, {{kRack, "rack-b"}}));
  s.pod_groups.push_back(MakePodGroup().Name("g").MinCount(3).TopologyKey(kRack).Obj());
  s.pods.push_back(MakePod().Name("g-run").Group("g").Node("b").Req({{"cpu", 1000}}).Obj());
  AddPods(s, "g", 2, 1000);
  const ScheduleResult r = ScheduleVerified(s);
  const auto bound = Bound(r);
  ASSERT_EQ(bound.size(), 2U);
  EXPECT_EQ(bound.at("default/g-0"), "b");
  EXPECT_EQ(bound.at("default/g-1"), "b");
}

TEST(TreeAlgorithm, RunningPodsInTwoDomainsAreAnError) {
  api::ObjectSet s;
  s.nodes.push_back(LabelledNode("a", 8000, {{kRack, "rack-a"}}));
  s.nodes.push_back(LabelledNode("b", 8000, {{kRack, "rack-b"}}));
  s.pod_groups.push_back(MakePodGroup().Name("g").MinCount(3).TopologyKey(kRack).Obj());
  s.pods.push_back(MakePod().Name("g-ra").Group("g").Node("a").Req({{"cpu", 1000}}).Obj());
  s.pods.push_back(MakePod().Name("g-rb").Group("g").Node("b").Req({{"cpu", 1000}}).Obj());
  AddPods(s, "g", 1, 1000);
  const ScheduleResult r = ScheduleVerified(s);
  EXPECT_TRUE(r.bindings.empty());
  ASSERT_EQ(r.pending.size(), 1U);
  EXPECT_THAT(r.pending.front().message, HasSubstr("span several rack domains (rack-a, rack-b)"));
}

TEST(TreeAlgorithm, NodesWithoutTheLabelAreExcluded) {
  api::ObjectSet s;
  s.nodes.push_back(LabelledNode("big-unlabelled", 64000, {}));
  s.nodes.push_back(LabelledNode("small", 2000, {{kRack, "r1"}}));
  s.pod_groups.push_back(MakePodGroup().Name("g").MinCount(2).TopologyKey(kRack).Obj());
  AddPods(s, "g", 3, 1000);
  const ScheduleResult r = ScheduleVerified(s);
  const auto bound = Bound(r);
  ASSERT_EQ(bound.size(), 2U);
  for (const auto& [pod, node] : bound) EXPECT_EQ(node, "small");
}

TEST(TreeAlgorithm, ParentConstraintHoldsAcrossChildren) {
  // S18: block-a 18 nodes in 6 racks of 3, block-b 10 nodes (3 racks of 3 + 1). 4 child gangs of
  // 3 node-exclusive pods, rack each, parent needs all 4 in one block: only block-a can.
  api::ObjectSet s;
  for (int r = 0; r < 6; ++r) {
    for (int k = 0; k < 3; ++k) {
      s.nodes.push_back(LabelledNode(fmt::format("a{}-{}", r, k), 4000, {{kBlock, "a"}, {kRack, fmt::format("a{}", r)}}));
    }
  }
  for (int k = 0; k < 10; ++k) {
    s.nodes.push_back(LabelledNode(fmt::format("b{}-{}", k / 3, k % 3), 4000, {{kBlock, "b"}, {kRack, fmt::format("b{}", k / 3)}}));
  }
  s.composite_pod_groups.push_back(MakeCompositePodGroup().Name("replica").MinGroupCount(4).TopologyKey(kBlock).Obj());
  for (int g = 0; g < 4; ++g) {
    s.pod_groups.push_back(Child(fmt::format("workers-{}", g), 3, "replica", kRack));
    AddPods(s, fmt::format("workers-{}", g), 3, 4000);
  }
  const ScheduleResult r = ScheduleVerified(s);
  const auto bound = Bound(r);
  ASSERT_EQ(bound.size(), 12U);
  for (const auto& [pod, node] : bound) EXPECT_EQ(node[0], 'a') << pod;
}

TEST(TreeAlgorithm, FailedSubtreeIsRevertedAndReported) {
  // G01 shape: sub3 reaches only 1 of 2 children, so pg6 (which fit) is reverted.
  api::ObjectSet s;
  s.nodes.push_back(LabelledNode("node-1", 20000, {}));
  s.composite_pod_groups.push_back(MakeCompositePodGroup().Name("root").MinGroupCount(2).Obj());
  s.composite_pod_groups.push_back(MakeCompositePodGroup().Name("sub1").MinGroupCount(2).Parent("root").Obj());
  s.composite_pod_groups.push_back(MakeCompositePodGroup().Name("sub2").Parent("root").Obj());
  s.composite_pod_groups.push_back(MakeCompositePodGroup().Name("sub3").MinGroupCount(2).Parent("root").Obj());
  for (auto [name, parent] : {std::pair{"pg1", "sub1"}, {"pg2", "sub1"}, {"pg3", "sub1"}, {"pg5", "sub2"},
                              {"pg6", "sub3"}, {"pg7", "sub3"}}) {
    s.pod_groups.push_back(Child(name, 3, parent));
  }
  s.pod_groups.push_back(MakePodGroup().Name("pg4").Basic().Parent("sub2").WorkloadRef("wl", "pg4").Obj());
  for (const char* g : {"pg1", "pg2", "pg3", "pg4", "pg5", "pg6", "pg7"}) {
    const bool big = std::string(g) == "pg3" || std::string(g) == "pg7";
    AddPods(s, g, 3, big ? 100000 : 1000);
  }
  const ScheduleResult r = ScheduleVerified(s);
  const auto bound = Bound(r);
  EXPECT_EQ(bound.size(), 12U);
  for (const char* g : {"pg1", "pg2", "pg4", "pg5"}) {
    EXPECT_TRUE(bound.contains(fmt::format("default/{}-0", g))) << g;
    EXPECT_EQ(ConditionOf(r, "PodGroup", fmt::format("default/{}", g)), "True/Scheduled") << g;
  }
  for (const char* g : {"pg3", "pg6", "pg7"}) {
    EXPECT_FALSE(bound.contains(fmt::format("default/{}-0", g))) << g;
    EXPECT_EQ(ConditionOf(r, "PodGroup", fmt::format("default/{}", g)), "False/Unschedulable") << g;
  }
  EXPECT_EQ(ConditionOf(r, "CompositePodGroup", "default/root"), "True/Scheduled");
  EXPECT_EQ(ConditionOf(r, "CompositePodGroup", "default/sub1"), "True/Scheduled");
  EXPECT_EQ(ConditionOf(r, "CompositePodGroup", "default/sub2"), "True/Scheduled");
  EXPECT_EQ(ConditionOf(r, "CompositePodGroup", "default/sub3"), "False/Unschedulable");
}

// Issue 20 A.3 minimum-first: under root (minGroupCount 2) pg-a (minCount 1, 3 pods of 1 CPU) is
// listed before pg-b (minCount 2, 2 pods) on 4 CPU. Upstream's order (KEP-6012: children in
// order, each placing every pod it can) gives pg-a 3 pods and leaves pg-b 1 of its 2: the tree
// fails. Minimum-first places pg-a's quorum (1), pg-b's (2), then pg-a's extras (1 more fits).
// `racks`: the root needs one rack; rack r1 (2 × 2 CPU) holds the quorums, rack r2 (1 × 2 CPU)
// does not, so everything lands in r1.
api::ObjectSet ExtrasStarveALaterChild(bool racks) {
  api::ObjectSet s;
  s.nodes.push_back(LabelledNode("n1", 2000, {{kRack, "r1"}}));
  s.nodes.push_back(LabelledNode("n2", 2000, {{kRack, "r1"}}));
  if (racks) s.nodes.push_back(LabelledNode("n3", 2000, {{kRack, "r2"}}));
  auto root = MakeCompositePodGroup().Name("root").MinGroupCount(2);
  if (racks) root.TopologyKey(kRack);
  s.composite_pod_groups.push_back(root.Obj());
  s.pod_groups.push_back(Child("pg-a", 1, "root"));
  s.pod_groups.push_back(Child("pg-b", 2, "root"));
  AddPods(s, "pg-a", 3, 1000);
  AddPods(s, "pg-b", 2, 1000);
  return s;
}

TEST(TreeAlgorithm, MinimumFirstPlacesEveryChildsQuorumWhereUpstreamOrderFails) {
  const api::ObjectSet s = ExtrasStarveALaterChild(false);
  const ScheduleResult r = ScheduleVerified(s);
  const auto bound = Bound(r);
  EXPECT_EQ(bound.size(), 4U);
  for (const char* pod : {"default/pg-a-0", "default/pg-a-1", "default/pg-b-0", "default/pg-b-1"}) {
    EXPECT_TRUE(bound.contains(pod)) << pod;
  }
  ASSERT_EQ(r.pending.size(), 1U);
  EXPECT_EQ(r.pending[0].pod, "default/pg-a-2");  // an extra that does not fit stays pending
  EXPECT_EQ(r.pending[0].reason, "Unschedulable");
  EXPECT_EQ(ConditionOf(r, "CompositePodGroup", "default/root"), "True/Scheduled");
  EXPECT_EQ(ConditionOf(r, "PodGroup", "default/pg-a"), "True/Scheduled");
  EXPECT_EQ(ConditionOf(r, "PodGroup", "default/pg-b"), "True/Scheduled");

  // --placement upstream: upstream's order only, the tree stays pending with its message.
  SchedulerOptions upstream{.verify = true};
  upstream.placement = PlacementSearch::kUpstream;
  const ScheduleResult u = Schedule(s, upstream);
  EXPECT_TRUE(u.bindings.empty());
  ASSERT_EQ(u.pending.size(), 5U);
  for (const auto& p : u.pending) {
    EXPECT_EQ(p.reason, "Unschedulable") << p.pod;
    EXPECT_THAT(p.message, StartsWith("CompositePodGroup default/root: 1 of 2 child groups fit, "
                                      "minGroupCount 2; default/pg-b: Pod group default/pg-b: 1 "
                                      "of 2 pods fit, minCount 2"))
        << p.pod;
  }
  EXPECT_EQ(ConditionOf(u, "CompositePodGroup", "default/root"), "False/Unschedulable");
}

TEST(TreeAlgorithm, MinimumFirstKeepsTheChosenTopologyDomain) {
  const api::ObjectSet s = ExtrasStarveALaterChild(true);
  const ScheduleResult r = ScheduleVerified(s);
  const auto bound = Bound(r);
  EXPECT_EQ(bound.size(), 4U);
  for (const auto& [pod, node] : bound) EXPECT_NE(node, "n3") << pod << " left rack r1";
  ASSERT_EQ(r.pending.size(), 1U);
  EXPECT_EQ(r.pending[0].pod, "default/pg-a-2");
  const GroupResult* root = FindGroup(r, "CompositePodGroup", "default/root");
  ASSERT_NE(root, nullptr);
  EXPECT_EQ(ConditionOf(r, "CompositePodGroup", "default/root"), "True/Scheduled");

  SchedulerOptions upstream{.verify = true};
  upstream.placement = PlacementSearch::kUpstream;
  const ScheduleResult u = Schedule(s, upstream);
  EXPECT_TRUE(u.bindings.empty());
  EXPECT_EQ(ConditionOf(u, "CompositePodGroup", "default/root"), "False/Unschedulable");
}

// A child beyond minGroupCount is an extra too: root (minGroupCount 2) over pg-a (minCount 1,
// 3 pods), pg-b (minCount 2, 2 pods) and pg-c (minCount 1, 1 pod) on 3 CPU. Upstream's order: pg-a
// takes all 3 CPU, pg-b and pg-c fail. Minimum-first: pg-a 1, pg-b 2 (the quorum of children);
// then pg-a's extras and pg-c do not fit and stay pending, pg-c's condition False.
TEST(TreeAlgorithm, MinimumFirstTriesChildrenBeyondTheQuorumAfterwards) {
  api::ObjectSet s;
  s.nodes.push_back(LabelledNode("n1", 3000, {}));
  s.composite_pod_groups.push_back(MakeCompositePodGroup().Name("root").MinGroupCount(2).Obj());
  s.pod_groups.push_back(Child("pg-a", 1, "root"));
  s.pod_groups.push_back(Child("pg-b", 2, "root"));
  s.pod_groups.push_back(Child("pg-c", 1, "root"));
  AddPods(s, "pg-a", 3, 1000);
  AddPods(s, "pg-b", 2, 1000);
  AddPods(s, "pg-c", 1, 1000);
  const ScheduleResult r = ScheduleVerified(s);
  const auto bound = Bound(r);
  EXPECT_EQ(bound.size(), 3U);
  for (const char* pod : {"default/pg-a-0", "default/pg-b-0", "default/pg-b-1"}) {
    EXPECT_TRUE(bound.contains(pod)) << pod;
  }
  EXPECT_EQ(ConditionOf(r, "CompositePodGroup", "default/root"), "True/Scheduled");
  EXPECT_EQ(ConditionOf(r, "PodGroup", "default/pg-a"), "True/Scheduled");
  EXPECT_EQ(ConditionOf(r, "PodGroup", "default/pg-b"), "True/Scheduled");
  EXPECT_EQ(ConditionOf(r, "PodGroup", "default/pg-c"), "False/Unschedulable");
}

TEST(TreeAlgorithm, PodGroupPodsCountIsNormalisedByTheLargestFeasibleCount) {
  // Differential case random.r1-0370 (upstream v1.37.2 NormalizePlacementScore): the count term
  // is 100 · pods / the largest pods among the feasible placements, not / the group's size.
  // There zone-a scored fit 65 + 100·3/4 = 140 and zone-c fit 43 + 100·4/4 = 143: zone-c wins.
  EXPECT_EQ(plugins::ScorePodGroupPodsCount(3, 4), 75);
  EXPECT_EQ(plugins::ScorePodGroupPodsCount(4, 4), 100);
  // Reduced example: g has 6 pods (1 CPU, 1 GiB), minCount 2. zone-a (2 CPU, 2 GiB) holds 2
  // pods, MostAllocated fit (100 + 100) / 2 = 100; zone-c (4 CPU, 16 GiB) holds 4, fit
  // (100 + 25) / 2 = 62. Normalised by the largest count (4): a = 100 + 50 = 150 and
  // c = 62 + 100 = 162, so zone-c. Divided by the group's size (6) a would win (133 vs 128).
  EXPECT_EQ(plugins::MostAllocatedScore(2000, 2000, 2 * test::kGi, 2 * test::kGi) +
                plugins::ScorePodGroupPodsCount(2, 4),
            150);
  EXPECT_EQ(plugins::MostAllocatedScore(4000, 4000, 16 * test::kGi, 4 * test::kGi) +
                plugins::ScorePodGroupPodsCount(4, 4),
            162);
  api::ObjectSet s;
  s.nodes.push_back(MakeNode().Name("a").Label("zone", "zone-a")
                        .Capacity({{"cpu", 2000}, {"memory", 2 * test::kGi}, {"pods", 110}}).Obj());
  s.nodes.push_back(MakeNode().Name("c").Label("zone", "zone-c")
                        .Capacity({{"cpu", 4000}, {"memory", 16 * test::kGi}, {"pods", 110}}).Obj());
  s.pod_groups.push_back(MakePodGroup().Name("g").MinCount(2).TopologyKey("zone").Obj());
  for (int i = 0; i < 6; ++i) {
    s.pods.push_back(MakePod().Name("g-" + std::to_string(i)).Group("g")
                         .Req({{"cpu", 1000}, {"memory", test::kGi}}).Obj());
  }
  for (const auto search : {PlacementSearch::kUpstream, PlacementSearch::kComplete}) {
    SchedulerOptions options{.verify = true};
    options.placement = search;
    const ScheduleResult r = Schedule(s, options);
    const auto bound = Bound(r);
    ASSERT_EQ(bound.size(), 4U);
    for (const auto& [pod, node] : bound) EXPECT_EQ(node, "c") << pod;
  }
}

TEST(TreeAlgorithm, PlacementsToFindInterpolates) {
  EXPECT_EQ(TreeAlgorithm::PlacementsToFind(50, 10), 10);     // < 100 nodes: all
  EXPECT_EQ(TreeAlgorithm::PlacementsToFind(5000, 250), 25);  // 10 % at 5000 nodes
  EXPECT_EQ(TreeAlgorithm::PlacementsToFind(2500, 100), 55);  // 55 % halfway
  EXPECT_EQ(TreeAlgorithm::PlacementsToFind(100000, 100), 5); // floor 5 %
  EXPECT_EQ(TreeAlgorithm::PlacementsToFind(5000, 3), 1);     // at least one
}

// The per-domain sums of a domain above 16 nodes move by each changed node's difference (not a
// re-sum of the domain): with racks of 20 nodes whose totals saturate (20 × 1Ei of memory), come
// within 2^62 of INT64_MAX (20 × 2^58, pods of 2^58), hold an over-committed running pod (free
// capacity clamped at 0) and plain ones, verify mode finds every cycle's sums equal to a
// recomputation, and every gang binds.
TEST(TreeAlgorithm, DomainSumsFollowTheChangesExactly) {
  api::ObjectSet s;
  const int64_t sizes[] = {int64_t{1} << 60, int64_t{1} << 58, 64 * test::kGi};
  for (int rack = 0; rack < 3; ++rack) {
    for (int i = 0; i < 20; ++i) {
      s.nodes.push_back(MakeNode()
                            .Name(fmt::format("n{}-{}", rack, i))
                            .Capacity({{"cpu", 4000}, {"memory", sizes[rack]}, {"pods", 110}})
                            .Label(kRack, fmt::format("r{}", rack))
                            .Obj());
    }
  }
  // A running pod over the node's cpu (kubelet admitted it): that node's free cpu stays 0.
  s.pods.push_back(MakePod().Name("running").Req({{"cpu", 5000}}).Node("n2-0").Obj());
  for (int g = 0; g < 24; ++g) {
    const std::string name = fmt::format("g{:02}", g);
    s.pod_groups.push_back(MakePodGroup().Name(name).MinCount(2).TopologyKey(kRack).Obj());
    for (int i = 0; i < 2; ++i) {
      s.pods.push_back(MakePod()
                           .Name(fmt::format("{}-{}", name, i))
                           .Group(name)
                           .Req({{"cpu", 700},
                                 {"memory", g % 3 == 1 ? int64_t{1} << 58 : test::kGi}})
                           .Obj());
    }
  }
  std::vector<std::string> violations;
  const ScheduleResult r =
      Schedule(s, SchedulerOptions{.verify = true, .verify_violations = &violations});
  EXPECT_THAT(violations, ::testing::IsEmpty());
  EXPECT_EQ(r.bindings.size(), 48u);
  EXPECT_TRUE(r.pending.empty());
}

}  // namespace
}  // namespace wasched::sched
