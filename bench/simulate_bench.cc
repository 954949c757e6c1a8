// File: bench/simulate_bench.cc
//
// `wasched simulate` on the whole Philly trace (82,247 jobs, tests/data/traces/philly/philly.csv)
// on the generated 64 × 8-GPU cluster, one benchmark per policy (issue 8 target: < 10 s per
// policy on one core). Reports CPU time per full replay plus counters: scheduler calls and
// completed jobs. Skips with a message when the trace file is missing.
//
// BM_SimulateScaled (issue 16 item 5): the simulator at scale, a `--scale-trace` resample of the
// same trace (sim::ScaleTrace, seed 1, R = 512) on a generated 10,000 × 8-GPU cluster, so each
// GPU sees the load the whole trace offers 64 × 8 GPUs. 10,000 jobs per policy here; the
// 1,000,000-job acceptance run is `wasched simulate ... --scale-trace 1000000` under
// /usr/bin/time (BENCHMARKS.md "Simulate at scale"). Resampling and cluster generation are
// outside the timed loop.
#include <benchmark/benchmark.h>

#include <string>
#include <vector>

#include "sim/cluster.h"
#include "sim/simulator.h"
#include "sim/trace.h"

namespace {

using namespace wasched;

// Replay: the timed loop both benchmarks share: `trace` on `nodes` under `policy`, with the
// jobs / completed / schedulerCalls counters. Returns the last run's result.
sim::SimResult Replay(benchmark::State& state, const sim::Trace& trace, const std::vector<api::Node>& nodes,
                      sim::Policy policy) {
  sim::SimOptions options;
  options.policy = policy;
  sim::SimResult result;
  for (auto _ : state) {
    result = sim::Simulate(trace, nodes, options);
    benchmark::DoNotOptimize(result.completed);
  }
  state.counters["jobs"] = static_cast<double>(result.jobs);
  state.counters["completed"] = static_cast<double>(result.completed);
  state.counters["schedulerCalls"] = static_cast<double>(result.scheduler_calls);
  return result;
}

void BM_SimulatePhilly(benchmark::State& state, sim::Policy policy) {
  const std::string path = std::string(WASCHED_SOURCE_DIR) + "/tests/data/traces/philly/philly.csv";
  auto trace = sim::ImportTrace(path, sim::TraceFormat::kPhilly, {.gpus_per_pod = 1});
  if (!trace) {
    state.SkipWithError(trace.error().c_str());
    return;
  }
  auto nodes = sim::GenerateCluster("nodes=64,gpus=8,cpus=96,memory=768Gi,zones=2,racksPerZone=4");
  const sim::SimResult result = Replay(state, *trace, *nodes, policy);
  state.counters["partialGpuHours"] = result.partial_gpu_hours;
}

void BM_SimulateScaled(benchmark::State& state, sim::Policy policy) {
  const std::string path = std::string(WASCHED_SOURCE_DIR) + "/tests/data/traces/philly/philly.csv";
  auto source = sim::ImportTrace(path, sim::TraceFormat::kPhilly, {.gpus_per_pod = 1});
  if (!source) {
    state.SkipWithError(source.error().c_str());
    return;
  }
  auto nodes = sim::GenerateCluster("nodes=10000,gpus=8,cpus=96,memory=768Gi,zones=2,racksPerZone=4");
  auto trace = sim::ScaleTrace(
      *source, {.jobs = state.range(0), .target_gpus = 80000, .reference_gpus = 512, .seed = 1});
  if (!nodes || !trace) {
    state.SkipWithError("cannot build the scaled shape");
    return;
  }
  const sim::SimResult result = Replay(state, *trace, *nodes, policy);
  // Seconds of CPU per scheduler call (the run's time over its calls).
  state.counters["perCall"] =
      benchmark::Counter(static_cast<double>(result.scheduler_calls),
                         benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}

BENCHMARK_CAPTURE(BM_SimulatePhilly, basic, sim::Policy::kBasic)->Unit(benchmark::kSecond)->Iterations(1);
BENCHMARK_CAPTURE(BM_SimulatePhilly, gang, sim::Policy::kGang)->Unit(benchmark::kSecond)->Iterations(1);
BENCHMARK_CAPTURE(BM_SimulatePhilly, gang_topology, sim::Policy::kGangTopology)->Unit(benchmark::kSecond)->Iterations(1);
BENCHMARK_CAPTURE(BM_SimulateScaled, basic, sim::Policy::kBasic)
    ->ArgName("jobs")->Arg(10000)->Unit(benchmark::kSecond)->Iterations(1);
BENCHMARK_CAPTURE(BM_SimulateScaled, gang, sim::Policy::kGang)
    ->ArgName("jobs")->Arg(10000)->Unit(benchmark::kSecond)->Iterations(1);
BENCHMARK_CAPTURE(BM_SimulateScaled, gang_topology, sim::Policy::kGangTopology)
    ->ArgName("jobs")->Arg(10000)->Unit(benchmark::kSecond)->Iterations(1);

}  // namespace
