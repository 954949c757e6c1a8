// Long-lived engine vs one shot per event (issue 16): a stream of arrivals on a fixed cluster,
// as `simulate` and `run` drive the engine. Each arrival is a 4-pod gang (a PodGroup with
// minCount 4, 1 CPU a pod); from the 500th on, each arrival also ends the oldest running gang
// (its four pods deleted), so the cluster stays about half full.
//  * BM_EventStreamScheduler: one sched::Scheduler fed Add / Delete events, ScheduleUntilIdle
//    after each arrival, every binding reported as BindSucceeded (the pod adds and deletions take
//    the incremental path: no rebuild).
//  * BM_EventStreamOneShot: the same stream through sched::Schedule on the whole object set after
//    each arrival, bindings written back as spec.nodeName (what `simulate` does today).
// Reported per arrival (items = arrivals). Same machine, same run: the ratio is the factor.
// Measured 2026-12-03 (h/engine 67b8437, load ≈ 9 on 2 cores, median of 3, process CPU):
// Scheduler 4.10 s, one shot 1.72 s: the Scheduler is 2.4× SLOWER here, because every arrival
// adds a PodGroup, which still rebuilds the engine (plus the Scheduler's own per-rebuild work:
// exporting conditions, re-indexing pod names, Assemble copying every group's conditions).
// Group adds without a rebuild are the next step (issue 16 item 1/3).
#include <benchmark/benchmark.h>

#include <deque>
#include <string>
#include <vector>

#include "sched/scheduler.h"
#include "support/builders.h"

namespace wasched {
namespace {

constexpr int kNodes = 1000;
constexpr int kArrivals = 2000;
constexpr int kLive = 500;  // gangs kept running before the oldest ends
constexpr int kGang = 4;

std::vector<api::Node> Nodes() {
  std::vector<api::Node> out;
  for (int n = 0; n < kNodes; ++n) {
    out.push_back(test::MakeNode().Name("n" + std::to_string(10000 + n)).Capacity({{"cpu", 8000}, {"pods", 110}}).Obj());
  }
  return out;
}

std::string GangName(int j) { return "g" + std::to_string(100000 + j); }

api::PodGroup Group(int j) { return test::MakePodGroup().Name(GangName(j)).MinCount(kGang).CreationTimestamp(j).Obj(); }

api::Pod Member(int j, int m) {
  return test::MakePod().Name(GangName(j) + "-" + std::to_string(m)).Req({{"cpu", 1000}}).Group(GangName(j)).CreationTimestamp(j).Obj();
}

void BM_EventStreamScheduler(benchmark::State& state) {
  for (auto _ : state) {
    sched::Scheduler s(sched::SchedulerOptions{});
    for (api::Node& n : Nodes()) s.Add(std::move(n));
    int64_t bound = 0;
    for (int j = 0; j < kArrivals; ++j) {
      if (j >= kLive) {
        for (int m = 0; m < kGang; ++m) s.Delete(sched::ObjectKind::kPod, "default", GangName(j - kLive) + "-" + std::to_string(m));
      }
      s.Add(Group(j));
      for (int m = 0; m < kGang; ++m) s.Add(Member(j, m));
      const sched::Decisions d = s.ScheduleUntilIdle();
      for (const sched::Binding& b : d.result.bindings) {
        const size_t slash = b.pod.find('/');
        s.BindSucceeded(std::string_view(b.pod).substr(0, slash), std::string_view(b.pod).substr(slash + 1));
      }
      bound += static_cast<int64_t>(d.result.bindings.size());
    }
    benchmark::DoNotOptimize(bound);
  }
  state.SetItemsProcessed(state.iterations() * kArrivals);
}

void BM_EventStreamOneShot(benchmark::State& state) {
  for (auto _ : state) {
    api::ObjectSet o;
    o.nodes = Nodes();
    int64_t bound = 0;
    for (int j = 0; j < kArrivals; ++j) {
      if (j >= kLive) {
        const std::string prefix = GangName(j - kLive) + "-";
        std::erase_if(o.pods, [&](const api::Pod& p) { return p.meta.name.rfind(prefix, 0) == 0; });
      }
      o.pod_groups.push_back(Group(j));
      for (int m = 0; m < kGang; ++m) o.pods.push_back(Member(j, m));
      const sched::ScheduleResult r = sched::Schedule(o, {});
      for (const sched::Binding& b : r.bindings) {
        const std::string_view name = std::string_view(b.pod).substr(b.pod.find('/') + 1);
        for (auto it = o.pods.rbegin(); it != o.pods.rend(); ++it) {  // the newest pods first
          if (it->meta.name == name) {
            it->node_name = b.node;
            break;
          }
        }
      }
      bound += static_cast<int64_t>(r.bindings.size());
    }
    benchmark::DoNotOptimize(bound);
  }
  state.SetItemsProcessed(state.iterations() * kArrivals);
}

BENCHMARK(BM_EventStreamScheduler)->Unit(benchmark::kMillisecond)->MeasureProcessCPUTime()->UseRealTime()->Iterations(1)->Repetitions(3);
BENCHMARK(BM_EventStreamOneShot)->Unit(benchmark::kMillisecond)->MeasureProcessCPUTime()->UseRealTime()->Iterations(1)->Repetitions(3);

}  // namespace
}  // namespace wasched
