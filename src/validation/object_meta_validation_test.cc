// File: validation/object_meta_validation_test.cc
//
// ValidateObjectMeta's generateName rule (upstream NameIsDNSSubdomain(generateName, true): a
// trailing '-' is masked before the DNS-1123 subdomain check).
#include "validation/object_meta_validation.h"

#include <gtest/gtest.h>

namespace wasched::validation {
namespace {

api::ObjectMeta Meta(std::string name, std::string generate_name) {
  api::ObjectMeta m;
  m.name = std::move(name);
  m.generate_name = std::move(generate_name);
  m.namespace_ = "default";
  return m;
}

TEST(ObjectMetaValidationTest, GenerateNameWithTrailingDashIsValid) {
  EXPECT_TRUE(ValidateObjectMeta(Meta("sample-leader-k2x9b", "sample-leader-")).empty());
  EXPECT_TRUE(ValidateObjectMeta(Meta("ab", "a")).empty());
}

TEST(ObjectMetaValidationTest, BadGenerateNameIsInvalid) {
  const ErrorList errs = ValidateObjectMeta(Meta("bad-x", "Bad_-"));
  ASSERT_EQ(errs.size(), 1u);
  EXPECT_EQ(errs[0].field, "metadata.generateName");
  EXPECT_EQ(errs[0].type, FieldErrorType::kInvalid);
  EXPECT_EQ(errs[0].bad_value, "\"Bad_-\"");
  // A lone "-" is not masked (upstream masks only names longer than one character).
  const ErrorList dash = ValidateObjectMeta(Meta("x", "-"));
  ASSERT_EQ(dash.size(), 1u);
  EXPECT_EQ(dash[0].field, "metadata.generateName");
}

}  // namespace
}  // namespace wasched::validation
