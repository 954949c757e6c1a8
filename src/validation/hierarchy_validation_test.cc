// File: validation/hierarchy_validation_test.cc
//
// Upstream cases G01 and G04–G08 (tests/data/upstream-cases), as v1.37.2 schedules them, wasched's
// depth limit, cycles and missing parents.
#include "validation/hierarchy_validation.h"

#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "support/builders.h"

namespace wasched::validation {
namespace {

using ::testing::HasSubstr;
using ::testing::IsEmpty;

api::CompositePodGroup Cpg(std::string name, std::optional<std::string> parent,
                           std::string workload = "wl") {
  api::CompositePodGroup g;
  g.meta.name = std::move(name);
  g.meta.namespace_ = "default";
  g.parent_composite_pod_group_name = std::move(parent);
  g.workload_ref = api::WorkloadReference{std::move(workload), "t"};
  g.scheduling_policy.basic.emplace();
  return g;
}

api::PodGroup Pg(std::string name, std::string parent, std::string workload = "wl") {
  api::PodGroup g = test::MakePodGroup().Name(std::move(name)).MinCount(1).Parent(parent).Obj();
  g.workload_ref = api::WorkloadReference{std::move(workload), "t"};
  return g;
}

TEST(HierarchyValidationTest, ChosenReasonIsSchedulerError) {
  EXPECT_STREQ(kInvalidHierarchyReason, "SchedulerError");
}

// The KEP-6012 rules of upstream cases G04–G08 are not applied by v1.37.2: observed on its
// control plane (tests/differential scenarios hv-g04 … hv-g08), each of these trees is scheduled.
TEST(HierarchyValidationTest, KepRulesNotInV1372AreNotApplied) {
  {  // G04: a PodGroup at depth five
    api::ObjectSet set;
    set.composite_pod_groups = {Cpg("cpg-root", std::nullopt), Cpg("cpg1", "cpg-root"),
                                Cpg("cpg2", "cpg1"), Cpg("cpg3", "cpg2")};
    set.pod_groups = {Pg("pg1", "cpg3")};
    EXPECT_THAT(FindInvalidHierarchies(set), IsEmpty());
  }
  {  // G06: several Workloads
    api::ObjectSet set;
    set.composite_pod_groups = {Cpg("cpg-root", std::nullopt, "wl-1")};
    set.pod_groups = {Pg("pg1", "cpg-root", "wl-2")};
    EXPECT_THAT(FindInvalidHierarchies(set), IsEmpty());
  }
  {  // G07: a Gang root over a Basic child PodGroup
    api::ObjectSet set;
    api::CompositePodGroup root = Cpg("cpg-root", std::nullopt);
    root.scheduling_policy = {};
    root.scheduling_policy.gang = api::CompositeGangSchedulingPolicy{1};
    set.composite_pod_groups = {root};
    api::PodGroup child = Pg("pg1", "cpg-root");
    child.scheduling_policy = {};
    child.scheduling_policy.basic.emplace();
    set.pod_groups = {child};
    EXPECT_THAT(FindInvalidHierarchies(set), IsEmpty());
  }
  {  // G08: an `all` root over a `single` child
    api::ObjectSet set;
    api::CompositePodGroup root = Cpg("cpg-root", std::nullopt);
    root.disruption_mode = api::DisruptionMode{false, true};
    set.composite_pod_groups = {root};
    api::PodGroup child = Pg("pg1", "cpg-root");
    child.disruption_mode = api::DisruptionMode{true, false};
    set.pod_groups = {child};
    EXPECT_THAT(FindInvalidHierarchies(set), IsEmpty());
  }
}

// wasched's own limit: a CompositePodGroup deeper than kMaxSchedulingTreeDepth refuses the tree.
TEST(HierarchyValidationTest, DepthLimitIsWaschedsOwn) {
  api::ObjectSet set;
  set.composite_pod_groups.push_back(Cpg("c1", std::nullopt));
  for (int i = 2; i <= kMaxSchedulingTreeDepth; ++i) {
    set.composite_pod_groups.push_back(Cpg("c" + std::to_string(i), "c" + std::to_string(i - 1)));
  }
  EXPECT_THAT(FindInvalidHierarchies(set), IsEmpty());
  set.composite_pod_groups.push_back(
      Cpg("c" + std::to_string(kMaxSchedulingTreeDepth + 1),
          "c" + std::to_string(kMaxSchedulingTreeDepth)));
  const auto problems = FindInvalidHierarchies(set);
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_THAT(problems[0].message, HasSubstr("is at depth 65; wasched schedules hierarchies up to "
                                             "64 levels deep"));
}

TEST(HierarchyValidationTest, G01BasicCompositeUnderGangRootIsFine) {
  api::ObjectSet set;
  api::CompositePodGroup root = Cpg("root", std::nullopt);
  root.scheduling_policy = {};
  root.scheduling_policy.gang = api::CompositeGangSchedulingPolicy{2};
  api::CompositePodGroup sub1 = Cpg("sub1", "root");
  sub1.scheduling_policy = {};
  sub1.scheduling_policy.gang = api::CompositeGangSchedulingPolicy{2};
  set.composite_pod_groups = {root, sub1, Cpg("sub2", "root")};
  set.pod_groups = {Pg("pg1", "sub1"), Pg("pg2", "sub1"), Pg("pg4", "sub2")};
  set.pod_groups[2].scheduling_policy = {};
  set.pod_groups[2].scheduling_policy.basic.emplace();  // Basic leaf under a Basic CPG
  EXPECT_THAT(FindInvalidHierarchies(set), IsEmpty());
}

// Issue 20 item 22: a 30,000-level chain (leaf first in the input, so every group climbs through
// the rest, and root first) is one refused tree, found in linear time and memory (the walk used to
// copy the path per level: O(levels²)).
TEST(HierarchyValidationTest, LongChainIsOneTreeFoundLinearly) {
  constexpr int kLevels = 30000;
  for (bool leaf_first : {true, false}) {
    api::ObjectSet set;
    for (int i = 0; i < kLevels; ++i) {
      const int level = leaf_first ? kLevels - 1 - i : i;
      set.composite_pod_groups.push_back(
          Cpg("c" + std::to_string(level),
              level == 0 ? std::nullopt : std::optional<std::string>("c" + std::to_string(level - 1))));
    }
    const auto problems = FindInvalidHierarchies(set);
    ASSERT_EQ(problems.size(), 1u);
    EXPECT_EQ(problems[0].composite_pod_groups.size(), static_cast<size_t>(kLevels));
    EXPECT_THAT(problems[0].message, HasSubstr("default/c64 is at depth 65"));
    // The same chain under a missing root waits, every group of it, without a problem.
    set.composite_pod_groups[leaf_first ? kLevels - 1 : 0].parent_composite_pod_group_name = "gone";
    EXPECT_THAT(FindInvalidHierarchies(set), IsEmpty());
  }
}

TEST(HierarchyValidationTest, CyclesAreRefusedMissingParentsWait) {
  api::ObjectSet set;
  set.composite_pod_groups = {Cpg("a", "b"), Cpg("b", "a"), Cpg("orphan", "nowhere")};
  set.pod_groups = {Pg("pg", "a")};
  const auto problems = FindInvalidHierarchies(set);
  ASSERT_EQ(problems.size(), 1u);
  EXPECT_EQ(problems[0].composite_pod_groups.size(), 2u);
  EXPECT_EQ(problems[0].pod_groups.size(), 1u);
  EXPECT_THAT(problems[0].message, HasSubstr("cyclic"));
}

TEST(HierarchyValidationTest, DuplicateNamesFormingACycleByNameEnd) {
  // Found by a random forest test: root "a", "b" under "a", and a second "a" under "b". The walk
  // down from the root followed "a" → "b" → the second "a" → "b" … for ever. Only the
  // CompositePodGroup a name resolves to (the first) is walked.
  api::ObjectSet objects;
  objects.composite_pod_groups.push_back(Cpg("a", std::nullopt));
  objects.composite_pod_groups.push_back(Cpg("b", "a"));
  objects.composite_pod_groups.push_back(Cpg("a", "b"));
  objects.pod_groups.push_back(Pg("pg", "b"));
  EXPECT_THAT(FindInvalidHierarchies(objects), IsEmpty());
}

}  // namespace
}  // namespace wasched::validation
