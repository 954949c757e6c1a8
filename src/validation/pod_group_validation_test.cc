// File: validation/pod_group_validation_test.cc
#include "validation/pod_group_validation.h"

#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "support/error_summary.h"

#include "support/builders.h"

namespace wasched::validation {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

using test::Summary;

api::PodGroup Gang(int32_t min_count = 2) {
  return test::MakePodGroup().Name("pg").MinCount(min_count).Obj();
}

TEST(PodGroupValidationTest, StandaloneGangIsValid) {
  EXPECT_THAT(ValidatePodGroup(Gang(), nullptr, FeatureGates{}), IsEmpty());
}

TEST(PodGroupValidationTest, WorkloadRefNames) {
  api::PodGroup g = Gang();
  g.workload_ref = api::WorkloadReference{"", "Bad_Template"};
  EXPECT_THAT(Summary(ValidatePodGroup(g, nullptr, FeatureGates{})),
              ElementsAre("Required spec.workloadRef.workloadName",
                          "Invalid spec.workloadRef.templateName (format=k8s-short-name)"));
}

TEST(PodGroupValidationTest, ParentNeedsWorkloadRefAndTheGate) {
  api::PodGroup g = Gang();
  g.parent_composite_pod_group_name = "root";
  EXPECT_THAT(Summary(ValidatePodGroup(g, nullptr, FeatureGates{})),
              ElementsAre("Required spec.workloadRef (dependentRequired)"));
  FeatureGates off;
  off.composite_pod_group = false;
  g.workload_ref = api::WorkloadReference{"w", "t"};
  EXPECT_THAT(Summary(ValidatePodGroup(g, nullptr, off)),
              ElementsAre("Forbidden spec.parentCompositePodGroupName"));
}

TEST(PodGroupValidationTest, OnlyMinCountMayChange) {
  api::PodGroup old = Gang(2);
  old.workload_ref = api::WorkloadReference{"w", "t"};
  api::PodGroup updated = old;
  updated.scheduling_policy.gang->min_count = 5;
  EXPECT_THAT(ValidatePodGroup(updated, &old, FeatureGates{}), IsEmpty());
  updated.workload_ref->template_name = "other";
  updated.priority = 10;
  updated.disruption_mode = api::DisruptionMode{false, true};
  EXPECT_THAT(Summary(ValidatePodGroup(updated, &old, FeatureGates{})),
              ElementsAre("Invalid spec.workloadRef (immutable)",
                          "Invalid spec.disruptionMode (immutable)",
                          "Invalid spec.priority (immutable)"));
}

TEST(PodGroupValidationTest, StatusRules) {
  api::PodGroup g = Gang();
  g.resource_claims.push_back(api::PodGroupResourceClaim{"gpu", "claim", {}});
  g.resource_claim_statuses.push_back(api::PodGroupResourceClaimStatus{"gpu", "claim-abc"});
  g.resource_claim_statuses.push_back(api::PodGroupResourceClaimStatus{"tpu", std::nullopt});
  g.conditions.push_back(
      api::Condition{"PodGroupInitiallyScheduled", "True", "Scheduled", "", 0, 1767225600});
  g.conditions.push_back(api::Condition{"PodGroupInitiallyScheduled", "False", "", "", 0, 0});
  const ErrorList errs = ValidatePodGroupStatus(g);
  EXPECT_THAT(Summary(errs), ElementsAre("Duplicate status.conditions[1].type",
                                         "Required status.conditions[1].lastTransitionTime",
                                         "Required status.conditions[1].reason",
                                         "Invalid status.resourceClaimStatuses[1].name"));
  EXPECT_EQ(errs[3].detail, "must match the name of an entry in `spec.resourceClaims`");
  // Create and update do not look at status: the API server resets it on create and keeps the
  // stored one on update (observed on v1.37.2: the differential case upstream.q05 is accepted).
  EXPECT_THAT(ValidatePodGroup(g, nullptr, FeatureGates{}), IsEmpty());
  EXPECT_THAT(ValidatePodGroup(g, &g, FeatureGates{}), IsEmpty());
}

}  // namespace
}  // namespace wasched::validation

namespace wasched::validation {
namespace {

// QA3 finding 02: re-applying a manifest without disruptionMode against the stored, defaulted
// object is valid (the new object is defaulted to {single: {}} before the compare).
TEST(PodGroupValidationTest, DisruptionModeDefaultAppliedOnUpdate) {
  api::PodGroup old = Gang();
  old.disruption_mode = api::DisruptionMode{.single = true, .all = false};
  EXPECT_THAT(ValidatePodGroup(Gang(), &old, FeatureGates{}), IsEmpty());
  old.disruption_mode = api::DisruptionMode{.single = false, .all = true};
  EXPECT_THAT(Summary(ValidatePodGroup(Gang(), &old, FeatureGates{})),
              ElementsAre("Invalid spec.disruptionMode (immutable)"));
}

}  // namespace
}  // namespace wasched::validation

namespace wasched::validation {
namespace {

// QA3 finding 03: PodGroup schedulingConstraints are immutable only while
// TopologyAwareWorkloadScheduling is on.
TEST(PodGroupValidationTest, SchedulingConstraintsImmutableOnlyWithTheGate) {
  FeatureGates off;
  off.topology_aware_workload_scheduling = false;
  api::PodGroup with = Gang();
  with.scheduling_constraints = api::SchedulingConstraints{{api::TopologyConstraint{"zone"}}};
  api::PodGroup other = Gang();
  other.scheduling_constraints = api::SchedulingConstraints{{api::TopologyConstraint{"rack"}}};
  const api::PodGroup without = Gang();
  EXPECT_THAT(ValidatePodGroup(without, &with, off), IsEmpty());  // removal
  EXPECT_THAT(Summary(ValidatePodGroup(other, &with, off)),       // change
              ElementsAre("Forbidden spec.schedulingConstraints"));
  EXPECT_THAT(Summary(ValidatePodGroup(with, &without, off)),     // add
              ElementsAre("Forbidden spec.schedulingConstraints"));
  FeatureGates on;
  on.topology_aware_workload_scheduling = true;
  EXPECT_THAT(Summary(ValidatePodGroup(without, &with, on)),
              ElementsAre("Invalid spec.schedulingConstraints (immutable)"));
  EXPECT_THAT(Summary(ValidatePodGroup(other, &with, on)),
              ElementsAre("Invalid spec.schedulingConstraints (immutable)"));
}

}  // namespace
}  // namespace wasched::validation

namespace wasched::validation {
namespace {

api::PodGroup WithClaims(std::initializer_list<const char*> names) {
  api::PodGroup g = Gang();
  for (const char* n : names) {
    api::PodGroupResourceClaim c;
    c.name = n;
    c.resource_claim_template_name = "t";
    g.resource_claims.push_back(c);
  }
  return g;
}

// QA3 finding 05: resourceClaimName is format=k8s-long-name ("" included).
TEST(PodGroupValidationTest, ClaimStatusResourceClaimNameFormat) {
  api::PodGroup g = WithClaims({"a", "b"});
  g.resource_claim_statuses.push_back({"a", std::string("Bad_Name")});
  g.resource_claim_statuses.push_back({"b", std::string("")});
  EXPECT_THAT(
      Summary(ValidatePodGroupStatus(g)),
      ElementsAre("Invalid status.resourceClaimStatuses[0].resourceClaimName (format=k8s-long-name)",
                  "Invalid status.resourceClaimStatuses[1].resourceClaimName (format=k8s-long-name)"));
  g.resource_claim_statuses[0].resource_claim_name = "claim-a";
  g.resource_claim_statuses[1].resource_claim_name.reset();
  EXPECT_THAT(ValidatePodGroupStatus(g), IsEmpty());
}

// QA3 finding 12: TooMany does not hide the hand-written name-must-match check.
TEST(PodGroupValidationTest, TooManyClaimStatusesStillChecksNames) {
  api::PodGroup g = WithClaims({"a", "b", "c"});
  for (const char* n : {"a", "zz", "b", "y", "z"}) {
    g.resource_claim_statuses.push_back({n, std::nullopt});
  }
  EXPECT_THAT(Summary(ValidatePodGroupStatus(g)),
              ElementsAre("TooMany status.resourceClaimStatuses (maxItems)",
                          "Invalid status.resourceClaimStatuses[1].name",
                          "Invalid status.resourceClaimStatuses[3].name",
                          "Invalid status.resourceClaimStatuses[4].name"));
}

}  // namespace
}  // namespace wasched::validation
