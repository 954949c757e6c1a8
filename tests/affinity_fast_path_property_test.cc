// File: tests/affinity_fast_path_property_test.cc
//
// Property test (rapidcheck) of issue 19's affinity fast path: pods whose InterPodAffinity
// verdicts are a short list of rejected nodes (required anti-affinity with matchLabels
// selectors, e.g. gang members repelling each other per hostname; pods without terms selected
// by placed pods' anti-affinity) stay on the Framework's score index with those nodes excluded.
// On random small clusters (gangs with hostname / zone anti-affinity within the group or across
// groups, running pods whose anti-affinity selects pending ones, a few pods with required
// affinity or preferred terms, which keep the scan path, and priorities that make preemption
// run) the whole engine's result must be byte-identical with the score index on and off
// (SchedulerOptions::score_index = false: every pod takes the scan path).
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <rapidcheck.h>
#include <rapidcheck/gtest.h>

#include "codec/result_encoding.h"
#include "sched/scheduler.h"
#include "support/builders.h"

namespace wasched {
namespace {

using test::kGi;
using test::MakeNode;
using test::MakePod;
using test::MakePodGroup;
using test::MakePriorityClass;

constexpr const char* kHostname = "kubernetes.io/hostname";
constexpr const char* kZone = "topology.kubernetes.io/zone";

api::PodAffinityTerm Term(const std::string& key, const std::string& value,
                          const std::string& topology) {
  api::PodAffinityTerm t;
  t.label_selector.emplace().match_labels[key] = value;
  t.topology_key = topology;
  return t;
}

// RandomTerm: mostly hostname anti-affinity on the pod's own group; else on another group, on
// an app label, per zone, or a matchExpressions selector (not indexable: the scan answers).
api::PodAffinityTerm RandomTerm(const std::string& group, int groups) {
  const std::string topology = *rc::gen::inRange(0, 5) == 0 ? kZone : kHostname;
  switch (*rc::gen::inRange(0, 8)) {
    case 0:
      return Term("group", "g" + std::to_string(*rc::gen::inRange(0, groups)), topology);
    case 1:
      return Term("app", *rc::gen::element<std::string>("web", "db"), topology);
    case 2: {
      api::PodAffinityTerm t;
      api::LabelSelectorRequirement r;
      r.key = "group";
      r.op = api::LabelSelectorOperator::kIn;
      r.values = {group};
      t.label_selector.emplace().match_expressions.push_back(r);
      t.topology_key = topology;
      return t;
    }
    default:
      return Term("group", group, topology);
  }
}

// AddTerms: the pod's (anti-)affinity: usually required anti-affinity only (the fast path), now
// and then none, required affinity or a preferred term (the scan path).
void AddTerms(api::Pod& pod, const std::string& group, int groups) {
  const int shape = *rc::gen::inRange(0, 12);
  if (shape < 7) {
    auto& anti = pod.pod_anti_affinity.emplace();
    anti.required.push_back(RandomTerm(group, groups));
    if (*rc::gen::inRange(0, 4) == 0) anti.required.push_back(RandomTerm(group, groups));
  } else if (shape == 7) {
    pod.pod_affinity.emplace().required.push_back(RandomTerm(group, groups));
  } else if (shape == 8) {
    api::WeightedPodAffinityTerm w;
    w.weight = *rc::gen::inRange(1, 101);
    w.term = RandomTerm(group, groups);
    pod.pod_anti_affinity.emplace().preferred.push_back(w);
  }
}

api::ObjectSet GenAffinityCluster() {
  api::ObjectSet objects;
  const int node_count = *rc::gen::inRange(1, 13);
  for (int i = 0; i < node_count; ++i) {
    auto node = MakeNode().Name("node-" + std::to_string(i));
    node.Capacity({{"cpu", *rc::gen::inRange<int64_t>(1, 9) * 1000},
                   {"memory", *rc::gen::inRange<int64_t>(1, 17) * kGi},
                   {"pods", *rc::gen::element<int64_t>(2, 4, 110)}});
    if (*rc::gen::inRange(0, 10) != 0) node.Label(kHostname, "node-" + std::to_string(i));
    if (*rc::gen::inRange(0, 6) != 0) node.Label(kZone, "zone-" + std::to_string(i % 3));
    objects.nodes.push_back(node.Obj());
  }
  for (int32_t priority : {10, 100}) {
    objects.priority_classes.push_back(
        MakePriorityClass().Name("prio-" + std::to_string(priority)).Value(priority).Obj());
  }
  auto request = [] {
    return api::ResourceList{{"cpu", *rc::gen::inRange<int64_t>(1, 21) * 100},
                             {"memory", *rc::gen::inRange<int64_t>(1, 5) * 512 * test::kMi}};
  };
  const int groups = *rc::gen::inRange(0, 7);
  for (int g = 0; g < groups; ++g) {
    const std::string name = "g" + std::to_string(g);
    const int size = *rc::gen::inRange(1, 6);
    const int32_t priority = *rc::gen::element<int32_t>(0, 10, 100);
    auto group = MakePodGroup().Name(name).Priority(priority).CreationTimestamp(g);
    if (priority != 0) group.PriorityClassName("prio-" + std::to_string(priority));
    group.MinCount(*rc::gen::inRange(1, size + 1));
    objects.pod_groups.push_back(group.Obj());
    // The members of a group share their spec (one template, one affinity class).
    api::Pod member = MakePod()
                          .Group(name)
                          .Priority(priority)
                          .PriorityClassName(priority != 0 ? "prio-" + std::to_string(priority) : "")
                          .CreationTimestamp(g)
                          .Req(request())
                          .Label("group", name)
                          .Obj();
    if (*rc::gen::inRange(0, 2) == 0) member.meta.labels["app"] = *rc::gen::element<std::string>("web", "db");
    AddTerms(member, name, groups);
    for (int p = 0; p < size; ++p) {
      api::Pod pod = member;
      pod.meta.name = name + "-" + std::to_string(p);
      objects.pods.push_back(std::move(pod));
    }
  }
  const int bare = *rc::gen::inRange(0, 12);
  int running = 0;
  for (int p = 0; p < bare; ++p) {
    auto pod = MakePod()
                   .Name("bare-" + std::to_string(p))
                   .CreationTimestamp(100 + p)
                   .Req(request())
                   .Priority(*rc::gen::element<int32_t>(0, 10));
    if (*rc::gen::inRange(0, 2) == 0) pod.Label("app", *rc::gen::element<std::string>("web", "db"));
    if (*rc::gen::inRange(0, 3) == 0) pod.Label("group", "g" + std::to_string(*rc::gen::inRange(0, 4)));
    api::Pod built = pod.Obj();
    if (built.priority.value_or(0) == 10) built.priority_class_name = "prio-10";
    if (*rc::gen::inRange(0, 2) == 0) AddTerms(built, "g0", groups + 1);
    // Some bare pods run already, one per node (their anti-affinity then rejects pending pods:
    // symmetry).
    if (running < node_count && *rc::gen::inRange(0, 3) == 0) {
      built.node_name = "node-" + std::to_string(running++);
      built.containers.front().requests = {{"cpu", 100}};
    }
    objects.pods.push_back(std::move(built));
  }
  return objects;
}

RC_GTEST_PROP(AffinityFastPathProperty, ScoreIndexMatchesScanPath, ()) {
  const api::ObjectSet objects = GenAffinityCluster();
  sched::SchedulerOptions indexed{.verify = true};
  sched::SchedulerOptions scan{.verify = true};
  scan.score_index = false;
  const std::string a = codec::EncodeScheduleResultJson(sched::Schedule(objects, indexed));
  const std::string b = codec::EncodeScheduleResultJson(sched::Schedule(objects, scan));
  RC_CLASSIFY(a.find("\"node\"") != std::string::npos, "some pod bound");
  RC_CLASSIFY(a.find("anti-affinity") != std::string::npos, "some anti-affinity rejection");
  RC_ASSERT(a == b);
}

}  // namespace
}  // namespace wasched
