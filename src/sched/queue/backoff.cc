// File: sched/queue/backoff.cc
#include "sched/queue/backoff.h"

namespace wasched::sched {

Duration BackoffDuration(int32_t attempts, Duration initial, Duration max) {
  if (attempts <= 0) return Duration::zero();
  Duration d = initial;
  for (int32_t i = 1; i < attempts; ++i) {
    // Subtraction instead of addition, as upstream, so the doubling cannot overflow.
    if (d > max - d) return max;
    d += d;
  }
  return d < max ? d : max;
}

}  // namespace wasched::sched
