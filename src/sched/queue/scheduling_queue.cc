// File: sched/queue/scheduling_queue.cc
//
// SchedulingQueue (see scheduling_queue.h). Upstream: pkg/scheduler/backend/queue/
// scheduling_queue.go (Add, Pop, AddUnschedulableIfNotPresent, MoveAllToActiveOrBackoffQueue,
// flushBackoffQCompleted, flushUnschedulablePodsLeftover, determineSchedulingHintForInFlightPod).
#include "sched/queue/scheduling_queue.h"

#include <algorithm>
#include <cassert>

namespace wasched::sched {

void SchedulingQueue::Reserve(size_t pods, size_t groups) {
  if (pod_entries_.size() < pods) pod_entries_.resize(pods);
  if (group_entries_.size() < groups) group_entries_.resize(groups);
  arrived_.reserve(pods + groups);
}

SchedulingQueue::Entry& SchedulingQueue::EntryOf(const UnitId& id) {
  std::vector<Entry>& v = id.first ? group_entries_ : pod_entries_;
  const auto i = static_cast<size_t>(id.second);
  if (i >= v.size()) v.resize(std::max(i + 1, v.size() * 2));
  return v[i];
}

const SchedulingQueue::Entry* SchedulingQueue::FindEntry(const UnitId& id) const {
  const std::vector<Entry>& v = id.first ? group_entries_ : pod_entries_;
  const auto i = static_cast<size_t>(id.second);
  if (id.second < 0 || i >= v.size() || v[i].state == UnitQueueState::kAbsent) return nullptr;
  return &v[i];
}

void SchedulingQueue::LeaveActive(Entry& e) {
  if (e.state != UnitQueueState::kActive) return;
  --active_count_;
  e.state = UnitQueueState::kAbsent;  // the caller sets the next state (never parked from here)
}

void SchedulingQueue::LeaveQueue(Entry& e, const UnitId& id) {
  if (e.state == UnitQueueState::kBackoff) backoff_.erase({ExpiryOf(e), id});
  LeaveActive(e);
}

void SchedulingQueue::EndFlight(const UnitId& id) {
  if (in_flight_ != id) return;
  in_flight_.reset();
  in_flight_events_.clear();
}

bool SchedulingQueue::Add(const QueuedUnit& unit) {
  Entry& e = EntryOf(IdOf(unit));
  LeaveQueue(e, IdOf(unit));
  e.unit = unit;
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
  const UnitId id = IdOf(e.unit);
  if (IsParked(e.state) != IsParked(state)) {
    if (IsParked(state)) {
      parked_.insert(id);
    } else {
      parked_.erase(id);
    }
  }
  if (IsParked(state) && (e.rejectors & kRejectorPodDependent) != 0) {
    pod_dependent_parked_.insert(id);
  } else if (IsParked(e.state)) {
    pod_dependent_parked_.erase(id);
  }
  e.state = state;
}

template <typename Fn>
void SchedulingQueue::ForEachIn(std::set<UnitId>& ids, Fn&& fn) {
  for (auto it = ids.begin(); it != ids.end();) {
    const UnitId id = *it++;  // fn may erase `id` from the set (never another id)
    fn(EntryOf(id));
  }
}

template <typename Fn>
void SchedulingQueue::ForEachParked(Fn&& fn) {
  ForEachIn(parked_, std::forward<Fn>(fn));
}

void SchedulingQueue::ToActive(Entry& e) {
  LeaveActive(e);  // re-entering active: the old heap item goes stale
  SetState(e, UnitQueueState::kActive);
  ++active_count_;
  arrived_.push_back({e.unit, ++e.stamp});
}

void SchedulingQueue::Absorb() {
  if (arrived_.empty()) return;
  if (sorted_.empty()) {
    // The run keeps the first unit at the back: reversed queue order.
    const auto before = [](const HeapItem& a, const HeapItem& b) { return Less{}(a.unit, b.unit); };
    if (!std::is_sorted(arrived_.begin(), arrived_.end(), before)) {
      std::sort(arrived_.begin(), arrived_.end(), before);
    }
    std::reverse(arrived_.begin(), arrived_.end());
    std::swap(sorted_, arrived_);
    return;
  }
  for (const HeapItem& item : arrived_) {
    active_.push_back(item);
    std::push_heap(active_.begin(), active_.end(), HeapAfter{});
  }
  arrived_.clear();
}

std::optional<QueuedUnit> SchedulingQueue::Pop() {
  FlushBackoffCompleted();
  if (active_count_ == 0) {
    active_.clear();  // only stale items can be left
    sorted_.clear();
    arrived_.clear();
    return std::nullopt;
  }
  Absorb();
  Entry* top = nullptr;
  QueuedUnit u;
  while (top == nullptr) {
    HeapItem item;
    if (!active_.empty() && (sorted_.empty() || Less{}(active_.front().unit, sorted_.back().unit))) {
      std::pop_heap(active_.begin(), active_.end(), HeapAfter{});
      item = active_.back();
      active_.pop_back();
    } else {
      item = sorted_.back();
      sorted_.pop_back();
    }
    Entry& e = EntryOf(IdOf(item.unit));
    if (e.state == UnitQueueState::kActive && e.stamp == item.stamp) {
      top = &e;
      u = item.unit;
    }
  }
  Entry& e = *top;
  LeaveActive(e);
  SetState(e, UnitQueueState::kInFlight);
  ++e.attempts;
  in_flight_ = IdOf(u);
  in_flight_events_.clear();
  return u;
}

void SchedulingQueue::Done(const QueuedUnit& unit) {
  Entry& e = EntryOf(IdOf(unit));
  // Only a parked entry is in the parked sets (SetState keeps them): a unit done after its Pop
  // (in flight, the usual case) skips two tree lookups.
  if (IsParked(e.state)) {
    parked_.erase(IdOf(unit));
    pod_dependent_parked_.erase(IdOf(unit));
  }
  LeaveQueue(e, IdOf(unit));
  const uint32_t stamp = e.stamp;  // heap items of the old entry stay stale
  e = Entry{};
  e.stamp = stamp;
  EndFlight(IdOf(unit));
}

void SchedulingQueue::RequeueLeftover(const QueuedUnit& unit) {
  // A fresh start (no attempts, no rejectors, no in-flight events), then Add: active, or gated
  // by PreEnqueue.
  Entry& e = EntryOf(IdOf(unit));
  e.attempts = 0;
  e.rejectors = kRejectorNone;
  EndFlight(IdOf(unit));
  (void)Add(unit);
}

void SchedulingQueue::AddUnschedulable(const QueuedUnit& unit, uint32_t rejectors) {
  Entry& e = EntryOf(IdOf(unit));
  LeaveQueue(e, IdOf(unit));
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
  // InterPodAffinity / PodTopologySpread register AssignedPod/Add (their Delete and Node events
  // are covered above: a unit they rejected also carries kRejectorFilter).
  if ((e.rejectors & kRejectorPodDependent) != 0 && event.kind == EventKind::kAssignedPodAdd) {
    return !pod_hint_ || pod_hint_(event, e.unit, e.rejectors & kRejectorPodDependent) ==
                             QueueingHint::kQueue;
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
  const bool own_binding = OwnBinding(event);
  if (in_flight_ && !own_binding) in_flight_events_.push_back(event);
  auto visit = [&](Entry& e) {
    if (Worth(e, event)) MoveOn(e);
  };
  if (event.kind == EventKind::kAssignedPodAdd) {
    ForEachIn(pod_dependent_parked_, visit);
    // GangScheduling's hint: a new assigned member of the unit's own hierarchy.
    if (event.root >= 0 && !own_binding) {
      Entry& e = EntryOf({true, event.root});
      if (IsParked(e.state) && (e.rejectors & kRejectorPodDependent) == 0) visit(e);
    }
  } else {
    ForEachParked(visit);
  }
}

void SchedulingQueue::MoveAllToActive() {
  ForEachParked([&](Entry& e) {
    if (e.state == UnitQueueState::kUnschedulable) MoveOn(e);
  });
}

void SchedulingQueue::FlushBackoffCompleted() {
  const Duration now = clock_->Now();
  while (!backoff_.empty() && backoff_.begin()->first <= now) {
    Entry& e = EntryOf(backoff_.begin()->second);
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

std::optional<Duration> SchedulingQueue::NextBackoffExpiry() const {
  if (backoff_.empty()) return std::nullopt;
  return backoff_.begin()->first;
}

UnitQueueState SchedulingQueue::StateOf(const QueuedUnit& unit) const {
  const Entry* e = FindEntry(IdOf(unit));
  return e == nullptr ? UnitQueueState::kAbsent : e->state;
}

int32_t SchedulingQueue::Attempts(const QueuedUnit& unit) const {
  const Entry* e = FindEntry(IdOf(unit));
  return e == nullptr ? 0 : e->attempts;
}

std::optional<Duration> SchedulingQueue::BackoffExpiry(const QueuedUnit& unit) const {
  const Entry* e = FindEntry(IdOf(unit));
  if (e == nullptr || e->attempts == 0) return std::nullopt;
  return ExpiryOf(*e);
}

size_t SchedulingQueue::UnschedulableCount() const {
  size_t n = 0;
  for (const UnitId& id : parked_) n += FindEntry(id)->state == UnitQueueState::kUnschedulable;
  return n;
}

size_t SchedulingQueue::GatedCount() const {
  size_t n = 0;
  for (const UnitId& id : parked_) n += FindEntry(id)->state == UnitQueueState::kGated;
  return n;
}

}  // namespace wasched::sched
