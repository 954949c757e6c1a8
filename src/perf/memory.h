// File: perf/memory.h
//
// Resident-memory measurement of one Schedule run, for the Memory shape (design.md: "memory,
// 5000 nodes + 150k pods ≤ 100 MiB resident"). Measured in a forked child so that memory the
// parent's allocator kept from earlier shapes cannot hide the run's own growth: the child builds
// the input, resets the kernel's peak-RSS mark (/proc/self/clear_refs "5"), reads VmRSS, runs
// Schedule, and reads VmHWM (peak resident) — Linux only.
#pragma once

#include <cstdint>
#include <functional>

#include <tl/expected.hpp>
#include <string>

#include "api/object_set.h"

namespace wasched::perf {

// MemoryReading: bytes. `input` = resident growth while building the ObjectSet (the decoded
// manifests), `engine` = peak resident growth during Schedule above that (cache, node table,
// queue, result), `total` = peak resident of the child process.
struct MemoryReading {
  int64_t input = 0;
  int64_t engine = 0;
  int64_t total = 0;
};

// MeasurePeakGrowth: peak resident growth (bytes) of a forked child while it runs `work` (Linux
// only). Errors: fork/pipe failure or a child that died, as a message.
[[nodiscard]] tl::expected<int64_t, std::string> MeasurePeakGrowth(const std::function<void()>& work);

// MeasureScheduleMemory: runs `build` then Schedule in a forked child and returns its readings.
// Errors: fork/pipe failure or a child that died, as a message. O(one Schedule run).
[[nodiscard]] tl::expected<MemoryReading, std::string> MeasureScheduleMemory(
    const std::function<api::ObjectSet()>& build);

}  // namespace wasched::perf
