// File: codec/yaml_reader.cc
//
// Reader / Diagnostics: core-schema scalar resolution, typed reads with TypeInvalid errors, and
// field-path construction (built only when a message needs it).
#include "codec/yaml_reader.h"

#include <limits>

#include <fmt/format.h>

#include "util/field_value.h"

namespace wasched::codec::internal {
namespace {

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

bool AllDigits(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s) {
    if (!IsDigit(c)) return false;
  }
  return true;
}

// IsCoreFloat: [-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?
bool IsCoreFloat(std::string_view s) {
  if (!s.empty() && (s[0] == '+' || s[0] == '-')) s.remove_prefix(1);
  size_t i = 0;
  size_t int_digits = 0;
  while (i < s.size() && IsDigit(s[i])) ++i, ++int_digits;
  size_t frac_digits = 0;
  if (i < s.size() && s[i] == '.') {
    ++i;
    while (i < s.size() && IsDigit(s[i])) ++i, ++frac_digits;
  }
  if (int_digits == 0 && frac_digits == 0) return false;
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
    if (!AllDigits(s.substr(i))) return false;
    return true;
  }
  return i == s.size();
}

// Describe: `string "abc"`, `integer 5`, `object`, … for type errors.
std::string Describe(std::string_view scalar, ValueKind kind) {
  switch (kind) {
    case ValueKind::kMap:
    case ValueKind::kList:
    case ValueKind::kNull:
      return ValueKindName(kind);
    case ValueKind::kString:
      return fmt::format("string {}", QuoteValue(scalar));
    default:
      return fmt::format("{} {}", ValueKindName(kind), scalar);
  }
}

}  // namespace

ValueKind ClassifyPlainScalar(std::string_view s) {
  if (s.empty() || s == "~" || s == "null" || s == "Null" || s == "NULL") return ValueKind::kNull;
  if (s == "true" || s == "True" || s == "TRUE" || s == "false" || s == "False" || s == "FALSE") {
    return ValueKind::kBool;
  }
  std::string_view unsigned_part = s;
  if (s[0] == '+' || s[0] == '-') unsigned_part.remove_prefix(1);
  if (AllDigits(unsigned_part)) return ValueKind::kInteger;
  if (IsCoreFloat(s)) return ValueKind::kFloat;
  if (unsigned_part == ".inf" || unsigned_part == ".Inf" || unsigned_part == ".INF" ||
      s == ".nan" || s == ".NaN" || s == ".NAN") {
    return ValueKind::kFloat;
  }
  return ValueKind::kString;
}

bool PlainReadsAsString(std::string_view s) {
  if (ClassifyPlainScalar(s) != ValueKind::kString) return false;
  // YAML 1.1 booleans and the merge key (the 1.2 core ones are classified above).
  constexpr std::string_view kYaml11Words[] = {"y",  "Y",   "yes", "Yes", "YES", "n",
                                               "N",  "no",  "No",  "NO",  "on",  "On",
                                               "ON", "off", "Off", "OFF", "<<"};
  for (std::string_view w : kYaml11Words) {
    if (s == w) return false;
  }
  std::string_view u = s;
  if (!u.empty() && (u[0] == '+' || u[0] == '-')) u.remove_prefix(1);
  if (u.empty()) return true;
  // 0x / 0o / 0b integers (1.2 core, 1.1), with 1.1's `_` separators.
  if (u.size() > 2 && u[0] == '0' && (u[1] == 'x' || u[1] == 'X' || u[1] == 'o' || u[1] == 'b')) {
    bool all = true;
    for (char c : u.substr(2)) {
      all = all && (IsDigit(c) || c == '_' || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'));
    }
    if (all) return false;
  }
  // Anything made of digits and number punctuation that starts like a number: 1.1 integers and
  // floats with `_`, sexagesimal 1:30, 1e3, 1.2.3, and dates / timestamps (2024-01-01, with
  // `T`, `Z`, spaces or a zone after the date).
  if (IsDigit(u[0]) || u[0] == '.') {
    bool numeric = true;
    bool has_digit = false;
    for (char c : u) {
      has_digit = has_digit || IsDigit(c);
      numeric = numeric && (IsDigit(c) || c == '_' || c == '.' || c == ':' || c == 'e' ||
                            c == 'E' || c == '+' || c == '-');
    }
    if (numeric && has_digit) return false;
    if (u.size() >= 5 && AllDigits(u.substr(0, 4)) && u[4] == '-') return false;
  }
  return true;
}

ValueKind Classify(const EventTape& tape, NodeId id) {
  switch (tape.type(id)) {
    case YamlType::kNull: return ValueKind::kNull;
    case YamlType::kMap: return ValueKind::kMap;
    case YamlType::kSeq: return ValueKind::kList;
    case YamlType::kScalar: break;
  }
  if (tape.style(id) == ScalarStyle::kString) return ValueKind::kString;
  return ClassifyPlainScalar(tape.scalar(id));
}

const char* ValueKindName(ValueKind kind) {
  switch (kind) {
    case ValueKind::kNull: return "null";
    case ValueKind::kString: return "string";
    case ValueKind::kInteger: return "integer";
    case ValueKind::kFloat: return "number";
    case ValueKind::kBool: return "boolean";
    case ValueKind::kMap: return "object";
    case ValueKind::kList: return "list";
  }
  return "value";
}

std::string QuoteValue(std::string_view value) { return QuoteString(value); }

bool Diagnostics::Spend() {
  if (budget_ > 0) {
    --budget_;
    return true;
  }
  exhausted_ = true;
  return false;
}

bool Diagnostics::FirstExhaustion() {
  if (!exhausted_ || exhaustion_reported_) return false;
  exhaustion_reported_ = true;
  return true;
}

bool Reader::SpendVisit() const {
  if (diag_->Spend()) return true;
  if (diag_->FirstExhaustion()) {
    Error(FieldErrorType::kTooMany, "",
          "document expands to too many nodes (YAML aliases?; see README \"Input limits\")");
  }
  return false;
}

bool Diagnostics::NodeBits::Set(const EventTape& t, NodeId id) {
  if (id == kNoNode) return false;
  if (serial != t.serial() || bits.size() != t.node_count()) {
    serial = t.serial();
    bits.assign(t.node_count(), false);
  }
  const size_t index = t.NodeIndex(id);
  if (index >= bits.size() || bits[index]) return false;
  bits[index] = true;
  return true;
}

bool Diagnostics::FirstWalk(const EventTape& tape, NodeId id) { return walked_.Set(tape, id); }

bool Diagnostics::FirstVisit(const EventTape& tape, NodeId id) { return visited_.Set(tape, id); }

bool MapKeyIndex::IsRepeated(size_t ordinal, NodeId key_node) {
  if (!tape_.duplicate_keys(map_) || tape_.type(key_node) != YamlType::kScalar) return false;
  const std::string_view key = tape_.scalar(key_node);
  if (tape_.size(map_) < kIndexFrom) {
    size_t j = 0;
    for (const MapEntry e : tape_.Entries(map_)) {
      if (j++ == ordinal) break;
      if (tape_.type(e.key) == YamlType::kScalar && tape_.scalar(e.key) == key) return true;
    }
    return false;
  }
  if (first_.empty()) {
    first_.reserve(tape_.size(map_));
    size_t j = 0;
    for (const MapEntry e : tape_.Entries(map_)) {
      if (tape_.type(e.key) == YamlType::kScalar) first_.try_emplace(tape_.scalar(e.key), j);
      ++j;
    }
  }
  return first_.at(key) < ordinal;
}

Reader::Reader(const EventTape& tape, NodeId node, std::string prefix, Diagnostics* diag)
    : tape_(&tape), node_(node), prefix_(std::move(prefix)), diag_(diag) {}

Reader::Reader(NodeId node, const Reader* parent, Segment segment, std::string_view name,
               size_t index)
    : tape_(parent->tape_), node_(node), parent_(parent), segment_(segment), name_(name),
      index_(index), diag_(parent->diag_) {}

void Reader::AppendPath(std::string* out) const {
  switch (segment_) {
    case Segment::kRoot:
      out->append(prefix_);
      return;
    case Segment::kField:
      parent_->AppendPath(out);
      if (!out->empty()) out->push_back('.');
      out->append(name_);
      return;
    case Segment::kIndex:
      parent_->AppendPath(out);
      out->append(fmt::format("[{}]", index_));
      return;
    case Segment::kKey:
      parent_->AppendPath(out);
      out->push_back('[');
      out->append(name_);
      out->push_back(']');
      return;
  }
}

std::string Reader::Path() const {
  std::string out;
  AppendPath(&out);
  return out;
}

std::string Reader::ChildPath(std::string_view field) const {
  std::string out = Path();
  if (!out.empty()) out.push_back('.');
  out.append(field);
  return out;
}

bool Reader::ExpectKind(ValueKind kind) const {
  const ValueKind actual = Kind();
  if (actual == kind) return true;
  if (actual == ValueKind::kNull) return false;
  TypeError(ValueKindName(kind));
  return false;
}

void Reader::Error(FieldErrorType type, std::string bad_value, std::string detail) const {
  diag_->AddError(FieldError{type, Path(), std::move(bad_value), std::move(detail), ""});
}

void Reader::TypeError(std::string_view expected) const {
  Error(FieldErrorType::kTypeInvalid, "",
        fmt::format("expected {}, got {}", expected,
                    Describe(tape_->written_scalar(node_), Kind())));
}

void Reader::ReportDuplicateKey() const {
  switch (diag_->field_validation()) {
    case FieldValidation::kStrict:
      Error(FieldErrorType::kDuplicate, "", "mapping key already defined");
      return;
    case FieldValidation::kWarn:
      Warn(fmt::format("duplicate field \"{}\"", Path()));
      return;
    case FieldValidation::kIgnore:
      return;
  }
}

void Reader::ReportDuplicateKeysBelow() const {
  // Only maps the tape flagged can hold a repeated key: without any, there is nothing to walk
  // for (a List item of a JSON dump is one such tape).
  if (!tape_->any_duplicate_keys()) return;
  if (!diag_->FirstVisit(*tape_, node_)) return;
  switch (tape_->type(node_)) {
    case YamlType::kMap: {
      const bool report = diag_->FirstWalk(*tape_, node_);
      MapKeyIndex keys(*tape_, node_);
      size_t ordinal = 0;
      for (const MapEntry e : tape_->Entries(node_)) {
        const size_t i = ordinal++;
        const Reader child(e.value, this, Segment::kField, tape_->scalar(e.key), 0);
        if (keys.IsRepeated(i, e.key)) {
          if (report) child.ReportDuplicateKey();
          continue;
        }
        child.ReportDuplicateKeysBelow();
      }
      return;
    }
    case YamlType::kSeq: {
      size_t index = 0;
      for (const MapEntry e : tape_->Items(node_)) {
        const Reader child(e.key, this, Segment::kIndex, {}, index++);
        child.ReportDuplicateKeysBelow();
      }
      return;
    }
    default:
      return;
  }
}

void Reader::Warn(std::string message) const { diag_->AddWarning(std::move(message)); }

void Reader::WarnUnknownField() const {
  switch (diag_->field_validation()) {
    case FieldValidation::kStrict:
      // kubectl's (and the API server's strict decoding's) wording: `unknown field "<path>"`.
      Error(FieldErrorType::kUnknownField, "", "");
      return;
    case FieldValidation::kWarn:
      Warn(fmt::format("unknown field \"{}\"", Path()));
      return;
    case FieldValidation::kIgnore:
      return;
  }
}

void Reader::WarnUnsupportedField() const {
  Warn(fmt::format("field \"{}\" is not supported by wasched and is ignored", Path()));
}

void Reader::Read(std::string* out) const {
  const ValueKind kind = Kind();
  if (kind == ValueKind::kNull) return;
  if (kind != ValueKind::kString) {
    TypeError("string");
    return;
  }
  *out = Scalar();
}

void Reader::Read(std::optional<std::string>* out) const {
  if (IsNull()) return;
  std::string value;
  Read(&value);
  if (Kind() == ValueKind::kString) *out = std::move(value);
}

void Reader::Read(bool* out) const {
  const ValueKind kind = Kind();
  if (kind == ValueKind::kNull) return;
  if (kind != ValueKind::kBool) {
    TypeError("boolean");
    return;
  }
  const char first = Scalar()[0];
  *out = first == 't' || first == 'T';
}

std::optional<int64_t> Reader::ReadInteger(int64_t min, int64_t max,
                                           std::string_view type_name) const {
  const ValueKind kind = Kind();
  if (kind == ValueKind::kNull) return std::nullopt;
  if (kind != ValueKind::kInteger) {
    TypeError("integer");
    return std::nullopt;
  }
  std::string_view text = Scalar();
  bool negative = false;
  if (text[0] == '+' || text[0] == '-') {
    negative = text[0] == '-';
    text.remove_prefix(1);
  }
  __int128 value = 0;
  for (char c : text) {
    value = value * 10 + (c - '0');
    if (value > static_cast<__int128>(std::numeric_limits<int64_t>::max()) + 1) break;
  }
  if (negative) value = -value;
  if (value < min || value > max) {
    Error(FieldErrorType::kTypeInvalid, "",
          fmt::format("expected {}, got integer {} (out of range)", type_name, Scalar()));
    return std::nullopt;
  }
  return static_cast<int64_t>(value);
}

void Reader::Read(int32_t* out) const {
  if (auto v = ReadInteger(std::numeric_limits<int32_t>::min(),
                           std::numeric_limits<int32_t>::max(), "int32")) {
    *out = static_cast<int32_t>(*v);
  }
}

void Reader::Read(std::optional<int32_t>* out) const {
  if (auto v = ReadInteger(std::numeric_limits<int32_t>::min(),
                           std::numeric_limits<int32_t>::max(), "int32")) {
    *out = static_cast<int32_t>(*v);
  }
}

void Reader::Read(int64_t* out) const {
  if (auto v = ReadInteger(std::numeric_limits<int64_t>::min(),
                           std::numeric_limits<int64_t>::max(), "int64")) {
    *out = *v;
  }
}

void Reader::Read(std::optional<int64_t>* out) const {
  if (auto v = ReadInteger(std::numeric_limits<int64_t>::min(),
                           std::numeric_limits<int64_t>::max(), "int64")) {
    *out = *v;
  }
}

void Reader::Read(std::map<std::string, std::string>* out) const {
  ForEachEntry([&](std::string_view key, const Reader& value) {
    std::string text;
    value.Read(&text);
    // Keys come sorted in what kubectl and the API server write: then each goes at the end.
    if (out->empty() || std::string_view(out->rbegin()->first) < key) {
      out->emplace_hint(out->end(), std::string(key), std::move(text));
    } else {
      (*out)[std::string(key)] = std::move(text);
    }
  });
}

void Reader::Read(std::vector<std::string>* out) const {
  ForEachItem([&](size_t, const Reader& item) {
    std::string text;
    item.Read(&text);
    out->push_back(std::move(text));
  });
}

std::optional<std::string> Reader::ScalarText() const {
  const ValueKind kind = Kind();
  if (kind == ValueKind::kNull) return std::nullopt;
  if (kind != ValueKind::kString && kind != ValueKind::kInteger && kind != ValueKind::kFloat) {
    TypeError("string or number");
    return std::nullopt;
  }
  return std::string(Scalar());
}

}  // namespace wasched::codec::internal
