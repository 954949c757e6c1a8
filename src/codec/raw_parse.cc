// File: codec/raw_parse.cc
//
// RawParse (see raw_parse.h).
#include "codec/raw_parse.h"

#include <simdjson.h>
#include <yaml.h>

#include <string>

#include "codec/json_events.h"

namespace wasched::codec {
namespace {

namespace od = simdjson::ondemand;

// CountValues: every value below `v`, read; -1 on an error.
int64_t CountValues(od::value v) {
  od::json_type type;
  if (v.type().get(type) != simdjson::SUCCESS) return -1;
  int64_t n = 1;
  switch (type) {
    case od::json_type::object: {
      od::object o;
      if (v.get_object().get(o) != simdjson::SUCCESS) return -1;
      for (auto field : o) {
        od::field f;
        std::string_view key;
        if (std::move(field).get(f) != simdjson::SUCCESS ||
            f.unescaped_key().get(key) != simdjson::SUCCESS) {
          return -1;
        }
        const int64_t c = CountValues(f.value());
        if (c < 0) return -1;
        n += c + 1;
      }
      return n;
    }
    case od::json_type::array: {
      od::array a;
      if (v.get_array().get(a) != simdjson::SUCCESS) return -1;
      for (auto item : a) {
        od::value x;
        if (std::move(item).get(x) != simdjson::SUCCESS) return -1;
        const int64_t c = CountValues(x);
        if (c < 0) return -1;
        n += c;
      }
      return n;
    }
    case od::json_type::string: {
      std::string_view s;
      return v.get_string().get(s) == simdjson::SUCCESS ? 1 : -1;
    }
    case od::json_type::number: {
      od::number num;
      return v.get_number().get(num) == simdjson::SUCCESS ? 1 : -1;
    }
    case od::json_type::boolean: {
      bool b = false;
      return v.get_bool().get(b) == simdjson::SUCCESS ? 1 : -1;
    }
    case od::json_type::null: {
      bool null = false;
      return v.is_null().get(null) == simdjson::SUCCESS && null ? 1 : -1;
    }
  }
  return -1;
}

int64_t RawParseJson(std::string_view text) {
  std::string padded;
  padded.reserve(text.size() + simdjson::SIMDJSON_PADDING);
  padded.assign(text);
  od::parser parser;
  od::document doc;
  if (parser.iterate(simdjson::padded_string_view(padded.data(), padded.size(), padded.capacity()))
          .get(doc) != simdjson::SUCCESS) {
    return -1;
  }
  od::value root;
  if (doc.get_value().get(root) != simdjson::SUCCESS) return -1;
  const int64_t n = CountValues(root);
  const char* rest = nullptr;
  return doc.current_location().get(rest) != simdjson::SUCCESS ? n : -1;
}

int64_t RawParseYaml(std::string_view text) {
  yaml_parser_t parser;
  if (yaml_parser_initialize(&parser) == 0) return -1;
  yaml_parser_set_input_string(&parser, reinterpret_cast<const unsigned char*>(text.data()),
                               text.size());
  int64_t events = 0;
  while (true) {
    yaml_event_t event;
    if (yaml_parser_parse(&parser, &event) == 0) {
      events = -1;
      break;
    }
    ++events;
    const bool end = event.type == YAML_STREAM_END_EVENT;
    yaml_event_delete(&event);
    if (end) break;
  }
  yaml_parser_delete(&parser);
  return events;
}

}  // namespace

int64_t RawParse(std::string_view text) {
  return internal::LooksLikeJson(text) ? RawParseJson(text) : RawParseYaml(text);
}

}  // namespace wasched::codec
