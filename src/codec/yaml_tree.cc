// File: codec/yaml_tree.cc
//
// YamlTree editing, the copy from an EventTape, and the two writers: YAML through yaml-cpp's Emitter,
// JSON through nlohmann::ordered_json (see yaml_tree.h).
#include "codec/yaml_tree.h"

#include <yaml-cpp/yaml.h>

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <nlohmann/json.hpp>
#include <utility>

#include "codec/yaml_documents.h"

namespace wasched::codec::internal {
namespace {

using Json = nlohmann::ordered_json;

// Copier: TreeFromTape's recursion with a node budget.
class Copier {
 public:
  Copier(const EventTape& tape, int64_t budget) : tape_(tape), budget_(budget) {}

  bool Copy(NodeId id, YamlTree* out) {
    if (--budget_ < 0) return false;
    out->type = tape_.type(id);
    if (out->type == YamlType::kNull) return true;
    if (out->type == YamlType::kScalar) {
      out->style = tape_.style(id);
      out->text = std::string(tape_.scalar(id));
      return true;
    }
    const bool map = out->type == YamlType::kMap;
    const EventTape::Children children = map ? tape_.Entries(id) : tape_.Items(id);
    out->children.reserve(map ? 2 * children.size() : children.size());
    for (const MapEntry e : children) {
      if (!Copy(e.key, &out->children.emplace_back())) return false;
      if (map && !Copy(e.value, &out->children.emplace_back())) return false;
    }
    return true;
  }

 private:
  const EventTape& tape_;
  int64_t budget_;
};

// LiteralSafe: yaml-cpp writes a literal block as `|` with no chomping or indentation indicator,
// which reads back exactly only for text that ends in exactly one newline, does not start with
// a space, tab or newline, and holds printable characters, tabs and newlines only.
bool LiteralSafe(const std::string& s) {
  if (s.size() < 2 || s.back() != '\n' || s[s.size() - 2] == '\n') return false;
  if (s.front() == ' ' || s.front() == '\t' || s.front() == '\n') return false;
  for (const char c : s) {
    const auto u = static_cast<unsigned char>(c);
    if (u < 0x20 && c != '\n' && c != '\t') return false;
    if (u == 0x7f) return false;
  }
  return true;
}

void EmitScalarText(YAML::Emitter& out, const YamlTree& t) {
  const ValueKind plain_kind = ClassifyPlainScalar(t.text);
  if (t.style == ScalarStyle::kPlain) {
    if (plain_kind == ValueKind::kNull) {
      out << YAML::Null;
    } else if (plain_kind == ValueKind::kString && !PlainReadsAsString(t.text)) {
      // Read as a string here, but a YAML 1.1 reader (kubectl) would take plain `yes` or
      // `0x1f` for a boolean or a number: quoted, it stays the string the codec read.
      out << YAML::DoubleQuoted << t.text;
    } else {
      out << t.text;  // numbers, booleans and unambiguous strings stay plain
    }
    return;
  }
  if (!PlainReadsAsString(t.text)) {
    out << YAML::DoubleQuoted << t.text;  // "1", "true", "", "yes", "0x1f" stay strings
  } else if (t.text.find('\n') != std::string::npos && LiteralSafe(t.text)) {
    out << YAML::Literal << t.text;
  } else {
    out << t.text;  // yaml-cpp quotes it when its plain form would not read back
  }
}

void Emit(YAML::Emitter& out, const YamlTree& t) {
  switch (t.type) {
    case YamlType::kNull:
      out << YAML::Null;
      return;
    case YamlType::kScalar:
      EmitScalarText(out, t);
      return;
    case YamlType::kMap:
      if (t.children.empty()) {
        out << YAML::Flow << YAML::BeginMap << YAML::EndMap;
        return;
      }
      out << YAML::BeginMap;
      for (size_t i = 0; i + 1 < t.children.size(); i += 2) {
        out << YAML::Key;
        Emit(out, t.children[i]);
        out << YAML::Value;
        Emit(out, t.children[i + 1]);
      }
      out << YAML::EndMap;
      return;
    case YamlType::kSeq:
      if (t.children.empty()) {
        out << YAML::Flow << YAML::BeginSeq << YAML::EndSeq;
        return;
      }
      out << YAML::BeginSeq;
      for (const YamlTree& item : t.children) Emit(out, item);
      out << YAML::EndSeq;
      return;
  }
}

Json PlainScalarJson(const std::string& text) {
  switch (ClassifyPlainScalar(text)) {
    case ValueKind::kNull:
      return nullptr;
    case ValueKind::kBool:
      return text[0] == 't' || text[0] == 'T';
    case ValueKind::kInteger: {
      const char* begin = text.data() + (text[0] == '+' ? 1 : 0);
      const char* end = text.data() + text.size();
      int64_t i = 0;
      if (auto [p, ec] = std::from_chars(begin, end, i); ec == std::errc() && p == end) return i;
      uint64_t u = 0;
      if (auto [p, ec] = std::from_chars(begin, end, u); ec == std::errc() && p == end) return u;
      return std::strtod(text.c_str(), nullptr);  // beyond 64 bits: the nearest double
    }
    case ValueKind::kFloat: {
      char* end = nullptr;
      const double d = std::strtod(text.c_str(), &end);
      if (end == text.c_str() + text.size() && std::isfinite(d)) return d;
      return text;  // .inf / .nan: JSON has no such numbers
    }
    default:
      return text;
  }
}

// KeyJson: a map key as JSON object key (non-scalar keys, legal in YAML only, as YAML text).
std::string KeyJson(const YamlTree& key) {
  if (key.type == YamlType::kScalar) return key.text;
  if (key.type == YamlType::kNull) return "null";
  std::string text = WriteYaml(key);
  while (!text.empty() && text.back() == '\n') text.pop_back();
  return text;
}

Json ToJson(const YamlTree& t) {
  switch (t.type) {
    case YamlType::kNull:
      return nullptr;
    case YamlType::kScalar:
      return t.style == ScalarStyle::kString ? Json(t.text) : PlainScalarJson(t.text);
    case YamlType::kMap: {
      Json j = Json::object();
      for (size_t i = 0; i + 1 < t.children.size(); i += 2) {
        j[KeyJson(t.children[i])] = ToJson(t.children[i + 1]);
      }
      return j;
    }
    case YamlType::kSeq: {
      Json j = Json::array();
      for (const YamlTree& item : t.children) j.push_back(ToJson(item));
      return j;
    }
  }
  return nullptr;
}

}  // namespace

YamlTree YamlTree::String(std::string text) {
  YamlTree t;
  t.type = YamlType::kScalar;
  t.style = ScalarStyle::kString;
  t.text = std::move(text);
  return t;
}

YamlTree YamlTree::Plain(std::string text) {
  YamlTree t;
  t.type = YamlType::kScalar;
  t.text = std::move(text);
  return t;
}

YamlTree YamlTree::Map() {
  YamlTree t;
  t.type = YamlType::kMap;
  return t;
}

YamlTree YamlTree::Seq() {
  YamlTree t;
  t.type = YamlType::kSeq;
  return t;
}

ValueKind YamlTree::Kind() const {
  switch (type) {
    case YamlType::kNull:
      return ValueKind::kNull;
    case YamlType::kMap:
      return ValueKind::kMap;
    case YamlType::kSeq:
      return ValueKind::kList;
    case YamlType::kScalar:
      break;
  }
  return style == ScalarStyle::kString ? ValueKind::kString : ClassifyPlainScalar(text);
}

std::string_view YamlTree::KeyText(size_t i) const {
  const YamlTree& k = Key(i);
  return k.type == YamlType::kScalar ? std::string_view(k.text) : std::string_view();
}

YamlTree* YamlTree::Find(std::string_view key) {
  if (!IsMap()) return nullptr;
  for (size_t i = 0; i + 1 < children.size(); i += 2) {
    if (children[i].type == YamlType::kScalar && children[i].text == key) return &children[i + 1];
  }
  return nullptr;
}

const YamlTree* YamlTree::Find(std::string_view key) const {
  return const_cast<YamlTree*>(this)->Find(key);
}

YamlTree& YamlTree::Set(std::string_view key, YamlTree value) {
  if (type == YamlType::kNull) *this = Map();
  if (YamlTree* existing = Find(key)) {
    *existing = std::move(value);
    return *existing;
  }
  children.push_back(Plain(std::string(key)));
  children.push_back(std::move(value));
  return children.back();
}

bool YamlTree::Remove(std::string_view key) {
  if (!IsMap()) return false;
  for (size_t i = 0; i + 1 < children.size(); i += 2) {
    if (children[i].type == YamlType::kScalar && children[i].text == key) {
      children.erase(children.begin() + static_cast<std::ptrdiff_t>(i),
                     children.begin() + static_cast<std::ptrdiff_t>(i + 2));
      return true;
    }
  }
  return false;
}

bool YamlTree::RenameKey(std::string_view from, std::string_view to) {
  if (!IsMap()) return false;
  for (size_t i = 0; i + 1 < children.size(); i += 2) {
    if (children[i].type == YamlType::kScalar && children[i].text == from) {
      children[i].text = std::string(to);
      children[i].style = ScalarStyle::kPlain;
      return true;
    }
  }
  return false;
}

std::optional<YamlTree> TreeFromTape(const EventTape& tape, NodeId id, int64_t budget) {
  YamlTree tree;
  Copier copier(tape, budget);
  if (!copier.Copy(id, &tree)) return std::nullopt;
  return tree;
}

std::string WriteYaml(const YamlTree& tree) {
  YAML::Emitter out;
  out.SetIndent(2);
  out.SetNullFormat(YAML::LowerNull);
  Emit(out, tree);
  std::string text = out.c_str();
  text.push_back('\n');
  return text;
}

std::string WriteJson(const YamlTree& tree) {
  return ToJson(tree).dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
}

bool SameContent(const YamlTree& a, const YamlTree& b) {
  const ValueKind ka = a.Kind();
  const ValueKind kb = b.Kind();
  if (ka != kb) return false;
  switch (ka) {
    case ValueKind::kNull:
      return true;
    case ValueKind::kMap:
    case ValueKind::kList:
      if (a.children.size() != b.children.size()) return false;
      for (size_t i = 0; i < a.children.size(); ++i) {
        if (!SameContent(a.children[i], b.children[i])) return false;
      }
      return true;
    case ValueKind::kBool:
      return (a.text[0] == 't' || a.text[0] == 'T') == (b.text[0] == 't' || b.text[0] == 'T');
    default:
      return a.text == b.text;
  }
}

std::vector<YamlTree> ParseTrees(std::string_view text, std::string* error) {
  std::vector<YamlTree> trees;
  error->clear();
  ForEachDocument(text, [&](ParsedDocument& doc) {
    if (!error->empty()) return;
    if (!doc.error.empty()) {
      *error = doc.error;
      return;
    }
    if (Classify(doc.tape, doc.tape.root()) == ValueKind::kNull) return;
    std::optional<YamlTree> tree =
        TreeFromTape(doc.tape, doc.tape.root(), static_cast<int64_t>(doc.text_size) * 2 + 1024);
    if (!tree) {
      *error = "document too large after expanding aliases";
      return;
    }
    trees.push_back(std::move(*tree));
  });
  if (!error->empty()) trees.clear();
  return trees;
}

}  // namespace wasched::codec::internal
