// File: kube/backoff.cc
#include "kube/backoff.h"

#include <algorithm>

namespace wasched::kube {

Backoff::Backoff(BackoffOptions options)
    : options_(options), base_(options.initial), state_(options.seed) {}

double Backoff::Uniform() {
  // SplitMix64 (Steele, Lea, Flood 2014): a fixed, portable sequence.
  uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  z ^= z >> 31;
  return double(z >> 11) * 0x1.0p-53;
}

double Backoff::Next() {
  const double delay = base_ + options_.jitter * base_ * Uniform();
  base_ = std::min(options_.cap, base_ * options_.factor);
  return delay;
}

void Backoff::Reset() { base_ = options_.initial; }

}  // namespace wasched::kube
