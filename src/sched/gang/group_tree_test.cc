#include "sched/gang/group_tree.h"
#include "validation/hierarchy_validation.h"

#include <gtest/gtest.h>

#include "support/builders.h"

namespace wasched::sched {
namespace {

using test::MakeCompositePodGroup;
using test::MakePodGroup;

api::PodGroup Leaf(const std::string& name, const std::string& parent, int64_t created = 0) {
  return MakePodGroup().Name(name).MinCount(2).Parent(parent).WorkloadRef("wl", name)
      .CreationTimestamp(created).Obj();
}

TEST(GroupTree, LinksRootsChildrenDepthAndOrder) {
  api::ObjectSet objects;
  objects.pod_groups.push_back(Leaf("pg-b", "sub"));
  objects.pod_groups.push_back(Leaf("pg-a", "sub"));
  objects.pod_groups.push_back(Leaf("early", "root", -5));
  objects.pod_groups.push_back(MakePodGroup().Name("standalone").MinCount(3).TopologyKey("rack").Obj());
  objects.composite_pod_groups.push_back(MakeCompositePodGroup().Name("sub").Parent("root").Obj());
  objects.composite_pod_groups.push_back(
      MakeCompositePodGroup().Name("root").MinGroupCount(2).TopologyKey("zone").Obj());
  GroupTree tree(objects);
  ASSERT_EQ(tree.size(), 6);
  const TreeIndex root = tree.CompositeOf(1);
  const TreeIndex sub = tree.CompositeOf(0);
  EXPECT_EQ(tree.roots(), (std::vector<TreeIndex>{3, root}));
  EXPECT_EQ(tree.node(root).quorum, 2);
  EXPECT_TRUE(tree.node(root).is_gang);
  EXPECT_EQ(tree.node(root).topology_key, "zone");
  EXPECT_EQ(tree.node(sub).quorum, 1);
  EXPECT_EQ(tree.node(sub).depth, 2);
  EXPECT_EQ(tree.node(0).depth, 3);
  EXPECT_EQ(tree.node(0).root, root);
  EXPECT_EQ(tree.node(0).parent, sub);
  // Children: creation timestamp, then name; PodGroups and CompositePodGroups mixed.
  EXPECT_EQ(tree.node(root).children, (std::vector<TreeIndex>{2, sub}));
  EXPECT_EQ(tree.node(sub).children, (std::vector<TreeIndex>{1, 0}));
  std::vector<TreeIndex> order;
  tree.Preorder(root, order);
  EXPECT_EQ(order, (std::vector<TreeIndex>{root, 2, sub, 1, 0}));
  std::vector<TreeIndex> leaves;
  tree.Leaves(root, leaves);
  EXPECT_EQ(leaves, (std::vector<TreeIndex>{2, 1, 0}));
  EXPECT_EQ(tree.FindComposite("default", "sub"), sub);
  EXPECT_EQ(tree.FindPodGroup("default", "pg-a"), 1);
  EXPECT_EQ(tree.FindPodGroup("other", "pg-a"), kNoTreeNode);
  EXPECT_TRUE(tree.node(root).problem.empty());
}

// Issue 20 item 22: roots and depths of a 30,000-level chain in linear time (each group used to
// climb the whole chain); a chain into a cycle or a missing parent is resolved the same way.
TEST(GroupTree, LongChainResolvesLinearly) {
  constexpr int kLevels = 30000;
  api::ObjectSet objects;
  for (int i = kLevels - 1; i >= 0; --i) {  // leaf first
    auto c = MakeCompositePodGroup().Name("c" + std::to_string(i));
    if (i > 0) c.Parent("c" + std::to_string(i - 1));
    objects.composite_pod_groups.push_back(c.Obj());
  }
  objects.pod_groups.push_back(Leaf("leaf", "c" + std::to_string(kLevels - 1)));
  GroupTree tree(objects);
  const TreeIndex root = tree.CompositeOf(kLevels - 1);
  EXPECT_EQ(tree.roots(), (std::vector<TreeIndex>{root}));
  EXPECT_EQ(tree.node(tree.CompositeOf(0)).depth, kLevels);
  EXPECT_EQ(tree.node(0).depth, kLevels + 1);
  EXPECT_EQ(tree.node(0).root, root);
  EXPECT_FALSE(tree.node(0).problem.empty());
  // The root's parent missing: every group waits for it.
  objects.composite_pod_groups.back().parent_composite_pod_group_name = "ghost";
  GroupTree waiting(objects);
  EXPECT_TRUE(waiting.roots().empty());
  EXPECT_EQ(waiting.node(0).missing_parent, "ghost");
  EXPECT_EQ(waiting.node(waiting.CompositeOf(0)).missing_parent, "ghost");
}

TEST(GroupTree, MissingParentAndCycleHaveNoRoot) {
  api::ObjectSet objects;
  objects.pod_groups.push_back(Leaf("orphan", "ghost"));
  objects.pod_groups.push_back(Leaf("looped", "c1"));
  objects.composite_pod_groups.push_back(MakeCompositePodGroup().Name("mid").Parent("ghost").Obj());
  objects.composite_pod_groups.push_back(MakeCompositePodGroup().Name("c1").Parent("c2").Obj());
  objects.composite_pod_groups.push_back(MakeCompositePodGroup().Name("c2").Parent("c1").Obj());
  GroupTree tree(objects);
  EXPECT_TRUE(tree.roots().empty());
  EXPECT_EQ(tree.node(0).root, kNoTreeNode);
  EXPECT_EQ(tree.node(0).missing_parent, "ghost");
  EXPECT_EQ(tree.node(tree.CompositeOf(0)).missing_parent, "ghost");
  EXPECT_TRUE(tree.node(1).cyclic);
  EXPECT_TRUE(tree.node(tree.CompositeOf(1)).cyclic);
  EXPECT_NE(tree.node(1).problem.find("cyclic"), std::string::npos);
}

TEST(GroupTree, TooDeepHierarchyMarksEveryNode) {
  api::ObjectSet objects;
  // A chain one level deeper than wasched schedules (validation::kMaxSchedulingTreeDepth).
  objects.composite_pod_groups.push_back(MakeCompositePodGroup().Name("c1").MinGroupCount(1).Obj());
  for (int i = 2; i <= validation::kMaxSchedulingTreeDepth + 1; ++i) {
    objects.composite_pod_groups.push_back(MakeCompositePodGroup()
                                               .Name("c" + std::to_string(i))
                                               .Parent("c" + std::to_string(i - 1))
                                               .MinGroupCount(1)
                                               .Obj());
  }
  objects.pod_groups.push_back(MakePodGroup().Name("pg1").Basic().Parent("c2").WorkloadRef("wl", "pg1").Obj());
  GroupTree tree(objects);
  ASSERT_EQ(tree.roots().size(), 1U);
  EXPECT_NE(tree.node(0).problem.find("is at depth 65"), std::string::npos);
  EXPECT_EQ(tree.node(0).problem, tree.node(tree.CompositeOf(0)).problem);
}

// A Gang CompositePodGroup over a Basic child (KEP-6012 case G07) is scheduled by v1.37.2.
TEST(GroupTree, GangOverBasicIsNoProblem) {
  api::ObjectSet objects;
  objects.pod_groups.push_back(MakePodGroup().Name("pg1").Basic().Parent("root").WorkloadRef("wl", "pg1").Obj());
  objects.composite_pod_groups.push_back(MakeCompositePodGroup().Name("root").MinGroupCount(1).Obj());
  GroupTree tree(objects);
  ASSERT_EQ(tree.roots().size(), 1U);
  EXPECT_TRUE(tree.node(0).problem.empty());
}

}  // namespace
}  // namespace wasched::sched
