// File: live/metrics_test.cc
#include "live/metrics.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace wasched::live {
namespace {

using ::testing::HasSubstr;

TEST(Metrics, RendersUpstreamNamesWithCountsThatMatchTheRecords) {
  Metrics m("wasched");
  m.RecordAttempt("scheduled", 0.0015);
  m.RecordAttempt("scheduled", 0.003);
  m.RecordAttempt("unschedulable", 0.003);
  m.RecordPreemption(4);
  m.RecordScheduledPod(0.5, 1);
  m.SetPending({1, 0, 2, 3});
  const std::string text = m.Render();
  EXPECT_THAT(text, HasSubstr("scheduler_schedule_attempts_total{profile=\"wasched\",result=\"scheduled\"} 2\n"));
  EXPECT_THAT(text, HasSubstr("scheduler_schedule_attempts_total{profile=\"wasched\",result=\"unschedulable\"} 1\n"));
  EXPECT_THAT(text, HasSubstr("scheduler_schedule_attempts_total{profile=\"wasched\",result=\"error\"} 0\n"));
  EXPECT_THAT(text, HasSubstr("scheduler_pending_pods{queue=\"gated\"} 3\n"));
  EXPECT_THAT(text, HasSubstr("scheduler_preemption_victims_bucket{le=\"4\"} 1\n"));
  EXPECT_THAT(text, HasSubstr("scheduler_preemption_victims_bucket{le=\"2\"} 0\n"));
  EXPECT_THAT(text, HasSubstr(
      "scheduler_scheduling_attempt_duration_seconds_bucket{profile=\"wasched\",result=\"scheduled\",le=\"0.002\"} 1\n"));
  EXPECT_THAT(text, HasSubstr(
      "scheduler_scheduling_attempt_duration_seconds_count{profile=\"wasched\",result=\"scheduled\"} 2\n"));
  EXPECT_THAT(text, HasSubstr("scheduler_pod_scheduling_sli_duration_seconds_count{attempts=\"1\"} 1\n"));
  EXPECT_THAT(text, HasSubstr("# TYPE scheduler_pending_pods gauge\n"));
}

}  // namespace
}  // namespace wasched::live
