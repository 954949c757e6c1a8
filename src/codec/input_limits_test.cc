// File: codec/input_limits_test.cc
//
// The input limits of codec/input_limits.h: each gives a clear, located error (and the value at
// the limit still loads), and merge keys stay linear.
#include "codec/input_limits.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include <fmt/format.h>

#include "codec/loader.h"
#include "codec/manifest_files.h"

namespace wasched::codec {
namespace {

using internal::kMaxNestingDepth;
using internal::kMaxObjectBytes;
using internal::kMaxKeptErrors;
using internal::kMaxObjects;
using internal::kMaxScalarBytes;
using ::testing::HasSubstr;

// kLenient: --validate=ignore --skip-unknown-kinds.
constexpr LoadOptions kLenient{.field_validation = FieldValidation::kIgnore,
                               .skip_unknown_kinds = true};

// FirstError: the first error of a load that must fail.
// (Unknown fields and kinds are let through: these tests are about the limits.)
std::string FirstError(const std::string& text, const std::string& file = "f.yaml") {
  auto loaded = LoadString(text, file, kLenient);
  if (loaded) return "(loaded)";
  return loaded.error().front().ToString();
}

std::string NodeWithField(const std::string& field_yaml) {
  return "apiVersion: v1\nkind: Node\nmetadata: {name: a}\n" + field_yaml;
}

TEST(InputLimitsTest, ReadLimitedStopsAtTheLimit) {
  InputErrors errors;
  std::istringstream at_limit(std::string(10, 'x'));
  auto text = internal::ReadLimited(at_limit, "in.yaml", 10, &errors);
  ASSERT_TRUE(text.has_value());
  EXPECT_EQ(text->size(), 10u);
  EXPECT_TRUE(errors.empty());

  std::istringstream over(std::string(11, 'x'));
  EXPECT_FALSE(internal::ReadLimited(over, "in.yaml", 10, &errors).has_value());
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].ToString(),
            "in.yaml: Too long: input is longer than 10 bytes (the limit of one file, see README "
            "\"Input limits\")");
}

TEST(InputLimitsTest, NestingDeeperThanTheLimitIsAnErrorWithLine) {
  // Nesting counts the document's own map: kMaxNestingDepth - 1 more levels still load.
  const int ok_levels = kMaxNestingDepth - 1;
  const std::string ok = NodeWithField(fmt::format("x: {}{}\n", std::string(ok_levels, '['),
                                                   std::string(ok_levels, ']')));
  EXPECT_THAT(FirstError(ok), HasSubstr("(loaded)"));  // unknown field x is let through

  const std::string deep = NodeWithField(fmt::format(
      "x: {}{}\n", std::string(ok_levels + 1, '['), std::string(ok_levels + 1, ']')));
  EXPECT_EQ(FirstError(deep),
            fmt::format("f.yaml: document 1: Invalid value: malformed YAML: line 4, column {}: "
                        "maps and lists nested deeper than 256 levels",
                        4 + ok_levels));
}

TEST(InputLimitsTest, DeepJsonGetsTheSameErrorAsYaml) {
  const int levels = kMaxNestingDepth;
  const std::string json = fmt::format(R"({{"apiVersion": "v1", "kind": "Node", "x": {}{}}})",
                                       std::string(levels, '['), std::string(levels, ']'));
  EXPECT_THAT(FirstError(json, "f.json"), HasSubstr("maps and lists nested deeper than 256 levels"));
}

TEST(InputLimitsTest, ValueLongerThanTheLimitIsAnError) {
  const std::string at_limit(kMaxScalarBytes, 'a');
  EXPECT_EQ(FirstError(NodeWithField("metadata2: " + at_limit + "\n")), "(loaded)");
  const std::string over(kMaxScalarBytes + 1, 'a');
  EXPECT_THAT(FirstError(NodeWithField("x: \"" + over + "\"\n")),
              HasSubstr("line 4, column 4: a value of 3145729 bytes is longer than the limit of "
                        "3145728 bytes"));
  EXPECT_THAT(
      FirstError(R"({"apiVersion": "v1", "kind": "Node", "x": ")" + over + "\"}", "f.json"),
      HasSubstr("a value of 3145729 bytes is longer than the limit of 3145728 bytes"));
}

TEST(InputLimitsTest, ObjectDocumentLargerThanTheLimitIsAnError) {
  // Labels of 1 KiB values in JSON (fast to parse), just over kMaxObjectBytes in all.
  std::string json = R"({"apiVersion": "v1", "kind": "Node", "metadata": {"name": "a", "annotations": {)";
  const std::string value(1024, 'v');
  for (size_t i = 0; json.size() <= kMaxObjectBytes; ++i) {
    json += fmt::format(R"({}"k{}": "{}")", i == 0 ? "" : ", ", i, value);
  }
  json += "}}}";
  EXPECT_THAT(FirstError(json, "big.json"),
              HasSubstr(fmt::format("big.json: document 1: Too long: object document is {} bytes, "
                                    "more than the limit of 8388608 bytes",
                                    json.size())));
}

TEST(InputLimitsTest, MoreObjectsThanTheLimitIsOneError) {
  // A typed List of empty items: each is an object of kind X (skipped), 3 bytes apiece.
  std::string json = R"({"apiVersion": "v1", "kind": "XList", "items": [)";
  for (int64_t i = 0; i <= kMaxObjects; ++i) json += i == 0 ? "{}" : ",{}";
  json += "]}";
  auto loaded = LoadString(json, "many.json", kLenient);
  ASSERT_FALSE(loaded.has_value());
  ASSERT_EQ(loaded.error().size(), 1u);
  EXPECT_EQ(loaded.error()[0].ToString(),
            "many.json: document 1: items[1000000]: Too many: more than 1000000 objects in the "
            "input (see README \"Input limits\")");
}

// Issue 20 item 24: every List item counts toward kMaxObjects, an empty `{}` item too (it used
// to be skipped before counting, so 20 MB of `{}` gave 10 million error lines), and a load keeps
// kMaxKeptErrors errors plus one line counting the rest; the limit error comes first.
TEST(InputLimitsTest, EmptyListItemsCountAndErrorsAreCapped) {
  std::string json = R"({"apiVersion": "v1", "kind": "List", "items": [)";
  for (int64_t i = 0; i < 3000; ++i) json += i == 0 ? "{}" : ",{}";
  json += "]}";
  auto small = LoadString(json, "empty.json");
  ASSERT_FALSE(small.has_value());
  // Each item: apiVersion and kind Required (6000 errors): 1000 kept, then the count.
  ASSERT_EQ(small.error().size(), static_cast<size_t>(kMaxKeptErrors) + 1);
  EXPECT_EQ(small.error()[0].ToString(),
            "empty.json: document 1: items[0].apiVersion: Required value: every object needs "
            "apiVersion and kind");
  EXPECT_EQ(small.error().back().ToString(),
            "Too many: 5000 more error(s) not shown (only the first 1000 are kept; see README "
            "\"Input limits\")");

  json = R"({"apiVersion": "v1", "kind": "List", "items": [)";
  for (int64_t i = 0; i <= kMaxObjects; ++i) json += i == 0 ? "{}" : ",{}";
  json += "]}";
  auto many = LoadString(json, "many.json");
  ASSERT_FALSE(many.has_value());
  ASSERT_EQ(many.error().size(), static_cast<size_t>(kMaxKeptErrors) + 2);
  EXPECT_EQ(many.error()[0].ToString(),
            "many.json: document 1: items[1000000]: Too many: more than 1000000 objects in the "
            "input (see README \"Input limits\")");
  EXPECT_EQ(many.error().back().ToString(),
            "Too many: 1999000 more error(s) not shown (only the first 1000 are kept; see README "
            "\"Input limits\")");
}

TEST(InputLimitsTest, MergeKeyChainsAreBounded) {
  // 200 maps, each merging the previous one (which holds all keys before it): quadratic growth,
  // stopped by the merge budget.
  std::string text = "apiVersion: v1\nkind: Node\nb0: &b0 {k0: v}\n";
  for (int i = 1; i < 2000; ++i) text += fmt::format("b{}: &b{} {{<<: *b{}, k{}: v}}\n", i, i, i - 1, i);
  text += "metadata: {name: a}\n";
  EXPECT_THAT(FirstError(text), HasSubstr("merge keys (\"<<\") expand to too many entries"));
}

TEST(InputLimitsTest, MergeKeysKeepTheirMeaning) {
  // Own keys win over merged ones, earlier sources over later ones (unchanged by the hashing).
  const std::string text =
      "apiVersion: v1\nkind: Node\n"
      "a: &a {zone: a, rack: a}\nb: &b {zone: b, rack: b, row: b}\n"
      "metadata: {name: n1, labels: {<<: [*a, *b], rack: own}}\n";
  auto loaded = LoadString(text, "f.yaml", kLenient);
  ASSERT_TRUE(loaded.has_value());
  const auto& labels = loaded->objects.nodes.at(0).meta.labels;
  EXPECT_EQ(labels.at("zone"), "a");
  EXPECT_EQ(labels.at("rack"), "own");
  EXPECT_EQ(labels.at("row"), "b");
}

}  // namespace
}  // namespace wasched::codec
