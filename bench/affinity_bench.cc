// File: bench/affinity_bench.cc
//
// Pod (anti-)affinity shapes (scheduler_perf's InterPodAffinity workloads,
// test/integration/scheduler_perf/affinity/performance-config.yaml, at a smaller size: 1000
// nodes labelled with kubernetes.io/hostname and topology.kubernetes.io/zone = zone-(i/100)).
// Pod template 100m CPU / 500 Mi as SchedulingBasic. Reports `bound` and `scanBoundRatio` as the
// scheduling benchmarks do (our time / (measured pods × one plain scan over the node arrays)).
//
//   BM_AffinityNoTerms           pods without terms while 100 running pods carry required
//                                hostname anti-affinity that selects none of them: the common
//                                case, which must stay on the score-index path (ratio ≪ 1).
//   BM_AffinitySelectedNoTerms   pods without terms that 100 running pods' required hostname
//                                anti-affinity selects (symmetry): 100 nodes are excluded for
//                                each (issue 19: score index with node exclusions).
//   BM_AffinityGangHostnameAnti  gangs of 4 whose members repel each other per hostname (JobSet /
//                                LWS exclusive placement in miniature; issue 19's common case:
//                                score index with node exclusions). Also at 1000 gangs: the
//                                cost per gang must not grow with the placed pods.
//   BM_PodAntiAffinity           SchedulingPodAntiAffinity: every pod (100 running, measured ones)
//                                repels color=green per hostname.
//   BM_PodAffinity               SchedulingPodAffinity: measured pods need a color=blue pod in
//                                their zone; 1000 running blue pods.
//   BM_TopologySpreading         scheduler_perf's TopologySpreading / PreferredTopologySpreading
//                                (topology_spreading/performance-config.yaml): 1000 running and
//                                the measured pods spread color=blue over zones, maxSkew 1,
//                                DoNotSchedule (arg 1) or ScheduleAnyway (arg 0).
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

constexpr int kNodes = 1000;
constexpr int64_t kMi = int64_t{1} << 20;
constexpr const char* kHostname = "kubernetes.io/hostname";
constexpr const char* kZone = "topology.kubernetes.io/zone";

api::PodAffinityTerm Term(const std::string& key, const std::string& value, const std::string& topology) {
  api::PodAffinityTerm t;
  t.label_selector.emplace().match_labels[key] = value;
  t.topology_key = topology;
  return t;
}

// Base: kNodes labelled nodes, `existing` running pods and `pods` pending ones (SchedulingBasic).
api::ObjectSet Base(int existing, int pods) {
  api::ObjectSet objects = perf::SchedulingBasicShape(kNodes, existing, pods).objects;
  for (size_t i = 0; i < objects.nodes.size(); ++i) {
    api::Node& n = objects.nodes[i];
    n.meta.labels[kHostname] = n.meta.name;
    n.meta.labels[kZone] = "zone-" + std::to_string(i / 100);
  }
  return objects;
}

void Run(benchmark::State& state, const api::ObjectSet& objects, int64_t measured) {
  const double scan = perf::MeasureScanSeconds(perf::ToArrays(objects.nodes), 100, 500 * kMi);
  double total = 0;
  size_t bound = 0;
  for (auto _ : state) {
    const auto start = std::chrono::steady_clock::now();
    {
      sched::ScheduleResult result = sched::Schedule(objects, sched::SchedulerOptions{});
      bound = result.bindings.size();
      benchmark::DoNotOptimize(result);
    }
    total += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }
  state.SetItemsProcessed(state.iterations() * measured);
  state.counters["bound"] = static_cast<double>(bound);
  state.counters["scanBoundRatio"] =
      total / static_cast<double>(state.iterations()) / (static_cast<double>(measured) * scan);
}

void BM_AffinityNoTerms(benchmark::State& state) {
  const int pods = static_cast<int>(state.range(0));
  api::ObjectSet objects = Base(100, pods);
  for (int i = 0; i < 100; ++i) {
    api::Pod& p = objects.pods[i];
    p.meta.labels["color"] = "green";
    p.pod_anti_affinity.emplace().required.push_back(Term("color", "green", kHostname));
  }
  Run(state, objects, pods);
}
BENCHMARK(BM_AffinityNoTerms)->ArgName("pods")->Arg(2000)->Unit(benchmark::kMillisecond);

void BM_AffinitySelectedNoTerms(benchmark::State& state) {
  const int pods = static_cast<int>(state.range(0));
  api::ObjectSet objects = Base(100, pods);
  for (size_t i = 0; i < objects.pods.size(); ++i) {
    api::Pod& p = objects.pods[i];
    p.meta.labels["app"] = "web";
    if (i < 100) p.pod_anti_affinity.emplace().required.push_back(Term("app", "web", kHostname));
  }
  Run(state, objects, pods);
}
BENCHMARK(BM_AffinitySelectedNoTerms)->ArgName("pods")->Arg(2000)->Unit(benchmark::kMillisecond);

void BM_AffinityGangHostnameAnti(benchmark::State& state) {
  const int gangs = static_cast<int>(state.range(0));
  api::ObjectSet objects = Base(0, 0);
  const api::Pod pod_template = perf::SchedulingBasicShape(1, 0, 1).objects.pods[0];
  for (int g = 0; g < gangs; ++g) {
    const std::string group = "pg-" + std::to_string(g);
    api::PodGroup pg;
    pg.meta.name = group;
    pg.meta.namespace_ = pod_template.meta.namespace_;
    pg.scheduling_policy.gang.emplace().min_count = 4;
    objects.pod_groups.push_back(std::move(pg));
    for (int m = 0; m < 4; ++m) {
      api::Pod pod = pod_template;
      pod.meta.name = group + "-" + std::to_string(m);
      pod.meta.labels["group"] = group;
      pod.pod_group_name = group;
      pod.pod_anti_affinity.emplace().required.push_back(Term("group", group, kHostname));
      objects.pods.push_back(std::move(pod));
    }
  }
  Run(state, objects, int64_t{gangs} * 4);
}
BENCHMARK(BM_AffinityGangHostnameAnti)->ArgName("gangs")->Arg(200)->Arg(1000)->Unit(benchmark::kMillisecond);

void BM_PodAntiAffinity(benchmark::State& state) {
  const int pods = static_cast<int>(state.range(0));
  api::ObjectSet objects = Base(100, pods);
  for (api::Pod& p : objects.pods) {
    p.meta.labels["color"] = "green";
    p.pod_anti_affinity.emplace().required.push_back(Term("color", "green", kHostname));
  }
  Run(state, objects, pods);
}
BENCHMARK(BM_PodAntiAffinity)->ArgName("pods")->Arg(500)->Unit(benchmark::kMillisecond);

void BM_PodAffinity(benchmark::State& state) {
  const int pods = static_cast<int>(state.range(0));
  api::ObjectSet objects = Base(1000, pods);
  for (size_t i = 0; i < objects.pods.size(); ++i) {
    api::Pod& p = objects.pods[i];
    p.meta.labels["color"] = "blue";
    if (i >= 1000) p.pod_affinity.emplace().required.push_back(Term("color", "blue", kZone));
  }
  Run(state, objects, pods);
}
BENCHMARK(BM_PodAffinity)->ArgName("pods")->Arg(1000)->Unit(benchmark::kMillisecond);

}  // namespace
void BM_TopologySpreading(benchmark::State& state) {
  const int pods = static_cast<int>(state.range(0));
  const bool hard = state.range(1) != 0;
  api::ObjectSet objects = Base(1000, pods);
  for (size_t i = 0; i < objects.pods.size(); ++i) {
    api::Pod& p = objects.pods[i];
    p.meta.labels["color"] = "blue";
    if (i < 1000) continue;
    api::TopologySpreadConstraint& c = p.topology_spread_constraints.emplace_back();
    c.max_skew = 1;
    c.topology_key = kZone;
    c.when_unsatisfiable = hard ? "DoNotSchedule" : "ScheduleAnyway";
    c.label_selector.emplace().match_labels["color"] = "blue";
  }
  Run(state, objects, pods);
}
BENCHMARK(BM_TopologySpreading)
    ->ArgNames({"pods", "hard"})
    ->Args({1000, 1})
    ->Args({1000, 0})
    ->Unit(benchmark::kMillisecond);

}  // namespace wasched
