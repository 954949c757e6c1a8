// File: codec/json_events.h
//
// JSON text → EventTape through simdjson's On-Demand parser (internal to codec/). JSON is YAML,
// so libyaml could read it too, but simdjson is an order of magnitude faster on the large
// `List` dumps `kubectl get -o json` produces; the decoders see the same EventTape either way
// (strings are kString scalars, numbers / booleans plain scalars with their JSON text, null a
// null node).
//
// A `List` document is not recorded whole: ParseJsonList records the List with each object of
// `items` left as a deferred node (its byte range), and the loader parses one item at a time
// (ParseJsonValue) while it decodes, so memory holds the text, the decoded objects and one item.
#pragma once

#include <optional>
#include <string_view>

#include "codec/event_tape.h"

namespace wasched::codec::internal {

// LooksLikeJson: the first non-blank character opens a JSON object or array. O(leading blanks).
[[nodiscard]] bool LooksLikeJson(std::string_view text);

// ParseJson: the single JSON value in `text` (blanks around it allowed), or nullopt when `text`
// is not strict JSON (callers then parse it as YAML, which also covers YAML flow style and
// yields YAML's error messages with line and column). Input beyond the limits of
// codec/input_limits.h (nesting deeper than kMaxNestingDepth, a string or key longer than
// kMaxScalarBytes) is nullopt too: the YAML parser then reports it with its position.
// O(text size).
[[nodiscard]] std::optional<EventTape> ParseJson(std::string_view text);

// ParseJsonList: `text` is a JSON object whose first `kind` is a string that is "List" or ends
// in "List" and which has an `items` array (what `kubectl get -o json` writes): the tape of the
// document in which every object of the first `items` array is a deferred node
// (EventTape::deferred, its text a view into `text`, which must outlive the tape); nullopt
// otherwise (not such a List, or not strict JSON: use ParseJson). Deferred items are checked
// when they are parsed (ParseJsonValue), so a List whose items are not strict JSON can still
// come back from here. O(text size), memory O(size of the List without its items).
[[nodiscard]] std::optional<EventTape> ParseJsonList(std::string_view text);

// ParseJsonValue: ParseJson for the text of one deferred item, built into `recycled`'s buffers
// (the previous item's tape, or an empty one; TapeBuilder's recycling constructor).
[[nodiscard]] std::optional<EventTape> ParseJsonValue(std::string_view text,
                                                      EventTape recycled = {});

}  // namespace wasched::codec::internal
