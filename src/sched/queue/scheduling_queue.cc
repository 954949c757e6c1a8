// File: sched/queue/scheduling_queue.cc
//
// SchedulingQueue (see scheduling_queue.h). Upstream: pkg/scheduler/backend/queue/
// scheduling_queue.go (Add, Pop, AddUnschedulableIfNotPresent, MoveAllToActiveOrBackoffQueue,
// flushBackoffQCompleted, flushUnschedulablePodsLeftover, determineSchedulingHintForInFlightPod).
#include "sched/queue/scheduling_queue.h"

#include <cassert>

namespace wasched::sched {

bool SchedulingQueue::Add(const QueuedUnit& unit) {
  Entry& e = entries_[IdOf(unit)];
  e.unit = unit;
  if (e.state == UnitQueueState::kActive) active_.erase(e.unit);
  if (e.state == UnitQueueState::kBackoff) backoff_.erase({ExpiryOf(e), IdOf(unit)});
  if (pre_enqueue_ && !pre_enqueue_(unit)) {
    SetState(e, UnitQueueState::kGated);
    e.rejectors |= kRejectorGang;
    e.timestamp = clock_->Now();
    return false;
  }
  ToActive(e);
  return true;
}

namespace {
bool IsParked(UnitQueueState s) {
  return s == UnitQueueState::kUnschedulable || s == UnitQueueState::kGated;
}
}  // namespace

void SchedulingQueue::SetState(Entry& e, UnitQueueState state) {
  if (IsParked(e.state) != IsParked(state)) {
    if (IsParked(state)) {
      parked_.insert(IdOf(e.unit));
    } else {
      parked_.erase(IdOf(e.unit));
    }
  }
  e.state = state;
}

template <typename Fn>
void SchedulingQueue::ForEachParked(Fn&& fn) {
  for (auto it = parked_.begin(); it != parked_.end();) {
    const UnitId id = *it++;  // fn may erase `id` from parked_ (never another id)
    fn(entries_.at(id));
  }
}

void SchedulingQueue::ToActive(Entry& e) {
  SetState(e, UnitQueueState::kActive);
  active_.insert(e.unit);
}

std::optional<QueuedUnit> SchedulingQueue::Pop() {
  FlushBackoffCompleted();
  if (active_.empty()) return std::nullopt;
  QueuedUnit u = *active_.begin();
  active_.erase(active_.begin());
  Entry& e = entries_.at(IdOf(u));
  SetState(e, UnitQueueState::kInFlight);
  ++e.attempts;
  in_flight_ = IdOf(u);
  in_flight_events_.clear();
  return u;
}

void SchedulingQueue::Done(const QueuedUnit& unit) {
  parked_.erase(IdOf(unit));
  entries_.erase(IdOf(unit));
  if (in_flight_ == IdOf(unit)) {
    in_flight_.reset();
    in_flight_events_.clear();
  }
}

void SchedulingQueue::AddUnschedulable(const QueuedUnit& unit, uint32_t rejectors) {
  Entry& e = entries_[IdOf(unit)];
  if (e.state == UnitQueueState::kActive) active_.erase(e.unit);
  if (e.state == UnitQueueState::kBackoff) backoff_.erase({ExpiryOf(e), IdOf(unit)});
  e.unit = unit;
  if (e.attempts == 0) e.attempts = 1;  // failed without Pop (library callers): one attempt
  if (rejectors == kRejectorNone) {
    rejectors = unit.is_group ? (kRejectorGang | kRejectorFilter) : kRejectorFilter;
  }
  e.rejectors = rejectors;
  e.timestamp = clock_->Now();
  bool to_backoff = (rejectors & kRejectorError) != 0;
  if (in_flight_ == IdOf(unit)) {
    for (const ClusterEvent& event : in_flight_events_) {
      if (to_backoff) break;
      to_backoff = Worth(e, event);
    }
    in_flight_.reset();
    in_flight_events_.clear();
  }
  if (to_backoff) {
    SetState(e, UnitQueueState::kBackoff);
    backoff_.insert({ExpiryOf(e), IdOf(unit)});
  } else {
    SetState(e, UnitQueueState::kUnschedulable);
  }
}

Duration SchedulingQueue::ExpiryOf(const Entry& e) const {
  return e.timestamp + BackoffDuration(e.attempts);
}

bool SchedulingQueue::Worth(const Entry& e, const ClusterEvent& event) const {
  if (event.kind == EventKind::kUnschedulableTimeout) return true;
  if ((e.rejectors & kRejectorGang) != 0) {
    const QueueingHint h = gang_hint_ ? gang_hint_(event, e.unit) : QueueingHint::kQueue;
    if (h == QueueingHint::kQueue) return true;
  }
  if ((e.rejectors & (kRejectorFilter | kRejectorError)) != 0 &&
      FilterPluginsHint(event) == QueueingHint::kQueue) {
    return true;
  }
  return false;
}

void SchedulingQueue::MoveOn(Entry& e) {
  if (e.state == UnitQueueState::kGated) {
    if (!pre_enqueue_ || pre_enqueue_(e.unit)) ToActive(e);
    return;
  }
  assert(e.state == UnitQueueState::kUnschedulable);
  if (clock_->Now() < ExpiryOf(e)) {
    SetState(e, UnitQueueState::kBackoff);
    backoff_.insert({ExpiryOf(e), IdOf(e.unit)});
  } else {
    ToActive(e);
  }
}

void SchedulingQueue::OnEvent(const ClusterEvent& event) {
  if (in_flight_) in_flight_events_.push_back(event);
  ForEachParked([&](Entry& e) {
    if (Worth(e, event)) MoveOn(e);
  });
}

void SchedulingQueue::MoveAllToActive() {
  ForEachParked([&](Entry& e) {
    if (e.state == UnitQueueState::kUnschedulable) MoveOn(e);
  });
}

void SchedulingQueue::FlushBackoffCompleted() {
  const Duration now = clock_->Now();
  while (!backoff_.empty() && backoff_.begin()->first <= now) {
    Entry& e = entries_.at(backoff_.begin()->second);
    backoff_.erase(backoff_.begin());
    ToActive(e);
  }
}

void SchedulingQueue::FlushUnschedulableLeftover() {
  const Duration now = clock_->Now();
  ClusterEvent timeout{EventKind::kUnschedulableTimeout};
  ForEachParked([&](Entry& e) {
    if (now - e.timestamp >= kPodMaxInUnschedulablePodsDuration && Worth(e, timeout)) MoveOn(e);
  });
}

UnitQueueState SchedulingQueue::StateOf(const QueuedUnit& unit) const {
  auto it = entries_.find(IdOf(unit));
  return it == entries_.end() ? UnitQueueState::kAbsent : it->second.state;
}

int32_t SchedulingQueue::Attempts(const QueuedUnit& unit) const {
  auto it = entries_.find(IdOf(unit));
  return it == entries_.end() ? 0 : it->second.attempts;
}

std::optional<Duration> SchedulingQueue::BackoffExpiry(const QueuedUnit& unit) const {
  auto it = entries_.find(IdOf(unit));
  if (it == entries_.end() || it->second.attempts == 0) return std::nullopt;
  return ExpiryOf(it->second);
}

size_t SchedulingQueue::UnschedulableCount() const {
  size_t n = 0;
  for (const UnitId& id : parked_) n += entries_.at(id).state == UnitQueueState::kUnschedulable;
  return n;
}

size_t SchedulingQueue::GatedCount() const {
  size_t n = 0;
  for (const UnitId& id : parked_) n += entries_.at(id).state == UnitQueueState::kGated;
  return n;
}

}  // namespace wasched::sched
