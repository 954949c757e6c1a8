// File: codec/json_dom.h
//
// JSON text → EventTape through nlohmann-json's SAX parser (internal to codec/). JSON is YAML, so
// yaml-cpp could read it too, but nlohmann's parser is many times faster on the large `List`
// dumps `kubectl get -o json` produces; the decoders see the same EventTape either way
// (strings are kString scalars, numbers / booleans plain scalars with their JSON text).
#pragma once

#include <optional>
#include <string_view>

#include "codec/input_limits.h"
#include "codec/event_tape.h"

namespace wasched::codec::internal {

// LooksLikeJson: the first non-blank character opens a JSON object or array. O(leading blanks).
[[nodiscard]] bool LooksLikeJson(std::string_view text);

// ParseJson: the single JSON document in `text`, or nullopt when `text` is not strict JSON
// (callers then parse it as YAML, which also covers YAML flow style and yields YAML's error
// messages). Input beyond the limits of codec/input_limits.h (nesting deeper than
// kMaxNestingDepth, a string or key longer than kMaxScalarBytes) is nullopt too: the YAML parser
// then reports it with its line and column. O(text size).
[[nodiscard]] std::optional<EventTape> ParseJson(std::string_view text);

}  // namespace wasched::codec::internal
