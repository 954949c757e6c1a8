// File: util/field_value.h
//
// How error lines echo a field's value (FieldError::ToString, the validate JSON report): in full
// when short, else cut (QA1 finding 12: a 200 KB CEL expression made a 200 KB error line;
// upstream's TooLong prints no value at all, k8s.io/apimachinery/pkg/util/validation/field).
//
//   RenderValue("\"" + std::string(300, 'a') + "\"")  // "\"aaa…a…\"" (63 a's after the quote)
//   EscapeForTerminal("Node a\a\x1b[31m")              // "Node a\\x07\\x1b[31m"
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace wasched {

// kMaxRenderedValueBytes: the longest value echoed in full; kTruncatedValueBytes: how much of a
// longer one is kept.
inline constexpr std::size_t kMaxRenderedValueBytes = 256;
inline constexpr std::size_t kTruncatedValueBytes = 64;

// RenderValue: `value` unchanged up to kMaxRenderedValueBytes, else its first
// kTruncatedValueBytes bytes (cut back to a UTF-8 character boundary) + "…", keeping the closing
// quote of a quoted value: `"((((…"`. O(min(length, 256)).
[[nodiscard]] std::string RenderValue(std::string_view value);

// EscapeForTerminal: `text` with everything that could drive or garble a terminal made visible,
// so that an object name or label read from hostile input cannot reach stderr raw (issue 10):
//   C0 controls  \n \t \r, the others \xNN          (as validation::Quote renders a value)
//   DEL          \x7f
//   C1 controls  \u0080 … \u009f                      (Go's %q; upstream field.Error quotes with it)
//   U+2028/2029  \u2028 \u2029                        (line / paragraph separators)
//   bidi format  \u200e \u200f \u202a…\u202e \u2066…\u2069 (they reorder what a terminal shows)
//   invalid UTF-8: each byte that starts no valid sequence as \xNN (overlong forms, surrogates
//                and code points above U+10FFFF count as invalid, as in Go's utf8.DecodeRune)
// Everything else (printable ASCII, valid UTF-8, backslashes) is kept, so an already-quoted value
// passes through unchanged. O(length); returns `text` as is when it is printable ASCII.
[[nodiscard]] std::string EscapeForTerminal(std::string_view text);

// QuoteString: `value` in double quotes as upstream field errors print strings (Go %q for ASCII):
// `"` and `\` backslash-escaped, C0 controls and DEL as in EscapeForTerminal; other bytes kept.
// validation::Quote and the codec's QuoteValue are this. O(length).
[[nodiscard]] std::string QuoteString(std::string_view value);

}  // namespace wasched
