// File: sched/plugins/placement_resources_fit/placement_resources_fit.cc
#include "sched/plugins/placement_resources_fit/placement_resources_fit.h"

#include <algorithm>

namespace wasched::sched::plugins {

int64_t ScorePlacementResourcesFit(const NodeTable& table, std::span<const NodeIndex> nodes,
                                   bool all) {
  __int128 alloc_cpu = 0, alloc_mem = 0, req_cpu = 0, req_mem = 0;
  auto add = [&](NodeIndex n) {
    alloc_cpu += table.Allocatable(kCpu, n);
    alloc_mem += table.Allocatable(kMemory, n);
    req_cpu += table.NonZeroCPU(n);
    req_mem += table.NonZeroMemory(n);
  };
  if (all) {
    for (NodeIndex n = 0; n < table.size(); ++n) add(n);
  } else {
    for (NodeIndex n : nodes) add(n);
  }
  int64_t sum = 0, weights = 0;
  auto ratio = [&](__int128 req, __int128 alloc) {
    if (alloc <= 0) return;
    sum += static_cast<int64_t>(std::min<__int128>(req * 100 / alloc, 100));
    ++weights;
  };
  ratio(req_cpu, alloc_cpu);
  ratio(req_mem, alloc_mem);
  return weights > 0 ? sum / weights : 0;
}

}  // namespace wasched::sched::plugins
