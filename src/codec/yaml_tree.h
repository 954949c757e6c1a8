// File: codec/yaml_tree.h
//
// YamlTree: a small *mutable* tree of one YAML/JSON document (internal to codec/), for tools that
// rewrite manifests rather than decode them (`wasched convert`). It keeps what a rewrite must not
// lose: key order, and whether a scalar was written as a string ("1", 'true', |-blocks) or plain
// (1, true), so `"1"` stays a string and `1` stays an integer. Comments, anchors and the original
// quoting style are not kept.
//
//   std::optional<YamlTree> t = TreeFromTape(tape, tape.root(), /*budget=*/1 << 20);
//   t->Find("spec")->RenameKey("podGroups", "podGroupTemplates");
//   std::string yaml = WriteYaml(*t);   // one document, block style, 2-space indent
//   std::string json = WriteJson(*t);   // 2-space indent, keys in document order
//
// Only codec/*.cc see yaml-cpp and nlohmann-json; this header includes neither.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "codec/event_tape.h"
#include "codec/yaml_reader.h"

namespace wasched::codec::internal {

// YamlTree: one node. Scalars hold `text` and `style`; a kMap's `children` are its keys and
// values interleaved (k0, v0, k1, v1, …) in document order; a kSeq's are its items. Copyable.
struct YamlTree {
  YamlType type = YamlType::kNull;
  ScalarStyle style = ScalarStyle::kPlain;
  std::string text;
  std::vector<YamlTree> children;

  // Constructors for the shapes rewrites create.
  [[nodiscard]] static YamlTree Null() { return YamlTree{}; }
  // String: a scalar that is a string whatever its text (written quoted when it must be).
  [[nodiscard]] static YamlTree String(std::string text);
  // Plain: an unquoted scalar, resolved by content (`4` integer, `true` boolean, `abc` string).
  [[nodiscard]] static YamlTree Plain(std::string text);
  [[nodiscard]] static YamlTree Map();
  [[nodiscard]] static YamlTree Seq();

  [[nodiscard]] bool IsMap() const { return type == YamlType::kMap; }
  [[nodiscard]] bool IsSeq() const { return type == YamlType::kSeq; }
  // Kind: the core-schema kind (Classify of yaml_reader.h): a quoted scalar is kString, a plain
  // one resolves by content, a kNull node is kNull. O(length of a scalar).
  [[nodiscard]] ValueKind Kind() const;
  // IsString: Kind() == kString.
  [[nodiscard]] bool IsString() const { return Kind() == ValueKind::kString; }

  // MapSize: number of entries of a map (0 for other kinds).
  [[nodiscard]] size_t MapSize() const { return IsMap() ? children.size() / 2 : 0; }
  // Key / Value: the i-th entry of a map (i < MapSize()).
  [[nodiscard]] const YamlTree& Key(size_t i) const { return children[2 * i]; }
  [[nodiscard]] YamlTree& Value(size_t i) { return children[2 * i + 1]; }
  [[nodiscard]] const YamlTree& Value(size_t i) const { return children[2 * i + 1]; }
  // KeyText: the text of the i-th key when it is a scalar, else "".
  [[nodiscard]] std::string_view KeyText(size_t i) const;

  // Find: the value stored under scalar key `key` in a map; nullptr when absent or not a map.
  // O(entries).
  [[nodiscard]] YamlTree* Find(std::string_view key);
  [[nodiscard]] const YamlTree* Find(std::string_view key) const;
  // Set: replaces the value under `key`, or appends `key: value` (the key as a plain scalar).
  // Requires a map (a kNull node becomes an empty map first). Returns the stored value. O(entries).
  YamlTree& Set(std::string_view key, YamlTree value);
  // Remove: drops `key` and its value; false when absent. O(entries).
  bool Remove(std::string_view key);
  // RenameKey: renames `from` to `to` in place (same position, same value); false when absent.
  bool RenameKey(std::string_view from, std::string_view to);
};

// TreeFromTape: a deep copy of node `id` of `tape` (kNoNode gives a kNull tree). YAML aliases
// are expanded, so the copy can be larger than the text: nullopt when it would exceed `budget`
// nodes ("billion laughs"). O(nodes of the copy).
[[nodiscard]] std::optional<YamlTree> TreeFromTape(const EventTape& tape, NodeId id,
                                                  int64_t budget);

// WriteYaml: one YAML document (no `---`), block style, 2-space indent, ending in a newline.
// Strings whose plain form would resolve to another type under YAML 1.2 or YAML 1.1
// (`"1"`, `"true"`, `""`, `"yes"`, `"0x1f"`: PlainReadsAsString) are double-quoted, plain
// scalars that the codec reads as strings included (plain `yes` is written `"yes"`); multi-line
// strings use a literal block (`|`) when that reads back exactly, else double quotes; empty maps
// and sequences are `{}` / `[]`; null is `null`. Reading the text back (yaml-cpp or the codec's
// parser) gives a tree SameContent() to `tree`. O(size).
[[nodiscard]] std::string WriteYaml(const YamlTree& tree);

// WriteJson: `tree` as JSON (nlohmann::ordered_json: keys in document order, 2-space indent,
// trailing newline). Plain scalars become what they resolve to (integer, number, boolean, null,
// string); `.inf`/`.nan`, which JSON cannot hold, become strings. Invalid UTF-8 is replaced,
// never thrown on. O(size).
[[nodiscard]] std::string WriteJson(const YamlTree& tree);

// SameContent: equal as data: same kinds, same key order, same texts, where a plain scalar that
// resolves to a string equals a quoted one with the same text and a plain null-like scalar
// (`~`, `null`) equals a null node. Numbers compare by text. O(size).
[[nodiscard]] bool SameContent(const YamlTree& a, const YamlTree& b);

// ParseTrees: every non-null document of `text` (YAML stream or one JSON document) as trees, in
// order; the first parse error (`malformed YAML: line …`) as `*error` and an empty result.
// For tests and tools; budget as TreeFromTape with 2 × text size + 1024. O(text size).
[[nodiscard]] std::vector<YamlTree> ParseTrees(std::string_view text, std::string* error);

}  // namespace wasched::codec::internal
