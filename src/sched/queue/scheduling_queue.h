// File: sched/queue/scheduling_queue.h
//
// SchedulingQueue: the order in which scheduling units are attempted (upstream
// pkg/scheduler/backend/queue/scheduling_queue.go, PrioritySort). A unit is a bare pod or a
// standalone PodGroup (its members travel with it). Active units pop by priority (higher first),
// then creation time (earlier first), then input order; units that failed wait in the
// unschedulable pool until a cluster event that could help (capacity freed, nodes added) moves
// them back. `schedule` runs to a fixed point: a failed unit is retried only after such an event.
//
// Backoff durations (1 s initial, 10 s max) matter only with a clock (simulate); the one-shot
// `schedule` has no time, so the pool is flushed by events alone.
// Not thread-safe; owned by the scheduling loop.
#pragma once

#include <cstdint>
#include <optional>
#include <set>
#include <vector>

namespace wasched::sched {

// QueuedUnit: `is_group` selects whether `index` is a GroupIndex or a PodIndex.
struct QueuedUnit {
  bool is_group = false;
  int32_t index = 0;
  int32_t priority = 0;
  int64_t creation = 0;
  int32_t input_order = 0;
};

class SchedulingQueue {
 public:
  // Add: into the active queue. O(log n).
  void Add(const QueuedUnit& unit);
  // Pop: the next active unit, or nullopt when none is active. O(log n).
  [[nodiscard]] std::optional<QueuedUnit> Pop();
  // AddUnschedulable: park a unit that failed this cycle. O(1).
  void AddUnschedulable(const QueuedUnit& unit) { unschedulable_.push_back(unit); }
  // MoveAllToActive: a cluster event that may help happened (upstream
  // MoveAllToActiveOrBackoffQueue); every parked unit becomes active. O(k log n).
  void MoveAllToActive();

  [[nodiscard]] bool Empty() const { return active_.empty(); }
  [[nodiscard]] size_t UnschedulableCount() const { return unschedulable_.size(); }

 private:
  struct Less {
    bool operator()(const QueuedUnit& a, const QueuedUnit& b) const {
      if (a.priority != b.priority) return a.priority > b.priority;
      if (a.creation != b.creation) return a.creation < b.creation;
      if (a.input_order != b.input_order) return a.input_order < b.input_order;
      if (a.is_group != b.is_group) return a.is_group;
      return a.index < b.index;
    }
  };
  std::set<QueuedUnit, Less> active_;
  std::vector<QueuedUnit> unschedulable_;
};

}  // namespace wasched::sched
