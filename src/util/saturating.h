// File: util/saturating.h
//
// Saturating int64 arithmetic for sums of input quantities. Each quantity is a valid int64 (a
// Kubernetes Quantity's canonical value, e.g. bytes), but sums over nodes or pods can pass 2^63:
// eight nodes of `memory: 1Ei` in one rack sum to 2^63 (QA2 finding 18). A saturated sum stays
// at the int64 bound, so comparisons against a demand keep their meaning (a free capacity above
// INT64_MAX is at least any demand).
#pragma once

#include <cstdint>
#include <limits>

namespace wasched {

// SaturatingAdd: a + b clamped to [INT64_MIN, INT64_MAX]. O(1), no UB.
[[nodiscard]] inline int64_t SaturatingAdd(int64_t a, int64_t b) {
  int64_t sum = 0;
  if (__builtin_add_overflow(a, b, &sum)) {
    return b > 0 ? std::numeric_limits<int64_t>::max() : std::numeric_limits<int64_t>::min();
  }
  return sum;
}

// SaturatingMul: a × b clamped to [INT64_MIN, INT64_MAX]. O(1), no UB.
[[nodiscard]] inline int64_t SaturatingMul(int64_t a, int64_t b) {
  int64_t product = 0;
  if (__builtin_mul_overflow(a, b, &product)) {
    return (a < 0) != (b < 0) ? std::numeric_limits<int64_t>::min()
                              : std::numeric_limits<int64_t>::max();
  }
  return product;
}

}  // namespace wasched
