// File: codec/json_dom.h
//
// JSON text → YamlDom through nlohmann-json's SAX parser (internal to codec/). JSON is YAML, so
// yaml-cpp could read it too, but nlohmann's parser is many times faster on the large `List`
// dumps `kubectl get -o json` produces; the decoders see the same YamlDom either way
// (strings are kString scalars, numbers / booleans plain scalars with their JSON text).
#pragma once

#include <optional>
#include <string_view>

#include "codec/yaml_dom.h"

namespace wasched::codec::internal {

// LooksLikeJson: the first non-blank character opens a JSON object or array. O(leading blanks).
[[nodiscard]] bool LooksLikeJson(std::string_view text);

// ParseJson: the single JSON document in `text`, or nullopt when `text` is not strict JSON
// (callers then parse it as YAML, which also covers YAML flow style and yields YAML's error
// messages). Nesting deeper than kMaxJsonDepth is rejected (nullopt). O(text size).
inline constexpr int kMaxJsonDepth = 512;
[[nodiscard]] std::optional<YamlDom> ParseJson(std::string_view text);

}  // namespace wasched::codec::internal
