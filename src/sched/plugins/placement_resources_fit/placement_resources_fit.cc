// File: sched/plugins/placement_resources_fit/placement_resources_fit.cc
#include "sched/plugins/placement_resources_fit/placement_resources_fit.h"

#include <algorithm>

namespace wasched::sched::plugins {

int64_t MostAllocatedScore(__int128 alloc_cpu, __int128 req_cpu, __int128 alloc_mem,
                           __int128 req_mem) {
  int64_t sum = 0, weights = 0;
  auto ratio = [&](__int128 req, __int128 alloc) {
    if (alloc <= 0) return;
    constexpr __int128 kFast = int64_t{1} << 56;  // 64-bit division when req · 100 fits
    const int64_t r = req < kFast && alloc < kFast
                          ? static_cast<int64_t>(req) * 100 / static_cast<int64_t>(alloc)
                          : static_cast<int64_t>(std::min<__int128>(req * 100 / alloc, 100));
    sum += std::min<int64_t>(r, 100);
    ++weights;
  };
  ratio(req_cpu, alloc_cpu);
  ratio(req_mem, alloc_mem);
  return weights > 0 ? sum / weights : 0;
}

}  // namespace wasched::sched::plugins
