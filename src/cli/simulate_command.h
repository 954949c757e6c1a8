// File: cli/simulate_command.h
//
// `wasched simulate` (issue 8): replay a GPU-cluster trace on a real or generated cluster through
// the scheduler core (sim/simulator.h) under one or more policies and compare them.
//
//   wasched simulate --trace philly.csv --format philly --generate-cluster nodes=64,gpus=8
//       --policy basic --policy gang [-o json|table] [--timeseries ts.csv] [--report r.html]
//   wasched simulate --trace philly.csv --format philly --generate-cluster nodes=10000,gpus=8
//       --scale-trace 1000000 --seed 7   # a 1M-job resample of the trace (sim::ScaleTrace)
//
// Exit codes: 0 done; 1 bad input (trace or cluster file: the message names file, line and
// column; also a cluster where no node offers the trace's GPU resource); 2 usage (including
// --timeseries / --report equal to each other, to an input file, empty or `-`; `--trace -` /
// `--cluster -`; a --seed outside [0, 2^64-1]; a --scale-trace or --scale-reference-gpus
// that is not an integer in range, or a scaled trace longer than 10 years; a policy given twice runs once); 3 an output
// file cannot be written ("error: cannot write output: <path>: <OS reason>"; the output files
// are opened before the runs start and removed again on failure). stdout gets the summary only
// when every run finished (never partial); a progress bar goes to stderr when stderr is a
// terminal; jobs that can never fit the cluster get one `warning:` line on stderr.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

namespace CLI {
class App;
}

namespace wasched::cli {

struct SimulateOptions {
  std::string trace;
  std::string format;
  int32_t gpus_per_pod = 1;
  std::string cluster;
  std::string generate_cluster;
  std::vector<std::string> policies;
  std::string preemption = "off";
  uint64_t seed = 1;
  std::string node_failures;
  std::string output = "table";
  std::string timeseries;
  std::string report;
  int64_t max_jobs = 0;
  int64_t scale_jobs = 0;            // --scale-trace N (sim::ScaleTrace); 0 = replay the trace as read
  int64_t scale_reference_gpus = 512;  // --scale-reference-gpus R
  std::string placement = "complete";  // --placement complete|upstream (sched::PlacementSearch)
};

// RunSimulate: imports, simulates every policy in order, writes the outputs.
[[nodiscard]] int RunSimulate(const SimulateOptions& options, std::ostream& out, std::ostream& err);

// RunSimulateIfSelected: registers `simulate` on `app` and runs it when argv selects it; nullopt
// otherwise. Same pattern as RunBenchIfSelected.
[[nodiscard]] std::optional<int> RunSimulateIfSelected(CLI::App& app, int argc, const char* const* argv,
                                                       std::ostream& out, std::ostream& err);

}  // namespace wasched::cli
