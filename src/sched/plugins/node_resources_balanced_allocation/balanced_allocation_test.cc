#include "sched/plugins/node_resources_balanced_allocation/balanced_allocation.h"

#include <gtest/gtest.h>

#include "support/builders.h"

namespace wasched::sched::plugins {
namespace {

constexpr int64_t kMi = 1024 * 1024;

// v1.37 scores the improvement in balance, not the balance with the pod. Observed on the v1.37.2
// control plane (differential case random.r1-0025, reduced): the second 750m / 3136Mi pod of a
// gang went to node-04 (balance with the pod 84, without 90) over node-13, which already held the
// first pod (93 with, 91 without). The old formula (93 vs 84) chose node-13.
TEST(BalancedAllocationTest, ScoresTheImprovementInBalance) {
  std::vector<api::Node> nodes = {
      test::MakeNode().Name("node-04").Capacity({{"cpu", 17976}, {"memory", 21202 * kMi}}).Obj(),
      test::MakeNode().Name("node-13").Capacity({{"cpu", 19390}, {"memory", 37510 * kMi}}).Obj()};
  ResourceTable resources;
  NodeTable table({&nodes[0], &nodes[1]}, resources);
  table.Add(0, std::vector<ResourceAmount>{{kCpu, 3850}, {kMemory, 8768 * kMi}}, 0, 0, +1);
  table.Add(1, std::vector<ResourceAmount>{{kCpu, 9650}, {kMemory, 12032 * kMi}}, 0, 0, +1);
  PodInfo pod;
  pod.request_cpu = 750;
  pod.request_memory = 3136 * kMi;
  EXPECT_EQ(BalancedAllocationScore(pod, table, 0), 50 + (50 + 84 - 90) / 2);  // 72
  EXPECT_EQ(BalancedAllocationScore(pod, table, 1), 50 + (50 + 93 - 91) / 2);  // 76
  // A best-effort pod skips the plugin.
  EXPECT_EQ(BalancedAllocationScore(PodInfo{}, table, 0), 0);
}

}  // namespace
}  // namespace wasched::sched::plugins
