// File: validation/condition_validation_test.cc
#include "validation/condition_validation.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace wasched::validation {
namespace {

using ::testing::IsEmpty;

api::Condition Valid() {
  return api::Condition{"PodGroupInitiallyScheduled", "True", "Scheduled", "", 1, 1767225600};
}

TEST(ConditionValidationTest, ValidConditionHasNoErrors) {
  EXPECT_THAT(ValidateConditions({Valid()}, "status.conditions"), IsEmpty());
}

// metav1.Condition status is case-sensitive: a lowercase "true" is not True (breaker 24: the
// scheduler would otherwise read a terminal True condition as not True).
TEST(ConditionValidationTest, StatusIsCaseSensitive) {
  api::Condition c = Valid();
  c.status = "true";
  const ErrorList errs = ValidateConditions({c}, "status.conditions");
  ASSERT_EQ(errs.size(), 1u);
  EXPECT_EQ(errs[0].ToString(),
            "status.conditions[0].status: Unsupported value: \"true\": supported values: "
            "\"False\", \"True\", \"Unknown\"");
}

TEST(ConditionValidationTest, EveryRule) {
  api::Condition c;
  c.type = "bad type";
  c.status = "Maybe";
  c.observed_generation = -1;
  const ErrorList errs = ValidateConditions({Valid(), c}, "status.conditions");
  std::vector<std::string> got;
  for (const FieldError& e : errs) got.push_back(std::string(FieldErrorTypeName(e.type)) + " " + e.field);
  EXPECT_THAT(got, ::testing::ElementsAre("Invalid status.conditions[1].type",
                                          "NotSupported status.conditions[1].status",
                                          "Invalid status.conditions[1].observedGeneration",
                                          "Required status.conditions[1].lastTransitionTime",
                                          "Required status.conditions[1].reason"));
  EXPECT_EQ(errs[1].detail, "supported values: \"False\", \"True\", \"Unknown\"");
  EXPECT_EQ(errs[4].detail, "must be set");
}

TEST(ConditionValidationTest, DuplicateTypeReasonFormatAndLengths) {
  api::Condition dup = Valid();
  dup.reason = "1bad reason";
  dup.message = std::string(kConditionMaxMessageLength + 1, 'm');
  const ErrorList errs = ValidateConditions({Valid(), dup}, "status.conditions");
  ASSERT_EQ(errs.size(), 3u);
  EXPECT_EQ(errs[0].type, FieldErrorType::kDuplicate);
  EXPECT_EQ(errs[0].field, "status.conditions[1].type");
  EXPECT_EQ(errs[1].field, "status.conditions[1].reason");
  EXPECT_THAT(errs[1].detail, ::testing::StartsWith("a condition reason must start with"));
  EXPECT_EQ(errs[2].type, FieldErrorType::kTooLong);
  EXPECT_EQ(errs[2].field, "status.conditions[1].message");
}

}  // namespace
}  // namespace wasched::validation
