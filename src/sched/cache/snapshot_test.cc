#include "sched/cache/snapshot.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

namespace wasched::sched {
namespace {

std::vector<PodIndex> Sorted(std::span<const PodIndex> s) {
  std::vector<PodIndex> v(s.begin(), s.end());
  std::sort(v.begin(), v.end());
  return v;
}

// Past the inline capacity the list moves to the heap and keeps every pod; Erase swaps the last
// pod into the hole (the order Snapshot::PodsOn had with a std::vector).
TEST(NodePodListTest, GrowsPastInlineAndErasesByMovingTheLast) {
  NodePodList list;
  for (PodIndex p = 0; p < 11; ++p) list.Push(p * 10);
  ASSERT_EQ(list.view().size(), 11u);
  for (PodIndex p = 0; p < 11; ++p) EXPECT_EQ(list.view()[p], p * 10);
  list.Erase(30);
  EXPECT_EQ(list.view().size(), 10u);
  EXPECT_EQ(list.view()[3], 100);  // the last took its place
  list.Erase(12345);               // absent: no-op
  EXPECT_EQ(list.view().size(), 10u);
  NodePodList moved(std::move(list));
  EXPECT_EQ(moved.view().size(), 10u);
  EXPECT_EQ(list.view().size(), 0u);  // NOLINT(bugprone-use-after-move): moved-from is empty
  NodePodList small;
  small.Push(7);
  small.Push(8);
  small.Erase(7);
  ASSERT_EQ(small.view().size(), 1u);
  EXPECT_EQ(small.view()[0], 8);
  moved = std::move(small);
  ASSERT_EQ(moved.view().size(), 1u);
  EXPECT_EQ(moved.view()[0], 8);
}

// Assume many pods on one node (past the inline capacity), revert half: PodsOn holds exactly
// the pods placed, and usage follows.
TEST(SnapshotTest, PodsOnFollowsAssumeAndRevertPastInlineCapacity) {
  api::Node node;
  node.meta.name = "n0";
  node.allocatable["cpu"] = 64000;
  ResourceTable resources;
  NodeTable table({&node}, resources);
  const std::vector<ResourceAmount> requests{{kCpu, 100}};
  std::vector<PodInfo> pods(12);
  for (PodInfo& pi : pods) {
    pi.requests = requests;
    pi.request_cpu = 100;
  }
  Snapshot snapshot(table, pods);
  for (PodIndex p = 0; p < 6; ++p) snapshot.Assume(p, 0);
  snapshot.Commit();
  const size_t mark = snapshot.Mark();
  for (PodIndex p = 6; p < 12; ++p) snapshot.Assume(p, 0);
  EXPECT_EQ(snapshot.PodsOn(0).size(), 12u);
  EXPECT_EQ(table.Requested(kCpu, 0), 1200);
  snapshot.RevertTo(mark);
  EXPECT_EQ(Sorted(snapshot.PodsOn(0)), (std::vector<PodIndex>{0, 1, 2, 3, 4, 5}));
  EXPECT_EQ(table.Requested(kCpu, 0), 600);
  snapshot.Remove(2);
  EXPECT_EQ(Sorted(snapshot.PodsOn(0)), (std::vector<PodIndex>{0, 1, 3, 4, 5}));
}

}  // namespace
}  // namespace wasched::sched
