// File: validation/scheduling_fields_test.cc
#include "validation/scheduling_fields.h"

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

TEST(SchedulingFieldsTest, UnionMessagesListOnlyEnabledMembers) {
  ErrorList errs;
  CheckUnion("spec", {{"podGroupTemplates", false}, {"compositePodGroupTemplates", false, false}},
             nullptr, &errs);
  CheckUnion("spec", {{"podGroupTemplates", false}, {"compositePodGroupTemplates", false}},
             nullptr, &errs);
  CheckUnion("spec", {{"a", true}, {"b", true}}, nullptr, &errs);
  ASSERT_EQ(errs.size(), 3u);
  EXPECT_EQ(errs[0].detail, "must specify one of: `podGroupTemplates`");
  EXPECT_EQ(errs[0].bad_value, "\"\"");
  EXPECT_EQ(errs[1].detail,
            "must specify one of: `podGroupTemplates`, `compositePodGroupTemplates`");
  EXPECT_EQ(errs[2].detail, "must specify exactly one of: `a`, `b`");
  EXPECT_EQ(errs[2].bad_value, "\"{a, b}\"");
  EXPECT_EQ(errs[2].origin, "union");
}

TEST(SchedulingFieldsTest, UnionIsRatchetedOnUnchangedMembership) {
  ErrorList errs;
  const std::vector<bool> old = {false, false};
  CheckUnion("p", {{"a", false}, {"b", false}}, &old, &errs);
  EXPECT_THAT(errs, IsEmpty());
  const std::vector<bool> old_set = {true, false};
  CheckUnion("p", {{"a", false}, {"b", false}}, &old_set, &errs);
  EXPECT_EQ(errs.size(), 1u);
}

TEST(SchedulingFieldsTest, CountKinds) {
  ErrorList errs;
  PolicyView zero{false, true, 0};
  ValidatePolicy(zero, nullptr, "v", "minCount", CountKind::kValue, &errs);
  ValidatePolicy(zero, nullptr, "p", "minCount", CountKind::kPointer, &errs);
  PolicyView unset{false, true, std::nullopt};
  ValidatePolicy(unset, nullptr, "u", "minCount", CountKind::kPointer, &errs);
  EXPECT_THAT(Summary(errs), ElementsAre("Required v.gang.minCount",
                                         "Invalid p.gang.minCount (minimum)"));
}

TEST(SchedulingFieldsTest, PolicyUpdates) {
  const PolicyView gang{false, true, 4};
  const PolicyView basic{true, false, std::nullopt};
  const PolicyView neither{};
  const PolicyView bigger{false, true, 8};
  ErrorList errs;
  ValidatePolicy(bigger, &gang, "s", "minCount", CountKind::kValue, &errs);
  EXPECT_THAT(errs, IsEmpty());  // minCount is mutable
  ValidatePolicy(basic, &gang, "s", "minCount", CountKind::kValue, &errs);
  EXPECT_THAT(Summary(errs), ElementsAre("Invalid s.basic (immutable)", "Invalid s.gang (update)"));
  errs.clear();
  ValidatePolicy(neither, &gang, "s", "minCount", CountKind::kValue, &errs);
  EXPECT_THAT(Summary(errs), ElementsAre("Invalid s (union)", "Invalid s.gang (update)"));
  errs.clear();
  ValidatePolicy(gang, &basic, "s", "minCount", CountKind::kPointer, &errs);
  EXPECT_THAT(Summary(errs), ElementsAre("Invalid s.basic (immutable)", "Invalid s.gang (update)"));
  EXPECT_EQ(errs[1].detail, "field cannot be set once created");
}

TEST(SchedulingFieldsTest, ConstraintsGateImmutabilityAndContents) {
  ErrorList errs;
  const std::optional<api::SchedulingConstraints> empty = api::SchedulingConstraints{};
  ValidateSchedulingConstraints(empty, nullptr, "c", /*gate_enabled=*/true, &errs);
  EXPECT_THAT(errs, IsEmpty());
  ValidateSchedulingConstraints(empty, nullptr, "c", /*gate_enabled=*/false, &errs);
  EXPECT_THAT(Summary(errs), ElementsAre("Forbidden c"));
  errs.clear();
  const std::optional<api::SchedulingConstraints> foo =
      api::SchedulingConstraints{{api::TopologyConstraint{"foo"}}};
  const std::optional<api::SchedulingConstraints> bar =
      api::SchedulingConstraints{{api::TopologyConstraint{"bar"}}};
  ValidateSchedulingConstraints(foo, &foo, "c", false, &errs);  // unchanged: ratcheted
  EXPECT_THAT(errs, IsEmpty());
  ValidateSchedulingConstraints(bar, &foo, "c", false, &errs);
  EXPECT_THAT(Summary(errs), ElementsAre("Forbidden c", "Invalid c (immutable)"));
  errs.clear();
  const std::optional<api::SchedulingConstraints> bad = api::SchedulingConstraints{
      {api::TopologyConstraint{""}}};
  ValidateSchedulingConstraints(bad, nullptr, "c", true, &errs);
  EXPECT_THAT(Summary(errs), ElementsAre("Required c.topology[0].key"));
}

TEST(SchedulingFieldsTest, ResourceClaims) {
  ErrorList errs;
  std::vector<api::PodGroupResourceClaim> five(5, api::PodGroupResourceClaim{"c", "rc", {}});
  ValidateResourceClaims(five, nullptr, "r", &errs);
  EXPECT_THAT(Summary(errs), ElementsAre("TooMany r (maxItems)"));
  EXPECT_EQ(errs[0].detail, "must have at most 4 items");
  errs.clear();
  const std::vector<api::PodGroupResourceClaim> one = {{"c", "rc", {}}};
  const std::vector<api::PodGroupResourceClaim> other = {{"d", "rc", {}}};
  ValidateResourceClaims(other, &one, "r", &errs);
  EXPECT_THAT(Summary(errs), ElementsAre("Invalid r (immutable)"));
}

TEST(SchedulingFieldsTest, PriorityFields) {
  const std::string cls = "high/priority";
  const std::optional<int32_t> prio = 1000000001;
  const std::optional<api::PreemptionPolicy> never = api::PreemptionPolicy::kNever;
  ErrorList errs;
  ValidatePriorityFields({&cls, &prio, &never}, nullptr, "t", /*preemption_policy_gate=*/false,
                         &errs);
  EXPECT_THAT(Summary(errs), ElementsAre("Invalid t.priorityClassName (format=k8s-long-name)",
                                         "Invalid t.priority (maximum)", "Forbidden t.preemptionPolicy"));
  EXPECT_EQ(errs[1].detail, "must be less than or equal to 1000000000");
  errs.clear();
  const std::optional<api::PreemptionPolicy> lower = api::PreemptionPolicy::kPreemptLowerPriority;
  const std::string ok = "ok";
  const std::optional<int32_t> none;
  const PriorityFields old{&ok, &none, &lower};
  ValidatePriorityFields({&ok, &none, &lower}, &old, "t", false, &errs);
  EXPECT_THAT(errs, IsEmpty());  // unchanged while the gate is off: ratcheted
}

}  // namespace
}  // namespace wasched::validation
