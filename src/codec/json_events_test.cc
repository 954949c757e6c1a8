#include "codec/json_events.h"

#include <string>
#include <vector>

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

// The item scan reads 64 bytes at a time and a block holding a backslash a byte at a time:
// escapes, quotes and brackets inside strings at every offset around a block's edge (an escape
// whose escaped byte opens the next block, a string running across blocks) still give each
// item exactly its text.
TEST(JsonDomTest, ListItemsEndWhereTheirTextEndsAcrossBlocks) {
  const std::string tails[] = {R"(\"}])", R"(\\)", R"(x\\\"{)", R"(]}[{)", R"(\u005d)"};
  for (size_t pad = 0; pad < 70; ++pad) {
    for (const std::string& tail : tails) {
      std::vector<std::string> items;
      items.push_back(R"({"kind":"Pod","a":")" + std::string(pad, 'p') + tail +
                      R"(","b":[{"c":"]"}]})");
      items.push_back(R"({"kind":"Pod","d":{"e":")" + std::string(130 - pad, 'q') + tail +
                      R"("},"f":[[],{}]})");
      items.push_back(R"({"kind":"Pod"})");
      const std::string text = std::string(R"({"kind":"List","items":[)") + items[0] + "," +
                               items[1] + ", " + items[2] + "]}";
      std::optional<EventTape> list = ParseJsonList(text);
      ASSERT_TRUE(list.has_value()) << text;
      NodeId seq = kNoNode;
      for (const MapEntry e : list->Entries(list->root())) {
        if (list->scalar(e.key) == "items") seq = e.value;
      }
      ASSERT_EQ(list->size(seq), 3u) << text;
      size_t i = 0;
      for (const MapEntry e : list->Items(seq)) {
        EXPECT_EQ(list->deferred_text(e.key), items[i]) << "pad " << pad << " tail " << tail;
        ++i;
      }
    }
  }
}

// An item whose brackets never close (or close early) is not a List of deferred items: the
// scan refuses it at every length, blocks and tail alike.
TEST(JsonDomTest, UnbalancedListItemIsRefused) {
  for (size_t pad = 0; pad < 140; ++pad) {
    const std::string open = R"({"kind":"List","items":[{"a":")" + std::string(pad, 'x') +
                             R"(","b":[}]})";
    EXPECT_FALSE(ParseJsonList(open).has_value()) << pad;
    const std::string unterminated = R"({"kind":"List","items":[{"a":")" +
                                     std::string(pad, 'x') + R"(\"}]})";
    EXPECT_FALSE(ParseJsonList(unterminated).has_value()) << pad;
  }
}

// Integers are recorded with their JSON text, which is their decimal value (-0 reads 0); other
// numbers keep the text they were written with.
TEST(JsonDomTest, NumbersKeepTheirDecimalText) {
  std::optional<EventTape> t =
      ParseJson(R"([0, -0, 7, -12, 9223372036854775807, 18446744073709551615, 1.50, 1e3, -0.0])");
  ASSERT_TRUE(t.has_value());
  std::vector<std::string> texts;
  for (const MapEntry e : t->Items(t->root())) texts.emplace_back(t->scalar(e.key));
  const std::vector<std::string> want = {"0",   "0",    "7",   "-12", "9223372036854775807",
                                         "18446744073709551615", "1.50", "1e3", "-0.0"};
  EXPECT_EQ(texts, want);
}

// Repeated keys are found by comparing each key's length and first bytes before its text: keys
// alike in those but different later are not repeated; equal keys are, in small and large maps.
TEST(JsonDomTest, RepeatedKeysAreFoundByTheirText) {
  EXPECT_FALSE(ParseJson(R"({"abcdefgX":1,"abcdefgY":2,"abcdefg":3,"":4})")->any_duplicate_keys());
  EXPECT_TRUE(ParseJson(R"({"abcdefgX":1,"abcdefgY":2,"abcdefgX":3})")->any_duplicate_keys());
  EXPECT_TRUE(ParseJson(R"({"":1,"a":{"b":1},"":2})")->any_duplicate_keys());
  // Keys of a nested map do not count for the outer map, nor the other way round.
  EXPECT_FALSE(ParseJson(R"({"a":{"a":1,"b":2},"b":{"a":3}})")->any_duplicate_keys());
  std::string large = "{";
  for (int i = 0; i < 40; ++i) large += "\"key-" + std::to_string(i) + "\":" + std::to_string(i) + ",";
  EXPECT_FALSE(ParseJson(large + "\"key-40\":0}")->any_duplicate_keys());
  EXPECT_TRUE(ParseJson(large + "\"key-17\":0}")->any_duplicate_keys());
}

}  // namespace
}  // namespace wasched::codec::internal
