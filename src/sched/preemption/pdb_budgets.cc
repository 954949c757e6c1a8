#include "sched/preemption/pdb_budgets.h"

#include <algorithm>
#include <charconv>

namespace wasched::sched::preemption {

int64_t ScaledValue(const api::IntOrString& value, int64_t total) {
  if (!value.is_string) return value.int_value;
  const std::string& s = value.str_value;
  if (s.size() < 2 || s.back() != '%') return 0;
  int64_t percent = 0;
  auto [end, ec] = std::from_chars(s.data(), s.data() + s.size() - 1, percent);
  if (ec != std::errc() || end != s.data() + s.size() - 1 || percent < 0) return 0;
  return (total * percent + 99) / 100;
}

PdbBudgets::PdbBudgets(std::span<const api::PodDisruptionBudget> pdbs,
                       const std::vector<PodInfo>& pods)
    : budgets_(pdbs), pods_(pods) {
  allowed_.reserve(pdbs.size());
  for (const api::PodDisruptionBudget& pdb : pdbs) {
    int64_t matching = 0, managed = 0, healthy = 0;
    if (pdb.selector) {
      for (const PodInfo& pi : pods) {
        if (pi.pod->meta.namespace_ != pdb.meta.namespace_) continue;
        if (!api::Matches(*pdb.selector, pi.pod->meta.labels)) continue;
        ++matching;
        if (api::GetControllerOf(pi.pod->meta) != nullptr) ++managed;
        if (pi.node != kNoNode) ++healthy;
      }
    }
    // Upstream's expected count (pkg/controller/disruption/disruption.go getExpectedPodCount):
    // the number of matching pods for an integer minAvailable, else the summed scale of the
    // pods' controllers (getExpectedScale), to which a pod without a controller reference
    // ("unmanaged") adds nothing. wasched has no controller scale: it counts the managed
    // matching pods. A budget whose expected count is 0 allows no disruption
    // (updatePdbStatus), so maxUnavailable or a percentage over bare pods protects them all.
    const bool by_count = !pdb.max_unavailable && pdb.min_available && !pdb.min_available->is_string;
    const int64_t expected = by_count ? matching : managed;
    int64_t desired = 0;
    if (pdb.max_unavailable) {
      desired = std::max<int64_t>(0, expected - ScaledValue(*pdb.max_unavailable, expected));
    } else if (pdb.min_available) {
      desired = ScaledValue(*pdb.min_available, expected);
    }
    allowed_.push_back(expected <= 0 ? 0 : std::max<int64_t>(0, healthy - desired));
  }
}

bool PdbBudgets::Selects(size_t budget, const api::Pod& pod) const {
  const api::PodDisruptionBudget& pdb = budgets_[budget];
  // Upstream DefaultPreemption (filterPodsWithPDBViolation) skips a pod without labels and a
  // budget whose selector is null or empty ("A PDB with a nil or empty selector matches
  // nothing"), although the disruption controller reads `selector: {}` as every pod of the
  // namespace in policy/v1: preemption follows the scheduler's reading (QA finding 17).
  if (pod.meta.labels.empty()) return false;
  if (!pdb.selector || api::IsEmpty(*pdb.selector)) return false;
  if (pdb.meta.namespace_ != pod.meta.namespace_) return false;
  return api::Matches(*pdb.selector, pod.meta.labels);
}

int32_t PdbBudgets::Take(Counter& counter, std::span<const PodIndex> victims) const {
  int32_t violations = 0;
  for (PodIndex p : victims) {
    bool violated = false;
    for (size_t b = 0; b < budgets_.size(); ++b) {
      if (!Selects(b, *pods_[p].pod)) continue;
      if (--counter[b] < 0) violated = true;
    }
    if (violated) ++violations;
  }
  return violations;
}

}  // namespace wasched::sched::preemption
