#include "sched/plugins/node_unschedulable/node_unschedulable.h"

#include "sched/plugins/taint_toleration/taint_toleration.h"

namespace wasched::sched::plugins {

Status NodeUnschedulable::Filter(const api::Pod& pod, const api::Node& node) const {
  if (!node.unschedulable) return Status::Success();
  static const api::Taint kUnschedulableTaint{"node.kubernetes.io/unschedulable", "",
                                              api::TaintEffect::kNoSchedule};
  if (TolerationsTolerateTaint(pod.tolerations, kUnschedulableTaint)) return Status::Success();
  return Status::UnschedulableAndUnresolvable(kReason, std::string(kName));
}

}  // namespace wasched::sched::plugins
