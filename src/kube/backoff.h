// File: kube/backoff.h
//
// Reconnect delays for watches: exponential with jitter, as client-go's reflector
// (k8s.io/client-go tools/cache/reflector.go: initial 800 ms, factor 2, cap 30 s, jitter 1.0,
// reset after 2 minutes of success), from a seeded generator so runs are reproducible.
#pragma once

#include <cstdint>

namespace wasched::kube {

// BackoffOptions: seconds. `jitter` j: each delay d becomes d + uniform[0, j·d).
struct BackoffOptions {
  double initial = 0.8;
  double factor = 2.0;
  double cap = 30.0;
  double jitter = 1.0;
  uint64_t seed = 1;
};

// Backoff: Next() gives the next delay and doubles the base (up to cap); Reset() returns to
// `initial` after a success. Same seed, same sequence on every platform (own SplitMix64, not
// std:: distributions). Not thread-safe. O(1).
class Backoff {
 public:
  explicit Backoff(BackoffOptions options = {});
  [[nodiscard]] double Next();
  void Reset();

 private:
  double Uniform();  // [0, 1)
  BackoffOptions options_;
  double base_;
  uint64_t state_;
};

}  // namespace wasched::kube
