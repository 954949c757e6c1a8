// File: validation/names_test.cc
#include "validation/names.h"

#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace wasched::validation {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

constexpr const char* kLabelRegexMsg =
    "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and "
    "must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used "
    "for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";

TEST(NamesTest, Dns1123Label) {
  EXPECT_THAT(Dns1123LabelErrors("my-name"), IsEmpty());
  EXPECT_THAT(Dns1123LabelErrors("123-abc"), IsEmpty());
  EXPECT_THAT(Dns1123LabelErrors(std::string(63, 'a')), IsEmpty());
  EXPECT_THAT(Dns1123LabelErrors("Invalid_Name"), ElementsAre(kLabelRegexMsg));
  EXPECT_THAT(Dns1123LabelErrors(""), ElementsAre(kLabelRegexMsg));
  EXPECT_THAT(Dns1123LabelErrors("-a"), ElementsAre(kLabelRegexMsg));
  EXPECT_THAT(Dns1123LabelErrors("a.b"), ElementsAre("must not contain dots"));
  EXPECT_THAT(Dns1123LabelErrors(std::string(64, 'a')),
              ElementsAre("must be no more than 63 characters"));
}

TEST(NamesTest, Dns1123Subdomain) {
  EXPECT_THAT(Dns1123SubdomainErrors("example.com"), IsEmpty());
  EXPECT_THAT(Dns1123SubdomainErrors(std::string(253, 'g')), IsEmpty());
  EXPECT_THAT(Dns1123SubdomainErrors(std::string(254, 'g')),
              ElementsAre("must be no more than 253 characters"));
  EXPECT_THAT(
      Dns1123SubdomainErrors(".foo_bar"),
      ElementsAre("a lowercase RFC 1123 subdomain must consist of lower case alphanumeric "
                  "characters, '-' or '.', and must start and end with an alphanumeric character "
                  "(e.g. 'example.com', regex used for validation is "
                  "'[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')"));
  EXPECT_EQ(Dns1123SubdomainErrors("a..b").size(), 1u);
}

TEST(NamesTest, PathSegmentName) {
  EXPECT_THAT(PathSegmentNameErrors("Deployment"), IsEmpty());
  EXPECT_THAT(PathSegmentNameErrors("."), ElementsAre("may not be '.'"));
  EXPECT_THAT(PathSegmentNameErrors(".."), ElementsAre("may not be '..'"));
  EXPECT_THAT(PathSegmentNameErrors("a/b%c"),
              ElementsAre("may not contain '/'", "may not contain '%'"));
}

TEST(NamesTest, QualifiedName) {
  EXPECT_THAT(QualifiedNameErrors("example.com/Foo"), IsEmpty());
  EXPECT_THAT(QualifiedNameErrors(std::string(253, 'a') + "/" + std::string(63, 'b')), IsEmpty());
  EXPECT_THAT(QualifiedNameErrors("topology.kubernetes.io/zone"), IsEmpty());
  EXPECT_THAT(QualifiedNameErrors(std::string(254, 'a') + "/foo"),
              ElementsAre("prefix part must be no more than 253 characters"));
  EXPECT_THAT(QualifiedNameErrors("foo/" + std::string(64, 'b')),
              ElementsAre("name part must be no more than 63 characters"));
  EXPECT_THAT(QualifiedNameErrors("/foo"), ElementsAre("prefix part must be non-empty"));
  const auto empty_name = QualifiedNameErrors("foo/");
  ASSERT_EQ(empty_name.size(), 2u);
  EXPECT_EQ(empty_name[0], "name part must be non-empty");
  const auto upper_prefix = QualifiedNameErrors("Example.com/Foo");
  ASSERT_EQ(upper_prefix.size(), 1u);
  EXPECT_THAT(upper_prefix[0], ::testing::StartsWith("prefix part a lowercase RFC 1123 subdomain"));
  const auto slashes = QualifiedNameErrors("invalid/key/slash/format");
  ASSERT_EQ(slashes.size(), 1u);
  EXPECT_THAT(slashes[0],
              ::testing::EndsWith("with an optional DNS subdomain prefix and '/' (e.g. "
                                  "'example.com/MyName')"));
}

TEST(NamesTest, LabelValue) {
  EXPECT_THAT(LabelValueErrors(""), IsEmpty());
  EXPECT_THAT(LabelValueErrors("MyValue"), IsEmpty());
  EXPECT_THAT(LabelValueErrors("my_value.1-x"), IsEmpty());
  EXPECT_THAT(LabelValueErrors(std::string(63, 'v')), IsEmpty());
  EXPECT_THAT(LabelValueErrors(std::string(64, 'v')),
              ElementsAre("must be no more than 63 characters"));
  EXPECT_THAT(LabelValueErrors("-bad"),
              ElementsAre("a valid label must be an empty string or consist of alphanumeric "
                          "characters, '-', '_' or '.', and must start and end with an "
                          "alphanumeric character (e.g. 'MyValue',  or 'my_value',  or '12345', "
                          "regex used for validation is "
                          "'(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?')"));
  EXPECT_EQ(LabelValueErrors("a b/" + std::string(70, 'c')).size(), 2u);
}

TEST(NamesTest, FormatRulesCarryTheirOrigin) {
  const ErrorList short_name = ShortName("spec.x", "Invalid_Name");
  ASSERT_EQ(short_name.size(), 1u);
  EXPECT_EQ(short_name[0].type, FieldErrorType::kInvalid);
  EXPECT_EQ(short_name[0].field, "spec.x");
  EXPECT_EQ(short_name[0].bad_value, "\"Invalid_Name\"");
  EXPECT_EQ(short_name[0].origin, "format=k8s-short-name");
  EXPECT_EQ(LongName("p", "high/priority").at(0).origin, "format=k8s-long-name");
  EXPECT_EQ(PathSegmentName("p", "Deploy%ment").at(0).origin, "format=k8s-path-segment-name");
  EXPECT_EQ(LabelKey("p", "a/b/c").at(0).origin, "format=k8s-label-key");
  EXPECT_THAT(LabelKey("p", "zone"), IsEmpty());
}

}  // namespace
}  // namespace wasched::validation
