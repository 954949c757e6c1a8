#include "codec/json_dom.h"

#include <string>

#include <gtest/gtest.h>

namespace wasched::codec::internal {
namespace {

// The JSON path must give the decoders exactly the tree yaml-cpp gives for the same text.
TEST(JsonDomTest, SameTreeAsYamlCpp) {
  const char* cases[] = {
      R"({"apiVersion": "v1", "kind": "Node", "metadata": {"name": "n1", "labels": {"a": "1"}}})",
      R"({"kind": "List", "items": [{"kind": "Pod", "spec": {"priority": 5, "x": 1.5e3, "y": -2}}]})",
      R"({"s": "true", "b": true, "n": null, "e": [], "o": {}, "u": "\u00e9\n"})",
      R"([1, "two", [3, {"four": 4}]])",
  };
  for (const char* text : cases) {
    std::optional<YamlDom> json = ParseJson(text);
    ASSERT_TRUE(json.has_value()) << text;
    std::vector<YamlDom> yaml = ParseWithYamlCpp(text);
    ASSERT_EQ(yaml.size(), 1u);
    EXPECT_TRUE(YamlDom::Equal(*json, yaml[0]))
        << text << "\njson: " << json->DebugString() << "\nyaml: " << yaml[0].DebugString();
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
