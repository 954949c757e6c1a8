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

}  // namespace
}  // namespace wasched::sched::preemption
