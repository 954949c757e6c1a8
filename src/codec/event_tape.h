// File: codec/event_tape.h
//
// EventTape: the parser events of one document (or one item of a JSON `List`), recorded in
// document order so that decoders can walk them more than once (internal to codec/). Decoders
// need that: the loader reads apiVersion and kind before it knows the decoder, metadata is
// decoded before the other fields so every message can name the object, and repeated keys are
// looked for in the fields no decoder reads. The parsers (libyaml's event parser for YAML,
// simdjson for JSON; codec/yaml_documents.h) append events through a TapeBuilder; nothing else
// is built between the parser and the api objects.
//
// Layout: one flat vector of entries in document order (a map's keys and values interleaved
// after it, a sequence's items after it), each collection knowing where its subtree ends, so a
// walker skips an unread field in O(1); scalar texts live in one arena. A YAML alias is an entry
// that refers to the anchored node (never a copy), so "billion laughs" input stays as small as
// its text (decoders bound how often they revisit a node, see Diagnostics). A map with YAML 1.1
// merge keys (`<<: *base`) is recorded as a map of references to its effective entries.
//
//   TapeBuilder b(text.size());
//   b.BeginMap({}, "");  b.Scalar("a", ScalarStyle::kPlain, {}, "");  b.BeginSeq({}, "");
//   b.Scalar("1", ScalarStyle::kPlain, {}, "");  b.EndSeq();  b.EndMap();
//   EventTape t = b.Finish();                         // {a: [1]}
//   for (MapEntry e : t.Entries(t.root())) t.scalar(e.key) == "a";
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

namespace wasched::codec::internal {

// YamlType: the node kinds of the YAML representation graph (JSON uses the same).
enum class YamlType : uint8_t { kNull, kScalar, kMap, kSeq };

// ScalarStyle: kPlain scalars resolve by content (core schema: `5` is an integer, `true` a
// boolean); kString scalars (quoted, block `|`/`>`, or tagged `!!str`) are strings whatever
// their content. JSON strings are kString, JSON numbers / booleans / null kPlain.
enum class ScalarStyle : uint8_t { kPlain, kString };

// NodeId: a node of an EventTape; kNoNode is "absent" (e.g. a missing field).
using NodeId = uint32_t;
inline constexpr NodeId kNoNode = UINT32_MAX;

// MapEntry: one key / value pair of a map (both resolved: never an alias).
struct MapEntry {
  NodeId key;
  NodeId value;
};

// TapeMark: a position in the parsed text (0-based line and column), for parse errors.
struct TapeMark {
  int line = 0;
  int column = 0;
};

// TapeError: why a TapeBuilder refused an event (the message of a "malformed YAML" error).
struct TapeError {
  TapeMark mark;
  std::string message;
};

class EventTape {
 public:
  EventTape() = default;
  EventTape(EventTape&&) = default;
  EventTape& operator=(EventTape&&) = default;
  EventTape(const EventTape&) = delete;
  EventTape& operator=(const EventTape&) = delete;

  // root: the document's node (kNoNode for an empty tape).
  [[nodiscard]] NodeId root() const { return root_; }
  // type: kNull for kNoNode.
  [[nodiscard]] YamlType type(NodeId id) const {
    return id == kNoNode ? YamlType::kNull : at(id).type;
  }
  [[nodiscard]] ScalarStyle style(NodeId id) const {
    return id == kNoNode ? ScalarStyle::kPlain : at(id).style;
  }
  // scalar: the text of a scalar ("" for other kinds). Valid while the tape lives.
  [[nodiscard]] std::string_view scalar(NodeId id) const {
    if (id == kNoNode || at(id).type != YamlType::kScalar) return {};
    const Entry& e = at(id);
    return std::string_view(text_).substr(e.text_offset, e.text_size);
  }
  // written_scalar: the text of a scalar as the document wrote it, where it differs from
  // scalar(): a plain YAML 1.1 scalar resolved to its JSON text (`yes` → "true", `0x10` → "16",
  // codec/yaml11.h); else scalar(). For messages. Valid while the tape lives.
  [[nodiscard]] std::string_view written_scalar(NodeId id) const {
    if (id == kNoNode || at(id).type != YamlType::kScalar || at(id).target == 0) return scalar(id);
    const Entry& e = at(id);
    return std::string_view(text_).substr(e.text_offset + e.text_size, e.target);
  }
  // size: entries of a map / items of a sequence (0 for other kinds).
  [[nodiscard]] size_t size(NodeId id) const {
    if (id == kNoNode) return 0;
    const Entry& e = at(id);
    return e.type == YamlType::kMap || e.type == YamlType::kSeq ? e.text_size : 0;
  }
  // duplicate_keys: map `id` has a scalar key given twice (checked once, when it was recorded;
  // decoders then look for the repeated entries only in such maps).
  [[nodiscard]] bool duplicate_keys(NodeId id) const {
    return id != kNoNode && at(id).duplicate_keys;
  }
  // any_duplicate_keys: some map of this tape has duplicate_keys (else no walk can find a
  // repeated key). O(1).
  [[nodiscard]] bool any_duplicate_keys() const { return any_duplicate_keys_; }
  // node_count: every NodeId of this tape (kNoNode aside) is below it.
  [[nodiscard]] size_t node_count() const { return entries_.size() + extra_.size(); }
  // serial: a number no other tape of this process has (0 for an empty one), to tell tapes apart
  // (a new tape may live where an old one did).
  [[nodiscard]] uint64_t serial() const { return serial_; }
  // deferred: node `id` stands for a JSON value not parsed yet (an item of a JSON `List`,
  // codec/json_events.h); only the loader sees such nodes, and parses deferred_text() itself.
  // A deferred node reads as an empty map.
  [[nodiscard]] bool deferred(NodeId id) const { return id != kNoNode && at(id).deferred; }
  [[nodiscard]] std::string_view deferred_text(NodeId id) const {
    return source_.substr(at(id).text_offset, at(id).target);
  }
  // set_source: the text deferred nodes are ranges of (it must outlive the tape).
  void set_source(std::string_view source) { source_ = source; }
  // NodeIndex: a dense index below node_count() for `id` (for per-node bit sets).
  [[nodiscard]] size_t NodeIndex(NodeId id) const {
    return (id & kExtraBit) != 0 ? entries_.size() + (id & ~kExtraBit) : id;
  }

  // Iteration over a collection's children, in document order; nothing for other kinds.
  class Children;
  // Items: a sequence's items. Entries: a map's pairs (keys and values resolved).
  [[nodiscard]] Children Items(NodeId seq) const;
  [[nodiscard]] Children Entries(NodeId map) const;

 private:
  friend class TapeBuilder;
  static constexpr uint32_t kExtraBit = 0x80000000u;

  // Entry: 20 bytes. Collections use text_size for their child count (entries of a map) and
  // `end` for the index after their subtree; an alias (is_alias) refers to `target`; a deferred
  // node is the range text_offset, size `target`, of source_; a scalar whose written text
  // differs (written_scalar) keeps it after its text, `target` bytes long (0: none).
  struct Entry {
    uint32_t text_offset = 0;
    uint32_t text_size = 0;
    uint32_t end = 0;
    uint32_t target = 0;
    YamlType type = YamlType::kNull;
    ScalarStyle style = ScalarStyle::kPlain;
    bool is_alias : 1 = false;
    bool deferred : 1 = false;
    bool duplicate_keys : 1 = false;  // maps: some scalar key is given twice
  };

  [[nodiscard]] const Entry& at(NodeId id) const {
    return (id & kExtraBit) != 0 ? extra_[id & ~kExtraBit] : entries_[id];
  }
  // Resolve: the node an entry stands for (the target of an alias, else itself).
  [[nodiscard]] NodeId Resolve(NodeId id) const {
    const Entry& e = at(id);
    return e.is_alias ? e.target : id;
  }
  // Next: the entry after `id`'s subtree in the same region.
  [[nodiscard]] NodeId Next(NodeId id) const {
    return (id & kExtraBit) | at(id).end;
  }

  std::vector<Entry> entries_;  // the document, in order
  std::vector<Entry> extra_;    // maps with merged entries (NodeIds with kExtraBit)
  std::string text_;            // scalar texts
  NodeId root_ = kNoNode;
  bool any_duplicate_keys_ = false;
  uint64_t serial_ = 0;
  std::string_view source_;     // the text of deferred nodes
};

// Children: a forward range over a collection's children: `*it` is a MapEntry (for a sequence,
// `key` is the item and `value` kNoNode). Cheap to copy.
class EventTape::Children {
 public:
  class Iterator {
   public:
    Iterator(const EventTape* tape, NodeId at, size_t left) : tape_(tape), at_(at), left_(left) {}
    // item: the current child (sequences) or key (maps), resolved.
    [[nodiscard]] NodeId item() const { return tape_->Resolve(at_); }
    // value: the current value (maps), resolved.
    [[nodiscard]] NodeId value() const { return tape_->Resolve(tape_->Next(at_)); }
    [[nodiscard]] MapEntry operator*() const { return MapEntry{item(), is_map_ ? value() : kNoNode}; }
    Iterator& operator++() {
      at_ = tape_->Next(at_);
      if (is_map_) at_ = tape_->Next(at_);
      --left_;
      return *this;
    }
    bool operator!=(const Iterator& o) const { return left_ != o.left_; }
    bool operator==(const Iterator& o) const { return left_ == o.left_; }

   private:
    friend class Children;
    const EventTape* tape_;
    NodeId at_;
    size_t left_;
    bool is_map_ = false;
  };

  Children(const EventTape* tape, NodeId first, size_t count, bool is_map)
      : tape_(tape), first_(first), count_(count), is_map_(is_map) {}
  [[nodiscard]] Iterator begin() const {
    Iterator it(tape_, first_, count_);
    it.is_map_ = is_map_;
    return it;
  }
  [[nodiscard]] Iterator end() const { return Iterator(tape_, first_, 0); }
  [[nodiscard]] size_t size() const { return count_; }

 private:
  const EventTape* tape_;
  NodeId first_;
  size_t count_;
  bool is_map_;
};

inline EventTape::Children EventTape::Items(NodeId seq) const {
  if (type(seq) != YamlType::kSeq) return Children(this, 0, 0, false);
  return Children(this, seq + 1, at(seq).text_size, false);
}

inline EventTape::Children EventTape::Entries(NodeId map) const {
  if (type(map) != YamlType::kMap) return Children(this, 0, 0, true);
  return Children(this, map + 1, at(map).text_size, true);
}

// TapeBuilder: appends events in document order; each call returns the error that makes the
// document malformed (nesting deeper than kMaxNestingDepth, a scalar longer than
// kMaxScalarBytes, an alias to an unknown or enclosing anchor, a bad merge key, merge keys
// expanding beyond ExpansionBudget of the text; codec/input_limits.h), else nullopt. `anchor`
// is the YAML anchor name of the node ("" for none); `mark` where the event starts.
class TapeBuilder {
 public:
  // text_size: the size of the text the documents come from (the merge-key budget, shared by
  // every document built).
  explicit TapeBuilder(size_t text_size);
  // TapeBuilder(text_size, recycled): the same, building into `recycled`'s buffers (emptied;
  // their capacity is kept), so that the many small documents of a List allocate nothing once
  // the buffers have grown to the largest one.
  TapeBuilder(size_t text_size, EventTape recycled);
  // Restart: the builder starts a new text of `text_size` bytes (a new merge-key budget) on
  // `recycled`'s buffers, as the recycling constructor, and keeps its own scratch buffers (open
  // collections, keys of a map), so that a builder kept for the many items of a List allocates
  // nothing per item once its buffers have grown. Whatever was being built is dropped.
  void Restart(size_t text_size, EventTape recycled);

  // Scalar: `written` is the text as the document wrote it when `text` is its resolved form
  // (EventTape::written_scalar); empty when they are the same.
  [[nodiscard]] std::optional<TapeError> Scalar(std::string_view text, ScalarStyle style,
                                                TapeMark mark, std::string_view anchor,
                                                std::string_view written = {});
  // AtMapKey: the next node appended is the key of a map entry.
  [[nodiscard]] bool AtMapKey() const;
  [[nodiscard]] std::optional<TapeError> Null(TapeMark mark, std::string_view anchor);
  [[nodiscard]] std::optional<TapeError> Alias(TapeMark mark, std::string_view anchor);
  [[nodiscard]] std::optional<TapeError> BeginMap(TapeMark mark, std::string_view anchor);
  [[nodiscard]] std::optional<TapeError> EndMap();
  [[nodiscard]] std::optional<TapeError> BeginSeq(TapeMark mark, std::string_view anchor);
  [[nodiscard]] std::optional<TapeError> EndSeq();
  // Deferred: a JSON value kept as the range [offset, offset + size) of the text (see
  // EventTape::deferred); the tape's source is set by whoever made the ranges.
  [[nodiscard]] std::optional<TapeError> Deferred(size_t offset, size_t size);
  // depth: collections open now.
  [[nodiscard]] size_t depth() const { return frames_.size(); }
  // Finish: the tape of the (complete) document; the builder starts a new document (anchors do
  // not carry over).
  [[nodiscard]] EventTape Finish();

 private:
  // Frame: an open collection (plain data: opening and closing one copies no string).
  struct Frame {
    NodeId start;
    uint32_t children = 0;  // entries appended directly below (keys and values for maps)
    TapeMark mark;
    uint32_t anchor_offset = 0;  // its anchor: anchor_text_[anchor_offset, + anchor_size)
    uint32_t anchor_size = 0;
    uint32_t keys_begin = 0;     // its scalar keys: keys_[keys_begin, end) (maps)
    bool has_merge_key = false;
  };

  NodeId Append(EventTape::Entry entry);
  // Added: bookkeeping after node `id` was completed (parent's child count, anchor, root).
  void Added(NodeId id, std::string_view anchor);
  std::optional<TapeError> Open(YamlType type, TapeMark mark, std::string_view anchor);
  std::optional<TapeError> ExpandMergeKeys(const Frame& frame, NodeId* map);
  // HasDuplicateKeys: some scalar key of map `map` equals an earlier one (a walk of the map's
  // entries; for maps with merge keys). OpenMapHasDuplicateKeys: the same for the map of the
  // top frame, from the keys recorded as they were appended.
  [[nodiscard]] bool HasDuplicateKeys(NodeId map);
  [[nodiscard]] bool OpenMapHasDuplicateKeys(const Frame& frame);
  [[nodiscard]] bool RepeatedKeyPrint(size_t begin);
  // AtKey: the next node appended is the key of an entry of the top frame's map.
  [[nodiscard]] bool AtKey() const {
    return !frames_.empty() && frames_.back().children % 2 == 0 &&
           tape_.type(frames_.back().start) == YamlType::kMap;
  }
  // PushKey: records scalar `key` (a node of the tape) as a key of the top frame's map.
  void PushKey(NodeId key);
  [[nodiscard]] std::string_view AnchorOf(const Frame& frame) const {
    return std::string_view(anchor_text_).substr(frame.anchor_offset, frame.anchor_size);
  }
  [[nodiscard]] bool IsMergeKey(NodeId key) const;

  EventTape tape_;
  std::vector<Frame> frames_;
  // KeyPrint: a map key's length and first bytes, compared before the key's text
  // (tape_.text_[offset, + size)).
  struct KeyPrint {
    uint64_t print;
    uint32_t offset;
    uint32_t size;
  };
  std::vector<KeyPrint> keys_;     // the scalar keys of the open maps, innermost last
  std::string anchor_text_;        // the anchors of the open collections, innermost last
  std::unordered_map<std::string, NodeId> anchors_;
  int64_t merge_budget_;
};

}  // namespace wasched::codec::internal
