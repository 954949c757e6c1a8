// File: tests/support/result_checks.cc
#include "support/result_checks.h"

#include <cstdint>
#include <utility>

#include "api/pod.h"
#include "api/pod_group.h"
#include <gtest/gtest.h>

namespace wasched::test {
namespace {

std::string GroupKey(const std::string& ns, const std::string& name) { return ns + "/" + name; }

bool HoldsResources(const api::Pod& pod) { return pod.phase != "Succeeded" && pod.phase != "Failed"; }

}  // namespace

std::map<std::string, std::string> BindingMap(const sched::ScheduleResult& result) {
  std::map<std::string, std::string> out;
  for (const auto& b : result.bindings) out[b.pod] = b.node;
  return out;
}

std::map<std::string, sched::PendingPod> PendingMap(const sched::ScheduleResult& result) {
  std::map<std::string, sched::PendingPod> out;
  for (const auto& p : result.pending) out[p.pod] = p;
  return out;
}

std::vector<std::string> MembersOf(const api::ObjectSet& objects, const std::string& group) {
  std::vector<std::string> out;
  for (const auto& pod : objects.pods) {
    if (pod.pod_group_name && GroupKey(pod.meta.namespace_, *pod.pod_group_name) == group) {
      out.push_back(api::NamespacedName(pod.meta));
    }
  }
  return out;
}

const sched::GroupResult* FindGroup(const sched::ScheduleResult& result, const std::string& kind,
                                    const std::string& name) {
  for (const auto& g : result.groups) {
    if (g.kind == kind && g.name == name) return &g;
  }
  return nullptr;
}

const api::Condition* FindCondition(const sched::GroupResult& group, const std::string& type) {
  const bool outcome = type == api::kCompositePodGroupInitiallyScheduled;
  for (const auto& c : group.conditions) {
    if (c.type != type) continue;
    if (outcome) ADD_FAILURE() << group.name << " carries " << type << " among its conditions";
    return &c;
  }
  if (outcome && group.outcome && group.outcome->type == type) return &*group.outcome;
  return nullptr;
}

std::vector<std::string> CheckResultInvariants(const api::ObjectSet& objects,
                                               const sched::ScheduleResult& result) {
  std::vector<std::string> violations;
  auto fail = [&violations](std::string what) { violations.push_back(std::move(what)); };

  // Each pod appears at most once per list.
  std::map<std::string, std::string> bound;
  for (const auto& b : result.bindings) {
    if (!bound.emplace(b.pod, b.node).second) fail("pod " + b.pod + " is bound twice");
  }
  std::set<std::string> pending;
  std::set<std::string> scheduling_gated;  // pods reported with reason SchedulingGated
  for (const auto& p : result.pending) {
    if (!pending.insert(p.pod).second) fail("pod " + p.pod + " is pending twice");
    if (p.reason == "SchedulingGated") scheduling_gated.insert(p.pod);
    // Held at PreEnqueue: no condition (v1.37.2 writes none), only what the pod waits for;
    // otherwise a condition's reason and message, and nothing held.
    if (!p.held.empty()) {
      if (!p.reason.empty() || !p.message.empty()) {
        fail("held pod " + p.pod + " has a condition reason or message: " + p.reason);
      }
    } else {
      if (p.reason.empty()) fail("pending pod " + p.pod + " has no reason");
      if (p.message.empty()) fail("pending pod " + p.pod + " has no message");
    }
  }

  std::map<std::string, const api::Node*> nodes;
  for (const auto& n : objects.nodes) nodes[n.meta.name] = &n;
  // Evicted pods (preemption victims, deleted at once) are neither bound nor pending and hold
  // nothing at the end.
  std::set<std::string> evicted;
  for (const auto& e : result.evictions) {
    if (!evicted.insert(e.pod).second) fail("pod " + e.pod + " is evicted twice");
    if (bound.contains(e.pod) || pending.contains(e.pod)) fail("evicted pod " + e.pod + " is bound or pending");
    if (e.preemptor.empty()) fail("eviction of " + e.pod + " names no preemptor");
  }

  // Every input pod is accounted for exactly once; running pods are neither bound nor pending.
  std::set<std::string> known_pods;
  for (const auto& pod : objects.pods) {
    const std::string key = api::NamespacedName(pod.meta);
    known_pods.insert(key);
    const bool is_bound = bound.contains(key);
    const bool is_pending = pending.contains(key);
    // The API server writes SchedulingGated only for a pod with spec.schedulingGates
    // (pkg/registry/core/pod/strategy.go); a pod GangScheduling holds gets no condition.
    if (scheduling_gated.contains(key) && pod.scheduling_gates.empty()) {
      fail("pod " + key + " is SchedulingGated without spec.schedulingGates");
    }
    if (!pod.node_name.empty()) {
      if (is_bound) fail("pod " + key + " was already running on " + pod.node_name + " but is in bindings");
      if (is_pending) fail("pod " + key + " was already running on " + pod.node_name + " but is pending");
    } else if (HoldsResources(pod) && !evicted.contains(key)) {
      if (is_bound == is_pending) {
        fail("pod " + key + (is_bound ? " is both bound and pending" : " is neither bound nor pending"));
      }
    }
  }
  for (const auto& [pod, node] : bound) {
    if (!known_pods.contains(pod)) fail("binding names unknown pod " + pod);
    if (!nodes.contains(node)) fail("pod " + pod + " is bound to unknown node " + node);
  }
  for (const auto& pod : pending) {
    if (!known_pods.contains(pod)) fail("pending entry names unknown pod " + pod);
  }

  // No node over-committed: running pods plus this run's bindings fit allocatable.
  std::map<std::string, api::ResourceList> used;
  std::map<std::string, int64_t> pod_count;
  for (const auto& pod : objects.pods) {
    if (!HoldsResources(pod) || evicted.contains(api::NamespacedName(pod.meta))) continue;
    std::string node = pod.node_name;
    if (node.empty()) {
      auto it = bound.find(api::NamespacedName(pod.meta));
      if (it == bound.end()) continue;
      node = it->second;
    }
    if (!nodes.contains(node)) continue;  // running on a node not in the input: not ours to check
    for (const auto& [resource, amount] : api::EffectiveRequests(pod)) used[node][resource] += amount;
    ++pod_count[node];
  }
  for (const auto& [node_name, resources] : used) {
    const api::Node& node = *nodes.at(node_name);
    for (const auto& [resource, amount] : resources) {
      if (amount == 0) continue;
      auto it = node.allocatable.find(resource);
      const int64_t allocatable = it == node.allocatable.end() ? 0 : it->second;
      if (amount > allocatable) {
        fail("node " + node_name + " over-committed on " + resource + ": " + std::to_string(amount) +
             " requested > " + std::to_string(allocatable) + " allocatable");
      }
    }
    auto pods_it = node.allocatable.find(api::kResourcePods);
    if (pods_it != node.allocatable.end() && pod_count[node_name] > pods_it->second) {
      fail("node " + node_name + " holds " + std::to_string(pod_count[node_name]) + " pods > " +
           std::to_string(pods_it->second) + " allowed");
    }
  }

  // Gangs all-or-nothing; group results count members correctly.
  for (const auto& group : objects.pod_groups) {
    const std::string key = api::NamespacedName(group.meta);
    int32_t running = 0;
    int32_t bound_now = 0;
    bool lost_to_preemption = false;  // a `single` victim group may sit below minCount
    for (const auto& pod : objects.pods) {
      if (!pod.pod_group_name || GroupKey(pod.meta.namespace_, *pod.pod_group_name) != key) continue;
      if (!HoldsResources(pod)) continue;
      if (evicted.contains(api::NamespacedName(pod.meta))) {
        lost_to_preemption = true;
        continue;
      }
      if (!pod.node_name.empty()) {
        ++running;
      } else if (bound.contains(api::NamespacedName(pod.meta))) {
        ++bound_now;
      }
    }
    const int32_t min_count = api::MinCount(group.scheduling_policy);
    if (bound_now > 0 && running + bound_now < min_count && !lost_to_preemption) {
      fail("gang " + key + " bound " + std::to_string(bound_now) + " new member(s), " +
           std::to_string(running + bound_now) + " in total < minCount " + std::to_string(min_count));
    }
    const sched::GroupResult* result_group = FindGroup(result, "PodGroup", key);
    if (result_group == nullptr) {
      fail("PodGroup " + key + " missing from groups");
      continue;
    }
    if (result_group->scheduled != running + bound_now) {
      fail("PodGroup " + key + " reports scheduled " + std::to_string(result_group->scheduled) + ", expected " +
           std::to_string(running + bound_now));
    }
    if (result_group->min_count != min_count) {
      fail("PodGroup " + key + " reports minCount " +
           (result_group->min_count ? std::to_string(*result_group->min_count) : std::string("unset")) +
           ", expected " + std::to_string(min_count));
    }
  }
  return violations;
}

}  // namespace wasched::test
