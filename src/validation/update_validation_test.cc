// File: validation/update_validation_test.cc
#include "validation/update_validation.h"

#include <optional>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace wasched::validation {
namespace {

struct Item {
  std::string name;
  int value = 0;
};

TEST(UpdateValidationTest, ImmutableOnlyOnUpdateAndOnlyWhenChanged) {
  ErrorList errs;
  const std::optional<int> now = 2;
  const std::optional<int> before = 1;
  EXPECT_FALSE(CheckImmutable(now, static_cast<const std::optional<int>*>(nullptr), "f", &errs));
  EXPECT_FALSE(CheckImmutable(now, &now, "f", &errs));
  EXPECT_TRUE(CheckImmutable(now, &before, "f", &errs));
  const std::optional<int> unset;
  EXPECT_TRUE(CheckImmutable(unset, &before, "f", &errs));  // unsetting is a change too
  ASSERT_EQ(errs.size(), 2u);
  EXPECT_EQ(errs[0].type, FieldErrorType::kInvalid);
  EXPECT_EQ(errs[0].detail, "field is immutable");
  EXPECT_EQ(errs[0].origin, "immutable");
}

TEST(UpdateValidationTest, NoSetNoUnset) {
  ErrorList errs;
  const bool yes = true;
  const bool no = false;
  EXPECT_FALSE(CheckNoSetNoUnset(true, nullptr, "f", &errs));
  EXPECT_FALSE(CheckNoSetNoUnset(true, &yes, "f", &errs));
  EXPECT_TRUE(CheckNoSetNoUnset(true, &no, "f", &errs));
  EXPECT_TRUE(CheckNoSetNoUnset(false, &yes, "f", &errs));
  ASSERT_EQ(errs.size(), 2u);
  EXPECT_EQ(errs[0].detail, "field cannot be set once created");
  EXPECT_EQ(errs[1].detail, "field cannot be cleared once set");
  EXPECT_EQ(errs[1].origin, "update");
}

TEST(UpdateValidationTest, AddAndRemoveItemsByName) {
  ErrorList errs;
  const std::vector<Item> old = {{"main"}, {"worker1"}};
  const std::vector<Item> now = {{"main", 5}, {"worker2"}};
  EXPECT_TRUE(CheckNoAddRemoveItems(now, &old, "spec.list", &errs));
  ASSERT_EQ(errs.size(), 2u);
  EXPECT_EQ(errs[0].type, FieldErrorType::kForbidden);
  EXPECT_EQ(errs[0].field, "spec.list[1]");
  EXPECT_EQ(errs[0].detail, "item may not be added");
  EXPECT_EQ(errs[1].field, "spec.list");
  EXPECT_EQ(errs[1].detail, "item may not be removed");
  EXPECT_FALSE(CheckNoAddRemoveItems(now, static_cast<const std::vector<Item>*>(nullptr), "x",
                                     &errs));
}

TEST(UpdateValidationTest, DuplicatesAtTheLaterIndex) {
  ErrorList errs;
  CheckDuplicateNames(std::vector<Item>{{"a"}, {"b"}, {"a"}, {"a"}}, "l", &errs);
  ASSERT_EQ(errs.size(), 2u);
  EXPECT_EQ(errs[0].field, "l[2]");
  EXPECT_EQ(errs[1].field, "l[3]");
  EXPECT_EQ(errs[0].type, FieldErrorType::kDuplicate);
}

TEST(UpdateValidationTest, Ratcheting) {
  const int a = 1;
  EXPECT_TRUE(Unchanged(1, &a));
  EXPECT_FALSE(Unchanged(2, &a));
  EXPECT_FALSE(Unchanged(1, static_cast<const int*>(nullptr)));
}

}  // namespace
}  // namespace wasched::validation
