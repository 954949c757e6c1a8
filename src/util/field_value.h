// File: util/field_value.h
//
// How error lines echo a field's value (FieldError::ToString, the validate JSON report): in full
// when short, else cut (QA1 finding 12: a 200 KB CEL expression made a 200 KB error line;
// upstream's TooLong prints no value at all, k8s.io/apimachinery/pkg/util/validation/field).
//
//   RenderValue("\"" + std::string(300, 'a') + "\"")  // "\"aaa…a…\"" (63 a's after the quote)
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

}  // namespace wasched
