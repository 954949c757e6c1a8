#include "sched/plugins/gang_scheduling/gang_scheduling.h"

#include <fmt/format.h>

namespace wasched::sched::plugins {

Status PreEnqueue(bool group_known, std::string_view group_name, bool is_gang,
                  int32_t known_pods, int32_t min_count) {
  if (!group_known) {
    return Status::UnschedulableAndUnresolvable(
        fmt::format("waiting for pods's pod group \"{}\" to appear in scheduling queue",
                    group_name),
        std::string(kGangSchedulingName));
  }
  if (is_gang && known_pods < min_count) {
    return Status::UnschedulableAndUnresolvable(
        "waiting for minCount pods from a gang to appear in scheduling queue",
        std::string(kGangSchedulingName));
  }
  return Status::Success();
}

Status CompositeSpecMissing(std::string_view composite_name) {
  return Status::UnschedulableAndUnresolvable(
      fmt::format("waiting for composite pod group \"{}\" spec to appear", composite_name),
      std::string(kGangSchedulingName));
}

Status TreeQuorumNotMet(std::string_view root_name) {
  return Status::UnschedulableAndUnresolvable(
      fmt::format("waiting for composite pod group \"{}\" tree to meet quorum", root_name),
      std::string(kGangSchedulingName));
}

QueueingHint GangSchedulingHint(const ClusterEvent& event, int32_t unit_root) {
  const bool same = unit_root >= 0 && event.root == unit_root;
  switch (event.kind) {
    case EventKind::kUnscheduledPodAdd:
    case EventKind::kAssignedPodAdd:
    case EventKind::kPodGroupAdd:
    case EventKind::kCompositePodGroupAdd:
    case EventKind::kCompositePodGroupUpdate:
      return same ? QueueingHint::kQueue : QueueingHint::kQueueSkip;
    case EventKind::kPodGroupUpdate:
      if (!same) return QueueingHint::kQueueSkip;
      // Non-gang policies are not expected to change: upstream enqueues to be safe.
      if (!event.old_gang || !event.new_gang) return QueueingHint::kQueue;
      return event.new_min_count < event.old_min_count ? QueueingHint::kQueue
                                                       : QueueingHint::kQueueSkip;
    case EventKind::kUnschedulableTimeout:
      return QueueingHint::kQueue;
    default:
      return QueueingHint::kQueueSkip;
  }
}

Code PlacementFeasible(int32_t scheduled, int32_t remaining, int32_t min_count) {
  if (scheduled >= min_count) return Code::kSuccess;
  if (scheduled + remaining >= min_count) return Code::kWait;
  return Code::kUnschedulable;
}

}  // namespace wasched::sched::plugins
