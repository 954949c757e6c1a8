#include "sched/preemption/victim_unit.h"

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "sched/preemption/pdb_budgets.h"
#include "sched/preemption/test_cluster.h"

namespace wasched::sched::preemption {
namespace {

using test::kLow;
using test::kMid;
using test::TestCluster;
using ::testing::ElementsAre;

TEST(VictimUnits, HighestAllAncestorOwnsTheUnit) {
  // cpg-root (all) → cpg-mid (all) → pg-a, pg-b (single): every pod is one root unit.
  TestCluster c;
  c.AddNode("n1", 10);
  c.AddNode("n2", 10);
  const int32_t pa = c.AddGroup("pg-a", kLow, false);
  const int32_t pb = c.AddGroup("pg-b", kLow, false);
  const int32_t root = c.AddGroup("root", kLow, true, -1, /*composite=*/true);
  const int32_t mid = c.AddGroup("mid", kLow, true, root, true);
  c.groups()[pa].parent = mid;
  c.groups()[pb].parent = mid;
  c.groups()[mid].children = {pa, pb};
  const PodIndex a0 = c.AddPod("a0", kLow, "n1", pa);
  c.AddPod("a1", kLow, "n2", pa);
  const PodIndex b0 = c.AddPod("b0", kLow, "n2", pb);
  c.AddPod("pending", kLow, "", pb);
  c.Build();
  VictimUnitIndex units(c.pods(), c.groups());
  EXPECT_EQ(units.KeyOf(a0), units.KeyOf(b0));
  const VictimUnit& u = units.UnitOf(a0);
  EXPECT_THAT(c.Names({u.pods.begin(), u.pods.end()}), ElementsAre("a0", "a1", "b0"));
  EXPECT_EQ(u.kind, UnitKind::kCompositePodGroup);
  EXPECT_TRUE(u.whole_group);
  EXPECT_EQ(units.Label(u), "CompositePodGroup default/root");
  EXPECT_EQ(units.Label(units.UnitOf(a0)), "CompositePodGroup default/root");
  EXPECT_EQ(units.SlotOf(b0), units.SlotOf(a0));
  EXPECT_EQ(units.AllSlots().size(), 1u);
}

TEST(VictimUnits, SingleGroupPodsAreUnitsOfTheirOwnWithTheGroupsPriority) {
  TestCluster c;
  c.AddNode("n1", 10);
  const int32_t g = c.AddGroup("pg", kMid, false);
  const PodIndex p0 = c.AddPod("p0", kMid, "n1", g);
  const PodIndex p1 = c.AddPod("p1", kMid, "n1", g);
  const PodIndex bare = c.AddPod("bare", kLow, "n1");
  c.Build();
  VictimUnitIndex units(c.pods(), c.groups());
  EXPECT_NE(units.SlotOf(p0), units.SlotOf(p1));
  EXPECT_EQ(units.UnitOf(p0).kind, UnitKind::kPodGroup);
  EXPECT_EQ(units.UnitOf(p0).priority, kMid);
  EXPECT_FALSE(units.UnitOf(p0).whole_group);
  EXPECT_EQ(units.UnitOf(bare).kind, UnitKind::kPod);
  EXPECT_EQ(units.AllSlots().size(), 3u);
}

TEST(VictimUnits, ImportanceOrder) {
  VictimUnit pod{{1}, 10, UnitKind::kPod, false, -1, 5};
  VictimUnit group{{2, 3}, 10, UnitKind::kPodGroup, true, 0, 9};
  VictimUnit bigger{{4, 5, 6}, 10, UnitKind::kPodGroup, true, 1, 9};
  VictimUnit cpg{{7}, 10, UnitKind::kCompositePodGroup, true, 2, 9};
  VictimUnit higher{{8}, 11, UnitKind::kPod, false, -1, 9};
  VictimUnit older{{9}, 10, UnitKind::kPod, false, -1, 1};
  VictimUnit same{{10}, 10, UnitKind::kPod, false, -1, 5};  // ties with `pod`
  std::vector<VictimUnit> v = {pod, group, bigger, cpg, higher, older, same};
  std::stable_sort(v.begin(), v.end(), MoreImportantUnit);
  std::vector<PodIndex> first;
  for (const auto& u : v) first.push_back(u.pods.front());
  // Equal units (pods 1 and 10) keep their list order: no tie-break after the start time.
  EXPECT_THAT(first, ElementsAre(8, 7, 4, 2, 9, 1, 10));
}

// r1-0448 against v1.37.2: upstream's MoreImportantVictim ends at the start time, so a
// `disruptionMode: all` group unit of one running pod and a pod of a `single` group (both
// PodGroup units of one pod, same priority, same start) are equal, whatever their names or uids.
// wasched compared the uid / label strings after the start time until 2026-12-03.
TEST(VictimUnits, EqualUnitsAreNotOrderedByUidOrLabel) {
  TestCluster c;
  c.AddNode("n1", 10);
  const int32_t gang = c.AddGroup("a-gang", kLow, /*all=*/true);
  const int32_t single = c.AddGroup("z-single", kLow, /*all=*/false);
  const PodIndex b = c.AddPod("b-pod", kLow, "n1", single, /*start=*/7);
  const PodIndex a = c.AddPod("a-gang-0", kLow, "n1", gang, /*start=*/7);
  const PodIndex y = c.AddPod("y-bare", kLow, "n1", -1, /*start=*/7);
  const PodIndex x = c.AddPod("x-bare", kLow, "n1", -1, /*start=*/7);
  c.Build();
  VictimUnitIndex units(c.pods(), c.groups());
  const VictimUnit ua = units.UnitOf(a);
  const VictimUnit ub = units.UnitOf(b);
  ASSERT_EQ(ua.kind, UnitKind::kPodGroup);
  ASSERT_EQ(ub.kind, UnitKind::kPodGroup);
  EXPECT_FALSE(MoreImportantUnit(ua, ub));
  EXPECT_FALSE(MoreImportantUnit(ub, ua));
  const VictimUnit ux = units.UnitOf(x);
  const VictimUnit uy = units.UnitOf(y);
  EXPECT_FALSE(MoreImportantUnit(ux, uy));
  EXPECT_FALSE(MoreImportantUnit(uy, ux));
}

// Issue 15: a unit's start is its pods' status.startTime (upstream preemption/types.go NewVictim
// over util.GetPodStartTime), not their creationTimestamp; an unset start is "now", later than
// every recorded one. Here creation order (b, a, c) and start order (a, b) disagree.
TEST(VictimUnits, StartTimeNotCreationOrdersUnits) {
  TestCluster c;
  c.AddNode("n1", 10);
  c.AddNode("n2", 10);
  const PodIndex a = c.AddPod("a", kLow, "n1", -1, /*start=*/10);
  const PodIndex b = c.AddPod("b", kLow, "n1", -1, /*start=*/50);
  const PodIndex unstarted = c.AddPod("c", kLow, "n1");
  c.SetCreation(a, 100);
  c.SetCreation(b, 1);
  c.SetCreation(unstarted, 0);
  c.SetStartTime(unstarted, std::nullopt);
  const int32_t g = c.AddGroup("gang", kLow, /*all=*/true);
  const PodIndex g0 = c.AddPod("g-0", kLow, "n1", g, /*start=*/40);
  const PodIndex g1 = c.AddPod("g-1", kLow, "n2", g, /*start=*/30);
  c.SetCreation(g0, 5);
  c.SetCreation(g1, 500);
  c.Build();
  VictimUnitIndex units(c.pods(), c.groups());
  EXPECT_EQ(units.UnitOf(a).earliest_start, 10);
  EXPECT_EQ(units.UnitOf(b).earliest_start, 50);
  EXPECT_EQ(units.UnitOf(unstarted).earliest_start, kStartedLast);
  EXPECT_EQ(units.UnitOf(g0).earliest_start, 30);  // the earliest of the gang's pods
  std::vector<VictimUnit> v = {units.UnitOf(unstarted), units.UnitOf(b), units.UnitOf(a)};
  std::sort(v.begin(), v.end(), MoreImportantUnit);
  std::vector<std::string> order;
  for (const VictimUnit& u : v) order.push_back(units.Label(u));
  EXPECT_THAT(order, ElementsAre("Pod default/a", "Pod default/b", "Pod default/c"));
}

TEST(PdbBudgets, AllowedDisruptionsFromRunningPods) {
  TestCluster c;
  c.AddNode("n1", 10);
  for (int i = 0; i < 4; ++i) c.AddPod("web-" + std::to_string(i), kLow, "n1", -1, 0, 1, {{"app", "web"}});
  c.AddPod("web-pending", kLow, "", -1, 0, 1, {{"app", "web"}});
  c.Build();
  // Owned by a controller: percentages and maxUnavailable scale over managed pods only
  // (PdbBudgets.MaxUnavailableOverPodsWithoutControllerAllowsNothing covers bare pods).
  for (api::Pod& p : c.pod_objects()) {
    p.meta.owner_references.push_back({"apps/v1", "ReplicaSet", "web", "uid-web", true, true});
  }
  auto make = [](std::optional<api::IntOrString> min, std::optional<api::IntOrString> max) {
    api::PodDisruptionBudget pdb;
    pdb.meta.namespace_ = "default";
    pdb.min_available = std::move(min);
    pdb.max_unavailable = std::move(max);
    pdb.selector = api::LabelSelector{{{"app", "web"}}, {}};
    return pdb;
  };
  std::vector<api::PodDisruptionBudget> pdbs = {
      make(api::IntOrString{false, 3, ""}, std::nullopt),    // 4 healthy - 3 = 1
      make(api::IntOrString{true, 0, "50%"}, std::nullopt),  // ceil(5 × 50%) = 3 → 1
      make(std::nullopt, api::IntOrString{false, 2, ""}),    // 5 - 2 = 3 → 1
      make(std::nullopt, api::IntOrString{true, 0, "100%"}), // desired 0 → 4
  };
  PdbBudgets budgets(pdbs, c.pods());
  EXPECT_EQ(budgets.Allowed(0), 1);
  EXPECT_EQ(budgets.Allowed(1), 1);
  EXPECT_EQ(budgets.Allowed(2), 1);
  EXPECT_EQ(budgets.Allowed(3), 4);
  PdbBudgets::Counter counter = budgets.NewCounter();
  EXPECT_EQ(budgets.Take(counter, std::vector<PodIndex>{0}), 0);
  EXPECT_EQ(budgets.Take(counter, std::vector<PodIndex>{1, 2}), 2);
}

TEST(PdbBudgets, EmptySelectorIsIgnoredByPreemption) {
  TestCluster c;
  c.AddNode("n1", 10);
  c.AddPod("a", kLow, "n1");
  c.Build();
  api::PodDisruptionBudget pdb;
  pdb.meta.namespace_ = "default";
  pdb.min_available = api::IntOrString{false, 1, ""};
  pdb.selector = api::LabelSelector{};
  std::vector<api::PodDisruptionBudget> pdbs = {pdb};
  PdbBudgets budgets(pdbs, c.pods());
  PdbBudgets::Counter counter = budgets.NewCounter();
  EXPECT_EQ(budgets.Take(counter, std::vector<PodIndex>{0}), 0);
}

TEST(LabelSelector, Operators) {
  std::map<std::string, std::string> labels = {{"app", "web"}, {"tier", "front"}};
  api::LabelSelector s;
  s.match_expressions.push_back({"app", api::LabelSelectorOperator::kIn, "In", {"web", "db"}});
  s.match_expressions.push_back({"env", api::LabelSelectorOperator::kDoesNotExist, "", {}});
  EXPECT_TRUE(api::Matches(s, labels));
  s.match_expressions.push_back({"tier", api::LabelSelectorOperator::kNotIn, "", {"front"}});
  EXPECT_FALSE(api::Matches(s, labels));
}

}  // namespace
}  // namespace wasched::sched::preemption

namespace wasched::sched::preemption {
namespace {

TEST(VictimUnits, RefreshRebuildsGroupUnitsFromCurrentPlacements) {
  TestCluster c;
  c.AddNode("n1", 10);
  const int32_t g = c.AddGroup("gang", test::kLow, true);
  const PodIndex a = c.AddPod("a", test::kLow, "n1", g);
  const PodIndex b = c.AddPod("b", test::kLow, "n1", g);
  const PodIndex bare = c.AddPod("bare", test::kLow, "n1");
  c.Build();
  VictimUnitIndex units(c.pods(), c.groups());
  EXPECT_EQ(units.UnitOf(a).pods.size(), 2u);
  const int32_t bare_slot = units.SlotOf(bare);
  c.snapshot().Remove(b);
  EXPECT_EQ(units.UnitOf(a).pods.size(), 2u);  // cached until Refresh
  units.Refresh();
  EXPECT_EQ(units.UnitOf(a).pods.size(), 1u);
  EXPECT_EQ(units.SlotOf(bare), bare_slot);  // single-pod units survive
}

}  // namespace
}  // namespace wasched::sched::preemption
