#include "codec/json_dom.h"

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace wasched::codec::internal {
namespace {

// SaxBuilder: nlohmann SAX events → YamlDom (children before their collection).
class SaxBuilder {
 public:
  using number_integer_t = nlohmann::json::number_integer_t;
  using number_unsigned_t = nlohmann::json::number_unsigned_t;
  using number_float_t = nlohmann::json::number_float_t;
  using string_t = nlohmann::json::string_t;
  using binary_t = nlohmann::json::binary_t;

  bool null() { return Add(builder_.AddNull()); }
  bool boolean(bool v) { return Add(builder_.AddScalar(v ? "true" : "false", ScalarStyle::kPlain)); }
  bool number_integer(number_integer_t v) {
    return Add(builder_.AddOwnedScalar(std::to_string(v), ScalarStyle::kPlain));
  }
  bool number_unsigned(number_unsigned_t v) {
    return Add(builder_.AddOwnedScalar(std::to_string(v), ScalarStyle::kPlain));
  }
  bool number_float(number_float_t, const string_t& text) {
    if (text.size() > kMaxScalarBytes) return false;
    return Add(builder_.AddOwnedScalar(text, ScalarStyle::kPlain));
  }
  bool string(string_t& v) {
    if (v.size() > kMaxScalarBytes) return false;
    return Add(builder_.AddOwnedScalar(std::move(v), ScalarStyle::kString));
  }
  bool binary(binary_t&) { return false; }
  bool key(string_t& k) {
    if (k.size() > kMaxScalarBytes) return false;
    return Add(builder_.AddOwnedScalar(std::move(k), ScalarStyle::kString));
  }
  bool start_object(std::size_t) { return Open(); }
  bool end_object() { return Close(YamlType::kMap); }
  bool start_array(std::size_t) { return Open(); }
  bool end_array() { return Close(YamlType::kSeq); }
  bool parse_error(std::size_t, const std::string&, const nlohmann::json::exception&) {
    return false;
  }

  YamlDom Finish() { return builder_.Finish(root_); }

 private:
  bool Add(YamlNodeId id) {
    if (frames_.empty()) {
      root_ = id;
    } else {
      stack_.push_back(id);
    }
    return true;
  }
  bool Open() {
    if (static_cast<int>(frames_.size()) >= kMaxNestingDepth) return false;
    frames_.push_back(stack_.size());
    return true;
  }
  bool Close(YamlType type) {
    const size_t start = frames_.back();
    frames_.pop_back();
    const YamlNodeId id =
        builder_.AddCollection(type, std::span<const YamlNodeId>(stack_).subspan(start));
    stack_.resize(start);
    return Add(id);
  }

  YamlDomBuilder builder_;
  std::vector<size_t> frames_;
  std::vector<YamlNodeId> stack_;
  YamlNodeId root_ = kNoYamlNode;
};

}  // namespace

bool LooksLikeJson(std::string_view text) {
  const size_t first = text.find_first_not_of(" \t\r\n");
  return first != std::string_view::npos && (text[first] == '{' || text[first] == '[');
}

std::optional<YamlDom> ParseJson(std::string_view text) {
  SaxBuilder sax;
  bool ok = false;
  try {
    ok = nlohmann::json::sax_parse(text.begin(), text.end(), &sax);
  } catch (const nlohmann::json::exception&) {
    ok = false;
  }
  if (!ok) return std::nullopt;
  return sax.Finish();
}

}  // namespace wasched::codec::internal
