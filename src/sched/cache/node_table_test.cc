#include "sched/cache/node_table.h"

#include <gtest/gtest.h>

#include "support/builders.h"

namespace wasched::sched {
namespace {

// The change log stays below ChangeLogLimit however many Adds a cycle makes (QA finding 21: a
// 5000-pod gang preemption grew it to ~4n² entries, 300 MB); each reset bumps the epoch so the
// consumers (score index, topology sums) rebuild instead of reading a cut log.
TEST(NodeTableTest, ChangeLogIsBoundedAndEachResetBumpsTheEpoch) {
  std::vector<api::Node> nodes;
  for (int i = 0; i < 3; ++i) {
    nodes.push_back(test::MakeNode().Name("n" + std::to_string(i)).Capacity({{"cpu", 4000}}).Obj());
  }
  ResourceTable resources;
  NodeTable table({&nodes[0], &nodes[1], &nodes[2]}, resources);
  const std::vector<ResourceAmount> req{{kCpu, 100}};
  const size_t limit = NodeTable::ChangeLogLimit(table.size());
  ASSERT_EQ(limit, 8u * 3 + 4096);
  for (size_t i = 0; i < limit; ++i) table.Add(static_cast<NodeIndex>(i % 3), req, 100, 0, +1);
  EXPECT_EQ(table.change_log().size(), limit);
  EXPECT_EQ(table.log_epoch(), 0u);
  table.Add(0, req, 100, 0, -1);  // the limit's entry resets first, then logs itself
  EXPECT_EQ(table.change_log().size(), 1u);
  EXPECT_EQ(table.log_epoch(), 1u);
  for (size_t i = 0; i < 5 * limit; ++i) table.Add(1, req, 100, 0, i % 2 == 0 ? +1 : -1);
  EXPECT_LE(table.change_log().size(), limit);
  EXPECT_EQ(table.log_epoch(), 6u);
  // Usage is unaffected by the resets.
  EXPECT_EQ(table.Requested(kCpu, 0), static_cast<int64_t>((limit + 2) / 3 - 1) * 100);
}

}  // namespace
}  // namespace wasched::sched
