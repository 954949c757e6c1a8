// File: kube/rate_limiter.h
//
// Client-side request rate limiting: a token bucket of `burst` tokens refilled at `qps` per
// second, as client-go's flowcontrol.NewTokenBucketRateLimiter (k8s.io/client-go
// util/flowcontrol/throttle.go; rest.Config QPS default 5, Burst 10; kube-scheduler's
// componentconfig defaults clientConnection.qps 50, burst 100). Each API request takes one token.
#pragma once

#include "kube/clock.h"

namespace wasched::kube {

// RateLimiter: Wait() blocks (through the Clock) until a token is available and takes it.
// qps <= 0 disables limiting. Not thread-safe: one limiter per client thread.
class RateLimiter {
 public:
  RateLimiter(double qps, int burst, Clock clock);
  // Wait: returns the seconds it waited (0 when a token was there). O(1).
  double Wait();

 private:
  double qps_;
  double burst_;
  double tokens_;
  double last_;
  Clock clock_;
};

}  // namespace wasched::kube
