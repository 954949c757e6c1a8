// File: util/html.h
//
// Small helpers for the self-contained HTML pages wasched writes (`schedule -o html`,
// `simulate --report`): text escaping and round ("nice") axis ticks for the inline SVG plots.
// Everything here is deterministic: the same arguments give the same bytes.
//
//   HtmlEscape("a<b & \"c\"")   // "a&lt;b &amp; &quot;c&quot;"
//   NiceTicks(7.3, 5)           // {0, 2, 4, 6, 8}: step 2, the last tick ≥ 7.3
//   FormatTick(0.30000000004)   // "0.3"
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace wasched {

// HtmlEscape: `text` safe inside an element's content and inside a double- or single-quoted
// attribute value: & < > " ' become entities; everything else is kept byte for byte. Callers that
// show input-controlled text first make control characters visible (EscapeForTerminal in
// util/field_value.h). O(length).
[[nodiscard]] std::string HtmlEscape(std::string_view text);

// NiceStep: the 1-2-5 × 10^k step that splits [0, span] into at most about `target` intervals
// (span ≤ 0 or not finite: 1). REQUIRES: target ≥ 1.
[[nodiscard]] double NiceStep(double span, int target);

// NiceTicks: tick values 0, step, 2·step, … up to the first multiple of NiceStep(max, target)
// that is ≥ `max` (so the axis ends on a round value); {0, 1} when max ≤ 0 or not finite.
// Every value is an exact multiple of a 1-2-5 step (rounded, so 3 × 0.1 is 0.3).
// REQUIRES: target ≥ 1. O(target).
[[nodiscard]] std::vector<double> NiceTicks(double max, int target);

// FormatTick: a tick value as short text: at most 6 significant digits, no trailing zeros,
// no exponent for the values NiceTicks gives ("0", "0.25", "1500", "2000000").
[[nodiscard]] std::string FormatTick(double value);

}  // namespace wasched
