// File: codec/raw_parse.h
//
// The parsers alone, for `wasched bench --shape Load` (issue 18): what reading a text costs
// before anything is recorded or decoded, so the loader's time can be stated as a ratio to it.
//
//   int64_t values = codec::RawParse(text);   // -1: not parseable
#pragma once

#include <cstdint>
#include <string_view>

namespace wasched::codec {

// RawParse: JSON text (first non-blank `{` or `[`) through simdjson's On-Demand parser reading
// every value (strings unescaped, numbers parsed); anything else through libyaml's event parser,
// every event taken and freed. Returns the number of values / events, or -1 when the text is
// not well-formed. O(text size). Thread-compatible.
[[nodiscard]] int64_t RawParse(std::string_view text);

}  // namespace wasched::codec
