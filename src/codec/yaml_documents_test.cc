// File: codec/yaml_documents_test.cc
//
// Splitting a stream into documents: numbering, empty documents, directives, errors with file
// line numbers, byte-order marks.
#include "codec/yaml_documents.h"

#include "codec/yaml_tree.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <iostream>

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
    out.push_back(Seen{d.number, d.error.empty() && d.tape.type(d.tape.root()) == YamlType::kNull,
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

// A truncated JSON file (issue 20's new-user trial: it was called "malformed YAML") is named JSON,
// with libyaml's position and problem; YAML flow style elsewhere keeps the YAML name.
TEST(CodecDocumentsTest, TruncatedJsonIsCalledMalformedJson) {
  const auto json = Parse("\n  {\"apiVersion\": \"v1\", \"kind\": \"Pod\",\n \"metadata\": {\"name\": \"a\"");
  ASSERT_EQ(json.size(), 1u);
  EXPECT_EQ(json[0].error,
            "malformed JSON: line 4, column 1: did not find expected ',' or '}'");
  const auto yaml = Parse("kind: Pod\nmetadata: {name: a\n");
  ASSERT_EQ(yaml.size(), 1u);
  EXPECT_EQ(yaml[0].error,
            "malformed YAML: line 3, column 1: did not find expected ',' or '}'");
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

// A stray `,` where a document or node should start made yaml-cpp (the parser before libyaml)
// report empty documents forever without advancing (the loader then grew without bound until
// the kernel killed it). Each input is parsed in a forked child with a 3-second alarm, so a
// regression fails the test instead of hanging it; the child prints the documents it saw for the
// parent to check. The messages are libyaml's (kubectl's go-yaml says the same).
TEST(CodecDocumentsDeathTest, StrayCommaIsAnErrorNotAnEndlessLoop) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  const struct {
    const char* text;
    const char* expected;
  } cases[] = {
      {",", "1:malformed YAML: line 1, column 1: did not find expected node content"},
      {"'a',", "1:malformed YAML: line 1, column 4: did not find expected <document start>"},
      {"{\"a\":1},", "1:malformed JSON: line 1, column 8: did not find expected <document start>"},
      {"[1],", "1:malformed JSON: line 1, column 4: did not find expected <document start>"},
      // The documents before the broken piece are still read; the error has the file line.
      {"a: 1\n---\nb: 2\n,\n", "1:ok 2:malformed YAML: line 4, column 1"},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.text);
    EXPECT_EXIT(
        {
          alarm(3);
          std::string seen;
          for (const Seen& d : Parse(c.text)) {
            seen += std::to_string(d.number) + ":" + (d.error.empty() ? "ok" : d.error) + " ";
          }
          std::cerr << seen << std::flush;
          std::_Exit(0);
        },
        ::testing::ExitedWithCode(0), ::testing::HasSubstr(c.expected));
  }
}

}  // namespace
}  // namespace wasched::codec::internal

namespace wasched::codec::internal {
namespace {

// QA finding 04: Kubernetes' YAML decoder expands merge keys; explicit keys win, earlier merge
// sources win over later ones.
TEST(YamlMergeKeysTest, MergeKeysAreExpanded) {
  std::string error;
  std::vector<YamlTree> docs = ParseTrees(
      "base: &b {a: 1, b: 2}\n"
      "other: &o {b: 3, c: 4}\n"
      "x:\n  <<: [*b, *o]\n  a: 9\n",
      &error);
  ASSERT_EQ(docs.size(), 1u) << error;
  std::vector<YamlTree> want =
      ParseTrees("base: {a: 1, b: 2}\nother: {b: 3, c: 4}\nx: {a: 9, b: 2, c: 4}\n", &error);
  ASSERT_EQ(want.size(), 1u) << error;
  EXPECT_TRUE(SameContent(docs[0], want[0])) << WriteJson(docs[0]);
  // A merged map that is itself merged, and aliased: the merged entries come along.
  docs = ParseTrees("a: &a {x: 1}\nb: &b {<<: *a, y: 2}\nc: {<<: *b, z: 3}\nd: *b\n", &error);
  want = ParseTrees("a: {x: 1}\nb: {y: 2, x: 1}\nc: {z: 3, y: 2, x: 1}\nd: {y: 2, x: 1}\n",
                    &error);
  ASSERT_EQ(docs.size(), 1u) << error;
  ASSERT_EQ(want.size(), 1u) << error;
  EXPECT_TRUE(SameContent(docs[0], want[0])) << WriteJson(docs[0]);
  EXPECT_TRUE(ParseTrees("x:\n  <<: 5\n", &error).empty());
  EXPECT_THAT(error, HasSubstr("merge key \"<<\" needs a map or a list of maps"));
}

// Each document of a YAML stream names its piece of the text (the loader drops the text before
// it as it goes) and how many pieces the stream has (it reserves room for them); documents
// built into the previous one's tape buffers hold their own content only.
TEST(YamlDocumentsTest, DocumentsNameTheirPieceOfTheText) {
  const std::string text = "a: 1\nb: [x, y]\n---\nc: {d: e}\n---\n# only a comment\n---\nf: 2\n";
  std::vector<std::string> pieces;
  std::vector<size_t> counts;
  std::vector<size_t> nodes;
  ForEachDocument(text, [&](ParsedDocument& doc) {
    pieces.emplace_back(doc.piece);
    counts.push_back(doc.stream_pieces);
    nodes.push_back(doc.tape.node_count());
  });
  const std::vector<std::string> want = {"a: 1\nb: [x, y]\n", "---\nc: {d: e}\n",
                                         "---\n# only a comment\n", "---\nf: 2\n"};
  EXPECT_EQ(pieces, want);
  EXPECT_EQ(counts, (std::vector<size_t>{4, 4, 4, 4}));
  EXPECT_EQ(nodes, (std::vector<size_t>{7, 5, 1, 3}));
}

}  // namespace
}  // namespace wasched::codec::internal
