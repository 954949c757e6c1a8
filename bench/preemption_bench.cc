// File: bench/preemption_bench.cc
//
// Preemption benchmarks (spec/perf-anchors.md §1.1 PreemptionAsync, §1.3(d) CPGPreemptionCPG;
// issue 16 target: ≤ 25 µs per preemptor at 5000 nodes / 20k running pods).
//
//  * BM_DefaultPreemption: PreemptionAsync/5000Nodes — perf::PreemptionShape (nodes 4 CPU /
//    32Gi / 110 pods; 20000 low-priority pods 900m / 500Mi, 4 per node; high-priority
//    preemptors 3000m / 500Mi). Per preemptor: the bare-pod PostFilter (candidate dry run over
//    max(100, 10%) = 500 nodes, victim choice, node choice), then the evictions and the bind.
//    `per_preemptor` = time per preemptor; `evicted` = victims per run (3 per preemptor).
//  * BM_PodGroupPreemption: CPGPreemptionCPG-like, 100 nodes: 5 low-priority CompositePodGroup
//    trees of 10 PodGroups × 2 pods (3500m each, one per node, disruptionMode all at the
//    root) and one high-priority preemptor of 10 × 10 pods of 3500m: the whole-cluster
//    evaluator (remove all, one simulation, reprieve 5 units). The simulation is a greedy
//    placement through Framework::FindNode (the tree algorithm itself is timed elsewhere).
//    `per_preemption` = time per preemption.
//  * BM_PreemptionSchedule: the same PreemptionAsync shape end to end through sched::Schedule
//    (queue, FindNode failing, PostFilter, evictions, the bind); `per_preemptor` = one Schedule
//    run / preemptors (the ObjectSet is built outside the timed loop).
//  * BM_GangPreemptionAffinity: upstream workloadpreemption/GangPreemptionAffinity
//    (perf::GangPreemptionAffinityShape: 100 nodes, one anchor pod per node, 1000 low-priority
//    pods, gangs whose pods need a node with an anchor: required podAffinity on the hostname)
//    end to end through sched::Schedule; each gang preempts with the whole-cluster evaluator,
//    whose reprieve replays the gang's placements through InterPodAffinity's Filter once per
//    victim unit. `per_pod` = one Schedule run / gang pods.
// The cluster state is rebuilt outside the timed region for every iteration.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include <benchmark/benchmark.h>

#include "api/object_set.h"
#include "perf/shapes.h"
#include "perf/upstream.h"
#include "sched/cache/node_table.h"
#include "sched/cache/snapshot.h"
#include "sched/framework/framework.h"
#include "sched/framework/pod_template.h"
#include "sched/preemption/default_preemption.h"
#include "sched/preemption/node_pods.h"
#include "sched/preemption/pod_group_evaluator.h"
#include "sched/preemption/victim_unit.h"
#include "sched/scheduler.h"

namespace wasched {
namespace {

using sched::NodeIndex;
using sched::PodIndex;
namespace pre = sched::preemption;

constexpr int64_t kMi = int64_t{1} << 20;

// Cache: the scheduler's in-memory state for an ObjectSet (what sched::Schedule's BuildCache
// makes): nodes sorted by name, PodInfo per pod, running pods placed.
struct Cache {
  explicit Cache(const api::ObjectSet& objects) {
    std::vector<const api::Node*> sorted;
    for (const auto& n : objects.nodes) sorted.push_back(&n);
    std::sort(sorted.begin(), sorted.end(),
              [](const api::Node* a, const api::Node* b) { return a->meta.name < b->meta.name; });
    std::unordered_map<std::string, NodeIndex> index;
    for (size_t i = 0; i < sorted.size(); ++i) index.emplace(sorted[i]->meta.name, static_cast<NodeIndex>(i));
    nodes = std::make_unique<sched::NodeTable>(sorted, resources);
    framework = std::make_unique<sched::Framework>(*nodes, resources, sched::ScoringStrategy::kLeastAllocated);
    snapshot = std::make_unique<sched::Snapshot>(*nodes, pods);
    pods.reserve(objects.pods.size());
    for (size_t i = 0; i < objects.pods.size(); ++i) {
      const api::Pod& pod = objects.pods[i];
      sched::PodInfo pi;
      pi.pod = &pod;
      pi.requests = templates[templates.Intern(pod)].requests;
      pi.nonzero_cpu = sched::kDefaultMilliCPURequest;
      pi.nonzero_memory = sched::kDefaultMemoryRequest;
      pi.priority = pod.priority.value_or(0);
      pi.input_order = static_cast<int32_t>(i);
      pods.push_back(std::move(pi));
    }
    nodes->EnsureResources(resources.size());
    for (size_t p = 0; p < pods.size(); ++p) {
      const api::Pod& pod = *pods[p].pod;
      if (!pod.node_name.empty()) {
        snapshot->Assume(static_cast<PodIndex>(p), index.at(pod.node_name));
      } else {
        pods[p].static_class = framework->ClassOf(pod);
        pods[p].signature = framework->SignatureOf(pods[p]);
      }
    }
    snapshot->Commit();
  }

  sched::ResourceTable resources;
  sched::PodTemplates templates{resources};
  std::unique_ptr<sched::NodeTable> nodes;
  std::unique_ptr<sched::Framework> framework;
  std::unique_ptr<sched::Snapshot> snapshot;
  std::vector<sched::PodInfo> pods;
};

void BM_DefaultPreemption(benchmark::State& state) {
  const int nodes = static_cast<int>(state.range(0));
  const int running = static_cast<int>(state.range(1));
  const int preemptors = static_cast<int>(state.range(2));
  const api::ObjectSet objects = perf::PreemptionShape(nodes, running, preemptors).objects;
  const std::vector<pre::GroupNode> no_groups;
  int64_t evicted = 0, placed = 0;
  for (auto _ : state) {
    state.PauseTiming();
    auto cache = std::make_unique<Cache>(objects);
    pre::NodePods node_pods(cache->nodes->size(), cache->pods);
    pre::DefaultPreemption dp(*cache->snapshot, *cache->framework, cache->pods, cache->resources);
    pre::VictimUnitIndex units(cache->pods, no_groups);  // lives across preemptors, as in Schedule
    evicted = placed = 0;
    state.ResumeTiming();
    for (int i = running; i < running + preemptors; ++i) {
      sched::PodInfo& pod = cache->pods[i];
      if (cache->framework->FindNode(pod) != sched::kNoNode) continue;
      units.Refresh();
      pre::Preemptor who{"Pod " + sched::PodKey(pod), pod.priority, api::PreemptionPolicy::kPreemptLowerPriority, {i}, {}, false};
      pre::Outcome o = dp.Preempt(who, units, node_pods, nullptr);
      if (!o.status.IsSuccess()) continue;
      for (PodIndex v : o.victims) {
        node_pods.Remove(v, cache->pods[v].node);
        cache->snapshot->Remove(v);
      }
      evicted += static_cast<int64_t>(o.victims.size());
      const NodeIndex n = o.nominations[0].node;
      cache->snapshot->Assume(i, n);
      cache->snapshot->Commit();
      node_pods.Add(i, n);
      ++placed;
    }
    state.PauseTiming();
    cache.reset();
    state.ResumeTiming();
  }
  state.counters["placed"] = static_cast<double>(placed);
  state.counters["evicted"] = static_cast<double>(evicted);
  state.counters["per_preemptor"] = benchmark::Counter(
      static_cast<double>(preemptors) * static_cast<double>(state.iterations()),
      benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_DefaultPreemption)
    ->ArgNames({"nodes", "running", "preemptors"})
    ->Args({5000, 20000, 5000})
    ->Unit(benchmark::kMillisecond);

// CompositePreemptionObjects: 100 nodes; 5 low CPG trees × 10 PodGroups × 2 pods (one per node);
// one high-priority preemptor of 10 × 10 pods. Pods 3500m / 100Mi.
api::ObjectSet CompositePreemptionObjects(std::vector<pre::GroupNode>* groups, std::vector<int32_t>* pod_group) {
  api::ObjectSet o;
  for (int i = 0; i < 100; ++i) {
    api::Node n;
    n.meta.name = "node-" + std::to_string(1000 + i);
    n.allocatable = {{"cpu", 4000}, {"memory", 32 * 1024 * kMi}, {"pods", 110}};
    o.nodes.push_back(std::move(n));
  }
  auto pod = [&](const std::string& name, int32_t priority, const std::string& node, int32_t group) {
    api::Pod p;
    p.meta.name = name;
    p.meta.namespace_ = "default";
    p.priority = priority;
    p.node_name = node;
    api::Container c;
    c.requests = {{"cpu", 3500}, {"memory", 100 * kMi}};
    p.containers.push_back(std::move(c));
    o.pods.push_back(std::move(p));
    pod_group->push_back(group);
  };
  int node = 0;
  for (int c = 0; c < 5; ++c) {
    pre::GroupNode root;
    root.composite = true;
    root.disruption_all = true;
    root.priority = 1;
    root.label = "CompositePodGroup default/low-" + std::to_string(c);
    groups->push_back(root);
    const auto root_index = static_cast<int32_t>(groups->size()) - 1;
    for (int g = 0; g < 10; ++g) {
      pre::GroupNode leaf;
      leaf.parent = root_index;
      leaf.priority = 1;
      leaf.label = "PodGroup default/low-" + std::to_string(c) + "-" + std::to_string(g);
      groups->push_back(leaf);
      const auto leaf_index = static_cast<int32_t>(groups->size()) - 1;
      (*groups)[root_index].children.push_back(leaf_index);
      for (int p = 0; p < 2; ++p) {
        pod(leaf.label + "-" + std::to_string(p), 1, "node-" + std::to_string(1000 + node++), leaf_index);
      }
    }
  }
  for (int p = 0; p < 100; ++p) pod("high-" + std::to_string(p), 100, "", -1);
  return o;
}

void BM_PodGroupPreemption(benchmark::State& state) {
  std::vector<pre::GroupNode> groups;
  std::vector<int32_t> pod_group;
  const api::ObjectSet objects = CompositePreemptionObjects(&groups, &pod_group);
  int64_t evicted = 0;
  for (auto _ : state) {
    state.PauseTiming();
    auto cache = std::make_unique<Cache>(objects);
    std::vector<pre::GroupNode> g = groups;
    std::vector<PodIndex> preemptor;
    for (size_t p = 0; p < cache->pods.size(); ++p) {
      cache->pods[p].group = pod_group[p];
      if (pod_group[p] >= 0) g[pod_group[p]].members.push_back(static_cast<PodIndex>(p));
      if (cache->pods[p].pod->node_name.empty()) preemptor.push_back(static_cast<PodIndex>(p));
    }
    state.ResumeTiming();
    pre::VictimUnitIndex units(cache->pods, g);
    pre::PodGroupEvaluator ev(*cache->snapshot, *cache->framework, cache->pods);
    pre::Preemptor who{"CompositePodGroup default/high", 100, api::PreemptionPolicy::kPreemptLowerPriority,
                       preemptor, {}, false};
    pre::Outcome o = ev.Preempt(who, units, nullptr, [&] {
      pre::SimulationResult r;
      const size_t mark = cache->snapshot->Mark();
      for (PodIndex p : preemptor) {
        const NodeIndex n = cache->framework->FindNode(cache->pods[p]);
        if (n == sched::kNoNode) break;
        cache->snapshot->Assume(p, n);
        r.placements.push_back({p, n});
      }
      cache->snapshot->RevertTo(mark);
      if (r.placements.size() < preemptor.size()) {
        r.status = sched::Status::Unschedulable("does not fit");
        r.placements.clear();
      }
      return r;
    });
    evicted = static_cast<int64_t>(o.victims.size());
    benchmark::DoNotOptimize(o);
    state.PauseTiming();
    cache.reset();
    state.ResumeTiming();
  }
  state.counters["evicted"] = static_cast<double>(evicted);
  state.counters["per_preemption"] = benchmark::Counter(
      static_cast<double>(state.iterations()), benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_PodGroupPreemption)->Unit(benchmark::kMicrosecond);

void BM_PreemptionSchedule(benchmark::State& state) {
  const int nodes = static_cast<int>(state.range(0));
  const int running = static_cast<int>(state.range(1));
  const int preemptors = static_cast<int>(state.range(2));
  const api::ObjectSet objects = perf::PreemptionShape(nodes, running, preemptors).objects;
  size_t bound = 0, evicted = 0;
  for (auto _ : state) {
    sched::ScheduleResult result = sched::Schedule(objects, sched::SchedulerOptions{});
    bound = result.bindings.size();
    evicted = result.evictions.size();
    benchmark::DoNotOptimize(result);
  }
  state.counters["bound"] = static_cast<double>(bound);
  state.counters["evicted"] = static_cast<double>(evicted);
  state.counters["per_preemptor"] = benchmark::Counter(
      static_cast<double>(preemptors) * static_cast<double>(state.iterations()),
      benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_PreemptionSchedule)
    ->ArgNames({"nodes", "running", "preemptors"})
    ->Args({5000, 20000, 5000})
    ->Unit(benchmark::kMillisecond);

void BM_GangPreemptionAffinity(benchmark::State& state) {
  const int gangs = static_cast<int>(state.range(0));
  const int per_gang = static_cast<int>(state.range(1));
  const api::ObjectSet objects = perf::GangPreemptionAffinityShape(100, 1000, gangs, per_gang).objects;
  size_t bound = 0, evicted = 0;
  for (auto _ : state) {
    sched::ScheduleResult result = sched::Schedule(objects, sched::SchedulerOptions{});
    bound = result.bindings.size();
    evicted = result.evictions.size();
    benchmark::DoNotOptimize(result);
  }
  state.counters["bound"] = static_cast<double>(bound);
  state.counters["evicted"] = static_cast<double>(evicted);
  state.counters["per_pod"] = benchmark::Counter(
      static_cast<double>(gangs) * per_gang * static_cast<double>(state.iterations()),
      benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_GangPreemptionAffinity)
    ->ArgNames({"gangs", "per_gang"})
    ->Args({10, 10})
    ->Args({1, 100})
    ->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace wasched
