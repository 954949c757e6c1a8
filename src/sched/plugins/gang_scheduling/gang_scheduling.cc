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

Code PlacementFeasible(int32_t scheduled, int32_t remaining, int32_t min_count) {
  if (scheduled >= min_count) return Code::kSuccess;
  if (scheduled + remaining >= min_count) return Code::kWait;
  return Code::kUnschedulable;
}

}  // namespace wasched::sched::plugins
