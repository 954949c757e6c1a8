// File: sched/queue/scheduling_queue.h
//
// SchedulingQueue: the order in which scheduling units are attempted and where a unit waits
// after it failed (upstream pkg/scheduler/backend/queue/scheduling_queue.go: activeQ,
// backoffQ, unschedulablePods; PrioritySort). A unit is a bare pod or the root of a group
// hierarchy — a standalone PodGroup or a root CompositePodGroup (spec/was-v1.37.md §4.1): only
// the root is queued, its descendants and their pods travel with it.
//
//  * active     — ready to run: higher priority first, then earlier creation, then input order.
//  * backoff    — failed, and an event that may help arrived; retried once its backoff expired
//                 (BackoffDuration(attempts): 1, 2, 4, 8, 10, 10 s …, sched/queue/backoff.h).
//  * unschedulable pool — failed, no helpful event yet. A ClusterEvent moves a parked unit on
//                 when the hint of a plugin that rejected it says kQueue (to backoff while backing
//                 off, else to active); after kPodMaxInUnschedulablePodsDuration a unit is moved
//                 anyway (FlushUnschedulableLeftover).
//  * gated      — rejected at PreEnqueue (GangScheduling: group spec missing, quorum not met).
//                 A gang hint re-runs PreEnqueue (the callback given to SetPreEnqueue); it enters
//                 active only when PreEnqueue passes. Gated units have no backoff (never tried).
//
// Events that arrive while a unit is being scheduled (between Pop and AddUnschedulable) are
// kept and replayed against that unit when it fails, as upstream's in-flight events: a helpful
// one sends it to backoff instead of the pool.
//
// Deviations (documented, spec §4.3 item 7): upstream's 1-second backoff ordering windows are
// not modelled: a unit leaves backoff exactly when now ≥ failure time + backoff. The queue never
// pops from backoff itself; a one-shot run that owns its clock models upstream's
// SchedulerPopFromBackoffQ (beta, on: Pop takes the backoff head when active is empty) by
// stepping the clock to NextBackoffExpiry() when the active queue drains (sched/scheduler.cc).
//
// Time comes from the injected Clock. A failed unit reaches backoff only through an event whose
// hint says kQueue (or an error), so a static input runs out of such moves and the run ends.
// Not thread-safe; owned by the scheduling loop.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <set>
#include <utility>
#include <vector>

#include "sched/queue/backoff.h"
#include "sched/queue/clock.h"
#include "sched/queue/cluster_event.h"

namespace wasched::sched {

// QueuedUnit: `is_group` selects whether `index` is a GroupTree root index (PodGroup or
// CompositePodGroup) or a PodIndex. A group unit's hierarchy root (queueing hints) is `index`.
struct QueuedUnit {
  bool is_group = false;
  int32_t index = 0;
  int32_t priority = 0;
  int64_t creation = 0;
  int32_t input_order = 0;
};

// UnitQueueState: where a unit is.
enum class UnitQueueState : uint8_t { kAbsent, kActive, kInFlight, kBackoff, kUnschedulable, kGated };

class SchedulingQueue {
 public:
  // PreEnqueueFn: true when the unit may enter the active queue (upstream runPreEnqueuePlugins).
  using PreEnqueueFn = std::function<bool(const QueuedUnit&)>;
  // HintFn: the gang plugin's hint for a unit (plugins::GangSchedulingHint bound to the unit's
  // hierarchy root). Filter-plugin rejections use FilterPluginsHint.
  using GangHintFn = std::function<QueueingHint(const ClusterEvent&, const QueuedUnit&)>;
  // PodHintFn: the hint of the pod-dependent Filter plugins (InterPodAffinity,
  // PodTopologySpread) that rejected the unit — `rejectors` holds their kRejector* bits — for an
  // assigned-pod event (event.pod names the pod). It needs both pods, so the scheduler supplies it.
  using PodHintFn =
      std::function<QueueingHint(const ClusterEvent&, const QueuedUnit&, uint32_t rejectors)>;

  // SchedulingQueue: `clock` must outlive the queue. Without a GangHintFn, gang-rejected units
  // move on every group event.
  explicit SchedulingQueue(const Clock& clock) : clock_(&clock) {}

  // Reserve: sizes the entries for pod indices < `pods` and group indices < `groups` and the
  // active heap for `pods + groups` items at once, so Add never regrows them (each regrowth
  // copied and zeroed the entries and faulted in fresh pages: a quarter of SchedulingBasic's run).
  // Optional; O(pods + groups).
  void Reserve(size_t pods, size_t groups);

  void SetPreEnqueue(PreEnqueueFn fn) { pre_enqueue_ = std::move(fn); }
  void SetGangHint(GangHintFn fn) { gang_hint_ = std::move(fn); }
  // SetPodHint: without one, a unit rejected by a pod-dependent plugin moves on every
  // kAssignedPodAdd (upstream's answer when a hint fails).
  void SetPodHint(PodHintFn fn) { pod_hint_ = std::move(fn); }

  // Add: a new unit (upstream Add): runs PreEnqueue; passes → active, else gated.
  // Returns true when the unit became active. O(log n).
  bool Add(const QueuedUnit& unit);
  // Pop: the next active unit after moving every unit whose backoff completed to active; counts
  // the attempt; nullopt when nothing is active. The unit is in flight until AddUnschedulable or
  // Done. O(log n) amortised.
  [[nodiscard]] std::optional<QueuedUnit> Pop();
  // Done: the in-flight unit finished (bound): forget it. O(log n).
  void Done(const QueuedUnit& unit);
  // RequeueLeftover: the in-flight group unit was scheduled (its quorum met, some pods bound) but
  // members are left: it goes straight back to active, no backoff, its failure counters reset
  // and its place kept (upstream AddAttemptedPodGroupIfNeeded with a Success status:
  // requeueWithoutBackoff, preserveTimestamp, UnschedulableCount = 0; KEP-4671, spec §4.3), so the
  // next attempt, preemption included, starts at once. PreEnqueue runs (moveToActiveQ). O(log n).
  void RequeueLeftover(const QueuedUnit& unit);
  // AddUnschedulable: the in-flight unit failed; `rejectors` (Rejector bits) say who rejected
  // it — kRejectorNone (the default) means "by the unit's kind": a group unit was rejected by
  // GangScheduling (quorum) and the Filter plugins, a bare pod by the Filter plugins.
  // kRejectorError → backoff; an in-flight event whose hint says kQueue → backoff; otherwise
  // the unschedulable pool. Timestamp = now. O(log n + in-flight events).
  void AddUnschedulable(const QueuedUnit& unit, uint32_t rejectors = kRejectorNone);
  // OnEvent: evaluates the hints of every parked (pool, gated) unit; kQueue moves it on. While
  // a unit is in flight the event is also kept for it (not the in-flight group's own bindings).
  // O(parked · log n); a kAssignedPodAdd (emitted for every binding) walks only the units a
  // pod-dependent plugin rejected plus the group unit of the event's root (GangScheduling's
  // hint), the only parked ones whose hint can say kQueue for it. O(those · hint).
  void OnEvent(const ClusterEvent& event);
  // OnAssignedPodAdd: OnEvent for a kAssignedPodAdd, inline and O(1) when nothing can react: no
  // unit rejected by a pod-dependent plugin is parked and the pod is the in-flight unit itself
  // or a member of the in-flight group (their own bindings), or nothing is parked or in flight.
  void OnAssignedPodAdd(const ClusterEvent& event) {
    if (pod_dependent_parked_.empty() && (OwnBinding(event) || (parked_.empty() && !in_flight_))) {
      return;
    }
    OnEvent(event);
  }
  // ForgetInFlightEvents: the in-flight unit is attempted again within its cycle (the scheduler
  // re-runs a preemptor at once after deleting its victims), so that attempt sees every event
  // kept so far: none of them may send it to backoff when it fails again. O(1).
  void ForgetInFlightEvents() { in_flight_events_.clear(); }
  // MoveAllToActive: every pool unit moves on regardless of hints (upstream
  // MoveAllToActiveOrBackoffQueue with a nil precheck). O(k log n).
  void MoveAllToActive();
  // FlushBackoffCompleted: backoff units whose backoff expired → active. O(k log n).
  void FlushBackoffCompleted();
  // FlushUnschedulableLeftover: pool and gated units parked ≥ kPodMaxInUnschedulablePodsDuration
  // move on (event kUnschedulableTimeout; gated ones only when PreEnqueue now passes). O(parked · log n).
  void FlushUnschedulableLeftover();

  // Observers (tests, the simulator).
  [[nodiscard]] UnitQueueState StateOf(const QueuedUnit& unit) const;
  // Attempts: scheduling attempts of the unit so far (0 when unknown).
  [[nodiscard]] int32_t Attempts(const QueuedUnit& unit) const;
  // BackoffExpiry: failure time + BackoffDuration(attempts); nullopt when never failed.
  [[nodiscard]] std::optional<Duration> BackoffExpiry(const QueuedUnit& unit) const;
  [[nodiscard]] bool Empty() const { return active_count_ == 0; }
  [[nodiscard]] size_t ActiveCount() const { return active_count_; }
  [[nodiscard]] size_t BackoffCount() const { return backoff_.size(); }
  // NextBackoffExpiry: the earliest expiry of a unit in backoff; nullopt when none. O(1).
  [[nodiscard]] std::optional<Duration> NextBackoffExpiry() const;
  [[nodiscard]] size_t UnschedulableCount() const;
  [[nodiscard]] size_t GatedCount() const;

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
  using UnitId = std::pair<bool, int32_t>;
  struct Entry {
    QueuedUnit unit;
    UnitQueueState state = UnitQueueState::kAbsent;
    int32_t attempts = 0;
    Duration timestamp{};  // when it last failed (or was parked)
    uint32_t rejectors = kRejectorNone;
    uint32_t stamp = 0;    // bumped whenever the unit enters active; older heap items are stale
  };
  // HeapItem: one item of the active queue (lazy deletion: an item whose stamp is not its
  // entry's current one, or whose entry is no longer active, is skipped). The active queue is a
  // sorted run plus a binary heap: units that arrive while the run is empty (the whole input at
  // the start, in queue order more often than not) become the run, sorted once (O(n) when
  // already in order), instead of n heap pushes and n heap pops; later arrivals go to the heap.
  // Pop takes the better of the two fronts, so the order is the heap's alone.
  struct HeapItem {
    QueuedUnit unit;
    uint32_t stamp;
  };
  struct HeapAfter {  // the heap's top is the unit Less orders first
    bool operator()(const HeapItem& a, const HeapItem& b) const { return Less{}(b.unit, a.unit); }
  };
  static UnitId IdOf(const QueuedUnit& u) { return {u.is_group, u.index}; }
  // OwnBinding: `event` is a kAssignedPodAdd of the in-flight unit's own pod (a bare pod) or of a
  // member of the in-flight group's hierarchy: never an event for that unit's requeue (upstream
  // AddAttemptedPodGroupIfNeeded replays no in-flight events; a bound pod is done).
  [[nodiscard]] bool OwnBinding(const ClusterEvent& event) const {
    return event.kind == EventKind::kAssignedPodAdd && in_flight_ &&
           (in_flight_->first ? event.root == in_flight_->second : event.pod == in_flight_->second);
  }
  [[nodiscard]] Duration ExpiryOf(const Entry& e) const;
  [[nodiscard]] bool Worth(const Entry& e, const ClusterEvent& event) const;
  // MoveOn: a parked entry a hint released: gated → PreEnqueue → active | stays gated;
  // pool → backoff while backing off, else active.
  void MoveOn(Entry& e);
  void ToActive(Entry& e);
  // Absorb: moves the items that arrived since the last Pop into the sorted run (when it is
  // empty) or the heap. O(k) for k arrivals in queue order, O(k log k) otherwise.
  void Absorb();
  // SetState: every state change goes through here to keep `parked_` (the ids of Unschedulable
  // and Gated entries) and `pod_dependent_parked_` (those with a kRejectorPodDependent bit)
  // exact, so an event walks only the parked units, not every entry. REQUIRES: `e.rejectors`
  // already holds the rejectors of the new state.
  void SetState(Entry& e, UnitQueueState state);
  // EntryOf: the entry of the unit, created absent when new (entries are flat vectors indexed by
  // pod index / tree index: O(1), no allocation per unit once grown).
  Entry& EntryOf(const UnitId& id);
  [[nodiscard]] const Entry* FindEntry(const UnitId& id) const;
  // LeaveActive: the entry stops being active (its heap item goes stale).
  void LeaveActive(Entry& e);
  // LeaveQueue: the entry leaves backoff or the active queue, whichever holds it.
  void LeaveQueue(Entry& e, const UnitId& id);
  // EndFlight: if `id` is the unit in flight, it no longer is and its events are forgotten.
  void EndFlight(const UnitId& id);
  // ForEachParked: calls fn(entry) for each parked entry in id order; fn may move it on.
  template <typename Fn>
  void ForEachParked(Fn&& fn);
  template <typename Fn>
  void ForEachIn(std::set<UnitId>& ids, Fn&& fn);

  const Clock* clock_;
  PreEnqueueFn pre_enqueue_;
  GangHintFn gang_hint_;
  PodHintFn pod_hint_;
  std::vector<Entry> pod_entries_;    // by PodIndex
  std::vector<Entry> group_entries_;  // by GroupTree root index
  std::set<UnitId> parked_;  // ids of entries in state Unschedulable or Gated
  std::set<UnitId> pod_dependent_parked_;  // the subset rejected by a pod-dependent plugin
  std::vector<HeapItem> active_;   // heap (HeapAfter); may hold stale items
  std::vector<HeapItem> sorted_;   // sorted run, the first in queue order at the back; may hold
                                   // stale items
  std::vector<HeapItem> arrived_;  // items added since the last Pop (ToActive), not yet absorbed
  size_t active_count_ = 0;       // entries in state kActive
  std::set<std::pair<Duration, UnitId>> backoff_;  // by expiry, then id
  std::optional<UnitId> in_flight_;
  std::vector<ClusterEvent> in_flight_events_;
};

}  // namespace wasched::sched
