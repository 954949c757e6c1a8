// File: sim/report.cc
#include "sim/report.h"

#include <cmath>
#include <ostream>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "util/field_value.h"

namespace wasched::sim {
namespace {

using Json = nlohmann::ordered_json;

double Round6(double x) { return std::round(x * 1e6) / 1e6; }

// Hours: seconds as hours, the table's (and the HTML report's) one unit of time.
double Hours(int64_t seconds) { return static_cast<double>(seconds) / 3600.0; }

Json PercentilesJson(const Percentiles& p) {
  return Json{{"count", p.count}, {"p50", p.p50}, {"p90", p.p90}, {"p99", p.p99}, {"max", p.max},
              {"mean", Round6(p.mean)}};
}

Json RunJson(const SimResult& r) {
  Json by_size = Json::object();
  for (const char* k : {"0", "1", "2-8", "9-32", "33+"}) {
    auto it = r.queue_delay_by_size.find(k);
    if (it != r.queue_delay_by_size.end()) by_size[k] = PercentilesJson(it->second);
  }
  return Json{{"policy", r.policy},
              {"preemption", r.preemption},
              {"jobs", r.jobs},
              {"completed", r.completed},
              {"rejected", r.rejected},
              {"unfinished", r.unfinished},
              {"gpuUtilization", Round6(r.gpu_utilization)},
              {"gpuAllocation", Round6(r.gpu_allocation)},
              {"busyGpuHours", Round6(r.busy_gpu_hours)},
              {"partialGpuHours", Round6(r.partial_gpu_hours)},
              {"queueDelaySeconds", PercentilesJson(r.queue_delay)},
              {"queueDelayByJobSize", by_size},
              {"jobCompletionSeconds", PercentilesJson(r.completion_time)},
              {"makespanSeconds", r.makespan_seconds},
              {"deadlocks", Json{{"episodes", r.deadlock_episodes}, {"seconds", r.deadlock_seconds}}},
              {"evictions", r.evictions},
              {"restarts", r.restarts},
              {"nodeFailures", r.node_failures},
              {"schedulerCalls", r.scheduler_calls},
              {"events", r.events}};
}

}  // namespace

void WriteJson(const RunContext& ctx, const std::vector<SimResult>& runs, std::ostream& out) {
  Json doc;
  doc["trace"] = Json{{"file", ctx.trace_file}, {"format", ctx.format}, {"jobs", ctx.jobs}};
  doc["cluster"] = Json{{"nodes", ctx.nodes}, {"gpus", Round6(ctx.gpus)}};
  doc["seed"] = ctx.seed;
  if (runs.size() == 1) {
    const Json single = RunJson(runs[0]);
    for (const auto& [k, v] : single.items()) doc[k] = v;
  }
  Json list = Json::array();
  for (const SimResult& r : runs) list.push_back(RunJson(r));
  doc["runs"] = std::move(list);
  out << doc.dump(2) << "\n";
}

void WriteTable(const RunContext& ctx, const std::vector<SimResult>& runs, std::ostream& out) {
  out << fmt::format("trace {} ({}, {} jobs) on {} nodes / {} GPUs, seed {}\n\n", EscapeForTerminal(ctx.trace_file),
                     EscapeForTerminal(ctx.format), ctx.jobs, ctx.nodes, Round6(ctx.gpus), ctx.seed);
  out << fmt::format(
      "{:<14} {:>5} {:>9} {:>8} {:>9} {:>8} {:>8} {:>12} {:>12} {:>12} {:>12} {:>12} {:>9} {:>9} {:>8} {:>9}\n", "POLICY",
      "PREEMPT", "COMPLETED", "REJECTED", "UNFINISH", "GPU-UTIL", "GPU-ALLOC", "PARTIAL-GPUH", "DELAY-P50(h)",
      "DELAY-P90(h)", "DELAY-P99(h)", "MAKESPAN(h)", "DEADLOCKS", "EVICTIONS", "RESTARTS", "NODE-FAIL");
  for (const SimResult& r : runs) {
    out << fmt::format(
        "{:<14} {:>7} {:>9} {:>8} {:>9} {:>7.1f}% {:>8.1f}% {:>12.1f} {:>12.2f} {:>12.2f} {:>12.2f} {:>12.2f} {:>9} {:>9} {:>8} "
        "{:>9}\n",
        r.policy, r.preemption ? "on" : "off", r.completed, r.rejected, r.unfinished, 100 * r.gpu_utilization,
        100 * r.gpu_allocation, r.partial_gpu_hours, Hours(r.queue_delay.p50), Hours(r.queue_delay.p90),
        Hours(r.queue_delay.p99), Hours(r.makespan_seconds), r.deadlock_episodes, r.evictions, r.restarts,
        r.node_failures);
  }
}

void WriteTimeseriesCsv(const std::vector<SimResult>& runs, std::ostream& out) {
  out << "policy,startSeconds,busyGpus,partialGpus,pendingJobs,runningJobs\n";
  for (const SimResult& r : runs) {
    for (const Sample& s : r.timeseries) {
      out << fmt::format("{},{},{},{},{},{}\n", r.policy, s.start_seconds, Round6(s.busy_gpus), Round6(s.partial_gpus),
                         s.pending_jobs, s.running_jobs);
    }
  }
}

}  // namespace wasched::sim
