// File: live/metrics.cc
#include "live/metrics.h"

#include <cmath>

#include <fmt/format.h>

namespace wasched::live {
namespace {

std::string Number(double v) {
  if (std::isinf(v)) return v > 0 ? "+Inf" : "-Inf";
  return fmt::format("{}", v);
}

void Header(std::string* out, const char* name, const char* type, const char* help) {
  *out += fmt::format("# HELP {} {}\n# TYPE {} {}\n", name, help, name, type);
}

}  // namespace

Histogram::Histogram(std::vector<double> bounds)
    : bounds_(std::move(bounds)), counts_(bounds_.size() + 1, 0) {}

void Histogram::Observe(double value) {
  std::lock_guard<std::mutex> lock(mu_);
  size_t i = 0;
  while (i < bounds_.size() && value > bounds_[i]) ++i;
  ++counts_[i];
  sum_ += value;
  ++count_;
}

void Histogram::Render(const std::string& name, const std::string& labels,
                       std::string* out) const {
  std::lock_guard<std::mutex> lock(mu_);
  const std::string sep = labels.empty() ? "" : ",";
  uint64_t cumulative = 0;
  for (size_t i = 0; i < bounds_.size(); ++i) {
    cumulative += counts_[i];
    *out += fmt::format("{}_bucket{{{}{}le=\"{}\"}} {}\n", name, labels, sep, Number(bounds_[i]),
                        cumulative);
  }
  cumulative += counts_.back();
  *out += fmt::format("{}_bucket{{{}{}le=\"+Inf\"}} {}\n", name, labels, sep, cumulative);
  const std::string braces = labels.empty() ? "" : "{" + labels + "}";
  *out += fmt::format("{}_sum{} {}\n{}_count{} {}\n", name, braces, Number(sum_), name, braces,
                      count_);
}

std::vector<double> ExponentialBuckets(double start, double factor, int count) {
  std::vector<double> bounds;
  double v = start;
  for (int i = 0; i < count; ++i, v *= factor) bounds.push_back(v);
  return bounds;
}

Metrics::Metrics(std::string profile)
    : profile_(std::move(profile)),
      preemption_victims_(ExponentialBuckets(1, 2, 7)),
      cycle_duration_(ExponentialBuckets(0.0001, 2, 20)) {}

void Metrics::RecordAttempt(const std::string& result, double seconds) {
  std::lock_guard<std::mutex> lock(mu_);
  ++attempts_[result];
  auto it = attempt_duration_.find(result);
  if (it == attempt_duration_.end()) {
    it = attempt_duration_.try_emplace(result, ExponentialBuckets(0.001, 2, 15)).first;
  }
  it->second.Observe(seconds);
}

void Metrics::RecordScheduledPod(double seconds, int attempts) {
  const std::string label = attempts >= 16 ? "16+" : std::to_string(attempts);
  std::lock_guard<std::mutex> lock(mu_);
  auto it = sli_duration_.find(label);
  if (it == sli_duration_.end()) {
    it = sli_duration_.try_emplace(label, ExponentialBuckets(0.01, 2, 20)).first;
  }
  it->second.Observe(seconds);
}

void Metrics::RecordPreemption(int victims) {
  ++preemption_attempts_;
  preemption_victims_.Observe(victims);
}

void Metrics::RecordCycle(double seconds) {
  ++cycles_;
  cycle_duration_.Observe(seconds);
}

void Metrics::RecordGangScheduled() { ++gangs_scheduled_; }

void Metrics::RecordBinding(bool success) {
  if (success) {
    ++bindings_success_;
  } else {
    ++bindings_failure_;
  }
}

void Metrics::RecordWrite(const std::string& verb, bool success) {
  std::lock_guard<std::mutex> lock(mu_);
  ++writes_[{verb, success ? "success" : "failure"}];
}

void Metrics::SetPending(const PendingCounts& pending) {
  pending_active_ = pending.active;
  pending_backoff_ = pending.backoff;
  pending_unschedulable_ = pending.unschedulable;
  pending_gated_ = pending.gated;
}

void Metrics::SetLeader(bool leader) { leader_ = leader ? 1 : 0; }

void Metrics::SetEventsDropped(uint64_t dropped) { events_dropped_ = dropped; }

std::string Metrics::Render() const {
  std::string out;
  std::lock_guard<std::mutex> lock(mu_);
  Header(&out, "scheduler_schedule_attempts_total", "counter",
         "Number of attempts to schedule pods, by the result. 'unschedulable' means a pod could "
         "not be scheduled, while 'error' means an internal scheduler problem.");
  for (const char* result : {"error", "scheduled", "unschedulable"}) {
    auto it = attempts_.find(result);
    out += fmt::format("scheduler_schedule_attempts_total{{profile=\"{}\",result=\"{}\"}} {}\n",
                       profile_, result, it == attempts_.end() ? 0 : it->second);
  }
  Header(&out, "scheduler_pending_pods", "gauge",
         "Number of pending pods, by the queue type.");
  out += fmt::format("scheduler_pending_pods{{queue=\"active\"}} {}\n", pending_active_.load());
  out += fmt::format("scheduler_pending_pods{{queue=\"backoff\"}} {}\n", pending_backoff_.load());
  out += fmt::format("scheduler_pending_pods{{queue=\"gated\"}} {}\n", pending_gated_.load());
  out += fmt::format("scheduler_pending_pods{{queue=\"unschedulable\"}} {}\n",
                     pending_unschedulable_.load());
  Header(&out, "scheduler_scheduling_attempt_duration_seconds", "histogram",
         "Scheduling attempt latency in seconds (scheduling algorithm + binding decision).");
  for (const auto& [result, histogram] : attempt_duration_) {
    histogram.Render("scheduler_scheduling_attempt_duration_seconds",
                     fmt::format("profile=\"{}\",result=\"{}\"", profile_, result), &out);
  }
  Header(&out, "scheduler_pod_scheduling_sli_duration_seconds", "histogram",
         "E2e latency for a pod being scheduled, from the time the pod enters the scheduling "
         "queue and might involve multiple scheduling attempts.");
  for (const auto& [attempts, histogram] : sli_duration_) {
    histogram.Render("scheduler_pod_scheduling_sli_duration_seconds",
                     fmt::format("attempts=\"{}\"", attempts), &out);
  }
  Header(&out, "scheduler_preemption_attempts_total", "counter",
         "Total preemption attempts in the cluster till now.");
  out += fmt::format("scheduler_preemption_attempts_total {}\n", preemption_attempts_.load());
  Header(&out, "scheduler_preemption_victims", "histogram", "Number of selected preemption victims.");
  preemption_victims_.Render("scheduler_preemption_victims", "", &out);
  Header(&out, "wasched_scheduling_cycles_total", "counter",
         "Scheduling cycles run over the whole pending set.");
  out += fmt::format("wasched_scheduling_cycles_total {}\n", cycles_.load());
  Header(&out, "wasched_scheduling_cycle_duration_seconds", "histogram",
         "Duration of one scheduling cycle (snapshot, decode, schedule) in seconds.");
  cycle_duration_.Render("wasched_scheduling_cycle_duration_seconds", "", &out);
  Header(&out, "wasched_gangs_scheduled_total", "counter",
         "PodGroups whose PodGroupInitiallyScheduled condition this scheduler set to True.");
  out += fmt::format("wasched_gangs_scheduled_total {}\n", gangs_scheduled_.load());
  Header(&out, "wasched_bindings_total", "counter", "Pod bindings sent, by the result.");
  out += fmt::format("wasched_bindings_total{{result=\"failure\"}} {}\n", bindings_failure_.load());
  out += fmt::format("wasched_bindings_total{{result=\"success\"}} {}\n", bindings_success_.load());
  Header(&out, "wasched_api_writes_total", "counter",
         "Writes to the API server other than bindings, by verb and result.");
  for (const auto& [key, count] : writes_) {
    out += fmt::format("wasched_api_writes_total{{result=\"{}\",verb=\"{}\"}} {}\n", key.second,
                       key.first, count);
  }
  Header(&out, "wasched_events_dropped_total", "counter",
         "Events not sent because 1000 were already waiting (as client-go's broadcaster drops).");
  out += fmt::format("wasched_events_dropped_total {}\n", events_dropped_.load());
  Header(&out, "wasched_leader", "gauge", "1 while this instance holds the leader lease.");
  out += fmt::format("wasched_leader {}\n", leader_.load());
  return out;
}

}  // namespace wasched::live
