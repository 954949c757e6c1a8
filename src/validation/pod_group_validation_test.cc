// File: validation/pod_group_validation_test.cc
#include "validation/pod_group_validation.h"

#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "support/builders.h"

namespace wasched::validation {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

std::vector<std::string> Summary(const ErrorList& errs) {
  std::vector<std::string> out;
  for (const FieldError& e : errs) {
    out.push_back(std::string(FieldErrorTypeName(e.type)) + " " + e.field +
                  (e.origin.empty() ? "" : " (" + e.origin + ")"));
  }
  return out;
}

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
  const ErrorList errs = ValidatePodGroup(g, nullptr, FeatureGates{});
  EXPECT_THAT(Summary(errs), ElementsAre("Duplicate status.conditions[1].type",
                                         "Required status.conditions[1].lastTransitionTime",
                                         "Required status.conditions[1].reason",
                                         "Invalid status.resourceClaimStatuses[1].name"));
  EXPECT_EQ(errs[3].detail, "must match the name of an entry in `spec.resourceClaims`");
}

}  // namespace
}  // namespace wasched::validation
