#include "sched/scheduler.h"

#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "support/builders.h"

namespace wasched::sched {
namespace {

using test::kGi;
using test::MakeNode;
using test::MakePod;
using test::MakePodGroup;
using ::testing::HasSubstr;
using ::testing::StartsWith;

std::string NodeOf(const ScheduleResult& r, const std::string& pod) {
  for (const auto& b : r.bindings) {
    if (b.pod == pod) return b.node;
  }
  return "";
}

const PendingPod* PendingOf(const ScheduleResult& r, const std::string& pod) {
  for (const auto& p : r.pending) {
    if (p.pod == pod) return &p;
  }
  return nullptr;
}

SchedulerOptions Verified() {
  SchedulerOptions o;
  o.verify = true;
  return o;
}

TEST(SchedulerTest, FitErrorCountsReasonsSortedLikeUpstream) {
  api::ObjectSet in;
  for (int i = 0; i < 4; ++i) {
    in.nodes.push_back(MakeNode().Name("gpu-" + std::to_string(i))
                           .Capacity({{"cpu", 8000}, {"nvidia.com/gpu", 1}, {"pods", 110}})
                           .Obj());
  }
  for (int i = 0; i < 8; ++i) {
    in.nodes.push_back(MakeNode().Name("res-" + std::to_string(i))
                           .Capacity({{"cpu", 8000}, {"nvidia.com/gpu", 8}, {"pods", 110}})
                           .Taint("gpu", "reserved", api::TaintEffect::kNoSchedule)
                           .Obj());
  }
  in.pods.push_back(MakePod().Name("big").Req({{"nvidia.com/gpu", 2}}).Obj());
  ScheduleResult r = Schedule(in, Verified());
  ASSERT_EQ(r.pending.size(), 1u);
  EXPECT_EQ(r.pending[0].reason, "Unschedulable");
  EXPECT_EQ(r.pending[0].message,
            "0/12 nodes are available: 4 Insufficient nvidia.com/gpu, 8 node(s) had untolerated "
            "taint {gpu: reserved}. preemption: 0/12 nodes are available: 4 No preemption victims "
            "found for incoming pod, 8 Preemption is not helpful for scheduling.");
}

TEST(SchedulerTest, LeastAllocatedSpreadsAndMostAllocatedPacks) {
  api::ObjectSet in;
  in.nodes.push_back(MakeNode().Name("a").Capacity({{"cpu", 4000}, {"memory", 8 * kGi}, {"pods", 110}}).Obj());
  in.nodes.push_back(MakeNode().Name("b").Capacity({{"cpu", 4000}, {"memory", 8 * kGi}, {"pods", 110}}).Obj());
  in.pods.push_back(MakePod().Name("p1").Req({{"cpu", 1000}, {"memory", kGi}}).Obj());
  in.pods.push_back(MakePod().Name("p2").Req({{"cpu", 1000}, {"memory", kGi}}).Obj());
  ScheduleResult spread = Schedule(in, Verified());
  EXPECT_EQ(NodeOf(spread, "default/p1"), "a");  // tie → lowest node name
  EXPECT_EQ(NodeOf(spread, "default/p2"), "b");
  SchedulerOptions most = Verified();
  most.scoring = ScoringStrategy::kMostAllocated;
  ScheduleResult packed = Schedule(in, most);
  EXPECT_EQ(NodeOf(packed, "default/p1"), "a");
  EXPECT_EQ(NodeOf(packed, "default/p2"), "a");
}

TEST(SchedulerTest, TooManyPodsComesFromPodsAllocatable) {
  api::ObjectSet in;
  in.nodes.push_back(MakeNode().Name("a").Capacity({{"cpu", 4000}, {"pods", 1}}).Obj());
  in.pods.push_back(MakePod().Name("p1").Req({{"cpu", 100}}).Obj());
  in.pods.push_back(MakePod().Name("p2").Req({{"cpu", 100}}).Obj());
  ScheduleResult r = Schedule(in, Verified());
  ASSERT_EQ(r.bindings.size(), 1u);
  EXPECT_EQ(PendingOf(r, "default/p2")->message,
            "0/1 nodes are available: 1 Too many pods. preemption: 0/1 nodes are available: 1 No "
            "preemption victims found for incoming pod.");
}

// S6 (volcano#1297): the only valid assignment is X→B, Y→A, whatever the pod order.
void ExpectS6(bool x_first) {
  api::ObjectSet in;
  in.nodes.push_back(MakeNode().Name("a").Capacity({{"cpu", 53000}, {"memory", 476 * kGi}, {"pods", 110}}).Obj());
  in.nodes.push_back(MakeNode().Name("b").Capacity({{"cpu", 31000}, {"memory", 96 * kGi}, {"pods", 110}}).Obj());
  in.pod_groups.push_back(MakePodGroup().Name("job").MinCount(2).Obj());
  api::Pod x = MakePod().Name("x").Req({{"cpu", 30000}, {"memory", kGi}}).Group("job").Obj();
  api::Pod y = MakePod().Name("y").Req({{"cpu", 50000}, {"memory", kGi}}).Group("job").Obj();
  if (x_first) {
    in.pods = {x, y};
  } else {
    in.pods = {y, x};
  }
  ScheduleResult r = Schedule(in, Verified());
  EXPECT_EQ(NodeOf(r, "default/x"), "b");
  EXPECT_EQ(NodeOf(r, "default/y"), "a");
  ASSERT_EQ(r.groups.size(), 1u);
  EXPECT_EQ(r.groups[0].scheduled, 2);
  ASSERT_EQ(r.groups[0].conditions.size(), 1u);
  EXPECT_EQ(r.groups[0].conditions[0].status, "True");
  EXPECT_EQ(r.groups[0].conditions[0].reason, "Scheduled");
}

TEST(SchedulerTest, S6GreedyMissIsFoundInEitherOrder) {
  ExpectS6(true);
  ExpectS6(false);
}

// Issue 20 A.3: `--placement upstream` has no fallback. X (30 CPU) queued before Y (50 CPU) on
// nodes with 53 and 31 free: upstream's greedy order puts X on a (the emptier node) and Y fits
// nowhere, so the gang stays pending with upstream's message; queued Y first it binds as
// upstream would.
TEST(SchedulerTest, S6StaysPendingUnderUpstreamPlacement) {
  auto input = [](bool x_first) {
    api::ObjectSet in;
    in.nodes.push_back(MakeNode().Name("a").Capacity({{"cpu", 53000}, {"memory", 476 * kGi}, {"pods", 110}}).Obj());
    in.nodes.push_back(MakeNode().Name("b").Capacity({{"cpu", 31000}, {"memory", 96 * kGi}, {"pods", 110}}).Obj());
    in.pod_groups.push_back(MakePodGroup().Name("job").MinCount(2).Obj());
    api::Pod x = MakePod().Name("x").Req({{"cpu", 30000}, {"memory", kGi}}).Group("job").Obj();
    api::Pod y = MakePod().Name("y").Req({{"cpu", 50000}, {"memory", kGi}}).Group("job").Obj();
    in.pods = x_first ? std::vector<api::Pod>{x, y} : std::vector<api::Pod>{y, x};
    return in;
  };
  SchedulerOptions upstream = Verified();
  upstream.placement = PlacementSearch::kUpstream;
  ScheduleResult r = Schedule(input(true), upstream);
  EXPECT_TRUE(r.bindings.empty());
  const PendingPod* x = PendingOf(r, "default/x");
  ASSERT_NE(x, nullptr);
  EXPECT_EQ(x->reason, "Unschedulable");
  EXPECT_EQ(x->message,
            "Pod group default/job: 1 of 2 pods fit, minCount 2; for the first pod that did not fit "
            "(after 1 of the group's pods were placed): 0/2 nodes are available: 2 Insufficient "
            "cpu. pod group preemption: No preemption victims found for incoming preemptor");
  ASSERT_EQ(r.groups.size(), 1u);
  ASSERT_EQ(r.groups[0].conditions.size(), 1u);
  EXPECT_EQ(r.groups[0].conditions[0].status, "False");
  EXPECT_EQ(r.groups[0].conditions[0].reason, "Unschedulable");

  r = Schedule(input(false), upstream);
  EXPECT_EQ(NodeOf(r, "default/x"), "b");
  EXPECT_EQ(NodeOf(r, "default/y"), "a");
  r = Schedule(input(true), Verified());  // complete (default): the fallback binds it
  EXPECT_EQ(NodeOf(r, "default/x"), "b");
  EXPECT_EQ(NodeOf(r, "default/y"), "a");
}

TEST(SchedulerTest, GangBindsNothingBelowMinCountAndExplains) {
  api::ObjectSet in;
  in.nodes.push_back(MakeNode().Name("n1").Capacity({{"nvidia.com/gpu", 6}, {"pods", 110}}).Obj());
  for (int i = 2; i <= 4; ++i) {
    in.nodes.push_back(MakeNode().Name("n" + std::to_string(i))
                           .Capacity({{"nvidia.com/gpu", 2}, {"pods", 110}})
                           .Obj());
  }
  in.pod_groups.push_back(MakePodGroup().Name("train").MinCount(3).Obj());
  for (int i = 0; i < 3; ++i) {
    in.pods.push_back(
        MakePod().Name("w" + std::to_string(i)).Req({{"nvidia.com/gpu", 4}}).Group("train").Obj());
  }
  ScheduleResult r = Schedule(in, Verified());
  EXPECT_TRUE(r.bindings.empty());
  ASSERT_EQ(r.pending.size(), 3u);
  ASSERT_EQ(r.groups.size(), 1u);
  const auto& c = r.groups[0].conditions.at(0);
  EXPECT_EQ(c.type, "PodGroupInitiallyScheduled");
  EXPECT_EQ(c.status, "False");
  EXPECT_EQ(c.reason, "Unschedulable");
  // Issue 20 item 11: the node count is that of the first pod that did not fit, after the
  // group's first pod took its node; the message says so instead of reading "0/4 nodes ... 1 of 3
  // pods fit". Upstream's "0/N nodes are available: …" stays intact.
  EXPECT_EQ(c.message,
            "Pod group default/train: 1 of 3 pods fit, minCount 3; for the first pod that did not "
            "fit (after 1 of the group's pods were placed): 0/4 nodes are available: 4 "
            "Insufficient nvidia.com/gpu. pod group preemption: No preemption victims found for "
            "incoming preemptor");
  EXPECT_EQ(PendingOf(r, "default/w0")->message, c.message);
  EXPECT_EQ(PendingOf(r, "default/w2")->message, c.message);
}

TEST(SchedulerTest, PodsBeyondMinCountStayPendingOnTheirOwn) {
  api::ObjectSet in;
  in.nodes.push_back(MakeNode().Name("n1").Capacity({{"cpu", 3000}, {"pods", 110}}).Obj());
  in.pod_groups.push_back(MakePodGroup().Name("g").MinCount(2).Obj());
  for (int i = 0; i < 4; ++i) {
    in.pods.push_back(MakePod().Name("p" + std::to_string(i)).Req({{"cpu", 1000}}).Group("g").Obj());
  }
  ScheduleResult r = Schedule(in, Verified());
  EXPECT_EQ(r.bindings.size(), 3u);
  ASSERT_EQ(r.pending.size(), 1u);
  EXPECT_EQ(r.pending[0].pod, "default/p3");
  // p3 was retried at once after the quorum bound (issue 20 A.1) and found no victim.
  EXPECT_THAT(r.pending[0].message,
              StartsWith("no pods were schedulable: 0/1 nodes are available: 1 Insufficient cpu. "
                         "pod group preemption: No preemption victims found for incoming "
                         "preemptor. No retry pending"));
  EXPECT_EQ(r.groups[0].scheduled, 3);
  EXPECT_EQ(r.groups[0].conditions[0].status, "True");
}

TEST(SchedulerTest, PreEnqueueHoldsGangUntilMinCountPodsExist) {
  api::ObjectSet in;
  in.nodes.push_back(MakeNode().Name("n1").Capacity({{"cpu", 8000}, {"pods", 110}}).Obj());
  in.pod_groups.push_back(MakePodGroup().Name("g").MinCount(3).Obj());
  in.pods.push_back(MakePod().Name("p0").Req({{"cpu", 1000}}).Group("g").Obj());
  in.pods.push_back(MakePod().Name("p1").Req({{"cpu", 1000}}).Group("g").Obj());
  ScheduleResult r = Schedule(in, Verified());
  EXPECT_TRUE(r.bindings.empty());
  ASSERT_EQ(r.pending.size(), 2u);
  // v1.37.2 writes no PodScheduled condition for a pod GangScheduling holds at PreEnqueue: no
  // reason, no message; what it waits for is `held`.
  for (const PendingPod& p : r.pending) {
    EXPECT_EQ(p.reason, "") << p.pod;
    EXPECT_EQ(p.message, "") << p.pod;
    EXPECT_EQ(p.held,
              "waiting for minCount pods from a gang to appear in scheduling queue (2 of minCount "
              "3 pods exist)");
  }
  EXPECT_TRUE(r.groups[0].conditions.empty());  // never attempted
}

TEST(SchedulerTest, RunningMembersCountTowardMinCount) {
  api::ObjectSet in;
  in.nodes.push_back(MakeNode().Name("n1").Capacity({{"cpu", 2000}, {"pods", 110}}).Obj());
  in.pod_groups.push_back(MakePodGroup().Name("g").MinCount(2).Obj());
  in.pods.push_back(MakePod().Name("p0").Req({{"cpu", 1000}}).Group("g").Node("n1").Obj());
  in.pods.push_back(MakePod().Name("p1").Req({{"cpu", 1000}}).Group("g").Obj());
  ScheduleResult r = Schedule(in, Verified());
  ASSERT_EQ(r.bindings.size(), 1u);
  EXPECT_EQ(r.groups[0].scheduled, 2);
}

TEST(SchedulerTest, TrueConditionNeverRegresses) {
  api::ObjectSet in;
  in.nodes.push_back(MakeNode().Name("n1").Capacity({{"cpu", 1000}, {"pods", 110}}).Obj());
  in.pod_groups.push_back(MakePodGroup()
                              .Name("g")
                              .MinCount(2)
                              .Condition("PodGroupInitiallyScheduled", "True", "Scheduled", "")
                              .Obj());
  in.pods.push_back(MakePod().Name("p0").Req({{"cpu", 2000}}).Group("g").Obj());
  in.pods.push_back(MakePod().Name("p1").Req({{"cpu", 2000}}).Group("g").Obj());
  ScheduleResult r = Schedule(in, Verified());
  EXPECT_TRUE(r.bindings.empty());
  EXPECT_EQ(r.groups[0].conditions.at(0).status, "True");
  EXPECT_EQ(r.groups[0].conditions.at(0).reason, "Scheduled");
}

TEST(SchedulerTest, HigherPriorityUnitGoesFirst) {
  api::ObjectSet in;
  in.nodes.push_back(MakeNode().Name("n1").Capacity({{"cpu", 1000}, {"pods", 110}}).Obj());
  in.pods.push_back(MakePod().Name("low").Req({{"cpu", 1000}}).Priority(1).Obj());
  in.pods.push_back(MakePod().Name("high").Req({{"cpu", 1000}}).Priority(100).Obj());
  ScheduleResult r = Schedule(in, Verified());
  EXPECT_EQ(NodeOf(r, "default/high"), "n1");
  EXPECT_NE(PendingOf(r, "default/low"), nullptr);
}

// Issue 15: preemption compares status.startTime (upstream util.GetPodStartTime), not
// creationTimestamp: of two equal one-victim candidates, the node whose victim started latest is
// chosen (pickOneNodeForPreemption). Here the creation order says the opposite. A bound victim
// without a start time started at its creationTimestamp (wasched's reading of a manifest
// without status); with neither it started "now": later than every start without a clock, the
// clock's time with one.
TEST(SchedulerTest, PreemptionFollowsStartTimeNotCreation) {
  api::ObjectSet in;
  for (const char* n : {"n1", "n2"}) {
    in.nodes.push_back(MakeNode().Name(n).Capacity({{"cpu", 1000}, {"pods", 110}}).Obj());
  }
  in.pods.push_back(MakePod().Name("a").Req({{"cpu", 1000}}).Priority(1).Node("n1")
                        .CreationTimestamp(10).StartTime(300).Obj());
  in.pods.push_back(MakePod().Name("b").Req({{"cpu", 1000}}).Priority(1).Node("n2")
                        .CreationTimestamp(20).StartTime(100).Obj());
  in.pods.push_back(MakePod().Name("high").Req({{"cpu", 1000}}).Priority(100).Obj());
  ScheduleResult r = Schedule(in, Verified());
  EXPECT_EQ(NodeOf(r, "default/high"), "n1");
  ASSERT_EQ(r.evictions.size(), 1u);
  EXPECT_EQ(r.evictions[0].pod, "default/a");

  in.pods[1].start_time.reset();  // b: no start time, created at 20: taken as its start
  r = Schedule(in, Verified());
  EXPECT_EQ(NodeOf(r, "default/high"), "n1");
  in.pods[1].meta.creation_timestamp.reset();  // b: neither: started "now"
  r = Schedule(in, Verified());
  EXPECT_EQ(NodeOf(r, "default/high"), "n2");
  FakeClock clock(std::chrono::seconds(200));  // now = 200 s, before a's start
  SchedulerOptions at_200 = Verified();
  at_200.clock = &clock;
  r = Schedule(in, at_200);
  EXPECT_EQ(NodeOf(r, "default/high"), "n1");
}

TEST(SchedulerTest, MixedPriorityInGroupIsSchedulerError) {
  api::ObjectSet in;
  in.nodes.push_back(MakeNode().Name("n1").Capacity({{"cpu", 8000}, {"pods", 110}}).Obj());
  in.pod_groups.push_back(MakePodGroup().Name("g").MinCount(2).Priority(10).Obj());
  in.pods.push_back(MakePod().Name("p0").Req({{"cpu", 1000}}).Priority(10).Group("g").Obj());
  in.pods.push_back(MakePod().Name("p1").Req({{"cpu", 1000}}).Priority(5).Group("g").Obj());
  ScheduleResult r = Schedule(in, Verified());
  EXPECT_TRUE(r.bindings.empty());
  EXPECT_EQ(r.groups[0].conditions.at(0).reason, "SchedulerError");
  EXPECT_EQ(r.pending[0].reason, "SchedulerError");
}

TEST(SchedulerTest, InitContainerAndOverheadCountInFit) {
  api::ObjectSet in;
  in.nodes.push_back(MakeNode().Name("n1").Capacity({{"cpu", 2000}, {"pods", 110}}).Obj());
  // max(500 + 500, 1800) + 300 = 2100 > 2000.
  in.pods.push_back(MakePod()
                        .Name("p")
                        .Container({{"cpu", 500}})
                        .Container({{"cpu", 500}})
                        .InitReq({{"cpu", 1800}})
                        .Overhead({{"cpu", 300}})
                        .Obj());
  ScheduleResult r = Schedule(in, Verified());
  EXPECT_EQ(r.pending.size(), 1u);
}

TEST(SchedulerTest, SameInputSameOutput) {
  api::ObjectSet in;
  for (int i = 0; i < 5; ++i) {
    in.nodes.push_back(MakeNode().Name("n" + std::to_string(i)).Capacity({{"cpu", 4000}, {"pods", 110}}).Obj());
  }
  for (int i = 0; i < 30; ++i) {
    in.pods.push_back(MakePod().Name("p" + std::to_string(i)).Req({{"cpu", 300 + 10 * i}}).Obj());
  }
  ScheduleResult a = Schedule(in, Verified());
  ScheduleResult b = Schedule(in, Verified());
  ASSERT_EQ(a.bindings.size(), b.bindings.size());
  for (size_t i = 0; i < a.bindings.size(); ++i) {
    EXPECT_EQ(a.bindings[i].pod, b.bindings[i].pod);
    EXPECT_EQ(a.bindings[i].node, b.bindings[i].node);
  }
}

}  // namespace
}  // namespace wasched::sched

namespace wasched::sched {
namespace {

TEST(SchedulerTest, TopologyGroupIsPlacedAndMissingParentWaits) {
  // Trees and topology are scheduled now (spec §4.4, §5): a PodGroup with a topology key binds
  // inside one domain of that key, and a PodGroup whose parent CompositePodGroup is absent is
  // held at PreEnqueue (spec §4.2 step 3) -- neither is "Unsupported" any more.
  api::ObjectSet in;
  in.nodes.push_back(test::MakeNode().Name("n1").Capacity({{"cpu", 8000}, {"pods", 110}}).Label("zone", "a").Obj());
  in.nodes.push_back(test::MakeNode().Name("n2").Capacity({{"cpu", 8000}, {"pods", 110}}).Obj());
  in.pod_groups.push_back(test::MakePodGroup().Name("topo").MinCount(1).TopologyKey("zone").Obj());
  in.pod_groups.push_back(test::MakePodGroup().Name("child").MinCount(1).WorkloadRef("wl", "t").Parent("root").Obj());
  in.pods.push_back(test::MakePod().Name("a").Req({{"cpu", 100}}).Group("topo").Obj());
  in.pods.push_back(test::MakePod().Name("b").Req({{"cpu", 100}}).Group("child").Obj());
  ScheduleResult r = Schedule(in, Verified());
  ASSERT_EQ(r.bindings.size(), 1u);
  EXPECT_EQ(r.bindings[0].pod, "default/a");
  EXPECT_EQ(r.bindings[0].node, "n1");  // n2 has no zone label: outside every domain
  ASSERT_EQ(r.pending.size(), 1u);
  EXPECT_EQ(r.pending[0].pod, "default/b");
  EXPECT_EQ(r.pending[0].reason, "");  // held at PreEnqueue: no condition
  EXPECT_EQ(r.pending[0].held, "waiting for composite pod group \"root\" spec to appear");
}

// Fuzz finding (2026-11-29, fuzz_schedule under verify mode): a gang member whose spec.nodeName
// names a node the input does not hold was taken for unscheduled and bound a second time.
// It stays assigned (never bound again, never pending); the others schedule as usual.
TEST(SchedulerTest, MemberBoundToAMissingNodeIsNotBoundAgain) {
  api::ObjectSet in;
  in.nodes.push_back(test::MakeNode().Name("n1").Capacity({{"cpu", 4000}, {"pods", 110}}).Obj());
  in.pod_groups.push_back(test::MakePodGroup().Name("g").MinCount(2).Obj());
  in.pods.push_back(test::MakePod().Name("g-0").Req({{"cpu", 1000}}).Group("g").Node("ghost").Obj());
  in.pods.push_back(test::MakePod().Name("g-1").Req({{"cpu", 1000}}).Group("g").Obj());
  in.pods.push_back(test::MakePod().Name("g-2").Req({{"cpu", 1000}}).Group("g").Obj());
  const ScheduleResult r = Schedule(in, Verified());
  ASSERT_EQ(r.bindings.size(), 2u);
  EXPECT_EQ(r.bindings[0].pod, "default/g-1");
  EXPECT_EQ(r.bindings[1].pod, "default/g-2");
  EXPECT_TRUE(r.pending.empty());
}

// QA2 finding 18: eight nodes of `memory: 1Ei` in one rack sum to 2^63 bytes; the per-domain
// aggregate free capacity wrapped negative and the gang was pruned as "Insufficient memory".
// The sums saturate now (util/saturating.h); verify mode recomputes them the same way.
TEST(SchedulerTest, RackAggregateOfExbibyteNodesDoesNotOverflow) {
  api::ObjectSet in;
  for (int i = 0; i < 8; ++i) {
    in.nodes.push_back(test::MakeNode()
                           .Name("n" + std::to_string(i))
                           .Capacity({{"cpu", 4000}, {"memory", int64_t{1} << 60}, {"pods", 110}})
                           .Label("rack", "r0")
                           .Obj());
  }
  in.pod_groups.push_back(test::MakePodGroup().Name("g").MinCount(2).TopologyKey("rack").Obj());
  in.pods.push_back(test::MakePod().Name("g-0").Req({{"cpu", 1000}}).Group("g").Obj());
  in.pods.push_back(test::MakePod().Name("g-1").Req({{"cpu", 1000}}).Group("g").Obj());
  const ScheduleResult r = Schedule(in, Verified());
  EXPECT_EQ(r.bindings.size(), 2u);
  EXPECT_TRUE(r.pending.empty());
}

}  // namespace
}  // namespace wasched::sched

namespace wasched::sched {
namespace {

TEST(SchedulerTest, SchedulingGatesHoldThePodAndDoNotCountForTheGang) {
  api::ObjectSet in;
  in.nodes.push_back(test::MakeNode().Name("n1").Capacity({{"cpu", 8000}, {"pods", 110}}).Obj());
  in.pods.push_back(test::MakePod().Name("bare").Req({{"cpu", 100}}).Obj());
  in.pods.back().scheduling_gates = {"example.com/quota", "example.com/ready"};
  in.pod_groups.push_back(test::MakePodGroup().Name("g").MinCount(2).Obj());
  in.pods.push_back(test::MakePod().Name("m0").Req({{"cpu", 100}}).Group("g").Obj());
  in.pods.push_back(test::MakePod().Name("m1").Req({{"cpu", 100}}).Group("g").Obj());
  in.pods.back().scheduling_gates = {"example.com/quota"};
  ScheduleResult r = Schedule(in, Verified());
  EXPECT_TRUE(r.bindings.empty());
  ASSERT_EQ(r.pending.size(), 3u);
  EXPECT_EQ(r.pending[0].pod, "default/bare");
  EXPECT_EQ(r.pending[0].reason, "SchedulingGated");
  EXPECT_EQ(r.pending[0].message,
            "Scheduling is blocked due to non-empty scheduling gates: [example.com/quota, "
            "example.com/ready]");
  EXPECT_EQ(r.pending[0].held, "");
  // m0 is held by GangScheduling (no condition), m1 by its gate (SchedulingGated, as the API
  // server writes it).
  EXPECT_EQ(r.pending[1].pod, "default/m0");
  EXPECT_EQ(r.pending[1].reason, "");
  EXPECT_EQ(r.pending[1].message, "");
  EXPECT_THAT(r.pending[1].held, HasSubstr("1 of minCount 2 pods exist"));
  EXPECT_EQ(r.pending[2].pod, "default/m1");
  EXPECT_EQ(r.pending[2].reason, "SchedulingGated");
  EXPECT_EQ(r.pending[2].held, "");
}

TEST(SchedulerTest, NoNodesMessageIsUpstreams) {
  api::ObjectSet in;
  in.pods.push_back(test::MakePod().Name("p").Req({{"cpu", 100}}).Obj());
  ScheduleResult r = Schedule(in, Verified());
  ASSERT_EQ(r.pending.size(), 1u);
  EXPECT_EQ(r.pending[0].message, "no nodes available to schedule pods");
}

TEST(SchedulerTest, CompositePodGroupsAreListedWithMinGroupCount) {
  api::ObjectSet in;
  api::CompositePodGroup cpg;
  cpg.meta.name = "root";
  cpg.meta.namespace_ = "default";
  cpg.scheduling_policy.gang = api::CompositeGangSchedulingPolicy{2};
  in.composite_pod_groups.push_back(cpg);
  ScheduleResult r = Schedule(in, Verified());
  ASSERT_EQ(r.groups.size(), 1u);
  EXPECT_EQ(r.groups[0].kind, "CompositePodGroup");
  EXPECT_EQ(r.groups[0].name, "default/root");
  EXPECT_EQ(r.groups[0].min_group_count, 2);
  EXPECT_FALSE(r.groups[0].min_count.has_value());
}

}  // namespace
}  // namespace wasched::sched

namespace wasched::sched {
namespace {

// Breaker finding 01: allocatable near int64's maximum must not overflow the score.
TEST(SchedulerTest, HugeAllocatableScoresWithoutOverflow) {
  api::ObjectSet in;
  const int64_t seven_ei = 7LL << 60;
  in.nodes.push_back(test::MakeNode().Name("big").Capacity({{"cpu", 4000}, {"memory", seven_ei}, {"pods", 110}}).Obj());
  in.nodes.push_back(test::MakeNode().Name("small").Capacity({{"cpu", 4000}, {"memory", test::kGi * 2}, {"pods", 110}}).Obj());
  in.pods.push_back(test::MakePod().Name("p").Req({{"cpu", 1000}, {"memory", test::kGi}}).Obj());
  ScheduleResult r = Schedule(in, Verified());
  ASSERT_EQ(r.bindings.size(), 1u);
  // big: fit (75 + 99)/2 = 87, balanced 1 − |.25 − 0|/2 → 87: 174; small: fit (75 + 50)/2 = 62,
  // balanced 1 − |.25 − .5|/2 → 87: 149.
  EXPECT_EQ(r.bindings[0].node, "big");
}

// Breaker finding 02: the aggregate prune sums free capacity in 128 bits, so many nodes with
// huge memory do not wrap around and wrongly prune the S6 gang.
TEST(SchedulerTest, AggregatePruneDoesNotOverflow) {
  api::ObjectSet in;
  const int64_t ninety_p = 90LL * 1000 * 1000 * 1000 * 1000 * 1000;
  in.nodes.push_back(test::MakeNode().Name("a").Capacity({{"cpu", 53000}, {"memory", ninety_p}, {"pods", 110}}).Obj());
  in.nodes.push_back(test::MakeNode().Name("b").Capacity({{"cpu", 31000}, {"memory", ninety_p}, {"pods", 110}}).Obj());
  for (int i = 0; i < 110; ++i) {
    in.nodes.push_back(test::MakeNode().Name(fmt::format("f{:03}", i)).Capacity({{"cpu", 0}, {"memory", ninety_p}, {"pods", 110}}).Obj());
  }
  in.pod_groups.push_back(test::MakePodGroup().Name("job").MinCount(2).Obj());
  in.pods.push_back(test::MakePod().Name("x").Req({{"cpu", 30000}, {"memory", test::kGi}}).Group("job").Obj());
  in.pods.push_back(test::MakePod().Name("y").Req({{"cpu", 50000}, {"memory", test::kGi}}).Group("job").Obj());
  ScheduleResult r = Schedule(in, Verified());
  EXPECT_EQ(r.bindings.size(), 2u);
}

// Breaker finding 05: a homogeneous gang one pod too big for the cluster fails after the greedy
// pass, without an O(N²) search (this test would take minutes and gigabytes before the fix).
TEST(SchedulerTest, UnplaceableHomogeneousGangFailsFast) {
  api::ObjectSet in;
  const int n = 20000;
  for (int i = 0; i < n; ++i) {
    in.nodes.push_back(test::MakeNode().Name(fmt::format("n{:05}", i)).Capacity({{"cpu", 3000}, {"pods", 110}}).Obj());
  }
  in.pod_groups.push_back(test::MakePodGroup().Name("g").MinCount(n + 1).Obj());
  for (int i = 0; i <= n; ++i) {
    in.pods.push_back(test::MakePod().Name(fmt::format("p{}", i)).Req({{"cpu", 2000}}).Group("g").Obj());
  }
  ScheduleResult r = Schedule(in, {});
  EXPECT_TRUE(r.bindings.empty());
  EXPECT_THAT(r.groups[0].conditions.at(0).message, HasSubstr("20000 of 20001 pods fit"));
}

}  // namespace
}  // namespace wasched::sched

namespace wasched::sched {
namespace {

// Breaker finding 10: the default profile's NodeResourcesBalancedAllocation (weight 1).
// a: fit (75+33)/2 = 54, balanced 1 − |.25 − .667|/2 → 79: 133; b: fit 50, balanced 100: 150.
TEST(SchedulerTest, BalancedAllocationIsPartOfTheScore) {
  api::ObjectSet in;
  in.nodes.push_back(test::MakeNode().Name("a").Capacity({{"cpu", 4000}, {"memory", 1536 * test::kMi}, {"pods", 110}}).Obj());
  in.nodes.push_back(test::MakeNode().Name("b").Capacity({{"cpu", 2000}, {"memory", 2 * test::kGi}, {"pods", 110}}).Obj());
  in.pods.push_back(test::MakePod().Name("p").Req({{"cpu", 1000}, {"memory", test::kGi}}).Obj());
  ScheduleResult r = Schedule(in, Verified());
  ASSERT_EQ(r.bindings.size(), 1u);
  EXPECT_EQ(r.bindings[0].node, "b");
}

// Breaker finding 33: quorum met by running members, no new pod fits → Unschedulable
// "no pods were schedulable" (spec §4.4), not True/Scheduled.
TEST(SchedulerTest, NoNewPodSchedulableIsUnschedulable) {
  api::ObjectSet in;
  in.nodes.push_back(test::MakeNode().Name("n1").Capacity({{"cpu", 2000}, {"pods", 110}}).Obj());
  in.pod_groups.push_back(test::MakePodGroup().Name("g").MinCount(2).Obj());
  in.pods.push_back(test::MakePod().Name("r1").Req({{"cpu", 1000}}).Group("g").Node("n1").Obj());
  in.pods.push_back(test::MakePod().Name("r2").Req({{"cpu", 1000}}).Group("g").Node("n1").Obj());
  in.pods.push_back(test::MakePod().Name("p0").Req({{"cpu", 1000}}).Group("g").Obj());
  ScheduleResult r = Schedule(in, Verified());
  EXPECT_TRUE(r.bindings.empty());
  const auto& c = r.groups[0].conditions.at(0);
  EXPECT_EQ(c.status, "False");
  EXPECT_EQ(c.reason, "Unschedulable");
  EXPECT_EQ(c.message,
            "no pods were schedulable: 0/1 nodes are available: 1 Insufficient cpu. pod group "
            "preemption: No preemption victims found for incoming preemptor");
  EXPECT_EQ(r.pending.at(0).message, c.message);
}

}  // namespace
}  // namespace wasched::sched

namespace wasched::sched {
namespace {

// Breaker finding 07: DaemonSet-style pods pinned by matchFields metadata.name each form their
// own class; the NodeAffinity PreFilter restricts each class to its named nodes (no O(N) build),
// and the FitError still counts every other node as an affinity mismatch.
TEST(SchedulerTest, PodsPinnedByMetadataNameUseThePreFilter) {
  api::ObjectSet in;
  const int n = 3000;
  for (int i = 0; i < n; ++i) {
    in.nodes.push_back(test::MakeNode().Name(fmt::format("n{:05}", i)).Capacity({{"cpu", 1000}, {"pods", 110}}).Obj());
  }
  for (int i = 0; i < n; ++i) {
    api::Pod pod = test::MakePod().Name(fmt::format("ds-{}", i)).Req({{"cpu", 600}}).Obj();
    api::NodeSelectorTerm term;
    term.match_fields.push_back({"metadata.name", api::NodeSelectorOperator::kIn, {fmt::format("n{:05}", i)}});
    pod.node_affinity = api::NodeAffinity{};
    pod.node_affinity->required = std::vector<api::NodeSelectorTerm>{term};
    in.pods.push_back(pod);
  }
  api::Pod extra = in.pods[7];
  extra.meta.name = "ds-7-again";
  in.pods.push_back(extra);
  ScheduleResult r = Schedule(in, {});
  EXPECT_EQ(r.bindings.size(), static_cast<size_t>(n));
  for (const auto& b : r.bindings) {
    EXPECT_EQ(b.node, fmt::format("n{:05}", std::stoi(b.pod.substr(b.pod.find('-') + 1))));
  }
  ASSERT_EQ(r.pending.size(), 1u);
  EXPECT_EQ(r.pending[0].message,
            "0/3000 nodes are available: 1 Insufficient cpu, 2999 node(s) didn't match Pod's node "
            "affinity/selector. preemption: 0/3000 nodes are available: 1 No preemption victims "
            "found for incoming pod, 2999 Preemption is not helpful for scheduling.");
}

}  // namespace
}  // namespace wasched::sched

namespace wasched::sched {
namespace {

// Breaker finding 11: a node-exclusive gang (required anti-affinity) must not be bound with its
// members stacked on one node: the whole group is reported Unsupported instead.
TEST(SchedulerTest, HardConstraintsWaschedDoesNotModelAreNotDropped) {
  api::ObjectSet in;
  in.nodes.push_back(test::MakeNode().Name("n1").Capacity({{"cpu", 8000}, {"pods", 110}}).Obj());
  in.pod_groups.push_back(test::MakePodGroup().Name("g").MinCount(2).Obj());
  for (int i = 0; i < 2; ++i) {
    in.pods.push_back(test::MakePod().Name(fmt::format("m{}", i)).Req({{"cpu", 100}}).Group("g").Obj());
  }
  in.pods[1].unsupported_constraints = {
      "spec.affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution"};
  in.pods.push_back(test::MakePod().Name("web").Req({{"cpu", 100}}).Obj());
  in.pods.back().unsupported_constraints = {"spec.containers[0].ports[0].hostPort"};
  ScheduleResult r = Schedule(in, Verified());
  EXPECT_TRUE(r.bindings.empty());
  ASSERT_EQ(r.pending.size(), 3u);
  for (const auto& p : r.pending) EXPECT_EQ(p.reason, "Unsupported") << p.pod;
  EXPECT_THAT(r.pending[0].message, HasSubstr("member pod default/m1 has hard constraint(s)"));
  EXPECT_THAT(r.pending[2].message, HasSubstr("spec.containers[0].ports[0].hostPort"));
}

}  // namespace
}  // namespace wasched::sched

namespace wasched::sched {
namespace {

// validatePodGroup with gate PodGroupPreemptionPolicy off (schedule_one_podgroup.go, QA finding
// 19): the first pod's preemptionPolicy is the group's and every pod must agree; a group that
// mixes them is refused with SchedulerError before any preemption (no eviction, nothing bound).
TEST(SchedulerTest, PodsOfAGroupMustAgreeOnPreemptionPolicy) {
  api::ObjectSet in;
  in.nodes.push_back(test::MakeNode().Name("n1").Capacity({{"cpu", 1000}, {"pods", 110}}).Obj());
  in.pods.push_back(test::MakePod().Name("low").Req({{"cpu", 1000}}).Priority(1).Node("n1").Obj());
  in.pod_groups.push_back(test::MakePodGroup().Name("g").MinCount(1).Priority(100).Obj());
  in.pods.push_back(test::MakePod().Name("g0").Req({{"cpu", 500}}).Priority(100).Group("g").Obj());
  in.pods.push_back(test::MakePod()
                        .Name("g1")
                        .Req({{"cpu", 500}})
                        .Priority(100)
                        .PreemptionPolicy(api::PreemptionPolicy::kNever)
                        .Group("g")
                        .Obj());
  SchedulerOptions options = Verified();
  options.pod_group_preemption_policy = false;
  ScheduleResult r = Schedule(in, options);
  EXPECT_TRUE(r.bindings.empty());
  EXPECT_TRUE(r.evictions.empty());
  ASSERT_EQ(r.pending.size(), 2u);
  for (const auto& p : r.pending) {
    EXPECT_EQ(p.reason, api::kReasonSchedulerError) << p.pod;
    EXPECT_EQ(p.message,
              "all pods in a single pod group should have the same preemption policy, got Never "
              "and PreemptLowerPriority")
        << p.pod;
  }
  // Gate on: every pod must have the group's PreemptLowerPriority; g1 does not.
  options.pod_group_preemption_policy = true;
  r = Schedule(in, options);
  EXPECT_TRUE(r.bindings.empty());
  EXPECT_TRUE(r.evictions.empty());
  ASSERT_EQ(r.pending.size(), 2u);
  EXPECT_EQ(r.pending[0].message,
            "all pods in a single pod group should have the same preemption policy as the pod "
            "group's preemption policy, got Never and PreemptLowerPriority");
}

}  // namespace
}  // namespace wasched::sched

namespace wasched::sched {
namespace {

api::ObjectSet HostNodes(int count, int64_t cpu = 8000) {
  api::ObjectSet in;
  for (int i = 0; i < count; ++i) {
    in.nodes.push_back(test::MakeNode()
                           .Name(fmt::format("n{}", i))
                           .Capacity({{"cpu", cpu}, {"pods", 110}})
                           .Label("kubernetes.io/hostname", fmt::format("n{}", i))
                           .Label("topology.kubernetes.io/zone", i % 2 == 0 ? "a" : "b")
                           .Obj());
  }
  return in;
}

// Breaker finding 11 with the constraint modelled: a node-exclusive gang (required hostname
// anti-affinity among its members) is never stacked: on one node it stays pending whole, on two
// nodes its members land apart (the member assumed first counts for the second, as upstream).
TEST(SchedulerTest, NodeExclusiveGangMembersLandApart) {
  for (int nodes : {1, 2}) {
    api::ObjectSet in = HostNodes(nodes);
    in.pod_groups.push_back(test::MakePodGroup().Name("g").MinCount(2).Obj());
    for (int i = 0; i < 2; ++i) {
      in.pods.push_back(test::MakePod()
                            .Name(fmt::format("m{}", i))
                            .Req({{"cpu", 100}})
                            .Label("group", "g")
                            .PodAntiAffinity("group", "g", "kubernetes.io/hostname")
                            .Group("g")
                            .Obj());
    }
    ScheduleResult r = Schedule(in, Verified());
    if (nodes == 1) {
      EXPECT_TRUE(r.bindings.empty());
      ASSERT_EQ(r.pending.size(), 2u);
      EXPECT_EQ(r.pending[0].reason, "Unschedulable");
    } else {
      ASSERT_EQ(r.bindings.size(), 2u);
      EXPECT_NE(r.bindings[0].node, r.bindings[1].node);
    }
  }
}

TEST(SchedulerTest, HostPortsConflictOnANodeWithUpstreamsMessage) {
  api::ObjectSet in = HostNodes(1);
  in.pods.push_back(test::MakePod().Name("a").Req({{"cpu", 100}}).HostPort(8080).Obj());
  in.pods.push_back(test::MakePod().Name("b").Req({{"cpu", 100}}).HostPort(8080).Obj());
  in.pods.push_back(test::MakePod().Name("c").Req({{"cpu", 100}}).HostPort(8080, "UDP").Obj());
  ScheduleResult r = Schedule(in, Verified());
  EXPECT_EQ(NodeOf(r, "default/a"), "n0");
  EXPECT_EQ(NodeOf(r, "default/c"), "n0");  // another protocol
  const PendingPod* b = PendingOf(r, "default/b");
  ASSERT_NE(b, nullptr);
  EXPECT_EQ(b->reason, "Unschedulable");
  EXPECT_THAT(b->message, StartsWith("0/1 nodes are available: 1 node(s) didn't have free ports "
                                     "for the requested pod ports."));
}

TEST(SchedulerTest, PreemptionFreesAHostPort) {
  api::ObjectSet in = HostNodes(1);
  in.pods.push_back(
      test::MakePod().Name("low").Req({{"cpu", 100}}).HostPort(8080).Priority(1).Node("n0").Obj());
  in.pods.push_back(test::MakePod().Name("high").Req({{"cpu", 100}}).HostPort(8080).Priority(10).Obj());
  ScheduleResult r = Schedule(in, Verified());
  ASSERT_EQ(r.evictions.size(), 1u);
  EXPECT_EQ(r.evictions[0].pod, "default/low");
  EXPECT_EQ(NodeOf(r, "default/high"), "n0");
}

TEST(SchedulerTest, RequiredPodAffinityFollowsTheMatchingPodsZone) {
  api::ObjectSet in = HostNodes(4);
  in.pods.push_back(test::MakePod().Name("db").Label("app", "db").Node("n1").Obj());  // zone b
  in.pods.push_back(test::MakePod()
                        .Name("web")
                        .Req({{"cpu", 100}})
                        .PodAffinity("app", "db", "topology.kubernetes.io/zone")
                        .Obj());
  in.pods.push_back(test::MakePod()
                        .Name("lonely")
                        .Req({{"cpu", 100}})
                        .PodAffinity("app", "cache", "topology.kubernetes.io/zone")
                        .Obj());
  ScheduleResult r = Schedule(in, Verified());
  const std::string web = NodeOf(r, "default/web");
  EXPECT_TRUE(web == "n1" || web == "n3") << web;
  const PendingPod* lonely = PendingOf(r, "default/lonely");
  ASSERT_NE(lonely, nullptr);
  EXPECT_THAT(lonely->message,
              StartsWith("0/4 nodes are available: 4 node(s) didn't match pod affinity rules."));
}

TEST(SchedulerTest, DoNotScheduleSpreadAlternatesZones) {
  api::ObjectSet in = HostNodes(4);
  for (int i = 0; i < 4; ++i) {
    api::Pod p = test::MakePod().Name(fmt::format("p{}", i)).Req({{"cpu", 100}}).Label("app", "x").Obj();
    api::TopologySpreadConstraint c;
    c.max_skew = 1;
    c.topology_key = "topology.kubernetes.io/zone";
    c.label_selector.emplace().match_labels["app"] = "x";
    p.topology_spread_constraints.push_back(c);
    in.pods.push_back(std::move(p));
  }
  ScheduleResult r = Schedule(in, Verified());
  ASSERT_EQ(r.bindings.size(), 4u);
  int zone_a = 0;
  for (const auto& b : r.bindings) zone_a += (b.node == "n0" || b.node == "n2") ? 1 : 0;
  EXPECT_EQ(zone_a, 2);
}

}  // namespace
}  // namespace wasched::sched
