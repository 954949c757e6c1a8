// File: codec/yaml_reader_test.cc
//
// Core-schema scalar classification, typed reads and field paths of the decoding cursor.
#include "codec/yaml_reader.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace wasched::codec::internal {
namespace {

using ::testing::ElementsAre;

TEST(CodecYamlReaderTest, ClassifyPlainScalar) {
  EXPECT_EQ(ClassifyPlainScalar(""), ValueKind::kNull);
  EXPECT_EQ(ClassifyPlainScalar("~"), ValueKind::kNull);
  EXPECT_EQ(ClassifyPlainScalar("NULL"), ValueKind::kNull);
  EXPECT_EQ(ClassifyPlainScalar("True"), ValueKind::kBool);
  EXPECT_EQ(ClassifyPlainScalar("false"), ValueKind::kBool);
  EXPECT_EQ(ClassifyPlainScalar("yes"), ValueKind::kString);
  EXPECT_EQ(ClassifyPlainScalar("42"), ValueKind::kInteger);
  EXPECT_EQ(ClassifyPlainScalar("-7"), ValueKind::kInteger);
  EXPECT_EQ(ClassifyPlainScalar("1.5"), ValueKind::kFloat);
  EXPECT_EQ(ClassifyPlainScalar("1e3"), ValueKind::kFloat);
  EXPECT_EQ(ClassifyPlainScalar(".5"), ValueKind::kFloat);
  EXPECT_EQ(ClassifyPlainScalar("-.inf"), ValueKind::kFloat);
  EXPECT_EQ(ClassifyPlainScalar("500m"), ValueKind::kString);
  EXPECT_EQ(ClassifyPlainScalar("1Gi"), ValueKind::kString);
  EXPECT_EQ(ClassifyPlainScalar("1e"), ValueKind::kString);
  EXPECT_EQ(ClassifyPlainScalar("."), ValueKind::kString);
}

TEST(CodecYamlReaderTest, ClassifyNodes) {
  const YAML::Node doc = YAML::Load(
      "a: \"5\"\nb: 5\nc: !!str 5\nd: |\n  text\ne: [1]\nf: {x: 1}\ng:\nh: 'true'\n");
  EXPECT_EQ(Classify(doc["a"]), ValueKind::kString);
  EXPECT_EQ(Classify(doc["b"]), ValueKind::kInteger);
  EXPECT_EQ(Classify(doc["c"]), ValueKind::kString);
  EXPECT_EQ(Classify(doc["d"]), ValueKind::kString);
  EXPECT_EQ(Classify(doc["e"]), ValueKind::kList);
  EXPECT_EQ(Classify(doc["f"]), ValueKind::kMap);
  EXPECT_EQ(Classify(doc["g"]), ValueKind::kNull);
  EXPECT_EQ(Classify(doc["h"]), ValueKind::kString);
  EXPECT_EQ(Classify(YAML::Node(YAML::NodeType::Undefined)), ValueKind::kNull);
}

TEST(CodecYamlReaderTest, PathsAndTypedReads) {
  const YAML::Node doc = YAML::Load(R"(
spec:
  list:
  - {n: 3, s: x, b: true, m: {k: v}}
  - {n: "3"}
)");
  Diagnostics diag(1000);
  const Reader root(doc, "items[2]", &diag);
  std::vector<std::string> paths;
  root.ForEachField([&](std::string_view, const Reader& spec) {
    spec.ForEachField([&](std::string_view, const Reader& list) {
      list.ForEachItem([&](size_t, const Reader& item) {
        item.ForEachField([&](std::string_view key, const Reader& f) {
          paths.push_back(f.Path());
          if (key == "n") {
            int32_t n = 0;
            f.Read(&n);
            if (!diag.has_errors()) {
              EXPECT_EQ(n, 3);
            }
          } else if (key == "m") {
            f.ForEachEntry([&](const std::string&, const Reader& e) { paths.push_back(e.Path()); });
          }
          return key != "b";  // pretend "b" is unknown
        });
      });
      return true;
    });
    return true;
  });
  EXPECT_THAT(paths, ElementsAre("items[2].spec.list[0].n", "items[2].spec.list[0].s",
                                 "items[2].spec.list[0].b", "items[2].spec.list[0].m",
                                 "items[2].spec.list[0].m[k]", "items[2].spec.list[1].n"));
  EXPECT_THAT(diag.warnings(), ElementsAre("unknown field \"items[2].spec.list[0].b\""));
  ASSERT_EQ(diag.errors().size(), 1u);
  EXPECT_EQ(diag.errors()[0].field, "items[2].spec.list[1].n");
  EXPECT_EQ(diag.errors()[0].detail, "expected integer, got string \"3\"");
}

TEST(CodecYamlReaderTest, BudgetStopsWalking) {
  const YAML::Node doc = YAML::Load("[1, 2, 3, 4, 5]");
  Diagnostics diag(3);
  const Reader root(doc, "", &diag);
  int visited = 0;
  root.ForEachItem([&](size_t, const Reader&) { ++visited; });
  EXPECT_EQ(visited, 3);
  ASSERT_EQ(diag.errors().size(), 1u);
  EXPECT_EQ(diag.errors()[0].type, FieldErrorType::kTooMany);
}

TEST(CodecYamlReaderTest, QuoteValue) {
  EXPECT_EQ(QuoteValue("5Xi"), "\"5Xi\"");
  EXPECT_EQ(QuoteValue("a\"b\\c\n"), "\"a\\\"b\\\\c\\n\"");
  EXPECT_EQ(QuoteValue(std::string("\x01", 1)), "\"\\x01\"");
}

}  // namespace
}  // namespace wasched::codec::internal
