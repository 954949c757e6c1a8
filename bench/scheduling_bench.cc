// File: bench/scheduling_bench.cc
//
// Google Benchmark runs of sched::Schedule on kube-scheduler's scheduler_perf shapes
// (spec/perf-anchors.md §1; built by src/perf/shapes.h, shared with `wasched bench`): node template 4 CPU / 32Gi / 110 pods, pod-default template
// 100m CPU / 500Mi, gang-pod template 100m CPU / 100Mi. The ObjectSet is built once, outside the
// timed loop; only Schedule (including destroying its result) is timed.
//
// Besides time, each scheduling benchmark reports:
//   bound           pods bound by one Schedule run (a quick sanity check of the result);
//   scanBoundRatio  our time divided by (measured pods × one plain scan over the node arrays,
//                   timed in the same run): 1.0 = as slow as filtering and scoring every node
//                   once per pod with tight integer code; below 1 = faster than that.
// BM_NodeScan times that plain scan on its own.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

#include "api/object_set.h"
#include "sched/scheduler.h"
#include "perf/scan_bound.h"
#include "perf/shapes.h"

namespace wasched {
namespace {

using perf::GangShape;
using perf::MeasureScanSeconds;
using perf::NodeArrays;
using perf::ScanOnce;
using perf::SchedulingBasicShape;
using perf::ToArrays;

constexpr int kNodes = 5000;
constexpr int64_t kMi = int64_t{1} << 20;

// RunSchedule: the timed loop shared by the scheduling benchmarks.
void RunSchedule(benchmark::State& state, const api::ObjectSet& objects, int64_t measured_pods, double scan_seconds) {
  double total_seconds = 0;
  size_t bound = 0;
  for (auto _ : state) {
    const auto start = std::chrono::steady_clock::now();
    {
      sched::ScheduleResult result = sched::Schedule(objects, sched::SchedulerOptions{});
      bound = result.bindings.size();
      benchmark::DoNotOptimize(result);
    }
    const std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - start;
    total_seconds += elapsed.count();
  }
  state.SetItemsProcessed(state.iterations() * measured_pods);
  state.counters["bound"] = static_cast<double>(bound);
  state.counters["scanBoundRatio"] =
      total_seconds / static_cast<double>(state.iterations()) / (static_cast<double>(measured_pods) * scan_seconds);
}

// BM_SchedulingBasic: SchedulingBasic/5000Nodes_10000Pods (1000 existing pods, 10000 measured);
// items_per_second = pods/s.
void BM_SchedulingBasic(benchmark::State& state) {
  const int nodes = static_cast<int>(state.range(0));
  const int existing = static_cast<int>(state.range(1));
  const int pods = static_cast<int>(state.range(2));
  const api::ObjectSet objects = SchedulingBasicShape(nodes, existing, pods).objects;
  const double scan = MeasureScanSeconds(ToArrays(objects.nodes), 100, 500 * kMi);
  RunSchedule(state, objects, pods, scan);
}
BENCHMARK(BM_SchedulingBasic)
    ->ArgNames({"nodes", "existing", "pods"})
    ->Args({kNodes, 1000, 10000})
    ->Unit(benchmark::kMillisecond);

// BM_GangScheduling: gangscheduling/5000Nodes_1000Gangs_3000Pods (and the 10 × 5000 shape);
// per_podgroup = seconds per PodGroup (kube-scheduler's metric is per PodGroup attempt).
void BM_GangScheduling(benchmark::State& state) {
  const int gangs = static_cast<int>(state.range(0));
  const int per_gang = static_cast<int>(state.range(1));
  const api::ObjectSet objects = GangShape(kNodes, gangs, per_gang).objects;
  const double scan = MeasureScanSeconds(ToArrays(objects.nodes), 100, 100 * kMi);
  RunSchedule(state, objects, static_cast<int64_t>(gangs) * per_gang, scan);
  state.counters["per_podgroup"] =
      benchmark::Counter(gangs, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_GangScheduling)
    ->ArgNames({"gangs", "podsPerGang"})
    ->Args({1000, 3})
    ->Args({10, 5000})
    ->Unit(benchmark::kMillisecond);

// BM_NodeScan: one plain scan (fit + score) over 5000 nodes' arrays: the bound the
// scanBoundRatio counters divide by. items_per_second = nodes/s.
void BM_NodeScan(benchmark::State& state) {
  const NodeArrays arrays = ToArrays(SchedulingBasicShape(static_cast<int>(state.range(0)), 0, 0).objects.nodes);
  int64_t cpu = 100;
  for (auto _ : state) {
    benchmark::DoNotOptimize(ScanOnce(arrays, cpu, 500 * kMi));
    cpu ^= 1;  // keep the compiler from hoisting the scan out of the loop
  }
  state.SetItemsProcessed(state.iterations() * state.range(0));
}
BENCHMARK(BM_NodeScan)->Arg(kNodes)->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace wasched

BENCHMARK_MAIN();
