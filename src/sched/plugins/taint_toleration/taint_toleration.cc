#include "sched/plugins/taint_toleration/taint_toleration.h"

#include <fmt/format.h>

namespace wasched::sched::plugins {
namespace {

bool TolerationTolerates(const api::Toleration& t, const api::Taint& taint) {
  if (t.effect && *t.effect != taint.effect) return false;
  if (!t.key.empty() && t.key != taint.key) return false;
  // An empty key with operator Exists matches every taint.
  if (t.op == api::TolerationOperator::kExists) return true;
  return t.value == taint.value;
}

}  // namespace

bool TolerationsTolerateTaint(const std::vector<api::Toleration>& tolerations,
                              const api::Taint& taint) {
  for (const auto& t : tolerations) {
    if (TolerationTolerates(t, taint)) return true;
  }
  return false;
}

Status TaintTolerationFilter::Filter(const api::Pod& pod, const api::Node& node) const {
  for (const auto& taint : node.taints) {
    if (taint.effect == api::TaintEffect::kPreferNoSchedule) continue;
    if (TolerationsTolerateTaint(pod.tolerations, taint)) continue;
    return Status::UnschedulableAndUnresolvable(
        fmt::format("node(s) had untolerated taint {{{}: {}}}", taint.key, taint.value),
        std::string(kName));
  }
  return Status::Success();
}

int64_t TaintTolerationScore::Score(const api::Pod& pod, const api::Node& node) const {
  // Only tolerations with an empty effect or PreferNoSchedule count (upstream
  // getAllTolerationPreferNoSchedule).
  int64_t intolerable = 0;
  for (const auto& taint : node.taints) {
    if (taint.effect != api::TaintEffect::kPreferNoSchedule) continue;
    bool tolerated = false;
    for (const auto& t : pod.tolerations) {
      if (t.effect && *t.effect != api::TaintEffect::kPreferNoSchedule) continue;
      if (TolerationsTolerateTaint({t}, taint)) {
        tolerated = true;
        break;
      }
    }
    if (!tolerated) ++intolerable;
  }
  return intolerable;
}

}  // namespace wasched::sched::plugins
