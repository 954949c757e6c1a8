// File: sched/queue/backoff_test.cc
//
// Upstream's backoff (pkg/scheduler/backend/queue/backoff_queue.go calculateBackoffDuration,
// defaults 1 s / 10 s): 0 before any attempt, then 1, 2, 4, 8, 10, 10 s.
#include "sched/queue/backoff.h"

#include <gtest/gtest.h>

namespace wasched::sched {
namespace {

using std::chrono::seconds;

TEST(BackoffTest, DefaultsAreUpstreams) {
  EXPECT_EQ(kPodInitialBackoff, seconds(1));
  EXPECT_EQ(kPodMaxBackoff, seconds(10));
  EXPECT_EQ(kPodMaxInUnschedulablePodsDuration, seconds(300));
}

TEST(BackoffTest, DoublesPerAttemptUpToMax) {
  EXPECT_EQ(BackoffDuration(0), Duration::zero());
  const Duration want[] = {seconds(1), seconds(2), seconds(4), seconds(8), seconds(10), seconds(10)};
  for (int i = 0; i < 6; ++i) EXPECT_EQ(BackoffDuration(i + 1), want[i]) << "attempt " << i + 1;
}

TEST(BackoffTest, HugeAttemptCountsDoNotOverflow) {
  EXPECT_EQ(BackoffDuration(1'000'000), seconds(10));
  EXPECT_EQ(BackoffDuration(64, Duration(1), Duration::max()), Duration::max());
}

TEST(BackoffTest, CustomInitialAndMax) {
  EXPECT_EQ(BackoffDuration(3, Duration(100), Duration(250)), Duration(250));
  EXPECT_EQ(BackoffDuration(2, Duration(100), Duration(250)), Duration(200));
}

}  // namespace
}  // namespace wasched::sched
