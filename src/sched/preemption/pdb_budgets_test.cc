// PdbBudgets: which pods a policy/v1 PodDisruptionBudget protects during preemption, and how
// many disruptions it allows (upstream DefaultPreemption filterPodsWithPDBViolation).
#include "sched/preemption/pdb_budgets.h"

#include <gtest/gtest.h>

#include "sched/preemption/test_cluster.h"

namespace wasched::sched::preemption {
namespace {

using test::kLow;
using test::TestCluster;

api::PodDisruptionBudget Budget(std::optional<api::LabelSelector> selector, int32_t min_available = 2) {
  api::PodDisruptionBudget pdb;
  pdb.meta.name = "pdb";
  pdb.meta.namespace_ = "default";
  pdb.min_available = api::IntOrString{false, min_available, ""};
  pdb.selector = std::move(selector);
  return pdb;
}

// Two running labelled pods; minAvailable 2 allows 0 disruptions for a budget that selects both.
struct Fixture {
  TestCluster c;
  PodIndex db = 0, web = 0, bare = 0;
  Fixture() {
    c.AddNode("n1", 4);
    db = c.AddPod("db", kLow, "n1", -1, 0, 1, {{"app", "db"}});
    web = c.AddPod("web", kLow, "n1", -1, 0, 1, {{"app", "web"}});
    bare = c.AddPod("bare", kLow, "n1");
    c.Build();
  }
  int32_t Violations(const api::PodDisruptionBudget& pdb, PodIndex victim) {
    std::vector<api::PodDisruptionBudget> pdbs = {pdb};
    PdbBudgets budgets(pdbs, c.pods());
    PdbBudgets::Counter counter = budgets.NewCounter();
    const PodIndex victims[] = {victim};
    return budgets.Take(counter, victims);
  }
};

TEST(PdbBudgets, MatchingSelectorProtectsItsPods) {
  Fixture f;
  const auto pdb = Budget(api::LabelSelector{{{"app", "db"}}, {}});
  EXPECT_EQ(f.Violations(pdb, f.db), 1);
  EXPECT_EQ(f.Violations(pdb, f.web), 0);
}

// QA finding 17 asked for policy/v1's "empty selector selects the whole namespace" (the
// disruption controller's reading). kube-scheduler's preemption reads it differently: "A PDB
// with a nil or empty selector matches nothing" (default_preemption.go), so evicting under such
// a budget is no violation. wasched follows the scheduler.
TEST(PdbBudgets, EmptyOrNullSelectorProtectsNothingInPreemption) {
  Fixture f;
  EXPECT_EQ(f.Violations(Budget(api::LabelSelector{}), f.db), 0);
  EXPECT_EQ(f.Violations(Budget(std::nullopt), f.db), 0);
}

// "A pod with no labels will not match any PDB": even a selector that only says a label must
// be absent does not protect an unlabelled pod. (The budget's allowance is counted as the
// disruption controller does, over all 3 pods the selector matches: minAvailable 3 allows 0.)
TEST(PdbBudgets, PodWithoutLabelsIsNeverProtected) {
  Fixture f;
  api::LabelSelectorRequirement absent{"tier", api::LabelSelectorOperator::kDoesNotExist,
                                       "DoesNotExist", {}};
  const auto pdb = Budget(api::LabelSelector{{}, {absent}}, 3);
  EXPECT_EQ(f.Violations(pdb, f.db), 1);  // labelled, no "tier" label: selected
  EXPECT_EQ(f.Violations(pdb, f.bare), 0);
}

// Differential case random.r1-0448: maxUnavailable 1 over four running pods without a
// controller (`run-pdb4-*`). The disruption controller counts the expected pods as the summed
// scale of the pods' controllers, to which an unmanaged pod adds nothing; with 0 expected it
// writes disruptionsAllowed 0 (pkg/controller/disruption/disruption.go getExpectedScale,
// updatePdbStatus). So evicting one of them is a violation, and v1.37.2 preempted on another
// node (3 victims, none protected) instead of evicting `run-pdb4-1` alone.
TEST(PdbBudgets, MaxUnavailableOverPodsWithoutControllerAllowsNothing) {
  TestCluster c;
  c.AddNode("n1", 8);
  std::vector<PodIndex> pods;
  for (int i = 0; i < 4; ++i) {
    pods.push_back(c.AddPod("run-pdb4-" + std::to_string(i), kLow, "n1", -1, 0, 1, {{"app", "run-pdb4"}}));
  }
  c.Build();
  api::PodDisruptionBudget pdb;
  pdb.meta.name = "run-pdb4";
  pdb.meta.namespace_ = "default";
  pdb.max_unavailable = api::IntOrString{false, 1, ""};
  pdb.selector = api::LabelSelector{{{"app", "run-pdb4"}}, {}};
  std::vector<api::PodDisruptionBudget> pdbs = {pdb};
  {
    PdbBudgets budgets(pdbs, c.pods());
    EXPECT_EQ(budgets.Allowed(0), 0);
    PdbBudgets::Counter counter = budgets.NewCounter();
    const PodIndex victims[] = {pods[1]};
    EXPECT_EQ(budgets.Take(counter, victims), 1);
  }
  // A percentage minAvailable is scaled the same way: 0 expected, nothing allowed.
  pdb.max_unavailable.reset();
  pdb.min_available = api::IntOrString{true, 0, "50%"};
  pdbs = {pdb};
  EXPECT_EQ(PdbBudgets(pdbs, c.pods()).Allowed(0), 0);
  // An integer minAvailable counts the matching pods themselves: 4 healthy, 2 required.
  pdb.min_available = api::IntOrString{false, 2, ""};
  pdbs = {pdb};
  EXPECT_EQ(PdbBudgets(pdbs, c.pods()).Allowed(0), 2);
  // Pods a controller owns count toward the expected pods: maxUnavailable 1 allows one.
  for (api::Pod& p : c.pod_objects()) {
    p.meta.owner_references.push_back({"apps/v1", "ReplicaSet", "rs", "uid-rs", true, true});
  }
  pdb.min_available.reset();
  pdb.max_unavailable = api::IntOrString{false, 1, ""};
  pdbs = {pdb};
  EXPECT_EQ(PdbBudgets(pdbs, c.pods()).Allowed(0), 1);
}

}  // namespace
}  // namespace wasched::sched::preemption
