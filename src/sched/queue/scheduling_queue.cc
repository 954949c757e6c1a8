#include "sched/queue/scheduling_queue.h"

namespace wasched::sched {

void SchedulingQueue::Add(const QueuedUnit& unit) { active_.insert(unit); }

std::optional<QueuedUnit> SchedulingQueue::Pop() {
  if (active_.empty()) return std::nullopt;
  QueuedUnit u = *active_.begin();
  active_.erase(active_.begin());
  return u;
}

void SchedulingQueue::MoveAllToActive() {
  for (const auto& u : unschedulable_) active_.insert(u);
  unschedulable_.clear();
}

}  // namespace wasched::sched
