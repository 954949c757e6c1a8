// File: codec/yaml_reader_test.cc
//
// Core-schema scalar classification, typed reads and field paths of the decoding cursor.
#include "codec/yaml_reader.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "codec/yaml_documents.h"

namespace wasched::codec::internal {
namespace {

using ::testing::ElementsAre;

// ParseOne: the tape of the single document of `text`.
EventTape ParseOne(std::string_view text) {
  EventTape tape;
  int documents = 0;
  ForEachDocument(text, [&](ParsedDocument& d) {
    EXPECT_EQ(d.error, "");
    ++documents;
    tape = std::move(d.tape);
  });
  EXPECT_EQ(documents, 1);
  return tape;
}

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
  const EventTape d =
      ParseOne("a: \"5\"\nb: 5\nc: !!str 5\nd: |\n  text\ne: [1]\nf: {x: 1}\ng:\nh: 'true'\n");
  ASSERT_EQ(d.size(d.root()), 8u);
  const ValueKind expected[] = {ValueKind::kString, ValueKind::kInteger, ValueKind::kString,
                                ValueKind::kString, ValueKind::kList,    ValueKind::kMap,
                                ValueKind::kNull,   ValueKind::kString};
  size_t i = 0;
  for (const MapEntry e : d.Entries(d.root())) {
    EXPECT_EQ(Classify(d, e.value), expected[i++]) << d.scalar(e.key);
  }
  EXPECT_EQ(Classify(d, kNoNode), ValueKind::kNull);
}

TEST(CodecYamlReaderTest, PathsAndTypedReads) {
  const EventTape tape = ParseOne(R"(
spec:
  list:
  - {num: 3, s: x, b: true, m: {k: v}}
  - {num: "3"}
)");
  Diagnostics diag(1000, FieldValidation::kWarn);
  const Reader root(tape, tape.root(), "items[2]", &diag);
  std::vector<std::string> paths;
  root.ForEachField([&](std::string_view, const Reader& spec) {
    spec.ForEachField([&](std::string_view, const Reader& list) {
      list.ForEachItem([&](size_t, const Reader& item) {
        item.ForEachField([&](std::string_view key, const Reader& f) {
          paths.push_back(f.Path());
          if (key == "num") {
            int32_t n = 0;
            f.Read(&n);
            if (!diag.has_errors()) {
              EXPECT_EQ(n, 3);
            }
          } else if (key == "m") {
            f.ForEachEntry([&](std::string_view, const Reader& e) { paths.push_back(e.Path()); });
          }
          return key != "b";  // pretend "b" is unknown
        });
      });
      return true;
    });
    return true;
  });
  EXPECT_THAT(paths, ElementsAre("items[2].spec.list[0].num", "items[2].spec.list[0].s",
                                 "items[2].spec.list[0].b", "items[2].spec.list[0].m",
                                 "items[2].spec.list[0].m[k]", "items[2].spec.list[1].num"));
  EXPECT_THAT(diag.warnings(), ElementsAre("unknown field \"items[2].spec.list[0].b\""));
  ASSERT_EQ(diag.errors().size(), 1u);
  EXPECT_EQ(diag.errors()[0].field, "items[2].spec.list[1].num");
  EXPECT_EQ(diag.errors()[0].detail, "expected integer, got string \"3\"");
}

TEST(CodecYamlReaderTest, BudgetStopsWalking) {
  const EventTape tape = ParseOne("[1, 2, 3, 4, 5]");
  Diagnostics diag(3);
  const Reader root(tape, tape.root(), "", &diag);
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
