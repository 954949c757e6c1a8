#include "sched/plugins/node_resources_fit/node_resources_fit.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <limits>

namespace wasched::sched::plugins {
namespace {

constexpr int64_t kMax = std::numeric_limits<int64_t>::max();

// The 64-bit path (every real capacity) and the 128-bit path (capacities above INT64_MAX / 100)
// give upstream's truncated quotient.
TEST(NodeResourcesFitScoreTest, LeastRequestedTruncatesOnBothPaths) {
  EXPECT_EQ(LeastRequestedScore(100, 4000), 97);        // 3900 × 100 / 4000 = 97.5
  EXPECT_EQ(LeastRequestedScore(0, 3), 100);
  EXPECT_EQ(LeastRequestedScore(4001, 4000), 0);        // more than the capacity
  EXPECT_EQ(LeastRequestedScore(0, 0), 0);              // no capacity
  EXPECT_EQ(LeastRequestedScore(1, kMax), 99);          // (2^63 − 2) × 100 / (2^63 − 1) = 99.99…
  EXPECT_EQ(LeastRequestedScore(kMax / 2, kMax), 50);   // 128-bit product
  const int64_t edge = kMax / 100;                      // the largest 64-bit-path capacity
  EXPECT_EQ(LeastRequestedScore(1, edge), 99);
  EXPECT_EQ(LeastRequestedScore(1, edge + 1), 99);
  EXPECT_EQ(LeastRequestedScore(edge / 4, edge), 75);
  EXPECT_EQ(LeastRequestedScore((edge + 1) / 4, edge + 1), 75);
}

TEST(NodeResourcesFitScoreTest, MostRequestedTruncatesOnBothPaths) {
  EXPECT_EQ(MostRequestedScore(100, 4000), 2);          // 2.5
  EXPECT_EQ(MostRequestedScore(5000, 4000), 100);       // clamped to the capacity
  EXPECT_EQ(MostRequestedScore(-5, 4000), 0);
  EXPECT_EQ(MostRequestedScore(kMax - 1, kMax), 99);
  EXPECT_EQ(MostRequestedScore(kMax / 4 * 3, kMax), 74);  // just below 75 % (kMax is odd)
}

}  // namespace
}  // namespace wasched::sched::plugins
