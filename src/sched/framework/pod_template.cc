// File: sched/framework/pod_template.cc
#include "sched/framework/pod_template.h"

#include <functional>
#include <optional>
#include <string_view>

#include "sched/cache/node_table.h"
#include "sched/plugins/node_ports/node_ports.h"

namespace wasched::sched {
namespace {

// Hasher: FNV-style mixing of the spec fields; collisions only cost a compare.
struct Hasher {
  uint64_t h = 1469598103934665603ULL;
  void Add(uint64_t v) {
    h ^= v + 0x9e3779b97f4a7c15ULL + (h << 6) + (h >> 2);
  }
  void Add(std::string_view s) { Add(std::hash<std::string_view>{}(s)); }
  void Add(const api::ResourceList& list) {
    Add(list.size());
    for (const auto& [name, amount] : list) {
      Add(name);
      Add(static_cast<uint64_t>(amount));
    }
  }
};

// AddSelector / AddTerm: the parts of a label selector and a pod (anti-)affinity term that
// usually tell templates apart (a gang's own label value), so that templates differing only in
// them do not share a hash bucket (1000 gangs with per-gang anti-affinity were one bucket: O(T)
// compares per pod).
void AddSelector(Hasher& x, const std::optional<api::LabelSelector>& selector) {
  if (!selector) {
    x.Add(0);
    return;
  }
  x.Add(1 + selector->match_labels.size() + 8 * selector->match_expressions.size());
  for (const auto& [k, v] : selector->match_labels) {
    x.Add(k);
    x.Add(v);
  }
}

void AddTerm(Hasher& x, const api::PodAffinityTerm& t) {
  x.Add(t.topology_key);
  AddSelector(x, t.label_selector);
  x.Add(t.namespaces.size());
}

uint64_t HashOf(const api::Pod& pod) {
  Hasher x;
  x.Add(pod.containers.size());
  for (const api::Container& c : pod.containers) x.Add(c.requests);
  x.Add(pod.init_containers.size());
  for (const api::Container& c : pod.init_containers) {
    x.Add(c.requests);
    x.Add(c.restart_policy_always ? 1 : 0);
  }
  x.Add(pod.overhead);
  x.Add(pod.pod_level_requests);
  x.Add(pod.node_selector.size());
  for (const auto& [k, v] : pod.node_selector) {
    x.Add(k);
    x.Add(v);
  }
  x.Add(pod.node_affinity ? 1 + pod.node_affinity->preferred.size() : 0);
  x.Add(pod.tolerations.size());
  for (const api::Toleration& t : pod.tolerations) x.Add(t.key);
  x.Add((pod.pod_affinity ? 1 : 0) + (pod.pod_anti_affinity ? 2 : 0) +
        4 * pod.topology_spread_constraints.size());
  for (const auto* terms : {pod.pod_affinity ? &pod.pod_affinity->required : nullptr,
                            pod.pod_anti_affinity ? &pod.pod_anti_affinity->required : nullptr}) {
    if (terms == nullptr) continue;
    x.Add(terms->size());
    for (const api::PodAffinityTerm& t : *terms) AddTerm(x, t);
  }
  for (const auto* terms : {pod.pod_affinity ? &pod.pod_affinity->preferred : nullptr,
                            pod.pod_anti_affinity ? &pod.pod_anti_affinity->preferred : nullptr}) {
    if (terms == nullptr) continue;
    x.Add(terms->size());
    for (const api::WeightedPodAffinityTerm& w : *terms) {
      x.Add(static_cast<uint64_t>(w.weight));
      AddTerm(x, w.term);
    }
  }
  for (const api::TopologySpreadConstraint& c : pod.topology_spread_constraints) {
    x.Add(c.topology_key);
    x.Add(static_cast<uint64_t>(c.max_skew));
    AddSelector(x, c.label_selector);
  }
  return x.h;
}

bool SameRequests(const std::vector<api::Container>& a, const std::vector<api::Container>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (a[i].restart_policy_always != b[i].restart_policy_always || a[i].requests != b[i].requests ||
        a[i].ports != b[i].ports) {
      return false;
    }
  }
  return true;
}

bool Same(const api::NodeSelectorTerm& a, const api::NodeSelectorTerm& b);
bool Same(const api::PreferredSchedulingTerm& a, const api::PreferredSchedulingTerm& b);
bool Same(const api::Toleration& a, const api::Toleration& b);

bool Same(const api::NodeSelectorRequirement& a, const api::NodeSelectorRequirement& b) {
  return a.key == b.key && a.op == b.op && a.values == b.values;
}

template <typename T>
bool SameList(const std::vector<T>& a, const std::vector<T>& b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (!Same(a[i], b[i])) return false;
  }
  return true;
}

bool Same(const api::NodeSelectorTerm& a, const api::NodeSelectorTerm& b) {
  return SameList(a.match_expressions, b.match_expressions) && SameList(a.match_fields, b.match_fields);
}

bool Same(const api::PreferredSchedulingTerm& a, const api::PreferredSchedulingTerm& b) {
  return a.weight == b.weight && Same(a.preference, b.preference);
}

bool Same(const std::optional<api::NodeAffinity>& a, const std::optional<api::NodeAffinity>& b) {
  if (a.has_value() != b.has_value()) return false;
  if (!a) return true;
  if (a->required.has_value() != b->required.has_value()) return false;
  if (a->required && !SameList(*a->required, *b->required)) return false;
  return SameList(a->preferred, b->preferred);
}

bool Same(const api::Toleration& a, const api::Toleration& b) {
  return a.key == b.key && a.op == b.op && a.value == b.value && a.effect == b.effect &&
         a.toleration_seconds == b.toleration_seconds;
}

}  // namespace

bool SameSchedulingSpec(const api::Pod& a, const api::Pod& b) {
  return SameRequests(a.containers, b.containers) &&
         SameRequests(a.init_containers, b.init_containers) && a.overhead == b.overhead &&
         a.pod_level_requests == b.pod_level_requests &&
         a.node_selector == b.node_selector && Same(a.node_affinity, b.node_affinity) &&
         SameList(a.tolerations, b.tolerations) && a.pod_affinity == b.pod_affinity &&
         a.pod_anti_affinity == b.pod_anti_affinity &&
         a.topology_spread_constraints == b.topology_spread_constraints;
}

int32_t PodTemplates::Intern(const api::Pod& pod) {
  if (last_ >= 0 && SameSchedulingSpec(templates_[last_].spec, pod)) return last_;
  const uint64_t hash = HashOf(pod);
  auto [first, end] = by_hash_.equal_range(hash);
  for (auto it = first; it != end; ++it) {
    if (SameSchedulingSpec(templates_[it->second].spec, pod)) return last_ = it->second;
  }
  PodTemplate t;
  for (const auto& [name, amount] : api::EffectiveRequests(pod)) {
    if (amount == 0 || name == api::kResourcePods) continue;
    t.requests.push_back({resources_.Intern(name), amount});
  }
  t.requests.push_back({kPods, 1});
  for (const ResourceAmount& ra : t.requests) {
    if (ra.id == kCpu) t.request_cpu = ra.amount;
    if (ra.id == kMemory) t.request_memory = ra.amount;
  }
  t.nonzero_cpu = t.request_cpu != 0 ? t.request_cpu : kDefaultMilliCPURequest;
  t.nonzero_memory = t.request_memory != 0 ? t.request_memory : kDefaultMemoryRequest;
  // The spec fields only: no names, limits, metadata.
  for (const api::Container& c : pod.containers) {
    api::Container& copy = t.spec.containers.emplace_back();
    copy.requests = c.requests;
    copy.ports = c.ports;
  }
  for (const api::Container& c : pod.init_containers) {
    api::Container& copy = t.spec.init_containers.emplace_back();
    copy.requests = c.requests;
    copy.restart_policy_always = c.restart_policy_always;
    copy.ports = c.ports;
  }
  t.spec.overhead = pod.overhead;
  t.spec.pod_level_requests = pod.pod_level_requests;
  t.spec.node_selector = pod.node_selector;
  t.spec.node_affinity = pod.node_affinity;
  t.spec.tolerations = pod.tolerations;
  t.spec.pod_affinity = pod.pod_affinity;
  t.spec.pod_anti_affinity = pod.pod_anti_affinity;
  t.spec.topology_spread_constraints = pod.topology_spread_constraints;
  if (plugins::HasHostPorts(pod)) t.pod_filters |= kHostPorts;
  if (pod.pod_affinity || pod.pod_anti_affinity) t.pod_filters |= kPodAffinity;
  if (!pod.topology_spread_constraints.empty()) t.pod_filters |= kSpread;
  last_ = size();
  templates_.push_back(std::move(t));
  by_hash_.emplace(hash, last_);
  return last_;
}

}  // namespace wasched::sched
