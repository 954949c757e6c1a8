// File: codec/yaml_reader.h
//
// The decoding cursor of the codec (internal to codec/): a Reader walks one node of a document's
// EventTape (codec/event_tape.h), knows its field path (`spec.containers[0].resources.requests[cpu]`) and reports into
// a Diagnostics, which collects the errors and warnings of one object in input order. The
// decoders (decode_*.cc) are written against Reader only: they never touch the YAML parsers and
// never throw.
//
//   Diagnostics diag(/*visit_budget=*/text.size());
//   Reader root(tape, tape.root(), /*prefix=*/"", &diag);
//   root.ForEachField([&](std::string_view key, const Reader& f) {
//     if (key == "name") f.Read(&name);
//     else return false;  // Reader warns: unknown field "<path>"
//     return true;
//   });
//
// Scalars resolve as the YAML 1.2 core schema does (plain `5` is an integer, quoted "5" a string,
// plain `true` a boolean, `~`/`null`/empty is null), so types are checked as strictly as
// Kubernetes' JSON decoding checks them after its YAML→JSON step. For YAML input the tape
// already holds that step's result: plain scalars were resolved as YAML 1.1 when parsed
// (codec/yaml11.h: `yes` is recorded as `true`, `0x10` as `16`, a key `on:` as "true"), and
// type errors name the text as written (`expected string, got boolean y`).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "codec/event_tape.h"
#include "codec/load_options.h"
#include "util/field_error.h"

namespace wasched::codec::internal {

// ValueKind: what a YAML node holds after core-schema resolution.
enum class ValueKind { kNull, kString, kInteger, kFloat, kBool, kMap, kList };

// ClassifyPlainScalar: the core-schema type of an unquoted scalar's text: null (`""`, `~`,
// `null`), bool (`true`/`false` in three casings), integer (`[-+]?[0-9]+`), float (decimal with
// fraction and/or exponent, `.inf`, `.nan`), else string. O(length).
[[nodiscard]] ValueKind ClassifyPlainScalar(std::string_view text);

// PlainReadsAsString: `text`, written as a plain (unquoted) scalar, reads back as that string
// under YAML 1.2's core schema *and* under YAML 1.1's types, which go-yaml v2 (kubectl's
// sigs.k8s.io/yaml) and PyYAML apply: not null, not a boolean (incl. yes / no / on / off / y /
// n), not a number (incl. 0x1f, 0o17, 0b101, 1_000, 1:30, 1e3, .inf), not a timestamp
// (2024-01-01…) and not the merge key `<<`. Conservative: a few strings that would read back
// fine are reported false (then writers quote them). O(length).
[[nodiscard]] bool PlainReadsAsString(std::string_view text);

// Classify: the kind of node `id` of `tape`: quoted / block scalars and `!!str` are strings;
// plain scalars per ClassifyPlainScalar; kNoNode (absent) is null. O(length of a scalar).
[[nodiscard]] ValueKind Classify(const EventTape& tape, NodeId id);

// ValueKindName: "null", "string", "integer", "number", "boolean", "object", "list".
[[nodiscard]] const char* ValueKindName(ValueKind kind);

// Diagnostics: errors and warnings of one decoded object (or one document), in the order found.
// Warning texts are relative to the object (e.g. `unknown field "spec.foo"`); the loader prefixes
// file, document and object. `visit_budget` bounds the number of nodes decoders may visit, so
// that YAML aliases cannot make decoding exponential ("billion laughs"): when it runs out, one
// error is recorded and every further ForEach* stops.
class Diagnostics {
 public:
  // `field_validation`: what Reader makes of an unknown field or a repeated key (an error, a
  // warning or nothing; codec/load_options.h).
  explicit Diagnostics(int64_t visit_budget,
                       FieldValidation field_validation = FieldValidation::kStrict)
      : budget_(visit_budget), field_validation_(field_validation) {}

  [[nodiscard]] FieldValidation field_validation() const { return field_validation_; }

  void AddError(FieldError error) { errors_.push_back(std::move(error)); }
  void AddWarning(std::string message) { warnings_.push_back(std::move(message)); }

  // Spend: consumes one node visit; false when the budget is gone. The first false also makes
  // FirstExhaustion() true once, so the caller can record one error at its own path.
  [[nodiscard]] bool Spend();
  [[nodiscard]] bool FirstExhaustion();

  // FirstWalk: true the first time map node `id` of `tape` is walked (its duplicate keys are
  // reported then, once, however often decoders walk it again). O(1) amortized.
  [[nodiscard]] bool FirstWalk(const EventTape& tape, NodeId id);
  // FirstVisit: true the first time node `id` of `tape` is visited by
  // Reader::ReportDuplicateKeysBelow (one set for every object of a `List`: sized once per
  // tape, not once per object). O(1) amortized.
  [[nodiscard]] bool FirstVisit(const EventTape& tape, NodeId id);

  [[nodiscard]] bool has_errors() const { return !errors_.empty(); }
  [[nodiscard]] std::vector<FieldError>& errors() { return errors_; }
  [[nodiscard]] std::vector<std::string>& warnings() { return warnings_; }

 private:
  int64_t budget_;
  FieldValidation field_validation_;
  bool exhausted_ = false;
  bool exhaustion_reported_ = false;
  // Per-node bits of the tape they were sized for (EventTape::NodeIndex); a new tape resets them.
  struct NodeBits {
    uint64_t serial = 0;
    std::vector<bool> bits;
    bool Set(const EventTape& t, NodeId id);
  };
  NodeBits walked_;
  NodeBits visited_;
  std::vector<FieldError> errors_;
  std::vector<std::string> warnings_;
};

// MapKeyIndex: finds repeated keys in one map. Small maps are scanned; from kIndexFrom entries
// on, an index of first occurrences is built on the first question.
class MapKeyIndex {
 public:
  MapKeyIndex(const EventTape& tape, NodeId map) : tape_(tape), map_(map) {}
  // IsRepeated: the key of entry number `ordinal` (`key`, a scalar) equals the text of the
  // scalar key of an earlier entry. O(1) in a map without repeated keys (EventTape::
  // duplicate_keys), else O(ordinal) below kIndexFrom entries and O(1) amortized above.
  [[nodiscard]] bool IsRepeated(size_t ordinal, NodeId key);

 private:
  static constexpr size_t kIndexFrom = 16;
  const EventTape& tape_;
  NodeId map_;
  std::unordered_map<std::string_view, size_t> first_;  // key text → first entry ordinal
};

// Reader: a cursor on one node. Children are created by the ForEach* walkers and refer to their
// parent, so a Reader must not outlive the walk that produced it (they are stack values).
// All Read* methods leave the output unchanged when the node is null/absent and report a
// TypeInvalid error (detail `expected integer, got string "abc"`) when the type is wrong.
class Reader {
 public:
  // Reader: a root cursor on node `node` of `tape` (kNoNode = absent); `prefix` is the path of
  // the node itself ("" for a document, "items[3]" for an item of a List). `tape` and `diag`
  // must outlive the Reader.
  Reader(const EventTape& tape, NodeId node, std::string prefix, Diagnostics* diag);

  Reader(const Reader&) = delete;
  Reader& operator=(const Reader&) = delete;

  [[nodiscard]] Diagnostics* diagnostics() const { return diag_; }

  // Path: the field path of this node, e.g. `spec.containers[0].name`. O(depth).
  [[nodiscard]] std::string Path() const;
  // ChildPath: Path() + "." + field (without creating the child).
  [[nodiscard]] std::string ChildPath(std::string_view field) const;

  [[nodiscard]] ValueKind Kind() const { return Classify(*tape_, node_); }
  [[nodiscard]] bool IsNull() const { return Kind() == ValueKind::kNull; }
  // IsPresent: the field exists in the input (possibly with a null value).
  [[nodiscard]] bool IsPresent() const { return node_ != kNoNode; }
  // IsDeferred / DeferredText: an item of a JSON List not parsed yet (EventTape::deferred).
  [[nodiscard]] bool IsDeferred() const { return tape_->deferred(node_); }
  [[nodiscard]] std::string_view DeferredText() const { return tape_->deferred_text(node_); }
  // Scalar: the text of a scalar node ("" otherwise).
  [[nodiscard]] std::string_view Scalar() const { return tape_->scalar(node_); }

  // ForEachField: walks a map whose keys are field names. `fn(std::string_view key,
  // const Reader& value) -> bool` returns false for a field it does not know, which is then
  // reported as `unknown field "<path>"` (an error, a warning or nothing: WarnUnknownField).
  // Null = no fields; a non-map is a TypeInvalid error. O(fields).
  //
  // A key given twice (`cpu: 1` and `cpu: 2` in one map) is, as for kubectl and the API server's
  // strict decoding, an error: Duplicate at the repeated key's path, detail `mapping key already
  // defined`, reported once per map however often it is walked (a warning or nothing under
  // FieldValidation kWarn / kIgnore); the repeated entry is skipped (the first one is read). The
  // same holds for ForEachEntry.
  template <typename Fn>
  void ForEachField(Fn&& fn) const {
    if (!ExpectKind(ValueKind::kMap)) return;
    // Only a map with a repeated key has anything to report (MapKeyIndex::IsRepeated).
    const bool report = tape_->duplicate_keys(node_) && diag_->FirstWalk(*tape_, node_);
    MapKeyIndex keys(*tape_, node_);
    size_t ordinal = 0;
    for (const MapEntry e : tape_->Entries(node_)) {
      const size_t i = ordinal++;
      if (!SpendVisit()) return;
      if (tape_->type(e.key) != YamlType::kScalar) {
        Error(FieldErrorType::kTypeInvalid, "", "field names must be strings");
        continue;
      }
      const std::string_view key = tape_->scalar(e.key);
      const Reader child(e.value, this, Segment::kField, key, 0);
      if (keys.IsRepeated(i, e.key)) {
        if (report) child.ReportDuplicateKey();
        continue;
      }
      if (!fn(key, child)) child.WarnUnknownField();
    }
  }

  // PeekFields: ForEachField for a first look at a few fields (the loader reads apiVersion and
  // kind before it knows the decoder): nothing about the map itself is reported (no unknown
  // fields, no duplicate keys: the decoder's own walk reports them), repeated keys are skipped.
  // `fn(std::string_view key, const Reader& value)`. O(fields).
  template <typename Fn>
  void PeekFields(Fn&& fn) const {
    if (Kind() != ValueKind::kMap) return;
    MapKeyIndex keys(*tape_, node_);
    size_t ordinal = 0;
    for (const MapEntry e : tape_->Entries(node_)) {
      const size_t i = ordinal++;
      if (tape_->type(e.key) != YamlType::kScalar || keys.IsRepeated(i, e.key)) continue;
      const std::string_view key = tape_->scalar(e.key);
      const Reader child(e.value, this, Segment::kField, key, 0);
      fn(key, child);
    }
  }

  // ForEachEntry: walks a map with free-form keys (labels, resource lists); children's paths are
  // `<path>[<key>]`. `fn(std::string_view key, const Reader& value)` (the key lives as long as
  // the tape). O(entries).
  template <typename Fn>
  void ForEachEntry(Fn&& fn) const {
    if (!ExpectKind(ValueKind::kMap)) return;
    // Only a map with a repeated key has anything to report (MapKeyIndex::IsRepeated).
    const bool report = tape_->duplicate_keys(node_) && diag_->FirstWalk(*tape_, node_);
    MapKeyIndex keys(*tape_, node_);
    size_t ordinal = 0;
    for (const MapEntry e : tape_->Entries(node_)) {
      const size_t i = ordinal++;
      if (!SpendVisit()) return;
      if (tape_->type(e.key) != YamlType::kScalar) {
        Error(FieldErrorType::kTypeInvalid, "", "map keys must be strings");
        continue;
      }
      const std::string_view key = tape_->scalar(e.key);
      const Reader child(e.value, this, Segment::kKey, key, 0);
      if (keys.IsRepeated(i, e.key)) {
        if (report) child.ReportDuplicateKey();
        continue;
      }
      fn(key, child);
    }
  }

  // Size: items of a list / entries of a map (0 for other kinds). O(1).
  [[nodiscard]] size_t Size() const { return tape_->size(node_); }

  // ForEachItem: walks a list; children's paths are `<path>[<i>]`. `fn(size_t index,
  // const Reader& item)`. Null = empty list; a non-list is a TypeInvalid error. O(items).
  template <typename Fn>
  void ForEachItem(Fn&& fn) const {
    if (!ExpectKind(ValueKind::kList)) return;
    size_t index = 0;
    for (const MapEntry e : tape_->Items(node_)) {
      if (!SpendVisit()) return;
      const Reader child(e.key, this, Segment::kIndex, {}, index);
      fn(index++, child);
    }
  }

  // ReportDuplicateKeysBelow: reports repeated keys in every map of this subtree that no
  // ForEachField / ForEachEntry walked (fields wasched ignores, like `securityContext`), so that
  // no repeated key goes unnoticed; paths use `.key` for map entries. Call it after decoding.
  // O(nodes of the subtree), each node once per document even when aliases repeat it (a node
  // an earlier object of the same document already visited is skipped: its maps were reported
  // then).
  void ReportDuplicateKeysBelow() const;

  // ExpectKind: true when the node is of `kind`; false silently when null; false with a
  // TypeInvalid error otherwise.
  [[nodiscard]] bool ExpectKind(ValueKind kind) const;

  void Read(std::string* out) const;
  void Read(std::optional<std::string>* out) const;
  void Read(bool* out) const;
  void Read(int32_t* out) const;
  void Read(std::optional<int32_t>* out) const;
  void Read(int64_t* out) const;
  void Read(std::optional<int64_t>* out) const;
  // Read: string → string map (labels, annotations, nodeSelector).
  void Read(std::map<std::string, std::string>* out) const;
  // Read: list of strings (appended to *out).
  void Read(std::vector<std::string>* out) const;

  // ScalarText: the text of a string / integer / float scalar (quantities accept all three, as
  // upstream's Quantity.UnmarshalJSON does); nullopt when null or (with an error) another type.
  [[nodiscard]] std::optional<std::string> ScalarText() const;

  // Error: records an error at this node's path.
  void Error(FieldErrorType type, std::string bad_value, std::string detail) const;
  // SpendVisit: Diagnostics::Spend; when the alias budget runs out, one TooMany error at this
  // node's path (the map or list whose walk went over it).
  [[nodiscard]] bool SpendVisit() const;
  // TypeError: TypeInvalid `expected <expected>, got <kind> <value>`.
  void TypeError(std::string_view expected) const;
  // Warn: records a warning about this object (`message` is complete, path included).
  void Warn(std::string message) const;
  // WarnUnknownField: `unknown field "<path>"`: an UnknownField error under
  // FieldValidation::kStrict, a warning under kWarn, nothing under kIgnore.
  void WarnUnknownField() const;
  // WarnUnsupportedField: `field "<path>" is not supported by wasched and is ignored`.
  void WarnUnsupportedField() const;

 private:
  enum class Segment { kRoot, kField, kIndex, kKey };

  Reader(NodeId node, const Reader* parent, Segment segment, std::string_view name, size_t index);
  void AppendPath(std::string* out) const;
  // ReportDuplicateKey: Duplicate `mapping key already defined` at this node's path under
  // FieldValidation::kStrict, the warning `duplicate field "<path>"` under kWarn, nothing under
  // kIgnore.
  void ReportDuplicateKey() const;
  [[nodiscard]] std::optional<int64_t> ReadInteger(int64_t min, int64_t max,
                                                   std::string_view type_name) const;

  const EventTape* tape_;
  NodeId node_;
  const Reader* parent_ = nullptr;
  Segment segment_ = Segment::kRoot;
  std::string_view name_;  // field name or map key (owned by the document)
  size_t index_ = 0;
  std::string prefix_;     // root only
  Diagnostics* diag_;
};

// QuoteValue: a value rendered as upstream field errors print strings: `"5Xi"` (Go %q style:
// backslash escapes for `"`, `\` and control characters).
[[nodiscard]] std::string QuoteValue(std::string_view value);

}  // namespace wasched::codec::internal
