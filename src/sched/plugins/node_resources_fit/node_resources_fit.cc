#include "sched/plugins/node_resources_fit/node_resources_fit.h"

#include <algorithm>

#include "util/saturating.h"
namespace wasched::sched::plugins {
void InsufficientReasons(const PodInfo& pod, const NodeTable& nodes, const ResourceTable& names,
                         NodeIndex n, std::vector<std::string>& out) {
  // pods first (upstream checks the pod count before resources), then by resource id, which
  // puts cpu, memory, ephemeral-storage before extended resources.
  std::vector<ResourceAmount> sorted(pod.requests.begin(), pod.requests.end());
  std::sort(sorted.begin(), sorted.end(), [](const ResourceAmount& a, const ResourceAmount& b) {
    if ((a.id == kPods) != (b.id == kPods)) return a.id == kPods;
    return a.id < b.id;
  });
  for (const auto& ra : sorted) {
    if (ra.amount <= nodes.Allocatable(ra.id, n) - nodes.Requested(ra.id, n)) continue;
    out.push_back(ra.id == kPods ? std::string(kTooManyPods) : "Insufficient " + names.Name(ra.id));
  }
}

}  // namespace wasched::sched::plugins
