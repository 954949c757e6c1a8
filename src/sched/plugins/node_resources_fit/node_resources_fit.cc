#include "sched/plugins/node_resources_fit/node_resources_fit.h"

#include <algorithm>

#include "util/saturating.h"
namespace wasched::sched::plugins {
namespace {

// Products are taken in 128 bits: allocatable may be anything up to int64's maximum (7Ei of
// memory is valid input), and ×100 must not overflow.
int64_t LeastRequestedScore(int64_t requested, int64_t capacity) {
  if (capacity <= 0 || requested > capacity) return 0;
  return static_cast<int64_t>(static_cast<__int128>(capacity - requested) * 100 / capacity);
}

int64_t MostRequestedScore(int64_t requested, int64_t capacity) {
  if (capacity <= 0) return 0;
  requested = std::clamp<int64_t>(requested, 0, capacity);  // non-zero defaults may exceed it
  return static_cast<int64_t>(static_cast<__int128>(requested) * 100 / capacity);
}

}  // namespace

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

int64_t Score(const PodInfo& pod, const NodeTable& nodes, NodeIndex n, ScoringStrategy strategy) {
  const int64_t cpu_req = SaturatingAdd(nodes.NonZeroCPU(n), pod.nonzero_cpu);
  const int64_t mem_req = SaturatingAdd(nodes.NonZeroMemory(n), pod.nonzero_memory);
  const int64_t cpu_cap = nodes.Allocatable(kCpu, n);
  const int64_t mem_cap = nodes.Allocatable(kMemory, n);
  if (strategy == ScoringStrategy::kMostAllocated) {
    return (MostRequestedScore(cpu_req, cpu_cap) + MostRequestedScore(mem_req, mem_cap)) / 2;
  }
  return (LeastRequestedScore(cpu_req, cpu_cap) + LeastRequestedScore(mem_req, mem_cap)) / 2;
}

}  // namespace wasched::sched::plugins
