// File: bench/simulate_bench.cc
//
// `wasched simulate` on the whole Philly trace (82,247 jobs, tests/data/traces/philly/philly.csv)
// on the generated 64 × 8-GPU cluster, one benchmark per policy (issue 8 target: < 10 s per
// policy on one core). Reports CPU time per full replay plus counters: scheduler calls and
// completed jobs. Skips with a message when the trace file is missing.
#include <benchmark/benchmark.h>

#include <string>

#include "sim/cluster.h"
#include "sim/simulator.h"
#include "sim/trace.h"

namespace {

using namespace wasched;

void BM_SimulatePhilly(benchmark::State& state, sim::Policy policy) {
  const std::string path = std::string(WASCHED_SOURCE_DIR) + "/tests/data/traces/philly/philly.csv";
  auto trace = sim::ImportTrace(path, sim::TraceFormat::kPhilly, {.gpus_per_pod = 1});
  if (!trace) {
    state.SkipWithError(trace.error().c_str());
    return;
  }
  auto nodes = sim::GenerateCluster("nodes=64,gpus=8,cpus=96,memory=768Gi,zones=2,racksPerZone=4");
  sim::SimOptions options;
  options.policy = policy;
  sim::SimResult result;
  for (auto _ : state) {
    result = sim::Simulate(*trace, *nodes, options);
    benchmark::DoNotOptimize(result.completed);
  }
  state.counters["jobs"] = static_cast<double>(result.jobs);
  state.counters["completed"] = static_cast<double>(result.completed);
  state.counters["schedulerCalls"] = static_cast<double>(result.scheduler_calls);
  state.counters["partialGpuHours"] = result.partial_gpu_hours;
}

BENCHMARK_CAPTURE(BM_SimulatePhilly, basic, sim::Policy::kBasic)->Unit(benchmark::kSecond)->Iterations(1);
BENCHMARK_CAPTURE(BM_SimulatePhilly, gang, sim::Policy::kGang)->Unit(benchmark::kSecond)->Iterations(1);
BENCHMARK_CAPTURE(BM_SimulatePhilly, gang_topology, sim::Policy::kGangTopology)->Unit(benchmark::kSecond)->Iterations(1);

}  // namespace
