// File: kube/rate_limiter.cc
#include "kube/rate_limiter.h"

#include <algorithm>

namespace wasched::kube {

RateLimiter::RateLimiter(double qps, int burst, Clock clock)
    : qps_(qps), burst_(std::max(1, burst)), tokens_(burst_), last_(clock.now()),
      clock_(std::move(clock)) {}

double RateLimiter::Wait() {
  if (qps_ <= 0) return 0;
  const double now = clock_.now();
  tokens_ = std::min(burst_, tokens_ + (now - last_) * qps_);
  last_ = now;
  if (tokens_ >= 1) {
    tokens_ -= 1;
    return 0;
  }
  const double wait = (1 - tokens_) / qps_;
  clock_.sleep(wait);
  last_ = clock_.now();
  tokens_ = 0;  // the refilled token is spent on this request
  return wait;
}

}  // namespace wasched::kube
