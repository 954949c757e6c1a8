#include "sched/plugins/node_resources_balanced_allocation/balanced_allocation.h"

#include <cmath>

namespace wasched::sched::plugins {

int64_t BalancedAllocationScore(const PodInfo& pod, const NodeTable& nodes, NodeIndex n) {
  if (pod.request_cpu == 0 && pod.request_memory == 0) return 0;  // best-effort: Skip
  double fractions[2];
  int count = 0;
  const int64_t cpu_alloc = nodes.Allocatable(kCpu, n);
  const int64_t mem_alloc = nodes.Allocatable(kMemory, n);
  if (cpu_alloc != 0) {
    double f = static_cast<double>(nodes.Requested(kCpu, n) + pod.request_cpu) /
               static_cast<double>(cpu_alloc);
    fractions[count++] = f > 1 ? 1 : f;
  }
  if (mem_alloc != 0) {
    double f = static_cast<double>(nodes.Requested(kMemory, n) + pod.request_memory) /
               static_cast<double>(mem_alloc);
    fractions[count++] = f > 1 ? 1 : f;
  }
  double std_dev = count == 2 ? std::fabs((fractions[0] - fractions[1]) / 2) : 0.0;
  return static_cast<int64_t>((1 - std_dev) * 100.0);
}

}  // namespace wasched::sched::plugins
