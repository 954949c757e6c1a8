// File: bench/bug_scenarios_bench.cc
//
// Bug S23 of spec/bug-scenarios.md (throughput collapse at scale: kubernetes/kubernetes#78208,
// #56714; volcano-sh/volcano#1059, #2583, #5819) as benchmark shapes, built from the
// scheduler_perf templates of src/perf/shapes.h (node 4 CPU / 32Gi / 110 pods, pod 100m / 500Mi,
// gang pod 100m / 100Mi). The shapes `wasched bench` already has cover neighbours of these
// (SchedulingBasic with 1000 running pods, GangScheduling at 5000 nodes × 3-pod gangs, Memory
// with 150k running pods); these are the entry's own sizes:
//   BM_S23a_ExistingPods/existing:0 and /existing:55000
//       (a) 5000 nodes, 10,000 new pods, on an empty cluster and beside 55,000 running pods
//       (#78208's cluster); items_per_second = pods/s; the entry's check is the ratio of the two
//       rows (throughput must not fall by more than x %; volcano#2583 saw −40 %).
//   BM_S23b_GangsAt10kNodes
//       (b) 10,000 nodes, 1000 gangs × 10 pods (volcano#1059 took ~30 min); wall time per run,
//       per_podgroup = time per PodGroup.
//   BM_S23c_ColdStart150k
//       (c) one pending pod beside 150,000 running pods on 5000 nodes (volcano#5819: 8 min 17 s to
//       the first bind after a restart): time per run = from the snapshot of the whole cluster to
//       the first decision, as a restarted scheduler would pay it.
// Not a test: reports numbers, never fails (a wrong bound count is a SkipWithError).
#include <cstdint>
#include <string>

#include <benchmark/benchmark.h>

#include "api/object_set.h"
#include "perf/shapes.h"
#include "sched/scheduler.h"

namespace wasched {
namespace {

// RunShape: times sched::Schedule on `in` (ObjectSet built outside the loop; the result's
// destruction is timed) and checks the bound count.
void RunShape(benchmark::State& state, const perf::ShapeInput& in) {
  size_t bound = 0;
  for (auto _ : state) {
    sched::ScheduleResult result = sched::Schedule(in.objects, sched::SchedulerOptions{});
    bound = result.bindings.size();
    benchmark::DoNotOptimize(result);
  }
  state.counters["bound"] = static_cast<double>(bound);
  if (static_cast<int64_t>(bound) != in.expected_bound) {
    state.SkipWithError(("bound " + std::to_string(bound) + " pods, expected " + std::to_string(in.expected_bound)).c_str());
  }
}

void BM_S23a_ExistingPods(benchmark::State& state) {
  const perf::ShapeInput in = perf::SchedulingBasicShape(5000, static_cast<int>(state.range(0)), 10000);
  RunShape(state, in);
  state.SetItemsProcessed(state.iterations() * in.pods);
}
BENCHMARK(BM_S23a_ExistingPods)->ArgName("existing")->Arg(0)->Arg(55000)->Unit(benchmark::kMillisecond);

void BM_S23b_GangsAt10kNodes(benchmark::State& state) {
  const perf::ShapeInput in = perf::GangShape(10000, 1000, 10);
  RunShape(state, in);
  state.counters["per_podgroup"] =
      benchmark::Counter(1000, benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_S23b_GangsAt10kNodes)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_S23c_ColdStart150k(benchmark::State& state) {
  RunShape(state, perf::SchedulingBasicShape(5000, 150000, 1));
}
BENCHMARK(BM_S23c_ColdStart150k)->Unit(benchmark::kMillisecond)->UseRealTime();

}  // namespace
}  // namespace wasched
