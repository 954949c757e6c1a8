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

// A List's items are found by a structure scan: quotes, backslashes and brackets inside strings
// must not end an item early or late (each deferred item is exactly its text).
TEST(JsonDomTest, ListItemsEndWhereTheirTextEnds) {
  const std::string items[] = {
      R"({"kind":"Pod","metadata":{"name":"a\"}{["}})",
      R"({"kind":"Pod","s":"\\","t":"x\\\"]}"})",
      R"({"kind":"Pod","u":"\u007d}","v":[1,{"w":"]"}]})",
  };
  const std::string text = std::string(R"({"kind":"List","items":[)") + items[0] + ",\n " +
                           items[1] + " ," + items[2] + R"(],"metadata":{}})";
  std::optional<EventTape> list = ParseJsonList(text);
  ASSERT_TRUE(list.has_value());
  NodeId seq = kNoNode;
  for (const MapEntry e : list->Entries(list->root())) {
    if (list->scalar(e.key) == "items") seq = e.value;
  }
  ASSERT_EQ(list->size(seq), 3u);
  size_t i = 0;
  for (const MapEntry e : list->Items(seq)) {
    ASSERT_TRUE(list->deferred(e.key));
    EXPECT_EQ(list->deferred_text(e.key), items[i]);
    EXPECT_TRUE(ParseJsonValue(list->deferred_text(e.key)).has_value()) << items[i];
    ++i;
  }
}

// A tape built into a recycled one holds the new document only: no entries, texts or
// repeated-key flag of the old one, and a serial of its own.
TEST(JsonDomTest, RecycledTapeHoldsOnlyTheNewDocument) {
  std::optional<EventTape> old = ParseJsonValue(R"({"a":"long text of the first item","a":[1,2]})");
  ASSERT_TRUE(old.has_value());
  EXPECT_TRUE(old->any_duplicate_keys());
  const uint64_t old_serial = old->serial();
  const char* text = R"({"b":{"c":[true,null,"d"]},"e":-0})";
  std::optional<EventTape> recycled = ParseJsonValue(text, std::move(*old));
  std::optional<EventTape> fresh = ParseJsonValue(text);
  ASSERT_TRUE(recycled.has_value());
  ASSERT_TRUE(fresh.has_value());
  EXPECT_FALSE(recycled->any_duplicate_keys());
  EXPECT_NE(recycled->serial(), old_serial);
  EXPECT_EQ(recycled->node_count(), fresh->node_count());
  std::optional<YamlTree> a = TreeFromTape(*recycled, recycled->root(), 1 << 20);
  std::optional<YamlTree> b = TreeFromTape(*fresh, fresh->root(), 1 << 20);
  ASSERT_TRUE(a.has_value());
  ASSERT_TRUE(b.has_value());
  EXPECT_TRUE(SameContent(*a, *b)) << WriteJson(*a) << " vs " << WriteJson(*b);
}

}  // namespace
}  // namespace wasched::codec::internal
