#include "codec/json_events.h"

#include <string>

#include <gtest/gtest.h>

#include "codec/yaml_tree.h"

namespace wasched::codec::internal {
namespace {

// The JSON path must give the decoders exactly the tree the YAML parser gives for the same text
// (the text with a leading space is not taken for JSON).
TEST(JsonDomTest, SameTreeAsYamlCpp) {
  const char* cases[] = {
      R"({"apiVersion": "v1", "kind": "Node", "metadata": {"name": "n1", "labels": {"a": "1"}}})",
      R"({"kind": "List", "items": [{"kind": "Pod", "spec": {"priority": 5, "x": 1.5, "y": -2}}]})",
      R"({"s": "true", "b": true, "n": null, "e": [], "o": {}, "u": "\u00e9\n"})",
      R"([1, "two", [3, {"four": 4}]])",
  };
  for (const char* text : cases) {
    std::optional<EventTape> json = ParseJson(text);
    ASSERT_TRUE(json.has_value()) << text;
    std::string error;
    std::vector<YamlTree> yaml = ParseTrees(std::string("# yaml\n") + text, &error);
    ASSERT_EQ(yaml.size(), 1u) << error;
    std::optional<YamlTree> from_json = TreeFromTape(*json, json->root(), 1 << 20);
    ASSERT_TRUE(from_json.has_value());
    EXPECT_TRUE(SameContent(*from_json, yaml[0]))
        << text << "\njson: " << WriteJson(*from_json) << "\nyaml: " << WriteJson(yaml[0]);
  }
}

TEST(JsonDomTest, NotStrictJsonFallsBackToYaml) {
  EXPECT_TRUE(LooksLikeJson("  \n{a: 1}"));
  EXPECT_FALSE(ParseJson("{a: 1}").has_value());          // YAML flow style
  EXPECT_FALSE(ParseJson("{\"a\": 1,}").has_value());     // trailing comma
  EXPECT_FALSE(ParseJson("{\"a\": 1} {\"b\": 2}").has_value());
  EXPECT_FALSE(LooksLikeJson("apiVersion: v1"));
}

TEST(JsonDomTest, DeepNestingIsRejectedNotACrash) {
  std::string deep(100000, '[');
  deep += std::string(100000, ']');
  EXPECT_FALSE(ParseJson(deep).has_value());
}

}  // namespace
}  // namespace wasched::codec::internal
