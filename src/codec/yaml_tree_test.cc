// File: codec/yaml_tree_test.cc
//
// YamlTree: editing, the copy from an EventTape (alias budget), and that WriteYaml / WriteJson read
// back as the same data (string-vs-plain scalars, key order, multi-line strings, empty
// collections, null).
#include "codec/yaml_tree.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

namespace wasched::codec::internal {
namespace {

using ::testing::HasSubstr;

YamlTree ParseOne(const std::string& text) {
  std::string error;
  std::vector<YamlTree> trees = ParseTrees(text, &error);
  EXPECT_EQ(error, "");
  EXPECT_EQ(trees.size(), 1u) << text;
  return trees.empty() ? YamlTree() : trees.front();
}

constexpr const char* kTricky = R"(kind: Thing
quotedNumber: "1"
number: 1
quotedBool: 'true'
bool: true
emptyString: ""
nullValue: null
tilde: ~
float: 1.5
inf: .inf
"7": seven
plainDash: -c
colon: "a: b"
hash: "#tag"
unicode: "Grüße, 世界"
literal: |
  line one
    indented
  line three
strip: |-
  no trailing newline
leadingSpace: "  x\ny\n"
emptyMap: {}
emptySeq: []
nested:
  - name: a
    args: ["x", 2, "3"]
  - []
  - {k: v}
)";

TEST(YamlTreeTest, YamlRoundTripKeepsTypesAndOrder) {
  const YamlTree original = ParseOne(kTricky);
  const std::string written = WriteYaml(original);
  const YamlTree back = ParseOne(written);
  EXPECT_TRUE(SameContent(original, back)) << written;
  EXPECT_THAT(written, HasSubstr("quotedNumber: \"1\"\n"));
  EXPECT_THAT(written, HasSubstr("number: 1\n"));
  EXPECT_THAT(written, HasSubstr("quotedBool: \"true\"\n"));
  EXPECT_THAT(written, HasSubstr("bool: true\n"));
  EXPECT_THAT(written, HasSubstr("nullValue: null\n"));
  EXPECT_THAT(written, HasSubstr("emptyMap: {}\n"));
  EXPECT_THAT(written, HasSubstr("emptySeq: []\n"));
  EXPECT_THAT(written, HasSubstr("literal: |\n  line one\n    indented\n  line three\n"));
  EXPECT_THAT(written, HasSubstr("\"7\": seven\n"));
  EXPECT_EQ(back.Find("quotedNumber")->Kind(), ValueKind::kString);
  EXPECT_EQ(back.Find("number")->Kind(), ValueKind::kInteger);
  EXPECT_EQ(back.Find("strip")->text, "no trailing newline");
  EXPECT_EQ(back.Find("leadingSpace")->text, "  x\ny\n");
  EXPECT_EQ(back.Find("unicode")->text, "Grüße, 世界");
}

TEST(YamlTreeTest, JsonRoundTripKeepsTypesAndOrder) {
  const YamlTree original = ParseOne(kTricky);
  const std::string json = WriteJson(original);
  EXPECT_THAT(json, HasSubstr("\"quotedNumber\": \"1\""));
  EXPECT_THAT(json, HasSubstr("\"number\": 1,"));
  EXPECT_THAT(json, HasSubstr("\"bool\": true"));
  EXPECT_THAT(json, HasSubstr("\"nullValue\": null"));
  EXPECT_THAT(json, HasSubstr("\"inf\": \".inf\""));  // JSON has no infinity
  EXPECT_LT(json.find("\"quotedNumber\""), json.find("\"number\""));
  YamlTree back = ParseOne(json);
  // Everything but .inf (a string in JSON) reads back as the same data.
  YamlTree expected = original;
  *expected.Find("inf") = YamlTree::String(".inf");
  EXPECT_TRUE(SameContent(expected, back)) << json;
}

// Strings a YAML 1.1 reader (kubectl's sigs.k8s.io/yaml, PyYAML) or YAML 1.2's core schema
// would take for another type are written quoted (a quoted "yes" stayed plain `yes` before);
// unambiguous plain strings stay plain, and numbers and booleans stay what they were. Plain
// `yes` and `0x1f` are read as YAML 1.1 reads them (codec/yaml11.h): a boolean and 31.
TEST(YamlTreeTest, YamlQuotesStringsThatYaml11Or12WouldReadAsOtherTypes) {
  const YamlTree t = ParseOne(R"(quotedYes: "yes"
plainYes: yes
quotedOn: 'on'
plainHex: 0x1f
quotedOctal: "0o17"
quotedUnderscore: "1_000"
quotedSexagesimal: "1:30"
quotedTime: "2026-01-01T00:00:00Z"
quotedMerge: "<<"
plainName: web-0
plainQuantity: 500m
quotedIp: "10.0.0.1"
plainHexToo: 0x1f1
boolean: true
)");
  const std::string yaml = WriteYaml(t);
  EXPECT_EQ(yaml,
            "quotedYes: \"yes\"\n"
            "plainYes: true\n"
            "quotedOn: \"on\"\n"
            "plainHex: 31\n"
            "quotedOctal: \"0o17\"\n"
            "quotedUnderscore: \"1_000\"\n"
            "quotedSexagesimal: \"1:30\"\n"
            "quotedTime: \"2026-01-01T00:00:00Z\"\n"
            "quotedMerge: \"<<\"\n"
            "plainName: web-0\n"
            "plainQuantity: 500m\n"
            "quotedIp: \"10.0.0.1\"\n"
            "plainHexToo: 497\n"
            "boolean: true\n");
  EXPECT_TRUE(SameContent(ParseOne(yaml), t));
}

TEST(YamlTreeTest, PlainReadsAsString) {
  for (const char* s : {"web-0", "500m", "1Gi", "a: b", "nvidia.com/gpu", "Always", "x1", "e3"}) {
    EXPECT_TRUE(PlainReadsAsString(s)) << s;
  }
  for (const char* s : {"",      "~",          "null",
                        "true",  "False",      "yes",
                        "No",    "on",         "OFF",
                        "y",     "N",          "<<",
                        "1",     "-1",         "1.5",
                        ".5",    "1e3",        ".inf",
                        "0x1f",  "0o17",       "0b101",
                        "-0x1F", "1_000",      "1:30",
                        "1.2.3", "2026-01-01", "2026-01-01 10:00:00 +02:00"}) {
    EXPECT_FALSE(PlainReadsAsString(s)) << s;
  }
}

TEST(YamlTreeTest, SameContentComparesData) {
  EXPECT_TRUE(SameContent(YamlTree::Plain("abc"), YamlTree::String("abc")));
  EXPECT_FALSE(SameContent(YamlTree::Plain("1"), YamlTree::String("1")));
  EXPECT_TRUE(SameContent(YamlTree::Plain("~"), YamlTree::Null()));
  EXPECT_TRUE(SameContent(YamlTree::Plain("True"), YamlTree::Plain("true")));
  EXPECT_FALSE(SameContent(ParseOne("{a: 1, b: 2}"), ParseOne("{b: 2, a: 1}")));  // order counts
}

TEST(YamlTreeTest, EditingKeepsPositions) {
  YamlTree t = ParseOne("a: 1\nb: 2\nc: 3\n");
  EXPECT_TRUE(t.RenameKey("b", "bee"));
  EXPECT_FALSE(t.RenameKey("zzz", "y"));
  t.Set("a", YamlTree::String("one"));
  t.Set("d", YamlTree::Plain("4"));
  EXPECT_TRUE(t.Remove("c"));
  EXPECT_FALSE(t.Remove("c"));
  EXPECT_EQ(WriteYaml(t), "a: one\nbee: 2\nd: 4\n");
  EXPECT_EQ(t.Find("nope"), nullptr);
  EXPECT_EQ(t.MapSize(), 3u);
  EXPECT_EQ(t.KeyText(1), "bee");
}

TEST(YamlTreeTest, AliasExpansionIsBounded) {
  // "Billion laughs": 9 levels of 9 aliases would be 9^9 nodes once expanded.
  std::string text = "a0: &a0 [x, x, x, x, x, x, x, x, x]\n";
  for (int i = 1; i <= 9; ++i) {
    text += "a" + std::to_string(i) + ": &a" + std::to_string(i) + " [";
    for (int j = 0; j < 9; ++j) text += (j ? ", *a" : "*a") + std::to_string(i - 1);
    text += "]\n";
  }
  std::string error;
  const std::vector<YamlTree> trees = ParseTrees(text, &error);
  EXPECT_TRUE(trees.empty());
  EXPECT_THAT(error, HasSubstr("too large"));
}

TEST(YamlTreeTest, ParseErrorsAreReported) {
  std::string error;
  EXPECT_TRUE(ParseTrees("a: [1, 2\n", &error).empty());
  EXPECT_THAT(error, HasSubstr("malformed YAML: line"));
}

}  // namespace
}  // namespace wasched::codec::internal
