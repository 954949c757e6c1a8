// File: cli/schedule_rounds.cc
#include "cli/schedule_rounds.h"

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <tuple>

namespace wasched::cli {
namespace {

template <typename G>
void StoreConditions(const std::map<std::string, const sched::GroupResult*>& groups,
                     const char* kind, std::vector<G>* list) {
  for (G& g : *list) {
    auto it = groups.find(std::string(kind) + " " + api::NamespacedName(g.meta));
    if (it == groups.end()) continue;
    // A CompositePodGroup's outcome is carried to the next round as its condition (terminal
    // once True), as the run reads it back from the input.
    std::vector<api::Condition> carried = it->second->conditions;
    if (it->second->outcome) carried.push_back(*it->second->outcome);
    for (const api::Condition& c : carried) {
      auto same = std::find_if(g.conditions.begin(), g.conditions.end(),
                               [&](const api::Condition& o) { return o.type == c.type; });
      if (same == g.conditions.end()) {
        g.conditions.push_back(c);
      } else {
        *same = c;
      }
    }
  }
}

}  // namespace

void ApplyRound(const sched::ScheduleResult& result, api::ObjectSet* objects) {
  std::map<std::string, std::string> bound;
  for (const sched::Binding& b : result.bindings) bound.emplace(b.pod, b.node);
  std::set<std::string> evicted;
  for (const sched::Eviction& e : result.evictions) evicted.insert(e.pod);
  std::vector<api::Pod> kept;
  kept.reserve(objects->pods.size());
  for (api::Pod& p : objects->pods) {
    const std::string key = api::NamespacedName(p.meta);
    if (evicted.count(key) > 0) continue;
    if (auto it = bound.find(key); it != bound.end()) p.node_name = it->second;
    kept.push_back(std::move(p));
  }
  objects->pods = std::move(kept);
  std::map<std::string, const sched::GroupResult*> groups;
  for (const sched::GroupResult& g : result.groups) groups.emplace(g.kind + " " + g.name, &g);
  StoreConditions(groups, "PodGroup", &objects->pod_groups);
  StoreConditions(groups, "CompositePodGroup", &objects->composite_pod_groups);
}

sched::ScheduleResult MergeRounds(sched::ScheduleResult earlier, sched::ScheduleResult later) {
  sched::ScheduleResult out;
  out.bindings = std::move(earlier.bindings);
  for (sched::Binding& b : later.bindings) out.bindings.push_back(std::move(b));
  std::sort(out.bindings.begin(), out.bindings.end(), [](const auto& a, const auto& b) {
    return std::tie(a.pod, a.node) < std::tie(b.pod, b.node);
  });
  out.evictions = std::move(earlier.evictions);
  for (sched::Eviction& e : later.evictions) out.evictions.push_back(std::move(e));
  std::sort(out.evictions.begin(), out.evictions.end(), [](const auto& a, const auto& b) {
    return std::tie(a.pod, a.node) < std::tie(b.pod, b.node);
  });
  out.allocations = std::move(earlier.allocations);
  for (sched::ClaimAllocation& a : later.allocations) out.allocations.push_back(std::move(a));
  std::sort(out.allocations.begin(), out.allocations.end(),
            [](const auto& a, const auto& b) { return a.claim < b.claim; });
  out.pending = std::move(later.pending);
  std::map<std::string, const sched::GroupResult*> before;
  for (const sched::GroupResult& g : earlier.groups) before.emplace(g.kind + " " + g.name, &g);
  out.groups = std::move(later.groups);
  for (sched::GroupResult& g : out.groups) {
    auto it = before.find(g.kind + " " + g.name);
    if (it == before.end()) continue;
    for (const api::Condition& c : it->second->conditions) {
      const bool has = std::any_of(g.conditions.begin(), g.conditions.end(),
                                   [&](const api::Condition& o) { return o.type == c.type; });
      if (!has) g.conditions.push_back(c);
    }
    if (!g.outcome) g.outcome = it->second->outcome;
    g.disrupted = g.disrupted || it->second->disrupted;
  }
  out.generated = std::move(earlier.generated);
  return out;
}

}  // namespace wasched::cli
