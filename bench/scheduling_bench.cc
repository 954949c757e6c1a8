// File: bench/scheduling_bench.cc
//
// Google Benchmark runs of sched::Schedule on kube-scheduler's scheduler_perf shapes
// (spec/perf-anchors.md §1): node template 4 CPU / 32Gi / 110 pods, pod-default template
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
#include "support/builders.h"

namespace wasched {
namespace {

using test::kGi;
using test::kMi;
using test::MakeNode;
using test::MakePod;
using test::MakePodGroup;

constexpr int kNodes = 5000;

// scheduler_perf templates/node-default.yaml.
api::Node DefaultNode(int index) {
  return MakeNode()
      .Name("node-" + std::to_string(index))
      .Capacity({{"cpu", 4000}, {"memory", 32 * kGi}, {"pods", 110}})
      .Obj();
}

std::vector<api::Node> DefaultNodes(int count) {
  std::vector<api::Node> nodes;
  nodes.reserve(count);
  for (int i = 0; i < count; ++i) nodes.push_back(DefaultNode(i));
  return nodes;
}

// SchedulingBasic/5000Nodes_10000Pods: `existing` pod-default pods already running (spread one
// per node), then `pods` pending pod-default pods.
api::ObjectSet SchedulingBasicShape(int nodes, int existing, int pods) {
  api::ObjectSet objects;
  objects.nodes = DefaultNodes(nodes);
  objects.pods.reserve(existing + pods);
  const api::ResourceList request = {{"cpu", 100}, {"memory", 500 * kMi}};
  for (int i = 0; i < existing; ++i) {
    objects.pods.push_back(MakePod()
                               .Name("init-pod-" + std::to_string(i))
                               .Namespace("init-pod")
                               .Req(request)
                               .Node("node-" + std::to_string(i % nodes))
                               .Obj());
  }
  for (int i = 0; i < pods; ++i) {
    objects.pods.push_back(MakePod().Name("pod-" + std::to_string(i)).Namespace("sched-test").Req(request).Obj());
  }
  return objects;
}

// gangscheduling/5000Nodes_<G>Gangs_<G*P>Pods: `gangs` PodGroups of `per_gang` gang-pod pods,
// minCount = per_gang.
api::ObjectSet GangShape(int nodes, int gangs, int per_gang) {
  api::ObjectSet objects;
  objects.nodes = DefaultNodes(nodes);
  objects.pod_groups.reserve(gangs);
  objects.pods.reserve(static_cast<size_t>(gangs) * per_gang);
  const api::ResourceList request = {{"cpu", 100}, {"memory", 100 * kMi}};
  for (int g = 0; g < gangs; ++g) {
    const std::string group = "pg-" + std::to_string(g);
    objects.pod_groups.push_back(MakePodGroup().Name(group).Namespace("sched-test").MinCount(per_gang).Obj());
    for (int p = 0; p < per_gang; ++p) {
      objects.pods.push_back(
          MakePod().Name(group + "-" + std::to_string(p)).Namespace("sched-test").Group(group).Req(request).Obj());
    }
  }
  return objects;
}

// NodeArrays: free cpu / memory / pod slots of every node as flat arrays, plus capacities.
struct NodeArrays {
  std::vector<int64_t> cpu_free, memory_free, pods_free, cpu_cap, memory_cap;
};

NodeArrays ToArrays(const std::vector<api::Node>& nodes) {
  NodeArrays a;
  for (const auto& n : nodes) {
    a.cpu_cap.push_back(n.allocatable.at("cpu"));
    a.memory_cap.push_back(n.allocatable.at("memory"));
    a.cpu_free.push_back(a.cpu_cap.back());
    a.memory_free.push_back(a.memory_cap.back());
    a.pods_free.push_back(n.allocatable.at("pods"));
  }
  return a;
}

// ScanOnce: one plain pass over the node arrays for one pod: fit check on cpu, memory and pod
// slots, a LeastAllocated-style integer score, the best node kept. Returns its index or -1.
int ScanOnce(const NodeArrays& a, int64_t cpu, int64_t memory) {
  int best = -1;
  int64_t best_score = -1;
  const size_t n = a.cpu_free.size();
  for (size_t i = 0; i < n; ++i) {
    const int64_t cpu_left = a.cpu_free[i] - cpu;
    const int64_t memory_left = a.memory_free[i] - memory;
    if (cpu_left < 0 || memory_left < 0 || a.pods_free[i] < 1) continue;
    const int64_t score = cpu_left * 100 / a.cpu_cap[i] + memory_left * 100 / a.memory_cap[i];
    if (score > best_score) {
      best_score = score;
      best = static_cast<int>(i);
    }
  }
  return best;
}

// MeasureScanSeconds: seconds for one ScanOnce over `nodes`, best of 5 batches of 200 scans.
double MeasureScanSeconds(const std::vector<api::Node>& nodes, int64_t cpu, int64_t memory) {
  const NodeArrays arrays = ToArrays(nodes);
  double best = 1e9;
  for (int batch = 0; batch < 5; ++batch) {
    const auto start = std::chrono::steady_clock::now();
    for (int i = 0; i < 200; ++i) benchmark::DoNotOptimize(ScanOnce(arrays, cpu + i % 2, memory));
    const std::chrono::duration<double> elapsed = std::chrono::steady_clock::now() - start;
    best = std::min(best, elapsed.count() / 200);
  }
  return best;
}

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
  const api::ObjectSet objects = SchedulingBasicShape(nodes, existing, pods);
  const double scan = MeasureScanSeconds(objects.nodes, 100, 500 * kMi);
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
  const api::ObjectSet objects = GangShape(kNodes, gangs, per_gang);
  const double scan = MeasureScanSeconds(objects.nodes, 100, 100 * kMi);
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
  const NodeArrays arrays = ToArrays(DefaultNodes(static_cast<int>(state.range(0))));
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
