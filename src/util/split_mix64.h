// File: util/split_mix64.h
//
// SplitMix64 (Steele, Lea, Flood, OOPSLA 2014): a small seeded generator with a fixed, portable
// sequence. The standard library's distributions differ between implementations, so seeded
// output (simulator node failures, --scale-trace draws) is drawn through this instead.
//
//   SplitMix64 rng{seed};
//   const uint64_t i = rng.Below(n);  // uniform-ish in [0, n)
//   const double u = rng.Unit();      // uniform in (0, 1)
#pragma once

#include <cstdint>

namespace wasched {

// SplitMix64: `state` is the whole state (any value, the seed). Not thread-safe. O(1) per draw.
struct SplitMix64 {
  uint64_t state = 0;
  // Next: the next 64 random bits.
  uint64_t Next() {
    uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  // Below: Next() mod n, 0 when n is 0 (the modulo bias is below n / 2^64).
  uint64_t Below(uint64_t n) { return n == 0 ? 0 : Next() % n; }
  // Unit: uniform in (0, 1), 53 bits.
  double Unit() { return (static_cast<double>(Next() >> 11) + 0.5) * 0x1.0p-53; }
};

}  // namespace wasched
