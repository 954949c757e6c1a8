// File: bench/dra_bench.cc
//
// Google Benchmark runs of DRA allocation (issue 6): 5000 nodes with 8 node-local GPUs each
// (one ResourceSlice per node, driver gpu.example.com), 1000 gangs × 8 pods, every pod with one
// claim made from a one-GPU ResourceClaimTemplate.
//
//   BM_DraBuild       constructing the DynamicResources plugin: inventory of 40,000 devices,
//                     DeviceClass CEL selector evaluated on each, claim resolution for 8000 pods.
//   BM_DraGangCycles  the per-gang work the scheduler does with the plugin: for every pod of a
//                     gang, Filter over all 5000 nodes (upstream filters every node), take the
//                     first feasible node, Reserve; gangs are kept (all fit). Reports
//                     `per_gang` and `filter_calls`.
//   BM_DraSchedule    the same shape end to end through sched::Schedule: 1000 PodGroups (gang,
//                     minCount 8) of 8 pods (100m CPU each, nodes 4 CPU / 110 pods); every pod
//                     filtered by DynamicResources inside the gang algorithm. Reports `per_gang`.
//
// Objects are built before the timed loop.
#include <chrono>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>

#include "api/object_set.h"
#include "sched/plugins/dynamic_resources/dynamic_resources.h"
#include "sched/scheduler.h"

namespace wasched {
namespace {

constexpr int kNodes = 5000;
constexpr int kDevicesPerNode = 8;

api::ObjectSet Shape(int gangs, int pods_per_gang) {
  api::ObjectSet s;
  for (int n = 0; n < kNodes; ++n) {
    api::Node& node = s.nodes.emplace_back();
    node.meta.name = "node-" + std::to_string(n);
    api::ResourceSlice& slice = s.resource_slices.emplace_back();
    slice.meta.name = node.meta.name + "-gpu.example.com";
    slice.driver = "gpu.example.com";
    slice.node_name = node.meta.name;
    slice.pool = {node.meta.name, 1, 1};
    for (int d = 0; d < kDevicesPerNode; ++d) {
      api::Device& dev = slice.devices.emplace_back();
      dev.name = "gpu-" + std::to_string(d);
      api::DeviceAttribute model;
      model.kind = api::DeviceAttribute::Kind::kString;
      model.string_value = "LATEST-GPU-MODEL";
      dev.attributes.emplace_back("model", model);
      dev.capacity.emplace_back("memory", *api::Quantity::Parse("80Gi"));
    }
  }
  api::DeviceClass& cls = s.device_classes.emplace_back();
  cls.meta.name = "gpu.example.com";
  cls.selectors.push_back({"device.driver == 'gpu.example.com'"});
  api::ResourceClaimTemplate& t = s.resource_claim_templates.emplace_back();
  t.meta.name = "one-gpu";
  t.meta.namespace_ = "default";
  api::DeviceRequest& r = t.spec.requests.emplace_back();
  r.name = "gpu";
  r.exactly.emplace();
  r.exactly->device_class_name = "gpu.example.com";
  r.exactly->selectors.push_back(
      {"device.capacity['gpu.example.com'].memory.compareTo(quantity('40Gi')) >= 0"});
  for (int g = 0; g < gangs; ++g) {
    for (int p = 0; p < pods_per_gang; ++p) {
      api::Pod& pod = s.pods.emplace_back();
      pod.meta.name = "gang-" + std::to_string(g) + "-" + std::to_string(p);
      pod.meta.namespace_ = "default";
      pod.containers.push_back({});
      pod.containers.back().claims.push_back({"gpu", ""});
      pod.resource_claims.push_back({"gpu", std::nullopt, "one-gpu"});
    }
  }
  return s;
}

std::vector<const api::Node*> NodePointers(const api::ObjectSet& s) {
  std::vector<const api::Node*> out;
  for (const api::Node& n : s.nodes) out.push_back(&n);
  return out;
}

void BM_DraBuild(benchmark::State& state) {
  const api::ObjectSet s = Shape(1000, 8);
  const std::vector<const api::Node*> nodes = NodePointers(s);
  for (auto _ : state) {
    sched::DynamicResources plugin(s, nodes, FeatureGates{});
    benchmark::DoNotOptimize(plugin);
  }
}
BENCHMARK(BM_DraBuild)->Unit(benchmark::kMillisecond);

void BM_DraGangCycles(benchmark::State& state) {
  const int gangs = static_cast<int>(state.range(0));
  const int per_gang = static_cast<int>(state.range(1));
  const api::ObjectSet s = Shape(gangs, per_gang);
  const std::vector<const api::Node*> nodes = NodePointers(s);
  std::vector<sched::NodeIndex> all(kNodes);
  for (int n = 0; n < kNodes; ++n) all[static_cast<size_t>(n)] = n;
  int64_t filter_calls = 0;
  int64_t bound = 0;
  for (auto _ : state) {
    state.PauseTiming();
    auto plugin = std::make_unique<sched::DynamicResources>(s, nodes, FeatureGates{});
    std::vector<sched::NodeIndex> feasible;
    filter_calls = 0;
    bound = 0;
    state.ResumeTiming();
    for (int g = 0; g < gangs; ++g) {
      const auto mark = plugin->Mark();
      bool ok = true;
      for (int p = 0; p < per_gang && ok; ++p) {
        const api::Pod& pod = s.pods[static_cast<size_t>(g * per_gang + p)];
        feasible = all;
        plugin->FilterNodes(pod, &feasible);
        filter_calls += kNodes;
        ok = !feasible.empty() && plugin->Reserve(pod, feasible.front());
        bound += ok ? 1 : 0;
      }
      if (!ok) plugin->RevertTo(mark);
    }
    state.PauseTiming();
    plugin.reset();
    state.ResumeTiming();
  }
  state.counters["per_gang"] = benchmark::Counter(
      static_cast<double>(gangs) * static_cast<double>(state.iterations()),
      benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
  state.counters["filter_calls"] = static_cast<double>(filter_calls);
  state.counters["bound"] = static_cast<double>(bound);
}
BENCHMARK(BM_DraGangCycles)->Args({1000, 8})->Unit(benchmark::kMillisecond);

void BM_DraSchedule(benchmark::State& state) {
  const int gangs = static_cast<int>(state.range(0));
  const int per_gang = static_cast<int>(state.range(1));
  api::ObjectSet s = Shape(gangs, per_gang);
  for (api::Node& n : s.nodes) {
    n.allocatable = {{"cpu", 4000}, {"memory", int64_t{32} << 30}, {"pods", 110}};
  }
  for (int g = 0; g < gangs; ++g) {
    api::PodGroup& pg = s.pod_groups.emplace_back();
    pg.meta.name = "gang-" + std::to_string(g);
    pg.meta.namespace_ = "default";
    pg.scheduling_policy.gang.emplace();
    pg.scheduling_policy.gang->min_count = per_gang;
  }
  for (size_t i = 0; i < s.pods.size(); ++i) {
    api::Pod& pod = s.pods[i];
    pod.containers[0].requests = {{"cpu", 100}, {"memory", int64_t{100} << 20}};
    pod.pod_group_name = "gang-" + std::to_string(static_cast<int>(i) / per_gang);
  }
  size_t bound = 0;
  size_t allocated = 0;
  for (auto _ : state) {
    sched::ScheduleResult r = sched::Schedule(s, sched::SchedulerOptions{});
    bound = r.bindings.size();
    allocated = r.allocations.size();
    benchmark::DoNotOptimize(r);
  }
  state.counters["per_gang"] = benchmark::Counter(
      static_cast<double>(gangs) * static_cast<double>(state.iterations()),
      benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
  state.counters["bound"] = static_cast<double>(bound);
  state.counters["claims"] = static_cast<double>(allocated);
}
BENCHMARK(BM_DraSchedule)->Args({1000, 8})->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace wasched
