// File: codec/yaml_dom.h
//
// YamlDom: a compact, read-only tree of one YAML document (internal to codec/), and the exact
// builder behind it: yaml-cpp's *event* parser (ParseWithYamlCpp). yaml-cpp's own YAML::Node
// trees cost as much again as parsing (a shared_ptr per node), so the codec never builds them;
// JSON input fills the same structure through nlohmann's SAX parser (json_dom.h).
//
// Nodes live in one vector and refer to children by index, so a YAML alias is the same index
// used twice (a DAG): aliases never copy, and "billion laughs" input stays small here (decoders
// bound how often they revisit a node, see Diagnostics).
//
//   std::vector<YamlDom> docs = ParseWithYamlCpp("a: [1, 2]\n");   // throws YAML::Exception
//   const YamlDom& d = docs[0];
//   std::span<const YamlNodeId> kv = d.children(d.root());    // {"a", [1, 2]}
//   d.scalar(kv[0]) == "a";  d.size(kv[1]) == 2;
#pragma once

#include <cstdint>
#include <deque>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace wasched::codec::internal {

// YamlType: the node kinds of the YAML representation graph.
enum class YamlType : uint8_t { kNull, kScalar, kMap, kSeq };

// ScalarStyle: kPlain scalars resolve by content (core schema: `5` is an integer, `true` a
// boolean); kString scalars (quoted, block `|`/`>`, or tagged `!!str`) are strings whatever
// their content.
enum class ScalarStyle : uint8_t { kPlain, kString };

using YamlNodeId = uint32_t;
inline constexpr YamlNodeId kNoYamlNode = UINT32_MAX;  // "absent" (e.g. a missing field)

// YamlDom: an immutable document. Scalar texts are views into either the parsed text (which
// must outlive the YamlDom) or strings the YamlDom owns. Move-only.
class YamlDom {
 public:
  YamlDom() = default;
  YamlDom(YamlDom&&) = default;
  YamlDom& operator=(YamlDom&&) = default;
  YamlDom(const YamlDom&) = delete;
  YamlDom& operator=(const YamlDom&) = delete;

  [[nodiscard]] YamlNodeId root() const { return root_; }
  // type: kNull for kNoYamlNode.
  [[nodiscard]] YamlType type(YamlNodeId id) const {
    return id == kNoYamlNode ? YamlType::kNull : nodes_[id].type;
  }
  [[nodiscard]] ScalarStyle style(YamlNodeId id) const { return nodes_[id].style; }
  // scalar: the text of a scalar ("" for other kinds).
  [[nodiscard]] std::string_view scalar(YamlNodeId id) const {
    return id == kNoYamlNode ? std::string_view() : nodes_[id].text;
  }
  // size: entries of a map / items of a sequence.
  [[nodiscard]] size_t size(YamlNodeId id) const;
  // Children: a sequence's items, or a map's keys and values interleaved (k0, v0, k1, v1, …),
  // in document order.
  [[nodiscard]] std::span<const YamlNodeId> children(YamlNodeId id) const;
  // node_count: number of nodes; every YamlNodeId of this document is below it.
  [[nodiscard]] size_t node_count() const { return nodes_.size(); }

  // Equal: deep structural equality of two documents, where a null node equals a plain scalar
  // that resolves to null (`~`, `null`, ""). O(nodes). For tests comparing parsers.
  [[nodiscard]] static bool Equal(const YamlDom& a, const YamlDom& b);
  // DebugString: a one-line JSON-like rendering, for test failure messages. O(nodes).
  [[nodiscard]] std::string DebugString() const;

 private:
  friend class YamlDomBuilder;
  struct Node {
    YamlType type = YamlType::kNull;
    ScalarStyle style = ScalarStyle::kPlain;
    uint32_t first = 0;  // index into children_
    uint32_t count = 0;  // number of children_ entries
    std::string_view text;
  };
  std::vector<Node> nodes_;
  std::vector<YamlNodeId> children_;
  std::deque<std::string> owned_;  // stable addresses for texts that are not in the input
  YamlNodeId root_ = kNoYamlNode;
};

// YamlDomBuilder: appends nodes bottom-up (children before their collection).
class YamlDomBuilder {
 public:
  YamlNodeId AddNull();
  // AddScalar: `text` must outlive the YamlDom (a view into the parsed input).
  YamlNodeId AddScalar(std::string_view text, ScalarStyle style);
  // AddOwnedScalar: the YamlDom keeps `text`.
  YamlNodeId AddOwnedScalar(std::string text, ScalarStyle style);
  // AddCollection: a kMap (keys and values interleaved) or kSeq of existing nodes.
  YamlNodeId AddCollection(YamlType type, std::span<const YamlNodeId> children);
  // partial: the nodes added so far (read access while building, e.g. to expand merge keys).
  [[nodiscard]] const YamlDom& partial() const { return dom_; }
  // Finish: the document with `root`; the builder is left empty.
  [[nodiscard]] YamlDom Finish(YamlNodeId root);

 private:
  YamlDom dom_;
};

// ParseWithYamlCpp: every document of `text` through yaml-cpp's event parser, as YamlDoms.
// Throws YAML::Exception for malformed YAML (and for an alias to an unknown or still-open
// anchor). Nesting depth is bounded by yaml-cpp's own guard. O(text size).
[[nodiscard]] std::vector<YamlDom> ParseWithYamlCpp(std::string_view text);

}  // namespace wasched::codec::internal
