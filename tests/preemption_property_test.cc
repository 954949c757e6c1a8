// File: tests/preemption_property_test.cc
//
// Property tests (rapidcheck) of preemption on random clusters: low-priority gangs (disruptionMode
// all or single) and bare pods run; high-priority gangs and bare pods arrive. After the run:
//   - no victim unit is left partly running: a PodGroup with disruptionMode all that lost a pod
//     to preemption has no pod left running, and a gang never keeps a number of running pods
//     between 1 and minCount − 1 because of an eviction;
//   - every preemptor named in `evictions` was placed (a pod bound, or a group with at least one
//     member bound and its condition True) — no preemption that leaves the preemptor pending
//     (S11);
//   - evicted pods are neither bound nor pending, and were running (a deleted pod is never
//     scheduled again, also not by its own group's later cycle: QA finding 22);
//   - victims have a lower priority than their preemptor.
// The engine runs with SchedulerOptions{.verify = true}: incremental node usage equals a
// recomputation and no node is over-committed after every cycle.
#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include "api/pod_group.h"
#include "sched/scheduler.h"
#include "support/builders.h"
#include "validation/object_set_validation.h"

namespace wasched {
namespace {

using test::kGi;
using test::MakeNode;
using test::MakePod;
using test::MakePodGroup;
using test::MakePriorityClass;

constexpr int32_t kLow = 10;
constexpr int32_t kHigh = 100;

std::string ClassFor(int32_t priority) { return priority == kLow ? "low" : "high"; }

struct Gen {
  api::ObjectSet objects;
  std::map<std::string, int32_t> priority;  // "ns/pod" → priority
};

Gen GenCluster() {
  Gen g;
  api::ObjectSet& o = g.objects;
  o.priority_classes.push_back(MakePriorityClass().Name("low").Value(kLow).Obj());
  o.priority_classes.push_back(MakePriorityClass().Name("high").Value(kHigh).Obj());
  const int nodes = *rc::gen::inRange(1, 9);
  std::vector<int64_t> free;
  for (int n = 0; n < nodes; ++n) {
    const int64_t cpu = *rc::gen::inRange<int64_t>(2, 9) * 1000;
    o.nodes.push_back(MakeNode()
                          .Name("node-" + std::to_string(n))
                          .Resource("cpu", cpu)
                          .Resource("memory", 64 * kGi)
                          .Resource("pods", 110)
                          .Obj());
    free.push_back(cpu);
  }
  auto place = [&](int64_t cpu) -> int {
    const int start = *rc::gen::inRange(0, nodes);
    for (int i = 0; i < nodes; ++i) {
      const int n = (start + i) % nodes;
      if (free[n] >= cpu) {
        free[n] -= cpu;
        return n;
      }
    }
    return -1;
  };
  auto add_pod = [&](const std::string& name, int32_t priority, int64_t cpu, const std::string& group,
                     int node, int64_t created) {
    auto p = MakePod()
                 .Name(name)
                 .PriorityClassName(ClassFor(priority))
                 .CreationTimestamp(created)
                 .Req({{"cpu", cpu}});
    if (!group.empty()) p.Group(group);
    if (node >= 0) p.Node("node-" + std::to_string(node));
    o.pods.push_back(p.Obj());
    g.priority["default/" + name] = priority;
  };
  // Running low-priority gangs: all members placed, or the gang is not generated.
  const int low_gangs = *rc::gen::inRange(1, 6);
  for (int i = 0; i < low_gangs; ++i) {
    const std::string name = "low-" + std::to_string(i);
    const int size = *rc::gen::inRange(1, 6);
    const int64_t cpu = *rc::gen::inRange<int64_t>(1, 5) * 500;
    std::vector<int> where;
    for (int p = 0; p < size; ++p) where.push_back(place(cpu));
    if (std::find(where.begin(), where.end(), -1) != where.end()) {
      for (int n : where) {
        if (n >= 0) free[n] += cpu;
      }
      continue;
    }
    const int min_count = *rc::gen::inRange(1, size + 1);
    auto pg = MakePodGroup().Name(name).PriorityClassName("low").Priority(kLow).MinCount(min_count);
    if (*rc::gen::inRange(0, 3) != 0) pg.DisruptionAll();
    o.pod_groups.push_back(pg.Obj());
    for (int p = 0; p < size; ++p) add_pod(name + "-" + std::to_string(p), kLow, cpu, name, where[p], i);
    // Pending members beside the running ones (QA finding 22: a victim group's later cycle must
    // not bind its evicted members again). Fewer than minCount, so once every running member is
    // evicted the group cannot reach quorum on its own and an all-mode victim stays at 0.
    const int extra = *rc::gen::inRange(0, min_count);
    for (int p = size; p < size + extra; ++p) {
      add_pod(name + "-" + std::to_string(p), kLow, cpu, name, -1, i);
    }
  }
  const int low_bare = *rc::gen::inRange(0, 8);
  for (int i = 0; i < low_bare; ++i) {
    const int64_t cpu = *rc::gen::inRange<int64_t>(1, 5) * 500;
    const int n = place(cpu);
    if (n >= 0) add_pod("low-bare-" + std::to_string(i), kLow, cpu, "", n, 50 + i);
  }
  // Pending high-priority gangs and bare pods.
  const int high_gangs = *rc::gen::inRange(1, 3);
  for (int i = 0; i < high_gangs; ++i) {
    const std::string name = "high-" + std::to_string(i);
    const int size = *rc::gen::inRange(1, 6);
    const int64_t cpu = *rc::gen::inRange<int64_t>(1, 7) * 500;
    o.pod_groups.push_back(MakePodGroup()
                               .Name(name)
                               .PriorityClassName("high")
                               .Priority(kHigh)
                               .MinCount(*rc::gen::inRange(1, size + 1))
                               .CreationTimestamp(100 + i)
                               .Obj());
    for (int p = 0; p < size; ++p) add_pod(name + "-" + std::to_string(p), kHigh, cpu, name, -1, 100 + i);
  }
  const int high_bare = *rc::gen::inRange(0, 4);
  for (int i = 0; i < high_bare; ++i) {
    add_pod("high-bare-" + std::to_string(i), kHigh, *rc::gen::inRange<int64_t>(1, 9) * 500, "", -1,
            110 + i);
  }
  return g;
}

RC_GTEST_PROP(PreemptionProperty, VictimUnitsWholeAndPreemptorsPlaced, ()) {
  const Gen g = GenCluster();
  std::string invalid;
  for (const auto& e : validation::ValidateForSchedule(g.objects)) invalid += e.ToString() + "\n";
  if (!invalid.empty()) RC_FAIL("generated input rejected by ValidateForSchedule:\n" + invalid);
  const sched::ScheduleResult r = sched::Schedule(g.objects, sched::SchedulerOptions{.verify = true});

  RC_TAG(r.evictions.empty() ? "no eviction" : "evictions");
  std::set<std::string> bound, pending, evicted;
  for (const auto& b : r.bindings) bound.insert(b.pod);
  for (const auto& p : r.pending) pending.insert(p.pod);
  std::map<std::string, const api::Pod*> pods;
  for (const auto& p : g.objects.pods) pods[api::NamespacedName(p.meta)] = &p;
  for (const auto& e : r.evictions) {
    evicted.insert(e.pod);
    RC_ASSERT(bound.count(e.pod) == 0u);
    RC_ASSERT(pending.count(e.pod) == 0u);
    RC_ASSERT(!pods.at(e.pod)->node_name.empty());
  }
  // Members per group and the group's mode.
  std::map<std::string, std::vector<std::string>> members;
  for (const auto& p : g.objects.pods) {
    if (p.pod_group_name) members["default/" + *p.pod_group_name].push_back(api::NamespacedName(p.meta));
  }
  std::map<std::string, const sched::GroupResult*> results;
  for (const auto& gr : r.groups) results[gr.name] = &gr;
  for (const auto& pg : g.objects.pod_groups) {
    const std::string key = api::NamespacedName(pg.meta);
    int lost = 0, running = 0;
    for (const auto& m : members[key]) {
      if (evicted.count(m)) {
        ++lost;
      } else if (!pods.at(m)->node_name.empty() || bound.count(m)) {
        ++running;
      }
    }
    if (lost == 0) continue;
    const bool all = pg.disruption_mode && pg.disruption_mode->all;
    // An all-mode victim group keeps no running pod: neither an evicted member bound again nor
    // a pending member placed below quorum after the eviction.
    if (all) RC_ASSERT(running == 0);
    RC_ASSERT(results.at(key)->scheduled == running);
  }
  // Preemptors placed; victims of lower priority.
  for (const auto& e : r.evictions) {
    if (e.preemptor.rfind("Pod ", 0) == 0) {
      const std::string pod = e.preemptor.substr(4);
      RC_ASSERT(bound.count(pod) == 1u);
      RC_ASSERT(g.priority.at(e.pod) < g.priority.at(pod));
    } else {
      RC_ASSERT(e.preemptor.rfind("PodGroup ", 0) == 0);
      const std::string group = e.preemptor.substr(9);
      int placed = 0;
      for (const auto& m : members[group]) placed += bound.count(m) ? 1 : 0;
      RC_ASSERT(placed >= 1);
      RC_ASSERT(g.priority.at(e.pod) < g.priority.at(members[group].front()));
    }
  }
}

}  // namespace
}  // namespace wasched
