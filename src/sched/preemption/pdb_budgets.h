// File: sched/preemption/pdb_budgets.h
//
// PdbBudgets: how many more disruptions each PodDisruptionBudget allows, and which preemption
// victims would exceed them (upstream pkg/scheduler/framework/preemption
// filterPodsWithPDBViolation / filterVictimsWithPDBViolation).
//
// wasched reads no PDB status: `disruptionsAllowed` is computed the way the disruption controller
// computes it (pkg/controller/disruption), from the pods the scheduler holds at the time of the
// call: healthy = the running pods of the namespace the selector matches; expected = the
// matching pods (pending and running) for an integer minAvailable, else the matching pods that
// have a controller reference (upstream sums the controllers' scale and counts a pod without a
// controller as nothing; wasched has no scale: a documented approximation); desiredHealthy =
// minAvailable (an integer, or a percentage of expected rounded up), or expected −
// maxUnavailable (likewise rounded up), or 0; allowed = max(0, healthy − desiredHealthy), and 0
// when expected is 0 (so maxUnavailable over bare pods allows no disruption, as upstream).
//
//   PdbBudgets budgets(objects.pod_disruption_budgets, pods);
//   PdbBudgets::Counter c = budgets.NewCounter();   // per evaluation
//   int32_t v = budgets.Take(c, unit.pods);          // in importance order, most important first
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "api/pod_disruption_budget.h"
#include "sched/framework/pod_info.h"

namespace wasched::sched::preemption {

class PdbBudgets {
 public:
  // Counter: remaining allowed disruptions per budget during one evaluation.
  using Counter = std::vector<int64_t>;

  // PdbBudgets: allowed disruptions per budget from `pods` now. O(P × B × selector).
  PdbBudgets(std::span<const api::PodDisruptionBudget> pdbs, const std::vector<PodInfo>& pods);

  [[nodiscard]] bool empty() const { return budgets_.empty(); }
  [[nodiscard]] Counter NewCounter() const { return allowed_; }
  [[nodiscard]] int64_t Allowed(size_t budget) const { return allowed_[budget]; }

  // Take: evicts `victims` against `counter`: each pod decrements every budget that selects it
  // (same namespace, non-empty selector matching the pod's labels, as upstream); the result is
  // how many of the pods drove a budget below zero (0 = the eviction violates no budget).
  // O(|victims| × B).
  [[nodiscard]] int32_t Take(Counter& counter, std::span<const PodIndex> victims) const;

 private:
  [[nodiscard]] bool Selects(size_t budget, const api::Pod& pod) const;

  std::span<const api::PodDisruptionBudget> budgets_;
  const std::vector<PodInfo>& pods_;
  Counter allowed_;
};

// ScaledValue: intstr.GetScaledValueFromIntOrPercent(value, total, roundUp=true): the integer,
// or ceil(total × percent / 100) for "N%". A malformed string gives 0 (validation rejects it).
[[nodiscard]] int64_t ScaledValue(const api::IntOrString& value, int64_t total);

}  // namespace wasched::sched::preemption
