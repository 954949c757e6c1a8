// File: sched/queue/clock.h
//
// Clock: the time source of the scheduling queue (backoff expiry, the unschedulable pool's
// leftover flush), injected so one queue serves the CLI, the simulator and a live cluster
// (upstream: k8s.io/utils/clock, which pkg/scheduler/backend/queue takes as a parameter and
// whose testing.FakeClock upstream's queue tests step by hand).
//
// Time is a `Duration` since an arbitrary epoch (milliseconds): only differences matter.
// `wasched schedule` runs on a FakeClock that never moves, so its output does not depend on the
// machine's time (design.md: same input, same bytes).
//
//   FakeClock clock;                 // t = 0
//   SchedulingQueue queue(clock);
//   clock.Step(std::chrono::seconds(2));
#pragma once

#include <chrono>

namespace wasched::sched {

// Duration: queue time, milliseconds. Also used for points in time (since the clock's epoch).
using Duration = std::chrono::milliseconds;

// Clock: read-only time source. Implementations must be monotonic (Now never decreases).
class Clock {
 public:
  virtual ~Clock() = default;
  // Now: the current time since the clock's epoch. O(1).
  [[nodiscard]] virtual Duration Now() const = 0;
};

// FakeClock: a clock that moves only when told (upstream clock/testing.FakeClock). Not
// thread-safe.
class FakeClock final : public Clock {
 public:
  explicit FakeClock(Duration start = Duration::zero()) : now_(start) {}
  [[nodiscard]] Duration Now() const override { return now_; }
  // Step: advance by `d` (d ≥ 0; a negative step is ignored to keep the clock monotonic).
  void Step(Duration d) {
    if (d > Duration::zero()) now_ += d;
  }
  // SetTime: jump to `t` when t is later than now; earlier times are ignored.
  void SetTime(Duration t) {
    if (t > now_) now_ = t;
  }

 private:
  Duration now_;
};

}  // namespace wasched::sched
