// File: sched/queue/scheduling_queue_test.cc
//
// The queue with a FakeClock: order, backoff expiry after 1, 2, 4, 8, 10, 10 s of consecutive
// failures, the unschedulable pool, hint-driven moves (gang hints of spec/was-v1.37.md §4.2,
// filter hints), in-flight events, PreEnqueue gating and the 5-minute leftover flush.
#include "sched/queue/scheduling_queue.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "sched/plugins/gang_scheduling/gang_scheduling.h"

namespace wasched::sched {
namespace {

using std::chrono::seconds;

QueuedUnit Group(int32_t index, int32_t priority = 0, int64_t creation = 0) {
  return {true, index, priority, creation, index};
}
QueuedUnit Pod(int32_t index, int32_t priority = 0) { return {false, index, priority, 0, index}; }

// WithGangHints: the scheduler's wiring: a group unit's hierarchy root is its own index.
void WithGangHints(SchedulingQueue& q) {
  q.SetGangHint([](const ClusterEvent& e, const QueuedUnit& u) {
    return plugins::GangSchedulingHint(e, u.is_group ? u.index : -1);
  });
}

// FailOnce: `u` is added, popped as the only active unit and fails with `rejectors`.
void FailOnce(SchedulingQueue& q, const QueuedUnit& u, uint32_t rejectors) {
  q.Add(u);
  const std::optional<QueuedUnit> popped = q.Pop();
  ASSERT_TRUE(popped.has_value());
  ASSERT_EQ(popped->index, u.index);
  q.AddUnschedulable(u, rejectors);
}

// Each test starts with an empty queue on a FakeClock at time 0.
class SchedulingQueueTest : public ::testing::Test {
 protected:
  FakeClock clock;
  SchedulingQueue q{clock};
};

TEST_F(SchedulingQueueTest, PopsByPriorityThenCreationThenInputOrder) {
  q.Add(Group(3, 0, 5));
  q.Add(Pod(1, 10));
  q.Add(Group(2, 0, 1));
  q.Add(Pod(0, 0));
  EXPECT_EQ(q.Pop()->index, 1);       // priority 10
  EXPECT_EQ(q.Pop()->index, 0);       // creation 0
  EXPECT_EQ(q.Pop()->index, 2);       // creation 1
  EXPECT_EQ(q.Pop()->index, 3);
  EXPECT_FALSE(q.Pop().has_value());
}

// The active queue is a sorted run (the units that arrive while it is empty) plus a heap (later
// arrivals): whatever the arrival order (in order, reversed, shuffled, with ties broken by
// creation, input order, kind and index) and however arrivals interleave with pops, units pop in
// exactly the order of one priority queue over all of them.
TEST(SchedulingQueueOrderTest, SortedRunAndHeapPopInQueueOrder) {
  auto before = [](const QueuedUnit& a, const QueuedUnit& b) {
    if (a.priority != b.priority) return a.priority > b.priority;
    if (a.creation != b.creation) return a.creation < b.creation;
    if (a.input_order != b.input_order) return a.input_order < b.input_order;
    if (a.is_group != b.is_group) return a.is_group;
    return a.index < b.index;
  };
  std::mt19937 rng(11);
  for (int round = 0; round < 60; ++round) {
    FakeClock clock;
    SchedulingQueue q(clock);
    std::vector<QueuedUnit> units;
    for (int32_t i = 0; i < 200; ++i) {
      const int32_t priority = static_cast<int32_t>(rng() % 3);
      const int64_t creation = static_cast<int64_t>(rng() % 4);
      const int32_t input_order = static_cast<int32_t>(rng() % 50);
      units.push_back({rng() % 2 == 0, i, priority, creation, input_order});
    }
    if (round % 3 == 0) std::sort(units.begin(), units.end(), before);  // the usual input
    if (round % 3 == 1) std::sort(units.rbegin(), units.rend(), before);
    std::vector<QueuedUnit> pending;  // the reference: added and not yet popped
    size_t next = 0;
    while (next < units.size() || !pending.empty()) {
      const size_t adds = next == 0 ? 120 : rng() % 6;  // a large first batch, then trickles
      for (size_t k = 0; k < adds && next < units.size(); ++k, ++next) {
        ASSERT_TRUE(q.Add(units[next]));
        pending.push_back(units[next]);
      }
      const size_t pops = rng() % 5;
      for (size_t k = 0; k < pops && !pending.empty(); ++k) {
        auto best = std::min_element(pending.begin(), pending.end(), before);
        const std::optional<QueuedUnit> u = q.Pop();
        ASSERT_TRUE(u.has_value());
        EXPECT_EQ(u->is_group, best->is_group) << "round " << round;
        EXPECT_EQ(u->index, best->index) << "round " << round;
        q.Done(*u);
        pending.erase(best);
      }
    }
    EXPECT_FALSE(q.Pop().has_value());
  }
}

// Each failure after an event that helps goes to backoff; the unit is poppable exactly when
// its backoff (1, 2, 4, 8, 10, 10 s) has passed.
TEST_F(SchedulingQueueTest, BackoffDurationsOfConsecutiveFailures) {
  clock.SetTime(seconds(100));
  const QueuedUnit u = Group(0);
  q.Add(u);
  const int want_seconds[] = {1, 2, 4, 8, 10, 10};
  for (int attempt = 1; attempt <= 6; ++attempt) {
    ASSERT_TRUE(q.Pop().has_value()) << "attempt " << attempt;
    EXPECT_EQ(q.Attempts(u), attempt);
    q.AddUnschedulable(u, kRejectorFilter);
    EXPECT_EQ(q.StateOf(u), UnitQueueState::kUnschedulable);
    q.OnEvent({EventKind::kNodeAdd});  // capacity may help → backoff
    EXPECT_EQ(q.StateOf(u), UnitQueueState::kBackoff);
    const Duration d = seconds(want_seconds[attempt - 1]);
    EXPECT_EQ(*q.BackoffExpiry(u) - clock.Now(), d) << "attempt " << attempt;
    clock.Step(d - Duration(1));
    EXPECT_FALSE(q.Pop().has_value()) << "still backing off at attempt " << attempt;
    clock.Step(Duration(1));
    q.FlushBackoffCompleted();
    EXPECT_EQ(q.StateOf(u), UnitQueueState::kActive);
  }
}

TEST_F(SchedulingQueueTest, FailureWithoutHelpfulEventWaitsInPool) {
  const QueuedUnit u = Pod(0);
  FailOnce(q, u, kRejectorFilter);
  clock.Step(seconds(60));
  EXPECT_FALSE(q.Pop().has_value());
  EXPECT_EQ(q.UnschedulableCount(), 1u);
  q.OnEvent({EventKind::kAssignedPodAdd});  // a bind frees nothing
  EXPECT_EQ(q.StateOf(u), UnitQueueState::kUnschedulable);
  q.OnEvent({EventKind::kAssignedPodDelete});  // backoff (1 s) long over → active
  EXPECT_EQ(q.StateOf(u), UnitQueueState::kActive);
}

TEST_F(SchedulingQueueTest, ErrorsGoToBackoffWithoutEvent) {
  const QueuedUnit u = Group(4);
  FailOnce(q, u, kRejectorError);
  EXPECT_EQ(q.StateOf(u), UnitQueueState::kBackoff);
  clock.Step(seconds(1));
  EXPECT_EQ(q.Pop()->index, 4);
}

TEST_F(SchedulingQueueTest, InFlightEventSendsFailedUnitToBackoff) {
  const QueuedUnit u = Group(0);
  q.Add(u);
  ASSERT_TRUE(q.Pop());
  q.OnEvent({EventKind::kAssignedPodDelete});  // happened during the attempt
  q.AddUnschedulable(u, kRejectorFilter);
  EXPECT_EQ(q.StateOf(u), UnitQueueState::kBackoff);
}

TEST_F(SchedulingQueueTest, LeftoverFlushAfterFiveMinutes) {
  const QueuedUnit u = Pod(0);
  FailOnce(q, u, kRejectorFilter);
  clock.Step(seconds(299));
  q.FlushUnschedulableLeftover();
  EXPECT_EQ(q.StateOf(u), UnitQueueState::kUnschedulable);
  clock.Step(seconds(1));
  q.FlushUnschedulableLeftover();
  EXPECT_EQ(q.StateOf(u), UnitQueueState::kActive);
}

TEST_F(SchedulingQueueTest, DoneForgetsTheUnit) {
  const QueuedUnit u = Group(1);
  q.Add(u);
  ASSERT_TRUE(q.Pop());
  q.Done(u);
  EXPECT_EQ(q.StateOf(u), UnitQueueState::kAbsent);
  EXPECT_EQ(q.Attempts(u), 0);
}

// Done on a parked unit (not in flight) also takes it out of the parked sets: an event later
// must not visit a forgotten entry, and the counts drop.
TEST_F(SchedulingQueueTest, DoneForgetsAParkedUnit) {
  const QueuedUnit u = Group(2);
  q.Add(u);
  ASSERT_TRUE(q.Pop());
  q.AddUnschedulable(u, kRejectorFilter | kRejectorPodDependent);
  ASSERT_EQ(q.UnschedulableCount(), 1u);
  q.Done(u);
  EXPECT_EQ(q.UnschedulableCount(), 0u);
  EXPECT_EQ(q.StateOf(u), UnitQueueState::kAbsent);
  q.OnEvent(ClusterEvent{EventKind::kAssignedPodAdd});
  q.MoveAllToActive();
  EXPECT_EQ(q.StateOf(u), UnitQueueState::kAbsent);
  EXPECT_FALSE(q.Pop());
}

// Gang hints (spec §4.2): a unit rejected by GangScheduling in hierarchy 7 moves on a new member
// pod, a PodGroup add, a minCount decrease, a CompositePodGroup add or update of hierarchy 7; a
// minCount increase or an event of another hierarchy does not.
struct HintCase {
  const char* name;
  ClusterEvent event;
  bool moves;
};

class GangHintMoveTest : public ::testing::TestWithParam<HintCase> {};

TEST_P(GangHintMoveTest, PoolUnitMovesOnlyOnHelpfulEvent) {
  FakeClock clock;
  SchedulingQueue q(clock);
  WithGangHints(q);
  const QueuedUnit u = Group(7);
  FailOnce(q, u, kRejectorGang);
  clock.Step(seconds(30));  // backoff over: a helpful event sends it straight to active
  q.OnEvent(GetParam().event);
  EXPECT_EQ(q.StateOf(u), GetParam().moves ? UnitQueueState::kActive : UnitQueueState::kUnschedulable);
}

INSTANTIATE_TEST_SUITE_P(
    Hints, GangHintMoveTest,
    ::testing::Values(
        HintCase{"NewMemberPod", {EventKind::kUnscheduledPodAdd, 7}, true},
        HintCase{"NewRunningMember", {EventKind::kAssignedPodAdd, 7}, true},
        HintCase{"PodOfOtherHierarchy", {EventKind::kUnscheduledPodAdd, 8}, false},
        HintCase{"PodGroupAdd", {EventKind::kPodGroupAdd, 7}, true},
        HintCase{"PodGroupAddElsewhere", {EventKind::kPodGroupAdd, 3}, false},
        HintCase{"MinCountDecrease", {EventKind::kPodGroupUpdate, 7, true, true, 5, 4}, true},
        HintCase{"MinCountIncrease", {EventKind::kPodGroupUpdate, 7, true, true, 4, 5}, false},
        HintCase{"MinCountUnchanged", {EventKind::kPodGroupUpdate, 7, true, true, 4, 4}, false},
        HintCase{"NonGangUpdate", {EventKind::kPodGroupUpdate, 7, false, false, 1, 1}, true},
        HintCase{"CompositeAdd", {EventKind::kCompositePodGroupAdd, 7}, true},
        HintCase{"CompositeUpdate", {EventKind::kCompositePodGroupUpdate, 7}, true},
        HintCase{"CompositeAddElsewhere", {EventKind::kCompositePodGroupAdd, 2}, false},
        HintCase{"NodeAddDoesNotHelpGang", {EventKind::kNodeAdd}, false}),
    [](const ::testing::TestParamInfo<HintCase>& info) { return std::string(info.param.name); });

TEST_F(SchedulingQueueTest, HelpfulEventWhileBackingOffGoesToBackoff) {
  WithGangHints(q);
  const QueuedUnit u = Group(7);
  FailOnce(q, u, kRejectorGang);
  q.OnEvent({EventKind::kPodGroupAdd, 7});
  EXPECT_EQ(q.StateOf(u), UnitQueueState::kBackoff);
  clock.Step(seconds(1));
  EXPECT_EQ(q.Pop()->index, 7);
}

// PreEnqueue: a gated unit is never tried (no attempt, no backoff); a gang hint re-runs
// PreEnqueue, and it becomes active only when that passes.
TEST_F(SchedulingQueueTest, GatedUnitWaitsForPreEnqueue) {
  WithGangHints(q);
  int pods = 2;
  const int min_count = 3;
  q.SetPreEnqueue([&](const QueuedUnit&) { return pods >= min_count; });
  const QueuedUnit u = Group(5);
  EXPECT_FALSE(q.Add(u));
  EXPECT_EQ(q.StateOf(u), UnitQueueState::kGated);
  EXPECT_EQ(q.GatedCount(), 1u);
  EXPECT_FALSE(q.Pop().has_value());
  q.OnEvent({EventKind::kNodeAdd});
  EXPECT_EQ(q.StateOf(u), UnitQueueState::kGated);
  q.OnEvent({EventKind::kUnscheduledPodAdd, 5});  // hint says Queue, PreEnqueue still says no
  EXPECT_EQ(q.StateOf(u), UnitQueueState::kGated);
  pods = 3;
  q.OnEvent({EventKind::kUnscheduledPodAdd, 5});
  EXPECT_EQ(q.StateOf(u), UnitQueueState::kActive);
  EXPECT_EQ(q.Attempts(u), 0);
  EXPECT_EQ(q.Pop()->index, 5);
}

// Default rejectors follow the unit's kind: a failed group moves on a gang hint of its own
// hierarchy and on freed capacity; a failed bare pod only on freed capacity.
TEST_F(SchedulingQueueTest, DefaultRejectorsByUnitKind) {
  WithGangHints(q);
  const QueuedUnit g = Group(3);
  const QueuedUnit p = Pod(4);
  FailOnce(q, g, kRejectorNone);  // kRejectorNone = the default: by the unit's kind
  FailOnce(q, p, kRejectorNone);
  clock.Step(seconds(10));
  q.OnEvent({EventKind::kPodGroupUpdate, 3, true, true, 4, 3});
  EXPECT_EQ(q.StateOf(g), UnitQueueState::kActive);
  EXPECT_EQ(q.StateOf(p), UnitQueueState::kUnschedulable);
  q.OnEvent({EventKind::kAssignedPodDelete});
  EXPECT_EQ(q.StateOf(p), UnitQueueState::kActive);
}

TEST_F(SchedulingQueueTest, MoveAllToActiveIgnoresHints) {
  WithGangHints(q);
  FailOnce(q, Group(1), kRejectorGang);
  FailOnce(q, Pod(2), kRejectorFilter);
  clock.Step(seconds(5));
  q.MoveAllToActive();
  EXPECT_EQ(q.ActiveCount(), 2u);
  EXPECT_EQ(q.UnschedulableCount(), 0u);
}

}  // namespace
}  // namespace wasched::sched

namespace wasched::sched {
namespace {

// The parked index (Unschedulable and Gated units, walked by events instead of every entry)
// stays exact through any sequence of operations: the pool and gated counts equal a count over
// every unit's state, and events still move parked units on.
TEST(SchedulingQueueParkedIndexTest, CountsMatchEveryUnitsStateUnderRandomOperations) {
  std::mt19937 rng(7);
  FakeClock clock;
  SchedulingQueue q{clock};
  bool gate = false;
  q.SetPreEnqueue([&](const QueuedUnit&) { return !gate; });
  WithGangHints(q);
  std::vector<QueuedUnit> units;
  for (int32_t i = 0; i < 24; ++i) units.push_back(i % 2 == 0 ? Group(i) : Pod(i));
  const EventKind kinds[] = {EventKind::kAssignedPodDelete, EventKind::kNodeAdd,
                             EventKind::kUnscheduledPodAdd, EventKind::kPodGroupAdd};
  size_t moved_by_events = 0;
  for (int step = 0; step < 20000; ++step) {
    const QueuedUnit& u = units[rng() % units.size()];
    switch (rng() % 7) {
      case 0:
        gate = rng() % 3 == 0;
        if (q.StateOf(u) != UnitQueueState::kInFlight) (void)q.Add(u);
        break;
      case 1:
        if (auto p = q.Pop()) {
          if (rng() % 3 == 0) {
            q.Done(*p);
          } else {
            q.AddUnschedulable(*p, rng() % 4 == 0 ? kRejectorGang : kRejectorNone);
          }
        }
        break;
      case 2: {
        const size_t before = q.UnschedulableCount() + q.GatedCount();
        gate = rng() % 2 == 0;
        q.OnEvent(ClusterEvent{kinds[rng() % 4]});
        moved_by_events += before - (q.UnschedulableCount() + q.GatedCount());
        break;
      }
      case 3:
        q.MoveAllToActive();
        break;
      case 4:
        clock.SetTime(clock.Now() + seconds(rng() % 400));
        gate = rng() % 2 == 0;
        q.FlushUnschedulableLeftover();
        break;
      default:
        q.FlushBackoffCompleted();
        break;
    }
    size_t pool = 0, gated = 0;
    for (const QueuedUnit& v : units) {
      pool += q.StateOf(v) == UnitQueueState::kUnschedulable;
      gated += q.StateOf(v) == UnitQueueState::kGated;
    }
    ASSERT_EQ(q.UnschedulableCount(), pool) << "step " << step;
    ASSERT_EQ(q.GatedCount(), gated) << "step " << step;
  }
  EXPECT_GT(moved_by_events, 100u);
}

// Issue 19: a unit rejected by InterPodAffinity / PodTopologySpread moves on an assigned-pod add
// only when the scheduler's pod hint says so (for the pod the event names); one rejected by the
// Filter plugins alone ignores the add.
TEST_F(SchedulingQueueTest, AssignedPodAddMovesOnlyWhatThePodHintReleases) {
  std::vector<uint32_t> asked;
  q.SetPodHint([&](const ClusterEvent& e, const QueuedUnit&, uint32_t rejectors) {
    asked.push_back(rejectors);
    return e.pod == 42 ? QueueingHint::kQueue : QueueingHint::kQueueSkip;
  });
  const QueuedUnit affinity = Pod(1);
  const QueuedUnit plain = Pod(2);
  FailOnce(q, affinity, kRejectorFilter | kRejectorInterPodAffinity);
  FailOnce(q, plain, kRejectorFilter);
  ClusterEvent added{EventKind::kAssignedPodAdd};
  added.pod = 41;
  q.OnEvent(added);
  EXPECT_EQ(q.StateOf(affinity), UnitQueueState::kUnschedulable);
  added.pod = 42;
  q.OnEvent(added);
  EXPECT_EQ(q.StateOf(affinity), UnitQueueState::kBackoff);  // failed at t=0: 1 s backoff
  EXPECT_EQ(q.StateOf(plain), UnitQueueState::kUnschedulable);
  EXPECT_EQ(asked, (std::vector<uint32_t>{kRejectorInterPodAffinity, kRejectorInterPodAffinity}));
  ASSERT_TRUE(q.NextBackoffExpiry().has_value());
  EXPECT_EQ(*q.NextBackoffExpiry(), seconds(1));
  clock.SetTime(*q.NextBackoffExpiry());
  EXPECT_EQ(q.Pop()->index, 1);
  EXPECT_FALSE(q.NextBackoffExpiry().has_value());
}

// A preemptor re-run at once after its evictions has seen them: they do not send it to backoff
// when it fails again.
TEST_F(SchedulingQueueTest, ForgottenInFlightEventsDoNotSendToBackoff) {
  const QueuedUnit u = Pod(3);
  q.Add(u);
  ASSERT_TRUE(q.Pop());
  q.OnEvent({EventKind::kAssignedPodDelete});
  q.ForgetInFlightEvents();
  q.AddUnschedulable(u, kRejectorFilter);
  EXPECT_EQ(q.StateOf(u), UnitQueueState::kUnschedulable);
}

// Issue 20 A.1: a group unit scheduled with members left goes straight back to active, its
// attempts reset (no backoff), and its own bindings during the attempt are not replayed.
TEST_F(SchedulingQueueTest, LeftoverGoesStraightBackToActive) {
  WithGangHints(q);
  const QueuedUnit u = Group(4);
  q.Add(u);
  ASSERT_TRUE(q.Pop());
  ClusterEvent own{EventKind::kAssignedPodAdd, 4};
  own.pod = 0;
  q.OnEvent(own);
  q.RequeueLeftover(u);
  EXPECT_EQ(q.StateOf(u), UnitQueueState::kActive);
  EXPECT_EQ(q.Attempts(u), 0);
  ASSERT_TRUE(q.Pop());
  q.AddUnschedulable(u);  // the retry placed nothing: no in-flight event helps, so the pool
  EXPECT_EQ(q.StateOf(u), UnitQueueState::kUnschedulable);
  EXPECT_EQ(q.Attempts(u), 1);
}

}  // namespace
}  // namespace wasched::sched
