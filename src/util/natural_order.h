// File: util/natural_order.h
//
// NaturalLess: the order people expect for generated names: digit runs compare by number
// ("w-2" < "w-10", "n-007" after "n-6"), everything else bytewise. Used by the schedule table
// and the HTML map (cli/) to list pods, nodes, racks and zones.
//
//   std::sort(names.begin(), names.end(), NaturalLess);
#pragma once

#include <string_view>

namespace wasched {

// NaturalLess: a strict total order (names equal up to leading zeros fall back to bytes).
// O(min(|a|, |b|)).
[[nodiscard]] bool NaturalLess(std::string_view a, std::string_view b);

}  // namespace wasched
