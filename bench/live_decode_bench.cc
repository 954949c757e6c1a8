// File: bench/live_decode_bench.cc
//
// Google Benchmark runs of the live scheduler's per-cycle decode (`wasched run`, issue 17;
// live/decode_cache.h) on the shape of tests/live/run_bench.sh: 500 nodes and 5000 pending pods
// as 1000 gangs of 5 (a PodGroup each), as the informers store them.
//
//   BM_LiveDecodeLists     what a cycle did before the cache: one List text per type, decoded
//                          whole by codec::LoadTextsAndPaths
//   BM_LiveDecodeFresh     the cache with nothing cached: every object decoded on its own
//   BM_LiveDecodeUnchanged a cycle after one in which nothing changed: versions compared only
//   BM_LiveDecodeOneGang   a cycle after 5 pods (one gang) changed: 5 decoded, the other pods
//                          moved into place
//
// items_per_second = objects per second. Store and texts are built before the timed loop.
#include <sstream>
#include <string>
#include <vector>

#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include "codec/loader.h"
#include "kube/resource_type.h"
#include "live/decode_cache.h"
#include "live/object_store.h"
#include "live/scheduling_loop.h"
#include "sched/scheduler.h"
#include "validation/dra_validation.h"
#include "validation/object_set_validation.h"

namespace wasched {
namespace {

constexpr int kNodes = 500;
constexpr int kGangs = 1000;
constexpr int kGangSize = 5;

size_t TypeOf(std::string_view kind) {
  const auto& r = kube::SchedulingResources();
  for (size_t t = 0; t < r.size(); ++t) {
    if (r[t].kind == kind) return t;
  }
  return 0;
}

std::string NodeJson(int i) {
  return fmt::format(
      R"({{"metadata":{{"name":"node-{0}","uid":"n-{0}","resourceVersion":"1","labels":{{"kubernetes.io/hostname":"node-{0}","topology.kubernetes.io/zone":"z{1}"}}}},)"
      R"("spec":{{}},"status":{{"capacity":{{"cpu":"32","memory":"128Gi","pods":"110"}},"allocatable":{{"cpu":"32","memory":"128Gi","pods":"110"}},)"
      R"("conditions":[{{"type":"Ready","status":"True","reason":"KubeletReady"}}]}}}})",
      i, i % 3);
}

std::string PodJson(int gang, int member, int version) {
  return fmt::format(
      R"({{"metadata":{{"name":"g{0}-{1}","namespace":"bench","uid":"u-{0}-{1}","resourceVersion":"{2}",)"
      R"("creationTimestamp":"2026-12-02T00:00:00Z","labels":{{"app":"bench","gang":"g{0}"}}}},)"
      R"("spec":{{"schedulerName":"wasched","schedulingGroup":{{"podGroupName":"g{0}"}},)"
      R"("containers":[{{"name":"c","image":"registry.k8s.io/pause:3.10","resources":{{"requests":{{"cpu":"100m","memory":"64Mi"}}}}}}],)"
      R"("restartPolicy":"Always","terminationGracePeriodSeconds":30,"dnsPolicy":"ClusterFirst","priority":0,)"
      R"("tolerations":[{{"key":"node.kubernetes.io/not-ready","operator":"Exists","effect":"NoExecute","tolerationSeconds":300}}]}},)"
      R"("status":{{"phase":"Pending","qosClass":"Burstable"}}}})",
      gang, member, version);
}

std::string PodGroupJson(int gang) {
  return fmt::format(
      R"({{"metadata":{{"name":"g{0}","namespace":"bench","uid":"pg-{0}","resourceVersion":"1"}},)"
      R"("spec":{{"schedulerName":"wasched","schedulingPolicy":{{"gang":{{"minCount":{1}}}}}}}}})",
      gang, kGangSize);
}

live::ObjectStore& Cluster() {
  static live::ObjectStore* store = [] {
    auto* s = new live::ObjectStore(kube::SchedulingResources().size());
    for (size_t t = 0; t < kube::SchedulingResources().size(); ++t) s->MarkAbsent(t);
    for (int i = 0; i < kNodes; ++i) {
      s->Apply(TypeOf("Node"), kube::WatchEventType::kAdded, NodeJson(i));
    }
    for (int g = 0; g < kGangs; ++g) {
      s->Apply(TypeOf("PodGroup"), kube::WatchEventType::kAdded, PodGroupJson(g));
      for (int m = 0; m < kGangSize; ++m) {
        s->Apply(TypeOf("Pod"), kube::WatchEventType::kAdded, PodJson(g, m, 1));
      }
    }
    return s;
  }();
  return *store;
}

constexpr int64_t kObjects = kNodes + kGangs * (kGangSize + 1);

void BM_LiveDecodeLists(benchmark::State& state) {
  const live::ObjectStore& store = Cluster();
  const auto& resources = kube::SchedulingResources();
  std::vector<codec::NamedText> texts;
  for (size_t t = 0; t < resources.size(); ++t) {
    std::string text = fmt::format(R"({{"apiVersion":"{}","kind":"{}List","items":[)",
                                   resources[t].ApiVersion(), resources[t].kind);
    bool first = true;
    for (const live::StoredObject& o : store.Objects(t)) {
      if (!first) text += ",";
      first = false;
      text += *o.json;
    }
    text += "]}";
    texts.push_back({"cluster", std::move(text)});
  }
  for (auto _ : state) {
    std::istringstream none;
    auto loaded = codec::LoadTextsAndPaths(texts, {}, none, live::LoadOptionsForCluster());
    benchmark::DoNotOptimize(loaded);
  }
  state.SetItemsProcessed(state.iterations() * kObjects);
}
BENCHMARK(BM_LiveDecodeLists)->Unit(benchmark::kMillisecond);

void BM_LiveDecodeFresh(benchmark::State& state) {
  const live::ObjectStore& store = Cluster();
  for (auto _ : state) {
    live::DecodeCache cache(live::LoadOptionsForCluster());
    auto decoded = cache.Decode(store, {}, "cluster");
    benchmark::DoNotOptimize(decoded);
  }
  state.SetItemsProcessed(state.iterations() * kObjects);
}
BENCHMARK(BM_LiveDecodeFresh)->Unit(benchmark::kMillisecond);

void BM_LiveDecodeUnchanged(benchmark::State& state) {
  const live::ObjectStore& store = Cluster();
  live::DecodeCache cache(live::LoadOptionsForCluster());
  (void)cache.Decode(store, {}, "cluster");
  for (auto _ : state) {
    auto decoded = cache.Decode(store, {}, "cluster");
    benchmark::DoNotOptimize(decoded);
  }
  state.SetItemsProcessed(state.iterations() * kObjects);
}
BENCHMARK(BM_LiveDecodeUnchanged)->Unit(benchmark::kMillisecond);

void BM_LiveDecodeOneGang(benchmark::State& state) {
  live::ObjectStore& store = Cluster();
  live::DecodeCache cache(live::LoadOptionsForCluster());
  (void)cache.Decode(store, {}, "cluster");
  int version = 2;
  for (auto _ : state) {
    state.PauseTiming();
    for (int m = 0; m < kGangSize; ++m) {
      store.Apply(TypeOf("Pod"), kube::WatchEventType::kModified, PodJson(7, m, version));
    }
    ++version;
    state.ResumeTiming();
    auto decoded = cache.Decode(store, {}, "cluster");
    benchmark::DoNotOptimize(decoded);
  }
  state.SetItemsProcessed(state.iterations() * kObjects);
}
BENCHMARK(BM_LiveDecodeOneGang)->Unit(benchmark::kMillisecond);

// BM_LiveCycleRest: what a cycle does after the decode, on the same cluster with every pod
// pending (the first cycle after the burst): the input checks, the DRA marks, and the engine
// built and run on the whole set (sched::Schedule). items_per_second = pods per second.
void BM_LiveCycleRest(benchmark::State& state) {
  const live::ObjectStore& store = Cluster();
  live::DecodeCache cache(live::LoadOptionsForCluster());
  api::ObjectSet* objects = cache.Decode(store, {}, "cluster").objects;
  sched::SchedulerOptions options;
  options.scheduler_name = "wasched";
  for (auto _ : state) {
    auto errors = validation::CheckScheduleInput(*objects);
    benchmark::DoNotOptimize(errors);
    (void)validation::MarkPodsWithUnsupportedSelectors(objects);
    auto result = sched::Schedule(*objects, options);
    benchmark::DoNotOptimize(result);
  }
  state.SetItemsProcessed(state.iterations() * kGangs * kGangSize);
}
BENCHMARK(BM_LiveCycleRest)->Unit(benchmark::kMillisecond);

// BM_LiveCycleChecks: the input checks alone (validation::CheckScheduleInput), every cycle.
void BM_LiveCycleChecks(benchmark::State& state) {
  const live::ObjectStore& store = Cluster();
  live::DecodeCache cache(live::LoadOptionsForCluster());
  api::ObjectSet* objects = cache.Decode(store, {}, "cluster").objects;
  for (auto _ : state) {
    auto errors = validation::CheckScheduleInput(*objects);
    benchmark::DoNotOptimize(errors);
  }
  state.SetItemsProcessed(state.iterations() * kGangs * kGangSize);
}
BENCHMARK(BM_LiveCycleChecks)->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace wasched
