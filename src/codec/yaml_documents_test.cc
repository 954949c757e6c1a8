// File: codec/yaml_documents_test.cc
//
// Splitting a stream into documents: numbering, empty documents, directives, errors with file
// line numbers, byte-order marks.
#include "codec/yaml_documents.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace wasched::codec::internal {
namespace {

using ::testing::HasSubstr;

struct Seen {
  int number;
  bool is_null;
  std::string error;
};

std::vector<Seen> Parse(std::string_view text) {
  std::vector<Seen> out;
  ForEachDocument(text, [&](ParsedDocument& d) {
    out.push_back(Seen{d.number, d.error.empty() && d.dom.type(d.dom.root()) == YamlType::kNull,
                       d.error});
  });
  return out;
}

TEST(CodecDocumentsTest, NumbersDocumentsAndKeepsEmptyOnes) {
  const auto docs = Parse("# header\n---\na: 1\n---\n---\nb: 2\n...\n---\nc: 3\n");
  ASSERT_EQ(docs.size(), 4u);
  EXPECT_EQ(docs[0].number, 1);
  EXPECT_FALSE(docs[0].is_null);
  EXPECT_TRUE(docs[1].is_null);
  EXPECT_EQ(docs[3].number, 4);
}

TEST(CodecDocumentsTest, NoDocumentsInCommentsOnly) {
  EXPECT_TRUE(Parse("").empty());
  EXPECT_TRUE(Parse("# nothing\n\n").empty());
}

TEST(CodecDocumentsTest, DirectivesStayWithTheirDocument) {
  const auto docs = Parse("a: 1\n---\n%YAML 1.2\n---\nb: 2\n");
  // "%YAML" after a document without "..." is invalid YAML; it must be an error, not a crash.
  ASSERT_FALSE(docs.empty());
  const auto ok = Parse("%YAML 1.2\n---\nb: 2\n");
  ASSERT_EQ(ok.size(), 1u);
  EXPECT_TRUE(ok[0].error.empty());
}

TEST(CodecDocumentsTest, ErrorsCarryFileLines) {
  const auto docs = Parse("a: 1\n---\nb: 2\nc: [3\n---\nd: 4\n");
  ASSERT_EQ(docs.size(), 3u);
  EXPECT_TRUE(docs[0].error.empty());
  EXPECT_THAT(docs[1].error, HasSubstr("malformed YAML: line "));
  EXPECT_EQ(docs[1].number, 2);
  EXPECT_TRUE(docs[2].error.empty());
  EXPECT_EQ(docs[2].number, 3);
}

TEST(CodecDocumentsTest, SkipsByteOrderMarkAndHandlesCrlf) {
  const auto docs = Parse("\xEF\xBB\xBF" "a: 1\r\n---\r\nb: 2\r\n");
  ASSERT_EQ(docs.size(), 2u);
  EXPECT_TRUE(docs[0].error.empty());
  EXPECT_TRUE(docs[1].error.empty());
}

TEST(CodecDocumentsTest, DashesInsideContentAreNotSeparators) {
  const auto docs = Parse("a: |\n  ---\n  text\nb: '--- x'\n----: 1\n");
  ASSERT_EQ(docs.size(), 1u);
  EXPECT_TRUE(docs[0].error.empty());
}

}  // namespace
}  // namespace wasched::codec::internal
