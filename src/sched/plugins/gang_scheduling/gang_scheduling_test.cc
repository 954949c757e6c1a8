// File: sched/plugins/gang_scheduling/gang_scheduling_test.cc
//
// GangScheduling's PreEnqueue statuses (upstream messages, UnschedulableAndUnresolvable) and its
// queueing hints (spec/was-v1.37.md §4.2).
#include "sched/plugins/gang_scheduling/gang_scheduling.h"

#include <gtest/gtest.h>

namespace wasched::sched::plugins {
namespace {

TEST(GangSchedulingTest, PreEnqueueMessagesAreUpstreams) {
  Status missing = PreEnqueue(false, "pg", true, 0, 3);
  EXPECT_EQ(missing.code(), Code::kUnschedulableAndUnresolvable);
  EXPECT_EQ(missing.Message(), "waiting for pods's pod group \"pg\" to appear in scheduling queue");
  Status short_gang = PreEnqueue(true, "pg", true, 2, 3);
  EXPECT_EQ(short_gang.code(), Code::kUnschedulableAndUnresolvable);
  EXPECT_EQ(short_gang.Message(), "waiting for minCount pods from a gang to appear in scheduling queue");
  EXPECT_TRUE(PreEnqueue(true, "pg", true, 3, 3).IsSuccess());
  EXPECT_TRUE(PreEnqueue(true, "pg", false, 1, 1).IsSuccess());  // basic: one pod is enough

  Status spec = CompositeSpecMissing("ghost");
  EXPECT_EQ(spec.code(), Code::kUnschedulableAndUnresolvable);
  EXPECT_EQ(spec.Message(), "waiting for composite pod group \"ghost\" spec to appear");
  EXPECT_EQ(spec.plugin(), kGangSchedulingName);
  Status quorum = TreeQuorumNotMet("root");
  EXPECT_EQ(quorum.code(), Code::kUnschedulableAndUnresolvable);
  EXPECT_EQ(quorum.Message(), "waiting for composite pod group \"root\" tree to meet quorum");
}

TEST(GangSchedulingTest, HintsMatchOnlyTheSameHierarchy) {
  EXPECT_EQ(GangSchedulingHint({EventKind::kUnscheduledPodAdd, 4}, 4), QueueingHint::kQueue);
  EXPECT_EQ(GangSchedulingHint({EventKind::kUnscheduledPodAdd, 4}, 5), QueueingHint::kQueueSkip);
  // A pod without a complete hierarchy (-1) is matched by no group event, not even a -1 one.
  EXPECT_EQ(GangSchedulingHint({EventKind::kPodGroupAdd, -1}, -1), QueueingHint::kQueueSkip);
}

TEST(GangSchedulingTest, MinCountDecreaseQueuesIncreaseSkips) {
  EXPECT_EQ(GangSchedulingHint({EventKind::kPodGroupUpdate, 1, true, true, 8, 6}, 1),
            QueueingHint::kQueue);
  EXPECT_EQ(GangSchedulingHint({EventKind::kPodGroupUpdate, 1, true, true, 6, 8}, 1),
            QueueingHint::kQueueSkip);
  EXPECT_EQ(GangSchedulingHint({EventKind::kPodGroupUpdate, 1, true, false, 6, 1}, 1),
            QueueingHint::kQueue);  // policy no longer gang: unexpected, upstream enqueues
  EXPECT_EQ(GangSchedulingHint({EventKind::kNodeAdd}, 1), QueueingHint::kQueueSkip);
  EXPECT_EQ(GangSchedulingHint({EventKind::kUnschedulableTimeout}, 1), QueueingHint::kQueue);
}

}  // namespace
}  // namespace wasched::sched::plugins
