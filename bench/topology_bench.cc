// File: bench/topology_bench.cc
//
// Google Benchmark runs of topology-aware and CompositePodGroup scheduling (spec/was-v1.37.md
// §4.4, §5; targets in design.md "Performance targets"), in the style of scheduling_bench.cc:
// the ObjectSet is built once outside the timed loop; one sched::Schedule run (and destroying its
// result) is timed. Counters:
//   per_unit        CPU seconds per gang / CompositePodGroup / run (the design.md metric);
//   per_unit_wall_us  the same in wall-clock µs;
//   bound           pods bound per run (sanity check);
//   scanBoundRatio  run time / (pods × one plain scan over all nodes' arrays timed in the same
//                   process); below 1 = cheaper than filtering and scoring every node per pod.
//
//   BM_RackGangs          podgroup/tas: 5000 nodes (racks of 10), 2250 gangs × 4 pods, each gang
//                         in one rack (perf-anchors §1.3(c); issue 16 target ≤ 3 µs per gang)
//   BM_CompositeZoneRack  cpg/CPGTopologyAwareScheduling: 5000 nodes, 1500 CPGs (zone, minGroupCount
//                         2) × 2 PodGroups (rack, minCount 4) × 4 pods (§1.3(d); target ≤ 6 µs per CPG)
//   BM_S21                bug S21 (volcano#4899): 1000 nodes in 100 ten-node racks, all in one
//                         tier-2 domain; one CompositePodGroup (tier-2, minGroupCount 100) of 100
//                         PodGroups × 10 node-exclusive pods (rack): decided in < 50 ms (target)
#include <chrono>
#include <cstdint>
#include <string>

#include <benchmark/benchmark.h>

#include "api/object_set.h"
#include "perf/scan_bound.h"
#include "perf/shapes.h"
#include "sched/scheduler.h"

namespace wasched {
namespace {

constexpr int64_t kMi = int64_t{1} << 20;

void RunTopology(benchmark::State& state, const perf::ShapeInput& in, int64_t units, int64_t cpu_milli,
                 int64_t memory) {
  const double scan = perf::MeasureScanSeconds(perf::ToArrays(in.objects.nodes), cpu_milli, memory);
  double total_seconds = 0;
  size_t bound = 0;
  for (auto _ : state) {
    const auto start = std::chrono::steady_clock::now();
    {
      sched::ScheduleResult result = sched::Schedule(in.objects, sched::SchedulerOptions{});
      bound = result.bindings.size();
      benchmark::DoNotOptimize(result);
    }
    const std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - start;
    total_seconds += elapsed.count();
  }
  const double per_run = total_seconds / static_cast<double>(state.iterations());
  state.counters["bound"] = static_cast<double>(bound);
  state.counters["per_unit_wall_us"] = per_run / static_cast<double>(units) * 1e6;
  // per_unit: CPU seconds per unit (Google Benchmark rates use CPU time), as scheduling_bench's
  // per_podgroup; on a shared, loaded machine wall time overstates the engine's cost.
  state.counters["per_unit"] =
      benchmark::Counter(static_cast<double>(units), benchmark::Counter::kIsIterationInvariantRate |
                                                         benchmark::Counter::kInvert);
  state.counters["scanBoundRatio"] = per_run / (static_cast<double>(in.pods) * scan);
  if (static_cast<int64_t>(bound) != in.expected_bound) {
    state.SkipWithError(("bound " + std::to_string(bound) + " pods, expected " +
                         std::to_string(in.expected_bound)).c_str());
  }
}

void BM_RackGangs(benchmark::State& state) {
  const auto gangs = static_cast<int>(state.range(0));
  const perf::ShapeInput in = perf::RackGangShape(5000, gangs, 4);
  RunTopology(state, in, gangs, 100, 100 * kMi);
}
BENCHMARK(BM_RackGangs)->ArgName("gangs")->Arg(750)->Arg(2250)->Unit(benchmark::kMillisecond);

void BM_CompositeZoneRack(benchmark::State& state) {
  const auto cpgs = static_cast<int>(state.range(0));
  const perf::ShapeInput in = perf::CompositeShape(5000, cpgs, 2, 4);
  RunTopology(state, in, cpgs, 100, 100 * kMi);
}
BENCHMARK(BM_CompositeZoneRack)->ArgName("cpgs")->Arg(500)->Arg(1500)->Unit(benchmark::kMillisecond);

// S21Shape: 1000 nodes (4 CPU) in 100 racks of 10, one tier-2 label on all; one root
// CompositePodGroup (key tier2, minGroupCount 100) over 100 PodGroups (key rack, minCount 10) of
// 10 pods × 4 CPU (one pod fills a node).
perf::ShapeInput S21Shape() {
  perf::ShapeInput in;
  for (int i = 0; i < 1000; ++i) {
    api::Node n = perf::TasNode(i, perf::kNodesPerRack);
    n.meta.labels["example.com/tier2"] = "spine-0";
    in.objects.nodes.push_back(std::move(n));
  }
  api::CompositePodGroup root;
  root.meta.name = "job";
  root.meta.namespace_ = "default";
  root.api_version = "scheduling.k8s.io/v1alpha3";
  root.workload_ref = api::WorkloadReference{"job", "job"};
  root.scheduling_policy.gang = api::CompositeGangSchedulingPolicy{100};
  root.scheduling_constraints = api::SchedulingConstraints{{api::TopologyConstraint{"example.com/tier2"}}};
  in.objects.composite_pod_groups.push_back(root);
  for (int g = 0; g < 100; ++g) {
    api::PodGroup pg;
    pg.meta.name = "sub-" + std::to_string(g);
    pg.meta.namespace_ = "default";
    pg.api_version = "scheduling.k8s.io/v1alpha3";
    pg.parent_composite_pod_group_name = "job";
    pg.workload_ref = api::WorkloadReference{"job", "sub"};
    pg.scheduling_policy.gang = api::GangSchedulingPolicy{10};
    pg.scheduling_constraints = api::SchedulingConstraints{{api::TopologyConstraint{perf::kRackKey}}};
    in.objects.pod_groups.push_back(pg);
    for (int p = 0; p < 10; ++p) {
      api::Pod pod;
      pod.meta.name = pg.meta.name + "-" + std::to_string(p);
      pod.meta.namespace_ = "default";
      pod.scheduler_name = "default-scheduler";
      pod.pod_group_name = pg.meta.name;
      api::Container c;
      c.name = "main";
      c.requests = {{"cpu", 4000}, {"memory", 100 * kMi}};
      pod.containers.push_back(c);
      in.objects.pods.push_back(std::move(pod));
    }
  }
  in.units = 1;
  in.pods = 1000;
  in.expected_bound = 1000;
  return in;
}

void BM_S21(benchmark::State& state) {
  const perf::ShapeInput in = S21Shape();
  RunTopology(state, in, 1, 4000, 100 * kMi);
}
BENCHMARK(BM_S21)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace wasched
