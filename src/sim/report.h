// File: sim/report.h
//
// Writers for `wasched simulate` results: the JSON summary (-o json), a table for people
// (-o table) and the timeseries CSV (--timeseries). Byte-identical for identical results
// (fixed key order, numbers rounded to 6 decimals).
//
// JSON shape:
//   {"trace": {"file", "format", "jobs"}, "cluster": {"nodes", "gpus"}, "seed",
//    "runs": [{"policy", "preemption", "jobs", "completed", "rejected", "unfinished",
//              "gpuUtilization", "gpuAllocation", "busyGpuHours", "partialGpuHours",
//              "queueDelaySeconds": {"count","p50","p90","p99","max","mean"},
//              "queueDelayByJobSize": {"0": {...}, "1": {...}, "2-8": {...}, ...},
//              "jobCompletionSeconds": {...}, "makespanSeconds",
//              "deadlocks": {"episodes", "seconds"}, "evictions", "restarts", "nodeFailures",
//              "schedulerCalls", "events"}]}
// With one run, the run's fields are also copied to the top level (so `jq .partialGpuHours`
// works on a single-policy run).
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

#include "sim/simulator.h"

namespace wasched::sim {

// RunContext: what was simulated, for the report header.
struct RunContext {
  std::string trace_file;
  std::string format;
  int64_t jobs = 0;
  int64_t nodes = 0;
  double gpus = 0;
  uint64_t seed = 0;
};

void WriteJson(const RunContext& ctx, const std::vector<SimResult>& runs, std::ostream& out);
// WriteTable: a header line (file name escaped for the terminal) and one line per run: POLICY,
// PREEMPT, COMPLETED, REJECTED, UNFINISH, GPU-UTIL, GPU-ALLOC, PARTIAL-GPUH, DELAY-P50(h),
// DELAY-P90(h), DELAY-P99(h), MAKESPAN(h), DEADLOCKS, EVICTIONS, RESTARTS, NODE-FAIL. Times are in
// hours with two decimals (the unit the HTML report's table and plots use; JSON keeps seconds).
void WriteTable(const RunContext& ctx, const std::vector<SimResult>& runs, std::ostream& out);
// WriteTimeseriesCsv: header policy,startSeconds,busyGpus,partialGpus,pendingJobs,runningJobs;
// one row per run and bucket.
void WriteTimeseriesCsv(const std::vector<SimResult>& runs, std::ostream& out);

}  // namespace wasched::sim
