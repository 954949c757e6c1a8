// File: tests/gang_property_test.cc
//
// Property tests (rapidcheck) of the scheduling engine on random clusters:
//   - a gang is all-or-nothing: bound members (already running + bound now) are 0 or ≥ minCount
//     whenever this run bound any of them;
//   - no node is over-committed on any resource nor on its pod count;
//   - every pending input pod is bound or pending exactly once; group results count correctly;
//   - the same input gives byte-identical JSON;
//   - S1 (volcano-sh/volcano#3373) at random sizes and interleavings: two equal gangs that each
//     need the whole cluster never split it.
// The engine runs with SchedulerOptions{.verify = true}, so its own incremental-state checks run
// after every cycle too.
#include <algorithm>
#include <cstdint>
#include <map>
#include <numeric>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include "codec/result_encoding.h"
#include "sched/scheduler.h"
#include "support/builders.h"
#include "support/result_checks.h"
#include "validation/object_set_validation.h"

namespace wasched {
namespace {

using test::kGi;
using test::kMi;
using test::MakeNode;
using test::MakePod;
using test::MakePodGroup;
using test::MakePriorityClass;

constexpr const char* kGpu = "nvidia.com/gpu";

// Free: what is left on one node while the generator places already-running pods.
struct Free {
  api::ResourceList resources;
  int64_t pods = 0;
};

bool Fits(const Free& free, const api::ResourceList& request) {
  if (free.pods < 1) return false;
  for (const auto& [name, amount] : request) {
    auto it = free.resources.find(name);
    if (amount > (it == free.resources.end() ? 0 : it->second)) return false;
  }
  return true;
}

void Take(Free& free, const api::ResourceList& request) {
  --free.pods;
  for (const auto& [name, amount] : request) free.resources[name] -= amount;
}

// ClassFor: the PriorityClass that resolves to `priority` (Priority admission rejects an explicit
// priority that differs from its class's value; 0 is the value without a class or default).
std::string ClassFor(int32_t priority) {
  return priority == 0 ? "" : "prio-" + std::to_string(priority);
}

// GpuLimit: the limits a request needs (an extended resource cannot be overcommitted: its limit
// must be set and equal to the request).
api::ResourceList GpuLimit(const api::ResourceList& request) {
  auto it = request.find(kGpu);
  return it == request.end() ? api::ResourceList{} : api::ResourceList{{kGpu, it->second}};
}

api::ResourceList GenRequest() {
  api::ResourceList request;
  request["cpu"] = *rc::gen::inRange<int64_t>(1, 41) * 100;  // 100m .. 4000m
  const int64_t memory_halves = *rc::gen::inRange<int64_t>(0, 9);
  if (memory_halves > 0) request["memory"] = memory_halves * 512 * kMi;
  if (*rc::gen::inRange(0, 10) < 3) request[kGpu] = *rc::gen::inRange<int64_t>(1, 5);
  return request;
}

// PlaceRunning: a node (by index) with room for `request`, scanning from a random start; or -1.
int PlaceRunning(std::vector<Free>& free, const api::ResourceList& request) {
  const int start = *rc::gen::inRange<int>(0, static_cast<int>(free.size()));
  for (size_t i = 0; i < free.size(); ++i) {
    const int n = static_cast<int>((start + i) % free.size());
    if (Fits(free[n], request)) {
      Take(free[n], request);
      return n;
    }
  }
  return -1;
}

// Shuffled: `items` in a random order (a random key per item, stable sort).
template <typename T>
std::vector<T> Shuffled(std::vector<T> items) {
  const auto keys = *rc::gen::container<std::vector<int>>(items.size(), rc::gen::inRange(0, 1000));
  std::vector<size_t> order(items.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return keys[a] < keys[b]; });
  std::vector<T> out;
  out.reserve(items.size());
  for (size_t i : order) out.push_back(std::move(items[i]));
  return out;
}

// GenCluster: 1–20 nodes with random cpu/memory/gpu/pod slots; 0–6 gangs of 1–8 pods
// (minCount 1..size, some members possibly already running), some basic groups, 0–30 bare pods
// (some running); everything in a random input order. Running pods always fit their node.
api::ObjectSet GenCluster() {
  api::ObjectSet objects;
  const int node_count = *rc::gen::inRange(1, 21);
  std::vector<Free> free;
  for (int i = 0; i < node_count; ++i) {
    auto node = MakeNode().Name("node-" + std::to_string(i));
    node.Resource("cpu", *rc::gen::inRange<int64_t>(1, 33) * 500);
    node.Resource("memory", *rc::gen::inRange<int64_t>(1, 65) * kGi);
    node.Resource("pods", *rc::gen::element<int64_t>(1, 2, 4, 8, 110));
    if (*rc::gen::inRange(0, 2) == 1) node.Resource(kGpu, *rc::gen::inRange<int64_t>(1, 9));
    api::Node built = node.Obj();
    Free f;
    f.resources = built.allocatable;
    f.pods = built.allocatable.at("pods");
    free.push_back(std::move(f));
    objects.nodes.push_back(std::move(built));
  }

  for (int32_t priority : {10, 100}) {
    objects.priority_classes.push_back(
        MakePriorityClass().Name(ClassFor(priority)).Value(priority).Obj());
  }

  const int group_count = *rc::gen::inRange(0, 7);
  for (int g = 0; g < group_count; ++g) {
    // The same name in two namespaces: membership must be scoped by namespace.
    const std::string ns = g % 2 == 0 ? "default" : "team";
    const std::string name = "g" + std::to_string(g / 2);
    const int size = *rc::gen::inRange(1, 9);
    const bool basic = *rc::gen::inRange(0, 6) == 0;
    const int32_t min_count = *rc::gen::inRange(1, size + 1);
    const int32_t priority = *rc::gen::element<int32_t>(0, 10, 100);
    const int64_t created = *rc::gen::inRange<int64_t>(0, 100);
    auto group = MakePodGroup().Name(name).Namespace(ns).Priority(priority).CreationTimestamp(created);
    if (priority != 0) group.PriorityClassName(ClassFor(priority));
    if (basic) {
      group.Basic();
    } else {
      group.MinCount(min_count);
    }
    objects.pod_groups.push_back(group.Obj());
    // Already-running members: none, or a random number (possibly below minCount: a gang that
    // lost pods).
    const int running = *rc::gen::inRange(0, 3) == 0 ? *rc::gen::inRange(0, size + 1) : 0;
    for (int p = 0; p < size; ++p) {
      const api::ResourceList request = GenRequest();
      auto pod = MakePod()
                     .Name(name + "-" + std::to_string(p))
                     .Namespace(ns)
                     .Group(name)
                     .Priority(priority)
                     .PriorityClassName(ClassFor(priority))
                     .CreationTimestamp(created + *rc::gen::inRange<int64_t>(0, 3))
                     .Req(request)
                     .Limits(GpuLimit(request));
      if (p < running) {
        const int node = PlaceRunning(free, pod.Obj().containers.front().requests);
        if (node >= 0) pod.Node(objects.nodes[node].meta.name);
      }
      objects.pods.push_back(pod.Obj());
    }
  }

  const int bare_count = *rc::gen::inRange(0, 31);
  for (int p = 0; p < bare_count; ++p) {
    const int32_t priority = *rc::gen::element<int32_t>(0, 10, 100);
    const api::ResourceList request = GenRequest();
    auto pod = MakePod()
                   .Name("bare-" + std::to_string(p))
                   .Priority(priority)
                   .PriorityClassName(ClassFor(priority))
                   .CreationTimestamp(*rc::gen::inRange<int64_t>(0, 100))
                   .Req(request)
                   .Limits(GpuLimit(request));
    if (*rc::gen::inRange(0, 5) == 0) {
      const int node = PlaceRunning(free, pod.Obj().containers.front().requests);
      if (node >= 0) pod.Node(objects.nodes[node].meta.name);
    }
    objects.pods.push_back(pod.Obj());
  }

  objects.nodes = Shuffled(std::move(objects.nodes));
  objects.pod_groups = Shuffled(std::move(objects.pod_groups));
  objects.pods = Shuffled(std::move(objects.pods));
  return objects;
}

std::string Describe(const api::ObjectSet& objects) {
  std::ostringstream out;
  auto list = [&out](const api::ResourceList& resources) {
    for (const auto& [name, amount] : resources) out << " " << name << "=" << amount;
  };
  for (const auto& n : objects.nodes) {
    out << "node " << n.meta.name << ":";
    list(n.allocatable);
    out << "\n";
  }
  for (const auto& g : objects.pod_groups) {
    out << "group " << api::NamespacedName(g.meta) << " minCount=" << api::MinCount(g.scheduling_policy)
        << (g.scheduling_policy.basic ? " (basic)" : "") << " priority=" << g.priority.value_or(0)
        << " created=" << g.meta.creation_timestamp.value_or(-1) << "\n";
  }
  for (const auto& p : objects.pods) {
    out << "pod " << api::NamespacedName(p.meta) << " group=" << p.pod_group_name.value_or("-")
        << " node=" << (p.node_name.empty() ? "-" : p.node_name) << " priority=" << p.priority.value_or(0) << ":";
    list(p.containers.front().requests);
    out << "\n";
  }
  return out.str();
}

std::string Join(const std::vector<std::string>& lines) {
  std::string out;
  for (const auto& l : lines) out += l + "\n";
  return out;
}

std::string ValidationErrors(const api::ObjectSet& objects) {
  std::string out;
  for (const auto& e : validation::ValidateForSchedule(objects)) out += e.ToString() + "\n";
  return out;
}

RC_GTEST_PROP(GangProperty, AllOrNothingNoOvercommitDeterministic, ()) {
  const api::ObjectSet objects = GenCluster();
  RC_LOG() << Describe(objects);
  const std::string invalid = ValidationErrors(objects);
  if (!invalid.empty()) RC_FAIL("generated input rejected by ValidateForSchedule:\n" + invalid);

  const sched::SchedulerOptions options{.verify = true};
  const sched::ScheduleResult first = sched::Schedule(objects, options);
  const std::vector<std::string> violations = test::CheckResultInvariants(objects, first);
  if (!violations.empty()) RC_FAIL("result invariants violated:\n" + Join(violations));
  // Coverage of the interesting outcomes (printed by rapidcheck): gangs bound, gangs refused.
  int gangs_bound = 0;
  int gangs_refused = 0;
  for (const auto& group : first.groups) {
    if (group.min_count.value_or(1) > 1) (group.scheduled > 0 ? gangs_bound : gangs_refused)++;
  }
  RC_CLASSIFY(gangs_bound > 0, "some gang bound");
  RC_CLASSIFY(gangs_refused > 0, "some gang refused");
  RC_CLASSIFY(!first.pending.empty(), "some pod pending");

  const std::string json = codec::EncodeScheduleResultJson(first);
  const api::ObjectSet copy = objects;  // a fresh copy: no dependence on object addresses
  const std::string again = codec::EncodeScheduleResultJson(sched::Schedule(copy, options));
  RC_ASSERT(json == again);
}

// S1 at random sizes: k single-slot nodes, two gangs of k pods each with minCount k, pods in a
// random interleaving. Exactly one gang takes every node.
RC_GTEST_PROP(GangProperty, EqualGangsNeverSplitTheCluster, ()) {
  const int k = *rc::gen::inRange(1, 25);
  api::ObjectSet objects;
  for (int i = 0; i < k; ++i) {
    objects.nodes.push_back(MakeNode()
                                .Name("node-" + std::to_string(i))
                                .Capacity({{"cpu", 1000}, {"memory", 4 * kGi}, {"pods", 110}})
                                .Obj());
  }
  for (const char* g : {"gang-a", "gang-b"}) {
    objects.pod_groups.push_back(MakePodGroup().Name(g).MinCount(k).Obj());
    for (int i = 0; i < k; ++i) {
      objects.pods.push_back(MakePod().Name(std::string(g) + "-" + std::to_string(i)).Group(g).Req({{"cpu", 1000}}).Obj());
    }
  }
  objects.pods = Shuffled(std::move(objects.pods));

  const sched::ScheduleResult result = sched::Schedule(objects, sched::SchedulerOptions{.verify = true});
  const std::vector<std::string> violations = test::CheckResultInvariants(objects, result);
  if (!violations.empty()) RC_FAIL("result invariants violated:\n" + Join(violations));
  const auto bound = test::BindingMap(result);
  int bound_a = 0;
  int bound_b = 0;
  for (const auto& [pod, node] : bound) (pod.starts_with("default/gang-a") ? bound_a : bound_b)++;
  RC_ASSERT((bound_a == k && bound_b == 0) || (bound_a == 0 && bound_b == k));
}

}  // namespace
}  // namespace wasched
