// File: sched/framework/status.h
//
// Status: the outcome of a scheduling step. Scheduling outcomes ("does not fit", "gang not yet
// complete") are values, not errors; the code says what the queue does next. Mirrors upstream
// `k8s.io/kube-scheduler/framework.Status` / `Code`.
//
//   Status s = Status::Unschedulable("Insufficient cpu");
//   if (!s.IsSuccess()) queue.Requeue(unit, s);   // backoff, preemption may help
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace wasched::sched {

// Code: upstream's codes; the comment beside each is the effect on the scheduling queue.
enum class Code {
  kSuccess,                       // proceed; the pod/group is bound (or the step passes)
  kError,                         // unexpected internal failure: requeued soon (backoff), no preemption
  kUnschedulable,                 // does not fit now: PostFilter (preemption) may help; unit goes
                                  // to backoff, then the unschedulable pool until an event helps
  kUnschedulableAndUnresolvable,  // preemption cannot help: skip PostFilter; unschedulable pool
  kWait,                          // Permit/PlacementFeasible: keep going, quorum not yet reached
  kSkip,                          // plugin not relevant for this pod (e.g. no PreFilter state)
  kPending,                       // waiting for something outside the scheduler: no backoff penalty
};

[[nodiscard]] const char* CodeName(Code c);

// Status: a code, human-readable reasons, and the plugin that produced it.
// Default-constructed Status is Success (as upstream's nil *Status).
class [[nodiscard]] Status {
 public:
  Status() = default;
  Status(Code code, std::vector<std::string> reasons, std::string plugin = {})
      : code_(code), reasons_(std::move(reasons)), plugin_(std::move(plugin)) {}

  static Status Success() { return {}; }
  static Status Unschedulable(std::string reason, std::string plugin = {}) {
    return Status(Code::kUnschedulable, {std::move(reason)}, std::move(plugin));
  }
  static Status UnschedulableAndUnresolvable(std::string reason, std::string plugin = {}) {
    return Status(Code::kUnschedulableAndUnresolvable, {std::move(reason)}, std::move(plugin));
  }
  static Status Wait(std::string reason = {}) { return Status(Code::kWait, {std::move(reason)}); }
  static Status Error(std::string reason) { return Status(Code::kError, {std::move(reason)}); }

  [[nodiscard]] Code code() const { return code_; }
  [[nodiscard]] bool IsSuccess() const { return code_ == Code::kSuccess; }
  [[nodiscard]] bool IsWait() const { return code_ == Code::kWait; }
  // IsRejected: Unschedulable or UnschedulableAndUnresolvable.
  [[nodiscard]] bool IsRejected() const {
    return code_ == Code::kUnschedulable || code_ == Code::kUnschedulableAndUnresolvable;
  }
  [[nodiscard]] const std::vector<std::string>& reasons() const { return reasons_; }
  [[nodiscard]] const std::string& plugin() const { return plugin_; }
  // Message: reasons joined by ", " (upstream `Status.Message()`).
  [[nodiscard]] std::string Message() const;

 private:
  Code code_ = Code::kSuccess;
  std::vector<std::string> reasons_;
  std::string plugin_;
};

}  // namespace wasched::sched
