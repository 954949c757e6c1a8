// File: perf/cpu_time.h
//
// ThreadCpuSeconds: CPU time consumed by the calling thread, in seconds
// (clock_gettime(CLOCK_THREAD_CPUTIME_ID), POSIX). The benchmark clock: design.md's targets are
// per core, and on a shared machine wall time also counts other processes. O(1), no allocation.
#pragma once

#include <time.h>

namespace wasched::perf {

[[nodiscard]] inline double ThreadCpuSeconds() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

}  // namespace wasched::perf
