// File: sched/scheduler_queue_test.cc
//
// The scheduler's queue side (issue 4): only hierarchy roots are queued and admitted by the
// recursive PreEnqueue readiness of spec §4.2 (running members count, scheduling-gated pods do
// not), runtime hierarchy validation (§4.6) puts a False SchedulerError condition on every level,
// *InitiallyScheduled conditions never regress on any level, live minCount changes never touch
// running pods, and an injected clock changes nothing in a one-shot run.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "sched/scheduler.h"
#include "validation/hierarchy_validation.h"
#include "support/builders.h"

namespace wasched::sched {
namespace {

using test::MakeCompositePodGroup;
using test::MakeNode;
using test::MakePod;
using test::MakePodGroup;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

SchedulerOptions Verified() {
  SchedulerOptions o;
  o.verify = true;
  return o;
}

const PendingPod* PendingOf(const ScheduleResult& r, const std::string& pod) {
  for (const auto& p : r.pending) {
    if (p.pod == pod) return &p;
  }
  return nullptr;
}

const GroupResult* GroupOf(const ScheduleResult& r, const std::string& kind, const std::string& name) {
  for (const auto& g : r.groups) {
    if (g.kind == kind && g.name == name) return &g;
  }
  return nullptr;
}

const api::Condition* ConditionOf(const ScheduleResult& r, const std::string& kind,
                                  const std::string& name) {
  const GroupResult* g = GroupOf(r, kind, name);
  if (g == nullptr) return nullptr;
  // A CompositePodGroup's decision is its outcome: v1.37.2 writes no condition there.
  if (kind != "PodGroup") return g->outcome ? &*g->outcome : nullptr;
  for (const auto& c : g->conditions) {
    if (c.type == api::kPodGroupInitiallyScheduled) return &c;
  }
  return nullptr;
}

api::PodGroup Leaf(const std::string& name, const std::string& parent, int32_t min_count) {
  return MakePodGroup().Name(name).MinCount(min_count).Parent(parent).WorkloadRef("wl", name).Obj();
}

api::ObjectSet OneNode(int64_t milli_cpu = 20000) {
  api::ObjectSet in;
  in.nodes.push_back(MakeNode().Name("n1").Capacity({{"cpu", milli_cpu}, {"pods", 110}}).Obj());
  return in;
}

void AddPods(api::ObjectSet& in, const std::string& group, int count, const std::string& node = "") {
  for (int i = 0; i < count; ++i) {
    auto b = MakePod().Name(group + "-" + std::to_string(i)).Group(group).Req({{"cpu", 1000}});
    if (!node.empty()) b.Node(node);
    in.pods.push_back(b.Obj());
  }
}

// A Basic CompositePodGroup is ready with one ready child: the ready leaf's tree is admitted.
TEST(SchedulerQueueTest, BasicRootNeedsOneReadyChild) {
  api::ObjectSet in = OneNode();
  in.composite_pod_groups.push_back(MakeCompositePodGroup().Name("root").Basic().Obj());
  in.pod_groups = {Leaf("a", "root", 2), Leaf("b", "root", 2)};
  AddPods(in, "a", 2);
  AddPods(in, "b", 1);  // b is not ready, but the basic root needs only one ready child
  ScheduleResult r = Schedule(in, Verified());
  for (const auto& p : r.pending) EXPECT_EQ(p.held, "") << p.pod;
}

// A gang root needs minGroupCount ready children; the rejection names the root and the counts.
TEST(SchedulerQueueTest, GangRootBelowQuorumIsHeldWithUpstreamMessage) {
  api::ObjectSet in = OneNode();
  in.composite_pod_groups.push_back(MakeCompositePodGroup().Name("root").MinGroupCount(2).Obj());
  in.pod_groups = {Leaf("a", "root", 2), Leaf("b", "root", 2)};
  AddPods(in, "a", 2);
  AddPods(in, "b", 1);
  ScheduleResult r = Schedule(in, Verified());
  EXPECT_THAT(r.bindings, IsEmpty());
  ASSERT_EQ(r.pending.size(), 3u);
  for (const auto& p : r.pending) {
    EXPECT_EQ(p.reason, "");  // held at PreEnqueue: v1.37.2 writes no condition
    EXPECT_EQ(p.message, "");
    EXPECT_EQ(p.held,
              "waiting for composite pod group \"root\" tree to meet quorum (1 of minGroupCount 2 "
              "child groups ready)");
  }
  for (const auto& g : r.groups) EXPECT_THAT(g.conditions, IsEmpty()) << g.name;
}

// Readiness is recursive: a nested gang CompositePodGroup whose only leaf lacks pods is not a
// ready child of the root.
TEST(SchedulerQueueTest, NestedCompositeReadinessIsRecursive) {
  api::ObjectSet in = OneNode();
  in.composite_pod_groups.push_back(MakeCompositePodGroup().Name("root").MinGroupCount(2).Obj());
  in.composite_pod_groups.push_back(
      MakeCompositePodGroup().Name("mid").MinGroupCount(1).Parent("root").Obj());
  in.pod_groups = {Leaf("a", "root", 1), Leaf("deep", "mid", 3)};
  AddPods(in, "a", 1);
  AddPods(in, "deep", 2);
  ScheduleResult r = Schedule(in, Verified());
  const PendingPod* p = PendingOf(r, "default/deep-0");
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(p->reason, "");
  EXPECT_THAT(p->held, HasSubstr("(1 of minGroupCount 2 child groups ready)"));

  in.pods.push_back(MakePod().Name("deep-2").Group("deep").Req({{"cpu", 1000}}).Obj());
  r = Schedule(in, Verified());
  EXPECT_EQ(r.bindings.size(), 4u);  // the whole tree now meets quorum and fits
}

// Running members count toward readiness (upstream AllPodsCount); pods held by scheduling gates
// do not.
TEST(SchedulerQueueTest, RunningMembersCountGatedPodsDoNot) {
  api::ObjectSet in = OneNode();
  in.composite_pod_groups.push_back(MakeCompositePodGroup().Name("root").MinGroupCount(1).Obj());
  in.pod_groups = {Leaf("a", "root", 3)};
  AddPods(in, "a", 2, "n1");  // a-0, a-1 already run
  in.pods.push_back(MakePod().Name("a-new").Group("a").Req({{"cpu", 1000}}).Obj());
  ScheduleResult r = Schedule(in, Verified());
  ASSERT_EQ(r.bindings.size(), 1u);
  EXPECT_EQ(r.bindings[0].pod, "default/a-new");

  api::ObjectSet gated = OneNode();
  gated.composite_pod_groups = in.composite_pod_groups;
  gated.pod_groups = in.pod_groups;
  AddPods(gated, "a", 2);
  api::Pod held = MakePod().Name("a-held").Group("a").Req({{"cpu", 1000}}).Obj();
  held.scheduling_gates = {"example.com/wait"};
  gated.pods.push_back(held);
  r = Schedule(gated, Verified());
  EXPECT_THAT(r.bindings, IsEmpty());
  const PendingPod* p = PendingOf(r, "default/a-0");
  ASSERT_NE(p, nullptr);
  EXPECT_EQ(p->reason, "");
  EXPECT_THAT(p->held, HasSubstr("tree to meet quorum"));
  const PendingPod* gate = PendingOf(r, "default/a-held");
  ASSERT_NE(gate, nullptr);
  EXPECT_EQ(gate->reason, "SchedulingGated");  // spec.schedulingGates: the API server's reason
  EXPECT_EQ(gate->held, "");
}

// A standalone gang keeps its message: "waiting for minCount pods …" with the counts.
TEST(SchedulerQueueTest, StandaloneGangBelowMinCount) {
  api::ObjectSet in = OneNode();
  in.pod_groups.push_back(MakePodGroup().Name("pg").MinCount(3).Obj());
  AddPods(in, "pg", 2);
  ScheduleResult r = Schedule(in, Verified());
  ASSERT_EQ(r.pending.size(), 2u);
  EXPECT_EQ(r.pending[0].held,
            "waiting for minCount pods from a gang to appear in scheduling queue (2 of minCount 3 "
            "pods exist)");
}

// A PodGroup whose parent CompositePodGroup is absent waits for its spec.
TEST(SchedulerQueueTest, MissingCompositeSpecWaits) {
  api::ObjectSet in = OneNode();
  in.pod_groups = {Leaf("a", "ghost", 1)};
  AddPods(in, "a", 1);
  ScheduleResult r = Schedule(in, Verified());
  ASSERT_EQ(r.pending.size(), 1u);
  EXPECT_EQ(r.pending[0].reason, "");
  EXPECT_EQ(r.pending[0].held, "waiting for composite pod group \"ghost\" spec to appear");
  const GroupResult* g = GroupOf(r, "PodGroup", "default/a");
  ASSERT_NE(g, nullptr);
  EXPECT_EQ(g->parent, std::optional<std::string>("default/ghost"));
}

// Every level of a refused tree (here: deeper than validation::kMaxSchedulingTreeDepth, wasched's
// own limit) is False/SchedulerError and no pod binds — even a leaf whose own pods would fit. A
// True condition from the input never regresses.
TEST(SchedulerQueueTest, RefusedHierarchyMarksEveryLevelWithoutRegressing) {
  api::ObjectSet in = OneNode();
  api::CompositePodGroup root = MakeCompositePodGroup().Name("root").MinGroupCount(1).Obj();
  root.disruption_mode = api::DisruptionMode{.single = false, .all = true};
  in.composite_pod_groups.push_back(root);
  in.composite_pod_groups.push_back(MakeCompositePodGroup().Name("mid").Parent("root").Obj());
  in.composite_pod_groups.back().disruption_mode = root.disruption_mode;
  api::PodGroup ok = Leaf("ok", "mid", 1);
  ok.disruption_mode = root.disruption_mode;
  ok.conditions.push_back(
      api::Condition{api::kPodGroupInitiallyScheduled, "True", api::kReasonScheduled, "", 0, 0});
  std::string parent = "mid";  // mid is depth 2: 63 more levels make the deepest depth 65
  for (int d = 3; d <= validation::kMaxSchedulingTreeDepth + 1; ++d) {
    const std::string name = "c" + std::to_string(d);
    in.composite_pod_groups.push_back(MakeCompositePodGroup().Name(name).Parent(parent).Obj());
    in.composite_pod_groups.back().disruption_mode = root.disruption_mode;
    parent = name;
  }
  in.pod_groups = {ok, Leaf("single", parent, 1)};
  AddPods(in, "ok", 1);
  AddPods(in, "single", 1);
  ScheduleResult r = Schedule(in, Verified());
  EXPECT_THAT(r.bindings, IsEmpty());
  ASSERT_EQ(r.pending.size(), 2u);
  for (const auto& p : r.pending) {
    EXPECT_EQ(p.reason, api::kReasonSchedulerError) << p.pod;
    EXPECT_THAT(p.message, HasSubstr("is at depth 65")) << p.pod;
  }
  for (const auto& [kind, name] : std::vector<std::pair<std::string, std::string>>{
           {"CompositePodGroup", "default/root"},
           {"CompositePodGroup", "default/mid"},
           {"PodGroup", "default/single"}}) {
    const api::Condition* c = ConditionOf(r, kind, name);
    ASSERT_NE(c, nullptr) << name;
    EXPECT_EQ(c->status, "False") << name;
    EXPECT_EQ(c->reason, api::kReasonSchedulerError) << name;
  }
  const api::Condition* kept = ConditionOf(r, "PodGroup", "default/ok");
  ASSERT_NE(kept, nullptr);
  EXPECT_EQ(kept->status, "True");  // never regresses
}

// §4.6 cycles: two CompositePodGroups naming each other (no root) and a PodGroup under one of
// them: every group is False/SchedulerError "… is cyclic", the pod is never tried.
TEST(SchedulerQueueTest, CyclicHierarchyIsRefusedOnEveryGroup) {
  api::ObjectSet in = OneNode();
  in.composite_pod_groups.push_back(MakeCompositePodGroup().Name("cpg-a").Parent("cpg-b").Obj());
  in.composite_pod_groups.push_back(MakeCompositePodGroup().Name("cpg-b").Parent("cpg-a").Obj());
  in.pod_groups = {Leaf("pg1", "cpg-a", 1)};
  AddPods(in, "pg1", 1);
  ScheduleResult r = Schedule(in, Verified());
  EXPECT_THAT(r.bindings, IsEmpty());
  ASSERT_EQ(r.pending.size(), 1u);
  EXPECT_EQ(r.pending[0].reason, api::kReasonSchedulerError);
  EXPECT_THAT(r.pending[0].message, HasSubstr("cyclic"));
  for (const auto& [kind, name] : std::vector<std::pair<std::string, std::string>>{
           {"CompositePodGroup", "default/cpg-a"},
           {"CompositePodGroup", "default/cpg-b"},
           {"PodGroup", "default/pg1"}}) {
    const api::Condition* c = ConditionOf(r, kind, name);
    ASSERT_NE(c, nullptr) << name;
    EXPECT_EQ(c->status, "False") << name;
    EXPECT_EQ(c->reason, api::kReasonSchedulerError) << name;
    EXPECT_THAT(c->message, HasSubstr("cyclic")) << name;
  }
  const GroupResult* a = GroupOf(r, "CompositePodGroup", "default/cpg-a");
  ASSERT_NE(a, nullptr);
  EXPECT_EQ(a->scheduled, 0);  // nothing on a cycle counts
}

// Raising minCount on a live gang above what fits: nothing binds, nothing running moves or is
// reported; lowering it lets a new member bind on its own.
TEST(SchedulerQueueTest, LiveMinCountChangesNeverTouchRunningPods) {
  for (const int32_t min_count : {5, 2}) {
    api::ObjectSet in = OneNode(4000);
    in.pod_groups.push_back(MakePodGroup().Name("pg").MinCount(min_count).Obj());
    AddPods(in, "pg", 3, "n1");
    in.pods.push_back(MakePod().Name("new-0").Group("pg").Req({{"cpu", 1000}}).Obj());
    in.pods.push_back(MakePod().Name("new-1").Group("pg").Req({{"cpu", 1000}}).Obj());
    ScheduleResult r = Schedule(in, Verified());
    EXPECT_THAT(r.evictions, IsEmpty());
    for (const auto& b : r.bindings) EXPECT_THAT(b.pod, HasSubstr("new-")) << min_count;
    for (const auto& p : r.pending) EXPECT_THAT(p.pod, HasSubstr("new-")) << min_count;
    const GroupResult* g = GroupOf(r, "PodGroup", "default/pg");
    ASSERT_NE(g, nullptr);
    if (min_count == 5) {
      EXPECT_THAT(r.bindings, IsEmpty());  // 3 running + 1 that fits < 5
      EXPECT_EQ(g->scheduled, 3);
    } else {
      EXPECT_EQ(r.bindings.size(), 1u);  // quorum met by the running members; room for one
      EXPECT_EQ(g->scheduled, 4);
    }
  }
}

// The clock only matters to a long-running queue: a one-shot run with an injected FakeClock at
// any time gives the same result as the default.
TEST(SchedulerQueueTest, InjectedClockDoesNotChangeOneShotResult) {
  api::ObjectSet in = OneNode(3000);
  in.pod_groups.push_back(MakePodGroup().Name("pg").MinCount(2).Obj());
  AddPods(in, "pg", 2);
  in.pods.push_back(MakePod().Name("big").Req({{"cpu", 9000}}).Obj());
  FakeClock clock(std::chrono::hours(1000));
  SchedulerOptions with_clock = Verified();
  with_clock.clock = &clock;
  const ScheduleResult a = Schedule(in, Verified());
  const ScheduleResult b = Schedule(in, with_clock);
  ASSERT_EQ(a.bindings.size(), b.bindings.size());
  EXPECT_EQ(a.bindings.size(), 2u);
  ASSERT_EQ(a.pending.size(), b.pending.size());
  EXPECT_EQ(a.pending[0].message, b.pending[0].message);
}

// Issue 19: a binding is an assigned-pod add; InterPodAffinity's and PodTopologySpread's
// queueing hints move the pods they rejected, and the backoff queue is flushed when the active
// queue drains (upstream SchedulerPopFromBackoffQ), deterministically.
api::ObjectSet TwoHosts() {
  api::ObjectSet in;
  for (const char* name : {"n1", "n2"}) {
    in.nodes.push_back(MakeNode()
                           .Name(name)
                           .Label("kubernetes.io/hostname", name)
                           .Capacity({{"cpu", 4000}, {"pods", 110}})
                           .Obj());
  }
  return in;
}

std::string NodeOf(const ScheduleResult& r, const std::string& pod) {
  for (const auto& b : r.bindings) {
    if (b.pod == pod) return b.node;
  }
  return "";
}

// (a) P needs a pod labelled app=x on its host; the only one, X, has a lower priority, so it is
// queued after P. P fails first, X's binding requeues it (its hint: X matches all of P's required
// affinity terms), the drained active queue pops it from backoff, and it joins X on n2.
TEST(SchedulerQueueTest, PodAffinityMetByLaterBindingIsRetried) {
  api::ObjectSet in = TwoHosts();
  in.pods.push_back(MakePod()
                        .Name("p")
                        .Priority(10)
                        .Req({{"cpu", 1000}})
                        .PodAffinity("app", "x", "kubernetes.io/hostname")
                        .Obj());
  in.pods.push_back(MakePod()
                        .Name("x")
                        .Label("app", "x")
                        .Req({{"cpu", 1000}})
                        .NodeSelector("kubernetes.io/hostname", "n2")
                        .Obj());
  const ScheduleResult r = Schedule(in, Verified());
  EXPECT_THAT(r.pending, IsEmpty());
  EXPECT_EQ(NodeOf(r, "default/x"), "n2");
  EXPECT_EQ(NodeOf(r, "default/p"), "n2");
}

// Upstream's InterPodAffinity hint matches the rejected pod's terms against the bound pod with no
// namespace labels (filtering.go podMatchesAllAffinityTerms → Matches(pod, nil)): a term that
// reaches the bound pod's namespace only through a namespaceSelector does not requeue P, which
// stays pending although the Filter would now pass (v1.37.2, differential case
// affinity.a1-0242). The same term naming the namespace in `namespaces` requeues it.
TEST(SchedulerQueueTest, AffinityByNamespaceSelectorIsNotRequeuedByTheBinding) {
  for (const bool by_selector : {true, false}) {
    SCOPED_TRACE(by_selector ? "namespaceSelector" : "namespaces");
    api::ObjectSet in = TwoHosts();
    api::Pod p = MakePod()
                     .Name("p")
                     .Namespace("team-b")
                     .Priority(10)
                     .Req({{"cpu", 1000}})
                     .PodAffinity("app", "x", "kubernetes.io/hostname")
                     .Obj();
    api::PodAffinityTerm& term = p.pod_affinity->required[0];
    if (by_selector) {
      term.namespace_selector = api::LabelSelector{};
      api::LabelSelectorRequirement in_default;
      in_default.key = "kubernetes.io/metadata.name";
      in_default.op = api::LabelSelectorOperator::kIn;
      in_default.op_text = "In";
      in_default.values = {"default"};
      term.namespace_selector->match_expressions.push_back(std::move(in_default));
    } else {
      term.namespaces = {"default"};
    }
    in.pods.push_back(std::move(p));
    in.pods.push_back(MakePod()
                          .Name("x")
                          .Label("app", "x")
                          .Req({{"cpu", 1000}})
                          .NodeSelector("kubernetes.io/hostname", "n2")
                          .Obj());
    const ScheduleResult r = Schedule(in, Verified());
    EXPECT_EQ(NodeOf(r, "default/x"), "n2");
    if (by_selector) {
      ASSERT_EQ(r.pending.size(), 1u);
      EXPECT_EQ(r.pending[0].pod, "team-b/p");
    } else {
      EXPECT_THAT(r.pending, IsEmpty());
      EXPECT_EQ(NodeOf(r, "team-b/p"), "n2");
    }
  }
}

// The same with P a gang member: the group unit is requeued by its member's hint.
TEST(SchedulerQueueTest, GangWithPodAffinityMetByLaterBindingIsRetried) {
  api::ObjectSet in = TwoHosts();
  in.pod_groups.push_back(MakePodGroup().Name("pg").MinCount(2).Obj());
  for (int i = 0; i < 2; ++i) {
    in.pods.push_back(MakePod()
                          .Name("p-" + std::to_string(i))
                          .Group("pg")
                          .Priority(10)
                          .Req({{"cpu", 1000}})
                          .PodAffinity("app", "x", "kubernetes.io/hostname")
                          .Obj());
  }
  in.pod_groups.back().priority = 10;
  in.pods.push_back(MakePod()
                        .Name("x")
                        .Label("app", "x")
                        .Req({{"cpu", 1000}})
                        .NodeSelector("kubernetes.io/hostname", "n2")
                        .Obj());
  const ScheduleResult r = Schedule(in, Verified());
  EXPECT_THAT(r.pending, IsEmpty());
  EXPECT_EQ(NodeOf(r, "default/p-0"), "n2");
  EXPECT_EQ(NodeOf(r, "default/p-1"), "n2");
}

// (b) P spreads app=x pods over zones with maxSkew 1 and fits only in zone a (zone b's node is
// too small), which already holds one: skew 2. Q (app=x, lower priority) binds in zone b; its
// hint requeues P, which then fits in zone a (2 − 1 = 1).
TEST(SchedulerQueueTest, SpreadMetByLaterBindingIsRetried) {
  api::ObjectSet in;
  in.nodes.push_back(MakeNode()
                         .Name("na")
                         .Label("kubernetes.io/hostname", "na")
                         .Label("topology.kubernetes.io/zone", "a")
                         .Capacity({{"cpu", 4000}, {"pods", 110}})
                         .Obj());
  in.nodes.push_back(MakeNode()
                         .Name("nb")
                         .Label("kubernetes.io/hostname", "nb")
                         .Label("topology.kubernetes.io/zone", "b")
                         .Capacity({{"cpu", 1000}, {"pods", 110}})
                         .Obj());
  in.pods.push_back(
      MakePod().Name("running").Label("app", "x").Req({{"cpu", 1000}}).Node("na").Obj());
  api::Pod p = MakePod().Name("p").Label("app", "x").Priority(10).Req({{"cpu", 2000}}).Obj();
  api::TopologySpreadConstraint c;
  c.max_skew = 1;
  c.topology_key = "topology.kubernetes.io/zone";
  c.label_selector = api::LabelSelector{};
  c.label_selector->match_labels["app"] = "x";
  p.topology_spread_constraints.push_back(c);
  in.pods.push_back(p);
  in.pods.push_back(MakePod()
                        .Name("q")
                        .Label("app", "x")
                        .Req({{"cpu", 1000}})
                        .NodeSelector("topology.kubernetes.io/zone", "b")
                        .Obj());
  const ScheduleResult r = Schedule(in, Verified());
  EXPECT_THAT(r.pending, IsEmpty());
  EXPECT_EQ(NodeOf(r, "default/q"), "nb");
  EXPECT_EQ(NodeOf(r, "default/p"), "na");
}

// A binding that does not match P's terms does not requeue it; one that does but still leaves
// it unschedulable retries it once, and the run ends with P pending (no endless retries).
TEST(SchedulerQueueTest, UnhelpedAffinityPodStaysPendingAndRunEnds) {
  api::ObjectSet in = TwoHosts();
  in.pods.push_back(MakePod()
                        .Name("p")
                        .Priority(10)
                        .Req({{"cpu", 1000}})
                        .PodAffinity("app", "x", "kubernetes.io/hostname")
                        .NodeSelector("kubernetes.io/hostname", "n1")
                        .Obj());
  in.pods.push_back(MakePod()
                        .Name("y")
                        .Label("app", "y")
                        .Req({{"cpu", 1000}})
                        .NodeSelector("kubernetes.io/hostname", "n1")
                        .Obj());
  in.pods.push_back(MakePod()
                        .Name("x")
                        .Label("app", "x")
                        .Req({{"cpu", 1000}})
                        .NodeSelector("kubernetes.io/hostname", "n2")
                        .Obj());
  const ScheduleResult r = Schedule(in, Verified());
  ASSERT_EQ(r.pending.size(), 1u);
  EXPECT_EQ(r.pending[0].pod, "default/p");
  EXPECT_THAT(r.pending[0].message, HasSubstr("didn't match pod affinity rules"));
  EXPECT_EQ(r.bindings.size(), 2u);
}

// Issue 20 A.1: a gang whose quorum is met in one cycle with more members than fit binds the
// quorum, and the members left go straight back to the active queue (upstream
// AddAttemptedPodGroupIfNeeded with a Success status), so their next attempt, preemption
// included, starts at once: minCount 2 of 4, room for 2, two lower-priority pods hold the rest.
api::ObjectSet LeftoverCase(int32_t blocker_priority) {
  api::ObjectSet in = OneNode(4000);
  in.pod_groups.push_back(MakePodGroup().Name("pg").MinCount(2).Obj());
  in.pod_groups.back().priority = 100;
  for (int i = 0; i < 4; ++i) {
    in.pods.push_back(MakePod()
                          .Name("pg-" + std::to_string(i))
                          .Group("pg")
                          .Priority(100)
                          .Req({{"cpu", 1000}})
                          .Obj());
  }
  for (int i = 0; i < 2; ++i) {
    in.pods.push_back(MakePod()
                          .Name("low-" + std::to_string(i))
                          .Priority(blocker_priority)
                          .Req({{"cpu", 1000}})
                          .Node("n1")
                          .Obj());
  }
  return in;
}

TEST(SchedulerQueueTest, LeftoverGangMembersPreemptAtOnce) {
  const ScheduleResult r = Schedule(LeftoverCase(0), Verified());
  EXPECT_THAT(r.pending, IsEmpty());
  EXPECT_EQ(r.bindings.size(), 4u);
  ASSERT_EQ(r.evictions.size(), 2u);
  for (const auto& e : r.evictions) {
    EXPECT_THAT(e.pod, HasSubstr("default/low-"));
    EXPECT_EQ(e.preemptor, "PodGroup default/pg");
  }
  const GroupResult* g = GroupOf(r, "PodGroup", "default/pg");
  ASSERT_NE(g, nullptr);
  EXPECT_EQ(g->scheduled, 4);
}

// No lower-priority victims: the leftovers were retried (the PostFilter ran) and stay pending,
// and their message says that no further attempt is pending.
TEST(SchedulerQueueTest, LeftoverMessageSaysWhetherARetryIsComing) {
  const ScheduleResult r = Schedule(LeftoverCase(200), Verified());
  EXPECT_EQ(r.bindings.size(), 2u);
  EXPECT_THAT(r.evictions, IsEmpty());
  ASSERT_EQ(r.pending.size(), 2u);
  for (const auto& p : r.pending) {
    EXPECT_EQ(p.reason, "Unschedulable");
    EXPECT_THAT(p.message, HasSubstr("pod group preemption: No preemption victims found"));
    EXPECT_THAT(p.message, HasSubstr("No retry pending: the group is scheduled"));
  }
  const api::Condition* c = ConditionOf(r, "PodGroup", "default/pg");
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(c->status, "True");
}

// Issue 20 A.2: a gang scheduled once whose members ended (Failed) has replacements pending.
// `ended` members Failed, `running` on n1, `pending` replacements; n1 has room for `room` more.
api::ObjectSet EndedMembersCase(int ended, int running, int pending, int64_t room) {
  api::ObjectSet in = OneNode(1000 * (running + room));
  in.pod_groups.push_back(MakePodGroup()
                              .Name("pg")
                              .MinCount(3)
                              .Condition(api::kPodGroupInitiallyScheduled, "True",
                                         api::kReasonScheduled, "")
                              .Obj());
  auto member = [&](const std::string& name) {
    return MakePod().Name(name).Group("pg").Req({{"cpu", 1000}});
  };
  for (int i = 0; i < ended; ++i) in.pods.push_back(member("e" + std::to_string(i)).Phase("Failed").Obj());
  for (int i = 0; i < running; ++i) in.pods.push_back(member("r" + std::to_string(i)).Node("n1").Obj());
  for (int i = 0; i < pending; ++i) in.pods.push_back(member("x" + std::to_string(i)).Obj());
  return in;
}

SchedulerOptions OnceScheduled() {
  SchedulerOptions o = Verified();
  o.gang_satisfaction = GangSatisfaction::kOnceScheduled;
  return o;
}

// Upstream (default): 1 running + 1 replacement < minCount 3: PreEnqueue holds the replacement,
// and its message names the upstream issue. once-scheduled: the replacement binds.
TEST(SchedulerQueueTest, ReplacementOfEndedMemberHeldAtPreEnqueueUpstream) {
  const api::ObjectSet in = EndedMembersCase(/*ended=*/2, /*running=*/1, /*pending=*/1, /*room=*/2);
  const ScheduleResult up = Schedule(in, Verified());
  EXPECT_THAT(up.bindings, IsEmpty());
  const PendingPod* x = PendingOf(up, "default/x0");
  ASSERT_NE(x, nullptr);
  EXPECT_EQ(x->reason, "");
  EXPECT_EQ(x->message, "");
  EXPECT_EQ(x->held,
            "waiting for minCount pods from a gang to appear in scheduling queue (2 of "
            "minCount 3 pods exist); a member ended after the group was scheduled, upstream "
            "issue kubernetes#142330");

  const ScheduleResult once = Schedule(in, OnceScheduled());
  EXPECT_THAT(once.pending, IsEmpty());
  ASSERT_EQ(once.bindings.size(), 1u);
  EXPECT_EQ(once.bindings[0].pod, "default/x0");
}

// Enough pods exist (1 running + 2 replacements = 3) but room for one only: upstream's cycle
// places nothing (2 of 3 fit) and says why; once-scheduled binds one and leaves the other
// pending with the retry note.
TEST(SchedulerQueueTest, ReplacementsOfEndedMemberScheduleOneByOneOnceScheduled) {
  const api::ObjectSet in = EndedMembersCase(/*ended=*/1, /*running=*/1, /*pending=*/2, /*room=*/1);
  const ScheduleResult up = Schedule(in, Verified());
  EXPECT_THAT(up.bindings, IsEmpty());
  ASSERT_EQ(up.pending.size(), 2u);
  for (const auto& p : up.pending) {
    EXPECT_THAT(p.message, ::testing::StartsWith("held: "));
    EXPECT_THAT(p.message, HasSubstr("2 of 3 pods fit, minCount 3"));
    EXPECT_THAT(p.message, ::testing::EndsWith(
                               "; a member ended after the group was scheduled, upstream issue "
                               "kubernetes#142330"));
  }

  const ScheduleResult once = Schedule(in, OnceScheduled());
  ASSERT_EQ(once.bindings.size(), 1u);
  EXPECT_EQ(once.bindings[0].pod, "default/x0");
  const PendingPod* x1 = PendingOf(once, "default/x1");
  ASSERT_NE(x1, nullptr);
  EXPECT_THAT(x1->message, HasSubstr("No retry pending"));
  EXPECT_THAT(x1->message, ::testing::Not(HasSubstr("kubernetes#142330")));
}

// A gang never scheduled keeps its quorum under once-scheduled too, and a held gang without an
// ended member gets no "held:" note upstream.
TEST(SchedulerQueueTest, OnceScheduledNeedsAFirstSchedule) {
  api::ObjectSet in = OneNode(4000);
  in.pod_groups.push_back(MakePodGroup().Name("pg").MinCount(3).Obj());
  AddPods(in, "pg", 2);
  for (const SchedulerOptions& o : {Verified(), OnceScheduled()}) {
    const ScheduleResult r = Schedule(in, o);
    EXPECT_THAT(r.bindings, IsEmpty());
    ASSERT_EQ(r.pending.size(), 2u);
    EXPECT_EQ(r.pending[0].held,
              "waiting for minCount pods from a gang to appear in scheduling queue (2 of minCount "
              "3 pods exist)");
  }
}

}  // namespace
}  // namespace wasched::sched
