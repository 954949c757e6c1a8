// File: codec/event_tape.cc
//
// TapeBuilder: appending events, the limits checked while recording, anchors and aliases, and
// YAML 1.1 merge keys (see event_tape.h).
#include "codec/event_tape.h"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <unordered_set>

#include "codec/input_limits.h"

namespace wasched::codec::internal {

TapeBuilder::TapeBuilder(size_t text_size) : merge_budget_(ExpansionBudget(text_size)) {
  // About one event per 12 bytes of text; capped, so a large document grows the usual way.
  constexpr size_t kMaxReserve = size_t{1} << 16;
  tape_.entries_.reserve(std::min(text_size / 12 + 16, kMaxReserve));
  tape_.text_.reserve(std::min(text_size, kMaxReserve * 16));
}

TapeBuilder::TapeBuilder(size_t text_size, EventTape recycled)
    : merge_budget_(ExpansionBudget(text_size)) {
  Restart(text_size, std::move(recycled));
}

void TapeBuilder::Restart(size_t text_size, EventTape recycled) {
  tape_ = std::move(recycled);
  tape_.entries_.clear();
  tape_.extra_.clear();
  tape_.text_.clear();
  tape_.root_ = kNoNode;
  tape_.any_duplicate_keys_ = false;
  tape_.serial_ = 0;
  tape_.source_ = {};
  if (tape_.entries_.capacity() == 0) {
    constexpr size_t kMaxReserve = size_t{1} << 16;
    tape_.entries_.reserve(std::min(text_size / 12 + 16, kMaxReserve));
    tape_.text_.reserve(std::min(text_size, kMaxReserve * 16));
  }
  frames_.clear();
  keys_.clear();
  anchor_text_.clear();
  anchors_.clear();
  merge_budget_ = ExpansionBudget(text_size);
}

NodeId TapeBuilder::Append(EventTape::Entry entry) {
  const auto id = static_cast<NodeId>(tape_.entries_.size());
  entry.end = id + 1;
  tape_.entries_.push_back(entry);
  return id;
}

void TapeBuilder::Added(NodeId id, std::string_view anchor) {
  if (!anchor.empty()) anchors_.insert_or_assign(std::string(anchor), id);
  if (frames_.empty()) {
    tape_.root_ = id;
    return;
  }
  Frame& parent = frames_.back();
  ++parent.children;
}

bool TapeBuilder::IsMergeKey(NodeId key) const {
  return tape_.type(key) == YamlType::kScalar && tape_.style(key) == ScalarStyle::kPlain &&
         tape_.scalar(key) == "<<";
}

bool TapeBuilder::AtMapKey() const { return AtKey(); }

void TapeBuilder::PushKey(NodeId key) {
  const std::string_view k = tape_.scalar(key);
  // The length and up to 7 first bytes: two keys with different prints differ.
  uint64_t print = 0;
  std::memcpy(&print, k.data(), std::min<size_t>(k.size(), 7));
  print = (print << 8) ^ static_cast<uint64_t>(k.size());
  keys_.push_back(KeyPrint{print, static_cast<uint32_t>(k.data() - tape_.text_.data()),
                           static_cast<uint32_t>(k.size())});
}

std::optional<TapeError> TapeBuilder::Scalar(std::string_view text, ScalarStyle style,
                                             TapeMark mark, std::string_view anchor,
                                             std::string_view written) {
  if (text.size() > kMaxScalarBytes) {
    return TapeError{mark, fmt::format("a value of {} bytes is longer than the limit of {} bytes",
                                       text.size(), kMaxScalarBytes)};
  }
  // Written in place (an Entry built aside and copied in was a store-forwarding stall on the
  // hottest path of a large List: one scalar per 12 bytes of text).
  const auto id = static_cast<NodeId>(tape_.entries_.size());
  EventTape::Entry& e = tape_.entries_.emplace_back();
  e.type = YamlType::kScalar;
  e.style = style;
  e.end = id + 1;
  e.text_offset = static_cast<uint32_t>(tape_.text_.size());
  e.text_size = static_cast<uint32_t>(text.size());
  tape_.text_.append(text);
  if (!written.empty() && written != text && written.size() <= kMaxScalarBytes) {
    e.target = static_cast<uint32_t>(written.size());
    tape_.text_.append(written);
  }
  if (AtKey()) {
    PushKey(id);
    // A plain `<<` in key position of a map: the map has merge keys to expand when it ends.
    if (IsMergeKey(id)) frames_.back().has_merge_key = true;
  }
  Added(id, anchor);
  return std::nullopt;
}

std::optional<TapeError> TapeBuilder::Null(TapeMark, std::string_view anchor) {
  Added(Append(EventTape::Entry{}), anchor);
  return std::nullopt;
}

std::optional<TapeError> TapeBuilder::Alias(TapeMark mark, std::string_view anchor) {
  const auto it = anchors_.find(std::string(anchor));
  if (it == anchors_.end()) {
    for (const Frame& f : frames_) {
      if (AnchorOf(f) == anchor) {
        return TapeError{mark, "alias to an unknown or enclosing anchor"};
      }
    }
    return TapeError{mark, "the referenced anchor is not defined"};
  }
  EventTape::Entry e;
  e.is_alias = true;
  e.target = it->second;
  const NodeId id = Append(e);
  if (AtKey()) {
    if (tape_.type(it->second) == YamlType::kScalar) PushKey(it->second);
    if (IsMergeKey(it->second)) frames_.back().has_merge_key = true;
  }
  Added(id, "");
  return std::nullopt;
}

std::optional<TapeError> TapeBuilder::Open(YamlType type, TapeMark mark,
                                           std::string_view anchor) {
  if (static_cast<int>(frames_.size()) >= kMaxNestingDepth) {
    return TapeError{mark,
                     fmt::format("maps and lists nested deeper than {} levels", kMaxNestingDepth)};
  }
  EventTape::Entry e;
  e.type = type;
  const NodeId id = Append(e);
  frames_.push_back(Frame{id, 0, mark, static_cast<uint32_t>(anchor_text_.size()),
                          static_cast<uint32_t>(anchor.size()),
                          static_cast<uint32_t>(keys_.size()), false});
  anchor_text_.append(anchor);
  return std::nullopt;
}

std::optional<TapeError> TapeBuilder::BeginMap(TapeMark mark, std::string_view anchor) {
  return Open(YamlType::kMap, mark, anchor);
}

std::optional<TapeError> TapeBuilder::BeginSeq(TapeMark mark, std::string_view anchor) {
  return Open(YamlType::kSeq, mark, anchor);
}

std::optional<TapeError> TapeBuilder::EndMap() {
  const Frame frame = frames_.back();
  frames_.pop_back();
  EventTape::Entry& e = tape_.entries_[frame.start];
  e.end = static_cast<uint32_t>(tape_.entries_.size());
  e.text_size = frame.children / 2;
  NodeId id = frame.start;
  if (frame.has_merge_key) {
    if (auto error = ExpandMergeKeys(frame, &id)) return error;
  }
  // A merged map's keys are the expansion's: walked; else the keys recorded on the way.
  if (frame.has_merge_key ? HasDuplicateKeys(id) : OpenMapHasDuplicateKeys(frame)) {
    ((id & EventTape::kExtraBit) != 0 ? tape_.extra_[id & ~EventTape::kExtraBit]
                                      : tape_.entries_[id])
        .duplicate_keys = true;
    tape_.any_duplicate_keys_ = true;
  }
  keys_.resize(frame.keys_begin);
  // The anchor is registered before its text is dropped (Added copies it).
  Added(id, AnchorOf(frame));
  anchor_text_.resize(frame.anchor_offset);
  return std::nullopt;
}

std::optional<TapeError> TapeBuilder::EndSeq() {
  const Frame frame = frames_.back();
  frames_.pop_back();
  EventTape::Entry& e = tape_.entries_[frame.start];
  e.end = static_cast<uint32_t>(tape_.entries_.size());
  e.text_size = frame.children;
  keys_.resize(frame.keys_begin);
  Added(frame.start, AnchorOf(frame));
  anchor_text_.resize(frame.anchor_offset);
  return std::nullopt;
}

bool TapeBuilder::HasDuplicateKeys(NodeId map) {
  const size_t begin = keys_.size();
  for (const MapEntry e : tape_.Entries(map)) {
    if (tape_.type(e.key) == YamlType::kScalar) PushKey(e.key);
  }
  const bool repeated = RepeatedKeyPrint(begin);
  keys_.resize(begin);
  return repeated;
}

bool TapeBuilder::OpenMapHasDuplicateKeys(const Frame& frame) {
  return RepeatedKeyPrint(frame.keys_begin);
}

// RepeatedKeyPrint: two of keys_[begin, end) have the same text.
bool TapeBuilder::RepeatedKeyPrint(size_t begin) {
  const size_t n = keys_.size() - begin;
  if (n < 2) return false;
  const KeyPrint* k = keys_.data() + begin;
  const auto text = [&](const KeyPrint& p) {
    return std::string_view(tape_.text_).substr(p.offset, p.size);
  };
  if (n <= 16) {
    for (size_t i = 1; i < n; ++i) {
      for (size_t j = 0; j < i; ++j) {
        if (k[i].print == k[j].print && text(k[i]) == text(k[j])) return true;
      }
    }
    return false;
  }
  std::unordered_set<std::string_view> seen;
  seen.reserve(n);
  for (size_t i = 0; i < n; ++i) {
    if (!seen.insert(text(k[i])).second) return true;
  }
  return false;
}

// ExpandMergeKeys: YAML 1.1 merge keys (`<<: *base` or `<<: [*a, *b]`), which Kubernetes' YAML
// decoder (sigs.k8s.io/yaml → go-yaml) expands: the pairs of the merged maps whose keys the map
// does not set itself come after the map's own pairs (earlier sources win), and the `<<` pairs
// are dropped. The expanded map is recorded apart (EventTape::extra_) as references to the
// existing keys and values, nothing is copied, and the map's own entry becomes a reference to it.
std::optional<TapeError> TapeBuilder::ExpandMergeKeys(const Frame& frame, NodeId* map) {
  const EventTape& t = tape_;
  std::vector<MapEntry> own;
  std::vector<NodeId> sources;
  const std::string kNeedsMaps = "merge key \"<<\" needs a map or a list of maps";
  for (const MapEntry e : t.Entries(frame.start)) {
    if (!IsMergeKey(e.key)) {
      own.push_back(e);
      continue;
    }
    if (t.type(e.value) == YamlType::kMap) {
      sources.push_back(e.value);
    } else if (t.type(e.value) == YamlType::kSeq) {
      for (auto it = t.Items(e.value).begin(); it != t.Items(e.value).end(); ++it) {
        if (t.type(it.item()) != YamlType::kMap) return TapeError{frame.mark, kNeedsMaps};
        sources.push_back(it.item());
      }
    } else {
      return TapeError{frame.mark, kNeedsMaps};
    }
  }
  // Scalar keys already in the map, hashed: O(entries) per map, not O(entries²).
  std::unordered_set<std::string_view> keys;
  std::vector<MapEntry> merged = own;
  for (const MapEntry& e : own) {
    if (t.type(e.key) == YamlType::kScalar) keys.insert(t.scalar(e.key));
  }
  for (const NodeId src : sources) {
    // Every merged entry is a copy of a reference: bounded like decoders' alias visits, so
    // maps merging maps that merge maps cannot grow the document quadratically.
    merge_budget_ -= static_cast<int64_t>(t.size(src));
    if (merge_budget_ < 0) {
      return TapeError{frame.mark, "merge keys (\"<<\") expand to too many entries"};
    }
    for (const MapEntry e : t.Entries(src)) {
      if (t.type(e.key) == YamlType::kScalar && !keys.insert(t.scalar(e.key)).second) continue;
      merged.push_back(e);
    }
  }
  std::vector<EventTape::Entry>& extra = tape_.extra_;
  const auto start = static_cast<uint32_t>(extra.size());
  EventTape::Entry head;
  head.type = YamlType::kMap;
  head.text_size = static_cast<uint32_t>(merged.size());
  head.end = start + 1 + 2 * head.text_size;
  extra.push_back(head);
  for (const MapEntry& e : merged) {
    for (const NodeId target : {e.key, e.value}) {
      EventTape::Entry ref;
      ref.is_alias = true;
      ref.target = target;
      ref.end = static_cast<uint32_t>(extra.size()) + 1;
      extra.push_back(ref);
    }
  }
  const NodeId expanded = EventTape::kExtraBit | start;
  EventTape::Entry& original = tape_.entries_[frame.start];
  original.is_alias = true;
  original.target = expanded;
  *map = expanded;
  return std::nullopt;
}

std::optional<TapeError> TapeBuilder::Deferred(size_t offset, size_t size) {
  EventTape::Entry e;
  e.type = YamlType::kMap;
  e.deferred = true;
  e.text_offset = static_cast<uint32_t>(offset);
  e.target = static_cast<uint32_t>(size);
  Added(Append(e), "");
  return std::nullopt;
}

EventTape TapeBuilder::Finish() {
  static std::atomic<uint64_t> serials{0};
  tape_.serial_ = ++serials;
  EventTape out = std::move(tape_);
  tape_ = EventTape();
  frames_.clear();
  keys_.clear();
  anchor_text_.clear();
  anchors_.clear();
  return out;  // the merge budget spans every document of the text (one TapeBuilder per text)
}

}  // namespace wasched::codec::internal
