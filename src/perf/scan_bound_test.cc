// File: perf/scan_bound_test.cc
#include "perf/scan_bound.h"

#include <gtest/gtest.h>

#include "perf/shapes.h"

namespace wasched::perf {
namespace {

TEST(ScanBoundTest, ScanPicksTheLeastAllocatedNodeThatFits) {
  std::vector<api::Node> nodes = {DefaultNode(0), DefaultNode(1), DefaultNode(2)};
  nodes[1].allocatable["cpu"] = 8000;  // the most free CPU
  nodes[2].allocatable["pods"] = 0;    // no pod slot
  const NodeArrays a = ToArrays(nodes);
  EXPECT_EQ(ScanOnce(a, 100, 1 << 20), 1);
  EXPECT_EQ(ScanOnce(a, 9000, 1 << 20), -1);
}

TEST(ScanBoundTest, ToArraysSubtractsRunningPods) {
  const ShapeInput in = SchedulingBasicShape(2, 4, 0);  // 4 running pods of 100m, 2 per node
  const NodeArrays a = ToArrays(in.objects.nodes, &in.objects.pods);
  EXPECT_EQ(a.cpu_free[0], 3800);
  EXPECT_EQ(a.pods_free[1], 108);
}

TEST(ScanBoundTest, NaiveBaselinePlacesWhatFitsPodByPod) {
  // 2 nodes × 4 CPU; 3000m preemptors cannot fit beside 4 × 900m running pods.
  EXPECT_EQ(NaiveSchedule(PreemptionShape(2, 8, 2).objects), 0);
  EXPECT_EQ(NaiveSchedule(SchedulingBasicShape(3, 0, 7).objects), 7);
  // 1 node: 4000m / 100m = 40 pods fit, the 41st does not.
  EXPECT_EQ(NaiveSchedule(SchedulingBasicShape(1, 0, 41).objects), 40);
}

}  // namespace
}  // namespace wasched::perf
