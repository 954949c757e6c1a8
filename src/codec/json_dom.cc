#include "codec/json_dom.h"

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace wasched::codec::internal {
namespace {

// SaxBuilder: nlohmann SAX events → TapeBuilder.
class SaxBuilder {
 public:
  using number_integer_t = nlohmann::json::number_integer_t;
  using number_unsigned_t = nlohmann::json::number_unsigned_t;
  using number_float_t = nlohmann::json::number_float_t;
  using string_t = nlohmann::json::string_t;
  using binary_t = nlohmann::json::binary_t;

  explicit SaxBuilder(size_t text_size) : builder_(text_size) {}

  bool null() { return Ok(builder_.Null({}, "")); }
  bool boolean(bool v) { return Ok(builder_.Scalar(v ? "true" : "false", ScalarStyle::kPlain, {}, "")); }
  bool number_integer(number_integer_t v) {
    return Ok(builder_.Scalar(std::to_string(v), ScalarStyle::kPlain, {}, ""));
  }
  bool number_unsigned(number_unsigned_t v) {
    return Ok(builder_.Scalar(std::to_string(v), ScalarStyle::kPlain, {}, ""));
  }
  bool number_float(number_float_t, const string_t& text) {
    return Ok(builder_.Scalar(text, ScalarStyle::kPlain, {}, ""));
  }
  bool string(string_t& v) { return Ok(builder_.Scalar(v, ScalarStyle::kString, {}, "")); }
  bool binary(binary_t&) { return false; }
  bool key(string_t& k) { return Ok(builder_.Scalar(k, ScalarStyle::kString, {}, "")); }
  bool start_object(std::size_t) { return Ok(builder_.BeginMap({}, "")); }
  bool end_object() { return Ok(builder_.EndMap()); }
  bool start_array(std::size_t) { return Ok(builder_.BeginSeq({}, "")); }
  bool end_array() { return Ok(builder_.EndSeq()); }
  bool parse_error(std::size_t, const std::string&, const nlohmann::json::exception&) {
    return false;
  }

  EventTape Finish() { return builder_.Finish(); }

 private:
  // Ok: an event the limits refuse ends the JSON parse (the YAML parser then reports it).
  static bool Ok(const std::optional<TapeError>& error) { return !error.has_value(); }

  TapeBuilder builder_;
};

}  // namespace

bool LooksLikeJson(std::string_view text) {
  const size_t first = text.find_first_not_of(" \t\r\n");
  return first != std::string_view::npos && (text[first] == '{' || text[first] == '[');
}

std::optional<EventTape> ParseJson(std::string_view text) {
  SaxBuilder sax(text.size());
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
