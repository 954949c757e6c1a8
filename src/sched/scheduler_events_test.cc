// Tests of the long-lived engine's event API (sched::Scheduler, issue 16): state kept across
// calls, the assume → bind / forget lifecycle, deletions freeing capacity, evictions awaiting
// the caller's Delete, determinism. Every test runs in verify mode and expects no violation.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "sched/scheduler.h"
#include "support/builders.h"

namespace wasched::sched {
namespace {

using test::MakeNode;
using test::MakePod;
using test::MakePodGroup;
using ::testing::ElementsAre;
using ::testing::IsEmpty;

// Engine: a Scheduler in verify mode that collects violations, and awaits victims' deletion.
struct Engine {
  std::vector<std::string> violations;
  Scheduler s{Options(&violations)};

  static SchedulerOptions Options(std::vector<std::string>* out) {
    SchedulerOptions o;
    o.verify = true;
    o.verify_violations = out;
    o.evictions = EvictionActuation::kAwaitDelete;
    return o;
  }
};

std::vector<std::string> Bound(const Decisions& d) {
  std::vector<std::string> out;
  for (const Binding& b : d.result.bindings) out.push_back(b.pod + "@" + b.node);
  return out;
}

std::vector<std::string> Pending(const Decisions& d) {
  std::vector<std::string> out;
  for (const PendingPod& p : d.result.pending) out.push_back(p.pod);
  return out;
}

std::vector<std::string> Evicted(const Decisions& d) {
  std::vector<std::string> out;
  for (const Eviction& e : d.result.evictions) out.push_back(e.pod + "@" + e.node);
  return out;
}

std::string NodeNameOf(const Scheduler& s, const std::string& name) {
  const api::Pod* p = s.FindPod("default", name);
  return p == nullptr ? "<absent>" : p->node_name;
}

api::Node Node(const std::string& name, int64_t cpu) {
  return MakeNode().Name(name).Capacity({{"cpu", cpu}, {"pods", 110}}).Obj();
}

TEST(SchedulerEventsTest, GangHeldUntilNodesArriveThenBoundAndKeptAcrossCalls) {
  Engine e;
  e.s.Add(MakePodGroup().Name("job").MinCount(2).Obj());
  e.s.Add(MakePod().Name("w0").Req({{"cpu", 1000}}).Group("job").Obj());
  Decisions d = e.s.ScheduleUntilIdle();
  EXPECT_THAT(Bound(d), IsEmpty());
  ASSERT_THAT(Pending(d), ElementsAre("default/w0"));
  EXPECT_FALSE(d.result.pending[0].held.empty());  // 1 of minCount 2: held at PreEnqueue

  e.s.Add(MakePod().Name("w1").Req({{"cpu", 1000}}).Group("job").Obj());
  d = e.s.ScheduleUntilIdle();
  EXPECT_THAT(Bound(d), IsEmpty());  // no node yet: unschedulable
  EXPECT_THAT(Pending(d), ElementsAre("default/w0", "default/w1"));

  e.s.Add(Node("n1", 1000));
  e.s.Add(Node("n2", 1000));
  d = e.s.ScheduleUntilIdle();
  EXPECT_THAT(Bound(d), ElementsAre("default/w0@n1", "default/w1@n2"));
  EXPECT_THAT(Pending(d), IsEmpty());
  ASSERT_EQ(d.result.groups.size(), 1u);
  EXPECT_EQ(d.result.groups[0].scheduled, 2);
  // Assumed bindings are the cache's: spec.nodeName, and a later call binds nothing again.
  EXPECT_EQ(NodeNameOf(e.s, "w0"), "n1");
  e.s.BindSucceeded("default", "w0");
  api::Pod confirmed = *e.s.FindPod("default", "w1");  // w1 as the API server now has it
  e.s.Update(confirmed);
  d = e.s.ScheduleUntilIdle();
  EXPECT_THAT(Bound(d), IsEmpty());
  EXPECT_THAT(Pending(d), IsEmpty());
  EXPECT_EQ(d.result.groups[0].scheduled, 2);
  EXPECT_THAT(e.violations, IsEmpty());
}

TEST(SchedulerEventsTest, BindFailedForgetsThePodAndRetriesIt) {
  Engine e;
  e.s.Add(Node("n1", 2000));
  e.s.Add(MakePodGroup().Name("job").MinCount(2).Obj());
  e.s.Add(MakePod().Name("w0").Req({{"cpu", 1000}}).Group("job").Obj());
  e.s.Add(MakePod().Name("w1").Req({{"cpu", 1000}}).Group("job").Obj());
  Decisions d = e.s.ScheduleUntilIdle();
  ASSERT_THAT(Bound(d), ElementsAre("default/w0@n1", "default/w1@n1"));
  e.s.BindSucceeded("default", "w0");
  e.s.BindFailed("default", "w1");
  EXPECT_EQ(NodeNameOf(e.s, "w1"), "");  // forgotten: no node in the cache
  // The member is not stuck: the group unit is retried after backoff (the engine's own clock
  // steps to it) and the member binds again, on the node its failed binding released.
  d = e.s.ScheduleUntilIdle();
  EXPECT_THAT(Bound(d), ElementsAre("default/w1@n1"));
  EXPECT_THAT(Pending(d), IsEmpty());
  EXPECT_EQ(NodeNameOf(e.s, "w1"), "n1");
  EXPECT_THAT(e.violations, IsEmpty());
}

TEST(SchedulerEventsTest, BindFailedReleasesTheNodeForAnotherPod) {
  // The failed pod's node goes to whoever is retried first; the other stays pending. The bound
  // pod was assumed before a rebuild (the Add of node n0), so it is forgotten as a running pod.
  Engine e;
  e.s.Add(Node("n1", 1000));
  e.s.Add(MakePod().Name("a").Req({{"cpu", 1000}}).CreationTimestamp(1).Obj());
  Decisions d = e.s.ScheduleUntilIdle();
  ASSERT_THAT(Bound(d), ElementsAre("default/a@n1"));
  e.s.Add(MakePod().Name("b").Req({{"cpu", 1000}}).CreationTimestamp(2).Obj());  // incremental
  e.s.Add(Node("n0", 500));  // too small for either: only forces the rebuild
  d = e.s.ScheduleUntilIdle();
  EXPECT_THAT(Bound(d), IsEmpty());
  EXPECT_THAT(Pending(d), ElementsAre("default/b"));
  e.s.BindFailed("default", "a");
  d = e.s.ScheduleUntilIdle();
  ASSERT_EQ(d.result.bindings.size(), 1u);
  ASSERT_EQ(d.result.pending.size(), 1u);
  EXPECT_NE(d.result.bindings[0].pod, d.result.pending[0].pod);
  EXPECT_THAT(e.violations, IsEmpty());
}

TEST(SchedulerEventsTest, DeletingABoundPodFreesCapacityForAWaitingGang) {
  Engine e;
  e.s.Add(Node("n1", 4000));
  e.s.Add(MakePod().Name("x").Req({{"cpu", 3000}}).Obj());
  Decisions d = e.s.ScheduleUntilIdle();
  ASSERT_THAT(Bound(d), ElementsAre("default/x@n1"));
  e.s.Add(MakePodGroup().Name("job").MinCount(2).Obj());
  e.s.Add(MakePod().Name("w0").Req({{"cpu", 2000}}).Group("job").Obj());
  e.s.Add(MakePod().Name("w1").Req({{"cpu", 2000}}).Group("job").Obj());
  d = e.s.ScheduleUntilIdle();
  EXPECT_THAT(Bound(d), IsEmpty());
  EXPECT_THAT(Pending(d), ElementsAre("default/w0", "default/w1"));
  e.s.Delete(ObjectKind::kPod, "default", "x");  // the job ended: its node is free
  d = e.s.ScheduleUntilIdle();
  EXPECT_THAT(Bound(d), ElementsAre("default/w0@n1", "default/w1@n1"));
  EXPECT_EQ(NodeNameOf(e.s, "x"), "<absent>");
  EXPECT_THAT(e.violations, IsEmpty());
}

TEST(SchedulerEventsTest, PodThatEndsReleasesItsNode) {
  Engine e;
  e.s.Add(Node("n1", 1000));
  e.s.Add(MakePod().Name("a").Req({{"cpu", 1000}}).CreationTimestamp(1).Obj());
  e.s.Add(MakePod().Name("b").Req({{"cpu", 1000}}).CreationTimestamp(2).Obj());
  Decisions d = e.s.ScheduleUntilIdle();
  ASSERT_THAT(Bound(d), ElementsAre("default/a@n1"));
  api::Pod done = MakePod().Name("a").Req({{"cpu", 1000}}).Node("n1").Phase("Succeeded").Obj();
  e.s.Update(done);
  d = e.s.ScheduleUntilIdle();
  EXPECT_THAT(Bound(d), ElementsAre("default/b@n1"));
  EXPECT_THAT(e.violations, IsEmpty());
}

TEST(SchedulerEventsTest, EvictionWaitsForTheVictimsDeleteThenThePreemptorBinds) {
  Engine e;
  e.s.Add(Node("n1", 2000));
  e.s.Add(MakePod().Name("low").Req({{"cpu", 2000}}).Priority(1).Obj());
  Decisions d = e.s.ScheduleUntilIdle();
  ASSERT_THAT(Bound(d), ElementsAre("default/low@n1"));
  e.s.Add(MakePod().Name("high").Req({{"cpu", 2000}}).Priority(100).Obj());
  d = e.s.ScheduleUntilIdle();
  EXPECT_THAT(Evicted(d), ElementsAre("default/low@n1"));
  EXPECT_THAT(Bound(d), IsEmpty());  // the victim still holds the node
  EXPECT_THAT(Pending(d), ElementsAre("default/high"));
  ASSERT_EQ(d.nominations.size(), 1u);
  EXPECT_EQ(d.nominations[0].pod, "default/high");
  EXPECT_EQ(d.nominations[0].node, "n1");
  // Until the Delete arrives nothing changes, and no second victim is chosen.
  d = e.s.ScheduleUntilIdle();
  EXPECT_THAT(Evicted(d), IsEmpty());
  EXPECT_THAT(Bound(d), IsEmpty());
  e.s.Delete(ObjectKind::kPod, "default", "low");
  d = e.s.ScheduleUntilIdle();
  EXPECT_THAT(Bound(d), ElementsAre("default/high@n1"));
  EXPECT_THAT(d.nominations, IsEmpty());
  EXPECT_THAT(e.violations, IsEmpty());
}

TEST(SchedulerEventsTest, VictimAwaitingDeleteSurvivesARebuild) {
  Engine e;
  e.s.Add(Node("n1", 2000));
  e.s.Add(MakePod().Name("low").Req({{"cpu", 2000}}).Priority(1).Obj());
  (void)e.s.ScheduleUntilIdle();
  e.s.Add(MakePod().Name("high").Req({{"cpu", 2000}}).Priority(100).Obj());
  Decisions d = e.s.ScheduleUntilIdle();
  ASSERT_THAT(Evicted(d), ElementsAre("default/low@n1"));
  e.s.Add(Node("n0", 500));  // a rebuild: the victim stays terminating, not a victim again
  d = e.s.ScheduleUntilIdle();
  EXPECT_THAT(Evicted(d), IsEmpty());
  EXPECT_THAT(Bound(d), IsEmpty());
  e.s.Delete(ObjectKind::kPod, "default", "low");
  d = e.s.ScheduleUntilIdle();
  EXPECT_THAT(Bound(d), ElementsAre("default/high@n1"));
  EXPECT_THAT(e.violations, IsEmpty());
}

TEST(SchedulerEventsTest, ImmediateEvictionsMatchTheOneShot) {
  // kImmediate (the default) is `schedule`: the Scheduler over the same objects reports what
  // Schedule reports.
  api::ObjectSet in;
  in.nodes.push_back(Node("n1", 2000));
  in.pods.push_back(MakePod().Name("low").Req({{"cpu", 2000}}).Priority(1).Node("n1").Obj());
  in.pods.push_back(MakePod().Name("high").Req({{"cpu", 2000}}).Priority(100).Obj());
  const ScheduleResult once = Schedule(in, {});
  Scheduler s(in, {});
  const Decisions d = s.ScheduleUntilIdle();
  ASSERT_EQ(once.bindings.size(), 1u);
  EXPECT_THAT(Bound(d), ElementsAre("default/high@n1"));
  EXPECT_THAT(Evicted(d), ElementsAre("default/low@n1"));
  EXPECT_EQ(once.evictions.size(), 1u);
}

std::string Render(const Decisions& d) {
  std::string out;
  for (const std::string& b : Bound(d)) out += "bind " + b + "\n";
  for (const std::string& v : Evicted(d)) out += "evict " + v + "\n";
  for (const PendingPod& p : d.result.pending) out += "pending " + p.pod + " " + p.reason + " " + p.message + p.held + "\n";
  for (const Nomination& n : d.nominations) out += "nominate " + n.pod + " " + n.node + "\n";
  for (const GroupResult& g : d.result.groups) out += "group " + g.name + " " + std::to_string(g.scheduled) + "\n";
  return out;
}

std::string Play() {
  Engine e;
  std::string out;
  for (int n = 0; n < 3; ++n) e.s.Add(Node("n" + std::to_string(n), 2000));
  for (int g = 0; g < 3; ++g) {
    const std::string group = "g" + std::to_string(g);
    e.s.Add(MakePodGroup().Name(group).MinCount(2).Priority(g).Obj());
    for (int m = 0; m < 2; ++m) {
      e.s.Add(MakePod().Name(group + "-" + std::to_string(m)).Req({{"cpu", 1500}}).Group(group).Priority(g).Obj());
    }
    out += Render(e.s.ScheduleUntilIdle());
  }
  e.s.BindFailed("default", "g0-1");
  out += Render(e.s.ScheduleUntilIdle());
  e.s.Delete(ObjectKind::kPod, "default", "g1-0");
  out += Render(e.s.ScheduleUntilIdle());
  EXPECT_THAT(e.violations, IsEmpty());
  return out;
}

TEST(SchedulerEventsTest, SameEventsSameDecisions) {
  const std::string first = Play();
  EXPECT_EQ(first, Play());
  EXPECT_NE(first.find("bind "), std::string::npos);
}

}  // namespace
}  // namespace wasched::sched
