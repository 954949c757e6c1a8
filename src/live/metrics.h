// File: live/metrics.h
//
// The live scheduler's metrics, rendered in the Prometheus text format (version 0.0.4) for
// `/metrics`. Names, labels and buckets are kube-scheduler v1.37.2's where one exists
// (pkg/scheduler/metrics/metrics.go):
//   scheduler_schedule_attempts_total{profile,result}          counter (scheduled, unschedulable,
//                                                               error)
//   scheduler_pending_pods{queue}                               gauge (active, backoff,
//                                                               unschedulable, gated)
//   scheduler_scheduling_attempt_duration_seconds{profile,result} histogram, 1 ms · 2^i, 15
//   scheduler_pod_scheduling_sli_duration_seconds{attempts}     histogram, 10 ms · 2^i, 20
//   scheduler_preemption_victims                                histogram, 1 · 2^i, 7
//   scheduler_preemption_attempts_total                         counter
// plus wasched's own (gangs, cycles, API writes):
//   wasched_scheduling_cycles_total, wasched_scheduling_cycle_duration_seconds (histogram),
//   wasched_gangs_scheduled_total, wasched_bindings_total{result} (success, failure),
//   wasched_api_writes_total{verb,result}, wasched_events_dropped_total, wasched_leader (gauge 0/1).
// Seconds everywhere. Thread-safety: every member may be called from any thread. Rendering is
// O(series); recording is O(buckets).
#pragma once

#include <array>
#include <atomic>
#include <cstdint>
#include <map>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

namespace wasched::live {

// Histogram: cumulative buckets with upper bounds `bounds` (seconds or counts), sum and count.
class Histogram {
 public:
  explicit Histogram(std::vector<double> bounds);
  void Observe(double value);
  // Render: the _bucket / _sum / _count lines of `name` with `labels` ("" or `a="b",c="d"`).
  void Render(const std::string& name, const std::string& labels, std::string* out) const;

 private:
  mutable std::mutex mu_;
  std::vector<double> bounds_;
  std::vector<uint64_t> counts_;  // per bucket, not cumulative
  double sum_ = 0;
  uint64_t count_ = 0;
};

// ExponentialBuckets: start · factor^i for i < count (prometheus.ExponentialBuckets).
[[nodiscard]] std::vector<double> ExponentialBuckets(double start, double factor, int count);

// PendingCounts: the pending pods of this scheduler by upstream's queue names.
struct PendingCounts {
  int64_t active = 0;
  int64_t backoff = 0;
  int64_t unschedulable = 0;
  int64_t gated = 0;
};

class Metrics {
 public:
  explicit Metrics(std::string profile);

  // RecordAttempt: one scheduling attempt of one pod ("scheduled", "unschedulable", "error")
  // that took `seconds` (the cycle it was decided in).
  void RecordAttempt(const std::string& result, double seconds);
  // RecordScheduledPod: a pod bound `seconds` after it was first seen, after `attempts` tries.
  void RecordScheduledPod(double seconds, int attempts);
  // RecordPreemption: one preemption that deleted `victims` pods.
  void RecordPreemption(int victims);
  void RecordCycle(double seconds);
  void RecordGangScheduled();
  void RecordBinding(bool success);
  void RecordWrite(const std::string& verb, bool success);
  void SetPending(const PendingCounts& pending);
  void SetLeader(bool leader);
  // SetEventsDropped: events not sent because the event queue was full (a running total).
  void SetEventsDropped(uint64_t dropped);

  // Render: every metric with HELP and TYPE lines, families in a fixed order.
  [[nodiscard]] std::string Render() const;

 private:
  std::string profile_;
  mutable std::mutex mu_;  // guards the maps below
  std::map<std::string, uint64_t> attempts_;                    // result → count
  std::map<std::string, Histogram> attempt_duration_;           // result → histogram
  std::map<std::string, Histogram> sli_duration_;               // attempts label → histogram
  std::map<std::pair<std::string, std::string>, uint64_t> writes_;  // (verb, result)
  Histogram preemption_victims_;
  Histogram cycle_duration_;
  std::atomic<uint64_t> preemption_attempts_{0};
  std::atomic<uint64_t> cycles_{0};
  std::atomic<uint64_t> gangs_scheduled_{0};
  std::atomic<uint64_t> bindings_success_{0};
  std::atomic<uint64_t> bindings_failure_{0};
  std::atomic<int64_t> pending_active_{0};
  std::atomic<int64_t> pending_backoff_{0};
  std::atomic<int64_t> pending_unschedulable_{0};
  std::atomic<int64_t> pending_gated_{0};
  std::atomic<int> leader_{0};
  std::atomic<uint64_t> events_dropped_{0};
};

}  // namespace wasched::live
