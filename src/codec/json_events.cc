// File: codec/json_events.cc
//
// simdjson On-Demand → TapeBuilder, and the split of a JSON `List` into its items (see
// json_events.h).
#include "codec/json_events.h"

#include <simdjson.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include <array>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

namespace wasched::codec::internal {
namespace {

namespace od = simdjson::ondemand;

// Walker: one JSON document → events of a TapeBuilder. Every value is read (strings unescaped,
// numbers and literals checked), so a document it accepts is strict JSON. Any simdjson error
// or builder refusal (input limits) makes the walk fail.
class Walker {
 public:
  explicit Walker(TapeBuilder* builder) : b_(builder) {}

  // Document: the whole document, then nothing but blanks.
  bool Document(od::document& doc) {
    od::json_type type;
    if (doc.type().get(type) != simdjson::SUCCESS) return false;
    bool ok = false;
    switch (type) {
      // After an object or array nothing but blanks may follow (simdjson 3.0 has no
      // document::at_end(); past the last token current_location() is out of bounds). The
      // scalar getters below refuse trailing content themselves.
      case od::json_type::object: {
        od::object o;
        const char* rest = nullptr;
        return doc.get_object().get(o) == simdjson::SUCCESS && Object(o) &&
               doc.current_location().get(rest) != simdjson::SUCCESS;
      }
      case od::json_type::array: {
        od::array a;
        const char* rest = nullptr;
        return doc.get_array().get(a) == simdjson::SUCCESS && Array(a) &&
               doc.current_location().get(rest) != simdjson::SUCCESS;
      }
      case od::json_type::string: {
        std::string_view s;
        ok = doc.get_string().get(s) == simdjson::SUCCESS && String(s);
        break;
      }
      case od::json_type::number: {
        od::number n;
        std::string_view raw;
        ok = doc.get_number().get(n) == simdjson::SUCCESS &&
             doc.raw_json_token().get(raw) == simdjson::SUCCESS && Number(n, raw);
        break;
      }
      case od::json_type::boolean: {
        bool v = false;
        ok = doc.get_bool().get(v) == simdjson::SUCCESS && Bool(v);
        break;
      }
      case od::json_type::null: {
        bool null = false;
        ok = doc.is_null().get(null) == simdjson::SUCCESS && null && Null();
        break;
      }
    }
    return ok;
  }

  bool Value(od::value v) {
    od::json_type type;
    if (v.type().get(type) != simdjson::SUCCESS) return false;
    switch (type) {
      case od::json_type::object: {
        od::object o;
        return v.get_object().get(o) == simdjson::SUCCESS && Object(o);
      }
      case od::json_type::array: {
        od::array a;
        return v.get_array().get(a) == simdjson::SUCCESS && Array(a);
      }
      case od::json_type::string: {
        std::string_view s;
        return v.get_string().get(s) == simdjson::SUCCESS && String(s);
      }
      case od::json_type::number: {
        od::number n;
        return v.get_number().get(n) == simdjson::SUCCESS && Number(n, v.raw_json_token());
      }
      case od::json_type::boolean: {
        bool b = false;
        return v.get_bool().get(b) == simdjson::SUCCESS && Bool(b);
      }
      case od::json_type::null: {
        bool null = false;
        return v.is_null().get(null) == simdjson::SUCCESS && null && Null();
      }
    }
    return false;
  }

  // on_field: called for each field of the top-level object (depth 1) before its value is
  // walked; returns true when it has recorded the value itself (the value is then skipped).
  std::function<bool(std::string_view key, TapeBuilder* b)> on_top_field;

 private:
  bool Object(od::object& o) {
    if (b_->BeginMap({}, "")) return false;
    const bool top = ++depth_ == 1;
    for (auto field : o) {
      od::field f;
      std::string_view key;
      if (std::move(field).get(f) != simdjson::SUCCESS ||
          f.unescaped_key().get(key) != simdjson::SUCCESS) {
        return false;
      }
      if (b_->Scalar(key, ScalarStyle::kString, {}, "")) return false;
      if (top && on_top_field && on_top_field(key, b_)) {
        // In the text the value is an empty array standing in for the recorded one: read it.
        od::array a;
        if (f.value().get_array().get(a) != simdjson::SUCCESS) return false;
        for (auto item : a) {
          (void)item;
          return false;
        }
        continue;
      }
      if (!Value(f.value())) return false;
    }
    --depth_;
    return !b_->EndMap();
  }

  bool Array(od::array& a) {
    if (b_->BeginSeq({}, "")) return false;
    ++depth_;
    for (auto item : a) {
      od::value v;
      if (std::move(item).get(v) != simdjson::SUCCESS || !Value(v)) return false;
    }
    --depth_;
    return !b_->EndSeq();
  }

  bool String(std::string_view s) { return !b_->Scalar(s, ScalarStyle::kString, {}, ""); }

  // Number: integers as their decimal value (as before: "-0" is "0"), other numbers with the
  // text they were written with (a quantity such as 1.50 keeps its text).
  bool Number(od::number n, std::string_view raw) {
    while (!raw.empty() && (raw.back() == ' ' || raw.back() == '\t' || raw.back() == '\n' ||
                            raw.back() == '\r')) {
      raw.remove_suffix(1);
    }
    if (n.is_int64() || n.is_uint64()) {
      // An integer JSON text is its decimal value already (JSON has no leading zeros or `+`),
      // except "-0".
      if (raw == "-0") raw = "0";
      return !b_->Scalar(raw, ScalarStyle::kPlain, {}, "");
    }
    return !b_->Scalar(raw, ScalarStyle::kPlain, {}, "");
  }

  bool Bool(bool v) { return !b_->Scalar(v ? "true" : "false", ScalarStyle::kPlain, {}, ""); }
  bool Null() { return !b_->Null({}, ""); }

  TapeBuilder* b_;
  int depth_ = 0;
};

// Padded: `text` copied into a buffer simdjson may read past the end of (SIMDJSON_PADDING).
class Padded {
 public:
  simdjson::padded_string_view View(std::string_view text) {
    buffer_.reserve(text.size() + simdjson::SIMDJSON_PADDING);
    buffer_.assign(text);
    return simdjson::padded_string_view(buffer_.data(), buffer_.size(), buffer_.capacity());
  }

 private:
  std::string buffer_;
};

od::parser& Parser() {
  static thread_local od::parser parser;
  return parser;
}

bool IsBlank(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

size_t SkipBlanks(std::string_view t, size_t i) {
  while (i < t.size() && IsBlank(t[i])) ++i;
  return i;
}

constexpr size_t kNone = std::string_view::npos;

// StringEnd: `t[i]` is '"': the index after the closing quote, or kNone.
size_t StringEnd(std::string_view t, size_t i) {
  const auto* p = reinterpret_cast<const unsigned char*>(t.data());
  const size_t n = t.size();
  ++i;
  while (i < n) {
    const unsigned char c = p[i];
    if (c == '"') return i + 1;
    i += c == '\\' ? 2 : 1;  // an escape: the next byte is never the closing quote
  }
  return kNone;
}

// ScanState: where a structure scan stands: brackets open, and inside a string or not.
struct ScanState {
  int64_t depth = 0;
  bool in_string = false;
};

// ScanBytes: advances `state` over t[i, stop) a byte at a time; the index after the bracket
// that closes the value (depth back to 0), else kNone. A backslash in a string escapes the next
// byte (which may lie at or past `stop`: the returned `*next` says where to go on); outside a
// string it is not JSON, and the parse of the value refuses it.
size_t ScanBytes(std::string_view t, size_t i, size_t stop, ScanState* state, size_t* next) {
  const auto* p = reinterpret_cast<const unsigned char*>(t.data());
  while (i < stop) {
    const unsigned char c = p[i];
    if (state->in_string) {
      if (c == '"') state->in_string = false;
      i += c == '\\' ? 2 : 1;
      continue;
    }
    if (c == '"') {
      state->in_string = true;
    } else if (c == '{' || c == '[') {
      ++state->depth;
    } else if (c == '}' || c == ']') {
      if (--state->depth == 0) return i + 1;
    }
    ++i;
  }
  *next = i;
  return kNone;
}

#if defined(__SSE2__)
// Block: 64 bytes of text as bit masks (bit k = byte k) of the bytes a scan looks at.
struct Block {
  uint64_t quote;
  uint64_t backslash;
  uint64_t open;
  uint64_t close;
};

Block ReadBlock(const unsigned char* p) {
  Block b{0, 0, 0, 0};
  for (int k = 0; k < 4; ++k) {
    const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p + 16 * k));
    const auto mask = [&](char c) {
      return static_cast<uint64_t>(static_cast<uint32_t>(
                 _mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_set1_epi8(c)))))
             << (16 * k);
    };
    b.quote |= mask('"');
    b.backslash |= mask('\\');
    b.open |= mask('{') | mask('[');
    b.close |= mask('}') | mask(']');
  }
  return b;
}

// PrefixXor: bit k = XOR of bits 0..k (bytes inside a string, from its quotes).
uint64_t PrefixXor(uint64_t x) {
  x ^= x << 1;
  x ^= x << 2;
  x ^= x << 4;
  x ^= x << 8;
  x ^= x << 16;
  x ^= x << 32;
  return x;
}
#endif

// ValueEnd: the index after the JSON value starting at `t[i]` (structure only: strings and
// brackets balanced; the content is checked when the value is parsed), or kNone. O(value size):
// 64 bytes at a time where the block holds no backslash (a dump's strings rarely do), else a
// byte at a time; both follow the same rules (ScanBytes).
size_t ValueEnd(std::string_view t, size_t i) {
  if (i >= t.size()) return kNone;
  const char c = t[i];
  if (c == '"') return StringEnd(t, i);
  if (c != '{' && c != '[') {
    while (i < t.size() && !IsBlank(t[i]) && t[i] != ',' && t[i] != '}' && t[i] != ']') ++i;
    return i;
  }
  ScanState state;
  const size_t n = t.size();
#if defined(__SSE2__)
  const auto* p = reinterpret_cast<const unsigned char*>(t.data());
  while (i + 64 <= n) {
    const Block b = ReadBlock(p + i);
    if (b.backslash != 0) {
      // Escapes: this block a byte at a time (an escape may carry into the next block).
      size_t next = i;
      const size_t end = ScanBytes(t, i, i + 64, &state, &next);
      if (end != kNone) return end;
      i = next;
      continue;
    }
    // Bytes inside strings: from an opening quote to the byte before its closing quote (the
    // quotes themselves are not brackets, whichever side they fall on).
    uint64_t inside = PrefixXor(b.quote);
    if (state.in_string) inside = ~inside;
    state.in_string = (inside >> 63) != 0;
    const uint64_t open = b.open & ~inside;
    const uint64_t close = b.close & ~inside;
    const int64_t closes = __builtin_popcountll(close);
    if (closes < state.depth) {  // the value cannot end in this block
      state.depth += __builtin_popcountll(open) - closes;
      i += 64;
      continue;
    }
    for (uint64_t m = open | close; m != 0; m &= m - 1) {
      const int k = __builtin_ctzll(m);
      if ((open >> k) & 1) {
        ++state.depth;
      } else if (--state.depth == 0) {
        return i + static_cast<size_t>(k) + 1;
      }
    }
    i += 64;
  }
#endif
  size_t next = i;
  while (i < n) {
    const size_t end = ScanBytes(t, i, n, &state, &next);
    if (end != kNone) return end;
    i = next;
    if (i >= n) break;
  }
  return kNone;
}

struct Range {
  size_t begin = 0;
  size_t end = 0;
};

}  // namespace

bool LooksLikeJson(std::string_view text) {
  const size_t first = text.find_first_not_of(" \t\r\n");
  return first != std::string_view::npos && (text[first] == '{' || text[first] == '[');
}

std::optional<EventTape> ParseJsonValue(std::string_view text, EventTape recycled) {
  static thread_local Padded padded;  // one buffer for the many items of a List
  // One builder too: its scratch buffers serve every item (TapeBuilder::Restart).
  static thread_local TapeBuilder builder(0);
  od::document doc;
  if (Parser().iterate(padded.View(text)).get(doc) != simdjson::SUCCESS) return std::nullopt;
  builder.Restart(text.size(), std::move(recycled));
  Walker walker(&builder);
  if (!walker.Document(doc)) return std::nullopt;
  return builder.Finish();
}

std::optional<EventTape> ParseJson(std::string_view text) { return ParseJsonValue(text); }

std::optional<EventTape> ParseJsonList(std::string_view text) {
  // The top-level object's fields: `kind`, and the elements of the first `items` array.
  size_t i = SkipBlanks(text, 0);
  if (i >= text.size() || text[i] != '{') return std::nullopt;
  i = SkipBlanks(text, i + 1);
  bool kind_seen = false;
  std::string_view kind;
  bool has_items = false;
  Range items{kNone, kNone};
  while (true) {
    if (i >= text.size() || text[i] != '"') return std::nullopt;
    const size_t key_end = StringEnd(text, i);
    if (key_end == kNone) return std::nullopt;
    const std::string_view key = text.substr(i + 1, key_end - i - 2);
    // An escaped key might spell `kind` or `items`: such Lists take the ordinary path.
    if (key.find('\\') != std::string_view::npos) return std::nullopt;
    i = SkipBlanks(text, key_end);
    if (i >= text.size() || text[i] != ':') return std::nullopt;
    i = SkipBlanks(text, i + 1);
    const size_t value_end = ValueEnd(text, i);
    if (value_end == kNone) return std::nullopt;
    if (key == "kind" && !kind_seen) {
      kind_seen = true;
      if (text[i] == '"') kind = text.substr(i + 1, value_end - i - 2);
    } else if (key == "items") {
      if (!has_items && text[i] == '[') items = Range{i, value_end};
      has_items = true;
    }
    i = SkipBlanks(text, value_end);
    if (i < text.size() && text[i] == ',') {
      i = SkipBlanks(text, i + 1);
      continue;
    }
    if (i < text.size() && text[i] == '}') break;
    return std::nullopt;
  }
  if (SkipBlanks(text, i + 1) != text.size()) return std::nullopt;
  const bool is_list = kind == "List" || (kind.ends_with("List") && has_items);
  if (!is_list || items.begin == kNone || kind.find('\\') != std::string_view::npos) {
    return std::nullopt;
  }
  std::vector<Range> elements;
  i = SkipBlanks(text, items.begin + 1);
  if (text[i] != ']') {
    while (true) {
      const size_t end = ValueEnd(text, i);
      if (end == kNone) return std::nullopt;
      elements.push_back(Range{i, end});
      i = SkipBlanks(text, end);
      if (i < text.size() && text[i] == ',') {
        i = SkipBlanks(text, i + 1);
        continue;
      }
      if (i < text.size() && text[i] == ']') break;
      return std::nullopt;
    }
  }

  // The List without its items ("items": []), walked with the items recorded in its place.
  std::string skeleton;
  skeleton.reserve(text.size() - (items.end - items.begin) + 2 + simdjson::SIMDJSON_PADDING);
  skeleton.append(text.substr(0, items.begin + 1));
  skeleton.append(text.substr(items.end - 1));
  od::parser parser;  // the per-item parser (Parser()) serves the non-object items below
  od::document doc;
  if (parser.iterate(simdjson::padded_string_view(skeleton.data(), skeleton.size(),
                                                  skeleton.capacity()))
          .get(doc) != simdjson::SUCCESS) {
    return std::nullopt;
  }
  TapeBuilder builder(text.size());
  Walker walker(&builder);
  bool items_done = false;
  bool ok = true;
  walker.on_top_field = [&](std::string_view key, TapeBuilder* b) {
    if (key != "items" || items_done) return false;
    items_done = true;
    ok = !b->BeginSeq({}, "");
    for (const Range& e : elements) {
      if (!ok) break;
      if (text[e.begin] == '{') {
        ok = !b->Deferred(e.begin, e.end - e.begin);
        continue;
      }
      // Not an object: recorded now (the loader reports it as it is).
      Padded padded;
      od::document item;
      Walker inner(b);
      ok = Parser().iterate(padded.View(text.substr(e.begin, e.end - e.begin))).get(item) ==
               simdjson::SUCCESS &&
           inner.Document(item);
    }
    ok = ok && !b->EndSeq();
    return true;
  };
  if (!walker.Document(doc) || !ok) return std::nullopt;
  EventTape tape = builder.Finish();
  tape.set_source(text);
  return tape;
}

}  // namespace wasched::codec::internal
