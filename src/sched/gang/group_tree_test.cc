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

// The validation is skipped when the links show no cycle and no CompositePodGroup deeper than
// kMaxSchedulingTreeDepth (names unique, as ValidateForSchedule requires): on random forests
// (parents drawn among the names and a few missing ones, so with cycles, missing parents, deep
// chains) every node carries exactly the message FindInvalidHierarchies gives it.
TEST(GroupTree, ProblemsMatchTheValidationOnRandomForests) {
  uint64_t seed = 0x9e3779b97f4a7c15ULL;
  auto next = [&](uint64_t bound) {
    seed ^= seed << 13;
    seed ^= seed >> 7;
    seed ^= seed << 17;
    return static_cast<int>(seed % bound);
  };
  int refused = 0, deep = 0, cyclic = 0;
  for (int round = 0; round < 400; ++round) {
    api::ObjectSet objects;
    const int cpgs = 1 + next(80);
    const bool chain = round % 4 == 0;  // a chain (depth up to 80), sometimes closed into a loop
    for (int i = 0; i < cpgs; ++i) {
      auto c = MakeCompositePodGroup().Name("c" + std::to_string(i)).MinGroupCount(1);
      if (chain) {
        if (i > 0) c.Parent("c" + std::to_string(i - 1));
        if (i == 0 && next(3) == 0) c.Parent("c" + std::to_string(cpgs - 1));
      } else if (next(3) != 0) {
        c.Parent("c" + std::to_string(next(cpgs + 3)));  // ≥ cpgs: missing
      }
      objects.composite_pod_groups.push_back(c.Obj());
    }
    for (int i = 0; i < 5; ++i) {
      objects.pod_groups.push_back(
          Leaf("pg" + std::to_string(i), "c" + std::to_string(next(cpgs))));
    }
    const GroupTree tree(objects);
    std::vector<std::string> want(static_cast<size_t>(tree.size()));
    for (const validation::HierarchyProblem& p : validation::FindInvalidHierarchies(objects)) {
      ++refused;
      deep += p.message.find("depth") != std::string::npos;
      cyclic += p.message.find("cyclic") != std::string::npos;
      for (const api::CompositePodGroup* c : p.composite_pod_groups) {
        want[static_cast<size_t>(
            tree.CompositeOf(static_cast<int32_t>(c - objects.composite_pod_groups.data())))] =
            p.message;
      }
      for (const api::PodGroup* pg : p.pod_groups) {
        const auto index = static_cast<int32_t>(pg - objects.pod_groups.data());
        want[static_cast<size_t>(tree.LeafOf(index))] = p.message;
      }
    }
    for (TreeIndex t = 0; t < tree.size(); ++t) {
      ASSERT_EQ(tree.node(t).problem, want[static_cast<size_t>(t)])
          << "round " << round << " node " << t;
    }
  }
  // The forests do hold both kinds of refused trees.
  EXPECT_GT(deep, 5);
  EXPECT_GT(cyclic, 20);
  EXPECT_EQ(refused, deep + cyclic);
}

// A chain exactly kMaxSchedulingTreeDepth deep is scheduled (the validation is skipped for it).
TEST(GroupTree, HierarchyAtTheDepthLimitIsNoProblem) {
  api::ObjectSet objects;
  objects.composite_pod_groups.push_back(MakeCompositePodGroup().Name("c1").MinGroupCount(1).Obj());
  for (int i = 2; i <= validation::kMaxSchedulingTreeDepth; ++i) {
    objects.composite_pod_groups.push_back(MakeCompositePodGroup()
                                               .Name("c" + std::to_string(i))
                                               .Parent("c" + std::to_string(i - 1))
                                               .MinGroupCount(1)
                                               .Obj());
  }
  objects.pod_groups.push_back(
      Leaf("pg1", "c" + std::to_string(validation::kMaxSchedulingTreeDepth)));
  GroupTree tree(objects);
  ASSERT_EQ(tree.roots().size(), 1U);
  EXPECT_EQ(tree.node(0).depth, validation::kMaxSchedulingTreeDepth + 1);
  for (TreeIndex t = 0; t < tree.size(); ++t) EXPECT_TRUE(tree.node(t).problem.empty()) << t;
}

}  // namespace
}  // namespace wasched::sched
