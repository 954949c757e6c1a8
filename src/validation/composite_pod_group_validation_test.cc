// File: validation/composite_pod_group_validation_test.cc
#include "validation/composite_pod_group_validation.h"

#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "support/error_summary.h"

namespace wasched::validation {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

using test::Summary;

api::CompositePodGroup Root() {
  api::CompositePodGroup g;
  g.meta.name = "root";
  g.meta.namespace_ = "default";
  g.workload_ref = api::WorkloadReference{"w", "root"};
  g.scheduling_policy.gang = api::CompositeGangSchedulingPolicy{2};
  return g;
}

TEST(CompositePodGroupValidationTest, ValidAndRequiredFields) {
  EXPECT_THAT(ValidateCompositePodGroup(Root(), nullptr, FeatureGates{}), IsEmpty());
  api::CompositePodGroup g = Root();
  g.workload_ref.reset();
  g.scheduling_policy.gang->min_group_count = 0;
  g.parent_composite_pod_group_name = "Not/A/Name";
  EXPECT_THAT(Summary(ValidateCompositePodGroup(g, nullptr, FeatureGates{})),
              ElementsAre("Invalid spec.parentCompositePodGroupName (format=k8s-long-name)",
                          "Required spec.workloadRef",
                          "Required spec.schedulingPolicy.gang.minGroupCount"));
}

// Choice for spec §12 item 5: on the CompositePodGroup object the whole policy is immutable, so
// minGroupCount cannot change on a live group (unlike in a Workload template).
TEST(CompositePodGroupValidationTest, PolicyIsImmutableAsAWhole) {
  const api::CompositePodGroup old = Root();
  api::CompositePodGroup updated = old;
  updated.scheduling_policy.gang->min_group_count = 3;
  EXPECT_THAT(Summary(ValidateCompositePodGroup(updated, &old, FeatureGates{})),
              ElementsAre("Invalid spec.schedulingPolicy (immutable)"));
  EXPECT_THAT(ValidateCompositePodGroup(old, &old, FeatureGates{}), IsEmpty());
}

TEST(CompositePodGroupValidationTest, GatedFields) {
  api::CompositePodGroup g = Root();
  g.scheduling_constraints = api::SchedulingConstraints{{api::TopologyConstraint{"zone"}}};
  g.preemption_policy = api::PreemptionPolicy::kNever;
  FeatureGates gates;
  gates.topology_aware_workload_scheduling = false;
  gates.pod_group_preemption_policy = false;
  EXPECT_THAT(Summary(ValidateCompositePodGroup(g, nullptr, gates)),
              ElementsAre("Forbidden spec.schedulingConstraints", "Forbidden spec.preemptionPolicy"));
}

}  // namespace
}  // namespace wasched::validation

namespace wasched::validation {
namespace {

// QA3 finding 02: the new object is defaulted (disruptionMode {single: {}}) before the compare.
TEST(CompositePodGroupValidationTest, DisruptionModeDefaultAppliedOnUpdate) {
  api::CompositePodGroup old = Root();
  old.disruption_mode = api::DisruptionMode{.single = true, .all = false};
  const api::CompositePodGroup reapplied = Root();
  EXPECT_THAT(ValidateCompositePodGroup(reapplied, &old, FeatureGates{}), IsEmpty());
  old.disruption_mode = api::DisruptionMode{.single = false, .all = true};
  EXPECT_THAT(Summary(ValidateCompositePodGroup(reapplied, &old, FeatureGates{})),
              ElementsAre("Invalid spec.disruptionMode (immutable)"));
}

// QA3 finding 11: removing workloadRef reports the immutable error and Required.
TEST(CompositePodGroupValidationTest, RemovedWorkloadRefIsImmutableAndRequired) {
  const api::CompositePodGroup old = Root();
  api::CompositePodGroup updated = old;
  updated.workload_ref.reset();
  EXPECT_THAT(Summary(ValidateCompositePodGroup(updated, &old, FeatureGates{})),
              ElementsAre("Invalid spec.workloadRef (immutable)", "Required spec.workloadRef"));
}

}  // namespace
}  // namespace wasched::validation
