// File: cli/bench_command.h
//
// `wasched bench`: the scheduler_perf shapes (perf/shapes.h) measured on this machine, against
// design.md's targets and the same-run scan bound.
//
//   wasched bench [--shape NAME]... [--scale full|tiny] [--repetitions N] [-o table|json] [--list]
//
// `--shape` selects shapes whose name starts with NAME (e.g. `GangScheduling`); without it every
// shape runs. `--scale tiny` runs each shape ~100× smaller for correctness only (no timing:
// CI uses it): its table says it checks counts only and shows, per shape, the size that ran
// ("SchedulingBasic/5000Nodes_10000Pods [tiny: 50Nodes_100Pods]"), what was checked and ok /
// WRONG — no values, units or targets. JSON: a list of {shape, value (null when tiny), unit,
// target, meetsTarget, scanBoundRatio, naiveRatio, seconds (CPU), wallSeconds, bound,
// expectedBound, scale ("full" | "tiny"), instance (the size that ran)[, bytesPerPod, bytesPerNode]
// [, fileMB, objectsPerSecond, parserMBPerSecond, parserRatio, rssAboveFileMiB, rssFileRatio]}
// (null where a field does not apply; the last six for the Load shapes, perf/load_shapes.h,
// whose bound / expectedBound count decoded / generated objects). Exit codes: 0 every run bound what a correct run binds; 2 usage (unknown shape);
// 3 a run bound the wrong number of pods (a correctness bug, named on stderr) or the memory
// child failed. Targets missed are a result, not an error (exit 0). Progress goes to stderr.
//
//   wasched bench --against-upstream [--upstream-json FILE] [--repetitions N] [-o table|json]
//
// runs kube-scheduler's own scheduler_perf workloads (scripts/bench-upstream.sh, or reads that
// script's earlier output from FILE) and the same shapes through the engine (perf/upstream.h):
// per workload upstream's SchedulingThroughput average (pods/s; pods / SchedulingDuration, marked,
// when the run was too short for a sample), ours (measured pods / median CPU seconds of
// sched::Schedule) and ours / upstream; upstream's number is its whole scheduler with an
// in-process API server, ours the engine alone. Workloads wasched cannot express, and wasched
// shapes upstream has no workload for, are listed with the reason. Exit 3 when the script fails
// or an engine run binds the wrong number of pods; an upstream workload that failed or timed
// out is a row, not an error.
#pragma once

#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace wasched::cli {

// BenchOptions: parsed flags of `bench`.
struct BenchOptions {
  std::vector<std::string> shapes;  // name prefixes; empty = all
  std::string scale = "full";       // "full" | "tiny"
  int repetitions = 5;
  std::string output = "table";     // "table" | "json"
  bool list = false;
  bool against_upstream = false;
  std::string upstream_json;  // --upstream-json: the script's output from an earlier run
};

// RunBench: runs the selected shapes and writes the table or JSON to `out` (all at the end).
[[nodiscard]] int RunBench(const BenchOptions& options, std::ostream& out, std::ostream& err);

// RunBenchIfSelected: registers `bench` on `app` and runs it when argv selects it (first
// non-option argument "bench"); nullopt otherwise. Same pattern as RunConvertIfSelected.
[[nodiscard]] std::optional<int> RunBenchIfSelected(CLI::App& app, int argc, const char* const* argv,
                                                    std::ostream& out, std::ostream& err);

}  // namespace wasched::cli
