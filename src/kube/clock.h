// File: kube/clock.h
//
// Time for the API client's waits (rate limiting, reconnect backoff), injectable so tests run
// without sleeping and deterministically (engineering rule 6).
#pragma once

#include <functional>

namespace wasched::kube {

// Clock: `now` in seconds on a monotonic scale; `sleep` waits that many seconds (>= 0).
struct Clock {
  std::function<double()> now;
  std::function<void(double seconds)> sleep;
};

// SteadyClock: std::chrono::steady_clock and std::this_thread::sleep_for. Thread-safe.
[[nodiscard]] Clock SteadyClock();

}  // namespace wasched::kube
