// File: sched/queue/backoff.h
//
// Backoff: how long a scheduling unit that failed waits before it may be retried, as upstream's
// backoff queue computes it (kubernetes/kubernetes pkg/scheduler/backend/queue/backoff_queue.go,
// calculateBackoffDuration; defaults DefaultPodInitialBackoffDuration = 1 s and
// DefaultPodMaxBackoffDuration = 10 s in pkg/scheduler/backend/queue/scheduling_queue.go):
// no attempt yet → 0; attempt 1 → initial; each further attempt doubles it, capped at max.
// With the defaults: attempts 1, 2, 3, 4, 5, 6 → 1, 2, 4, 8, 10, 10 s.
//
// Also the unschedulable pool's leftover limit: a unit parked longer than
// kPodMaxInUnschedulablePodsDuration (DefaultPodMaxInUnschedulablePodsDuration, 5 min) is
// retried even without an event (flushUnschedulablePodsLeftover).
#pragma once

#include <chrono>
#include <cstdint>

#include "sched/queue/clock.h"

namespace wasched::sched {

inline constexpr Duration kPodInitialBackoff = std::chrono::seconds(1);
inline constexpr Duration kPodMaxBackoff = std::chrono::seconds(10);
inline constexpr Duration kPodMaxInUnschedulablePodsDuration = std::chrono::minutes(5);

// BackoffDuration: the backoff after `attempts` scheduling attempts (0 → 0). Overflow-safe for
// any attempts (the doubling stops at `max`). O(min(attempts, log2(max/initial))).
[[nodiscard]] Duration BackoffDuration(int32_t attempts, Duration initial = kPodInitialBackoff,
                                       Duration max = kPodMaxBackoff);

}  // namespace wasched::sched
