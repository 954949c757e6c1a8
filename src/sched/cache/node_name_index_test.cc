#include "sched/cache/node_name_index.h"

#include <gtest/gtest.h>

#include <string>

#include "support/builders.h"

namespace wasched::sched {
namespace {

NodeTable TableOf(const std::vector<api::Node>& nodes, ResourceTable& resources) {
  std::vector<const api::Node*> pointers;
  for (const api::Node& n : nodes) pointers.push_back(&n);
  return NodeTable(std::move(pointers), resources);
}

// Every node is found at its own index, and names no node has (prefixes, extensions, the empty
// name) are not, at a size that makes the probe sequences collide.
TEST(NodeNameIndexTest, FindsEveryNodeAndNothingElse) {
  std::vector<api::Node> nodes;
  for (int i = 0; i < 1000; ++i) nodes.push_back(test::MakeNode().Name("node-" + std::to_string(i)).Obj());
  ResourceTable resources;
  const NodeTable table = TableOf(nodes, resources);
  const NodeNameIndex index(table);
  for (NodeIndex n = 0; n < table.size(); ++n) EXPECT_EQ(index.Find(nodes[n].meta.name), n);
  EXPECT_EQ(index.Find("node-1000"), -1);
  EXPECT_EQ(index.Find("node-"), -1);
  EXPECT_EQ(index.Find("node-10x"), -1);
  EXPECT_EQ(index.Find(""), -1);
}

TEST(NodeNameIndexTest, EmptyClusterAndDefaultIndexFindNothing) {
  ResourceTable resources;
  const NodeTable table = TableOf({}, resources);
  EXPECT_EQ(NodeNameIndex(table).Find("a"), -1);
  EXPECT_EQ(NodeNameIndex().Find("a"), -1);
}

// A name given twice (invalid input the index must survive) keeps its first index.
TEST(NodeNameIndexTest, RepeatedNameKeepsTheFirstIndex) {
  std::vector<api::Node> nodes{test::MakeNode().Name("a").Obj(), test::MakeNode().Name("b").Obj(),
                               test::MakeNode().Name("a").Obj()};
  ResourceTable resources;
  const NodeTable table = TableOf(nodes, resources);
  const NodeNameIndex index(table);
  EXPECT_EQ(index.Find("a"), 0);
  EXPECT_EQ(index.Find("b"), 1);
}

}  // namespace
}  // namespace wasched::sched
