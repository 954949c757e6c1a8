// File: perf/upstream_test.cc
//
// `bench --against-upstream`'s side of the comparison: the script's JSON is read as written,
// and the workload shapes bind what a correct run binds at a small size (the full sizes run in
// `wasched bench --against-upstream`, not here).
#include "perf/upstream.h"

#include <set>

#include <gtest/gtest.h>

#include "sched/scheduler.h"

namespace wasched::perf {
namespace {

TEST(UpstreamTest, ParsesTheScriptsRows) {
  auto rows = ParseUpstreamResults(R"([
    {"suite":"misc","testCase":"SchedulingBasic","workload":"5000Nodes_10000Pods","status":"below-threshold",
     "throughputAverage":64.3,"throughputPerc50":60,"threshold":680,"schedulingSeconds":150.5,"wallSeconds":196,
     "log":"/tmp/l"},
    {"suite":"tas","testCase":"T","workload":"W","status":"timeout","throughputAverage":null,
     "schedulingSeconds":null,"wallSeconds":600,"log":"/tmp/m","error":"x"}])");
  ASSERT_TRUE(rows.has_value()) << rows.error();
  ASSERT_EQ(rows->size(), 2u);
  EXPECT_EQ((*rows)[0].status, "below-threshold");
  EXPECT_DOUBLE_EQ((*rows)[0].throughput_average.value_or(0), 64.3);
  EXPECT_DOUBLE_EQ((*rows)[0].threshold.value_or(0), 680);
  EXPECT_DOUBLE_EQ((*rows)[0].scheduling_seconds.value_or(0), 150.5);
  EXPECT_FALSE((*rows)[1].throughput_average.has_value());
  EXPECT_EQ((*rows)[1].error, "x");
  EXPECT_FALSE(ParseUpstreamResults("{}").has_value());
  EXPECT_FALSE(ParseUpstreamResults("[{\"suite\":\"a\"}]").has_value());
  EXPECT_FALSE(ParseUpstreamResults("not json").has_value());
}

TEST(UpstreamTest, WorkloadNamesAreUnique) {
  std::set<std::string> names;
  for (const UpstreamWorkload& w : UpstreamWorkloads()) {
    EXPECT_TRUE(names.insert(w.suite + "/" + w.Name()).second) << w.Name();
    if (!w.build) {
      EXPECT_FALSE(w.note.empty()) << w.Name() << ": a row without a shape says why";
    }
  }
}

int64_t Bound(const ShapeInput& in) {
  return static_cast<int64_t>(sched::Schedule(in.objects, sched::SchedulerOptions{}).bindings.size());
}

TEST(UpstreamTest, SmallShapesBindEveryMeasuredPod) {
  ShapeInput basic = BasicPodGroupShape(20, 5, 3);
  EXPECT_EQ(Bound(basic), 15);
  // Every preemptor needs a whole node: the low-priority pods (or gangs) must go.
  ShapeInput pre = GangPreemptionBasicShape(4, 40, 2, 2, 3970);
  EXPECT_EQ(pre.expected_bound, 4);
  EXPECT_EQ(Bound(pre), 4);
  ShapeInput groups = GangPreemptionPodGroupsShape(4, 5, 1, 4, 600, 3500);
  EXPECT_EQ(Bound(groups), 4);
  ShapeInput affinity = GangPreemptionAffinityShape(4, 40, 2, 2);
  EXPECT_EQ(Bound(affinity), 4);
}

}  // namespace
}  // namespace wasched::perf
