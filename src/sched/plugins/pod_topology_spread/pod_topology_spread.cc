// File: sched/plugins/pod_topology_spread/pod_topology_spread.cc
#include "sched/plugins/pod_topology_spread/pod_topology_spread.h"

#include <cmath>
#include <limits>

#include "sched/plugins/node_affinity/node_affinity.h"
#include "sched/plugins/taint_toleration/taint_toleration.h"

namespace wasched::sched::plugins {
namespace {

constexpr const char* kHostnameKey = "kubernetes.io/hostname";
constexpr const char* kZoneKey = "topology.kubernetes.io/zone";
constexpr int32_t kMaxConstraints = 64;  // node_mask_ bits

// RequiredNodeAffinityMatches: upstream nodeaffinity.GetRequiredNodeAffinity(pod).Match(node):
// nodeSelector and, when set, one of the required node selector terms.
bool RequiredNodeAffinityMatches(const api::Pod& pod, const api::Node& node) {
  for (const auto& [key, value] : pod.node_selector) {
    auto it = node.meta.labels.find(key);
    if (it == node.meta.labels.end() || it->second != value) return false;
  }
  if (!pod.node_affinity || !pod.node_affinity->required) return true;
  for (const api::NodeSelectorTerm& term : *pod.node_affinity->required) {
    if (MatchesNodeSelectorTerm(term, node)) return true;
  }
  return false;
}

}  // namespace

bool PodTopologySpread::HasHardConstraints(const api::Pod& pod) {
  for (const api::TopologySpreadConstraint& c : pod.topology_spread_constraints) {
    if (c.when_unsatisfiable != "ScheduleAnyway") return true;
  }
  return false;
}

bool PodTopologySpread::AssignedPodMayHelp(const api::Pod& pod, const api::Pod& assigned) {
  if (assigned.meta.namespace_ != pod.meta.namespace_) return false;
  const auto& labels = assigned.meta.labels;
  for (const api::TopologySpreadConstraint& c : pod.topology_spread_constraints) {
    if (c.when_unsatisfiable == "ScheduleAnyway" || !c.label_selector) continue;
    if (!api::Matches(*c.label_selector, labels)) continue;
    bool keys_match = true;
    for (const std::string& key : c.match_label_keys) {
      auto own = pod.meta.labels.find(key);
      if (own == pod.meta.labels.end()) continue;
      auto it = labels.find(key);
      keys_match = keys_match && it != labels.end() && it->second == own->second;
    }
    if (keys_match) return true;
  }
  return false;
}

void PodTopologySpread::CollectDefaultSelectors(const api::Pod& pod) {
  // helper.DefaultSelector: the selectors of the ReplicaSets and StatefulSets of the pod's
  // namespace that select it (a null or empty selector selects nothing), ANDed.
  default_selectors_.clear();
  auto add = [&](const api::ObjectMeta& meta, const std::optional<api::LabelSelector>& selector) {
    if (meta.namespace_ != pod.meta.namespace_ || !selector || api::IsEmpty(*selector)) return;
    if (api::Matches(*selector, pod.meta.labels)) default_selectors_.push_back(&*selector);
  };
  for (const api::ReplicaSet& rs : objects_.replica_sets) add(rs.meta, rs.selector);
  for (const api::StatefulSet& ss : objects_.stateful_sets) add(ss.meta, ss.selector);
}

void PodTopologySpread::Build(const api::Pod& pod, std::string_view when, bool defaults,
                              std::vector<Constraint>& out) {
  out.clear();
  if (!pod.topology_spread_constraints.empty()) {
    for (const api::TopologySpreadConstraint& spec : pod.topology_spread_constraints) {
      const bool soft = spec.when_unsatisfiable == "ScheduleAnyway";
      if (soft != (when == "ScheduleAnyway")) continue;
      if (static_cast<int32_t>(out.size()) == kMaxConstraints) break;
      Constraint& c = out.emplace_back();
      c.spec = &spec;
      c.owner = &pod;
      c.max_skew = spec.max_skew;
      c.min_domains = spec.min_domains.value_or(1);
      c.honor_affinity = spec.node_affinity_policy != "Ignore";
      c.honor_taints = spec.node_taints_policy == "Honor";
      c.hostname = spec.topology_key == kHostnameKey;
      c.index = &topology_.Get(spec.topology_key);
      if (!spec.label_selector) {
        c.counts_nothing = true;  // labels.Nothing()
        c.self_match = false;
      } else {
        bool merged_key = false;
        for (const std::string& key : spec.match_label_keys) {
          merged_key = merged_key || pod.meta.labels.count(key) > 0;
        }
        // An Everything selector counts no pod (countPodsMatchSelector) but matches the pod.
        c.counts_nothing = api::IsEmpty(*spec.label_selector) && !merged_key;
        c.self_match = api::Matches(*spec.label_selector, pod.meta.labels);
      }
    }
    return;
  }
  if (!defaults) return;
  CollectDefaultSelectors(pod);
  if (default_selectors_.empty()) return;
  for (const auto& [key, skew] : {std::pair<const char*, int32_t>{kHostnameKey, 3},
                                  std::pair<const char*, int32_t>{kZoneKey, 5}}) {
    Constraint& c = out.emplace_back();
    c.owner = &pod;
    c.max_skew = skew;
    c.hostname = std::string_view(key) == kHostnameKey;
    c.index = &topology_.Get(key);
    c.self_match = true;
  }
}

bool PodTopologySpread::Selects(const Constraint& c, const api::Pod& target) const {
  const api::Pod& owner = *c.owner;
  if (c.counts_nothing || target.meta.namespace_ != owner.meta.namespace_) return false;
  const auto& labels = target.meta.labels;
  if (c.spec == nullptr) {
    for (const api::LabelSelector* s : default_selectors_) {
      if (!api::Matches(*s, labels)) return false;
    }
    return true;
  }
  if (!api::Matches(*c.spec->label_selector, labels)) return false;
  for (const std::string& key : c.spec->match_label_keys) {
    auto own = owner.meta.labels.find(key);
    if (own == owner.meta.labels.end()) continue;
    auto it = labels.find(key);
    if (it == labels.end() || it->second != own->second) return false;
  }
  return true;
}

bool PodTopologySpread::Included(const Constraint& c, const api::Node& node) const {
  const api::Pod& pod = *c.owner;
  if (c.honor_affinity && !RequiredNodeAffinityMatches(pod, node)) return false;
  if (c.honor_taints) {
    for (const api::Taint& t : node.taints) {
      if (t.effect == api::TaintEffect::kPreferNoSchedule) continue;
      if (!TolerationsTolerateTaint(pod.tolerations, t)) return false;
    }
  }
  return true;
}

bool PodTopologySpread::HasAllKeys(const std::vector<Constraint>& cs, NodeIndex n) const {
  for (const Constraint& c : cs) {
    if (c.index->domain_of_node[n] < 0) return false;
  }
  return true;
}

bool PodTopologySpread::Prepare(const api::Pod& pod, const Snapshot& snapshot) {
  if (filter_pod_ == &pod && filter_version_ == snapshot.version()) return filter_applies_;
  const bool new_pod = filter_pod_ != &pod;
  filter_pod_ = &pod;
  filter_version_ = snapshot.version();
  if (!HasHardConstraints(pod)) {
    hard_.clear();
    return filter_applies_ = false;
  }
  const int32_t node_count = nodes_.size();
  if (new_pod) {
    Build(pod, "DoNotSchedule", /*defaults=*/false, hard_);
    node_mask_.assign(static_cast<size_t>(node_count), 0);
    for (Constraint& c : hard_) {
      c.present.assign(static_cast<size_t>(c.index->domain_count()), 0);
      c.domains = 0;
    }
    for (NodeIndex n = 0; n < node_count; ++n) {
      if (!HasAllKeys(hard_, n)) continue;
      for (size_t i = 0; i < hard_.size(); ++i) {
        Constraint& c = hard_[i];
        if (!Included(c, nodes_.node(n))) continue;
        node_mask_[n] |= uint64_t{1} << i;
        const int32_t d = c.index->domain_of_node[n];
        if (!c.present[d]) {
          c.present[d] = 1;
          ++c.domains;
        }
      }
    }
  }
  for (Constraint& c : hard_) c.count.assign(static_cast<size_t>(c.index->domain_count()), 0);
  for (const PodInfo& other : snapshot.pods()) {
    if (other.node == kNoNode || other.pod == &pod) continue;
    const uint64_t mask = node_mask_[other.node];
    if (mask == 0) continue;
    for (size_t i = 0; i < hard_.size(); ++i) {
      Constraint& c = hard_[i];
      if ((mask >> i & 1) == 0 || !Selects(c, *other.pod)) continue;
      ++c.count[c.index->domain_of_node[other.node]];
    }
  }
  for (Constraint& c : hard_) {
    // Fewer eligible domains than minDomains: the global minimum is taken as 0.
    int32_t min = std::numeric_limits<int32_t>::max();
    for (size_t d = 0; d < c.present.size(); ++d) {
      if (c.present[d]) min = std::min(min, c.count[d]);
    }
    c.min_count = c.domains < c.min_domains ? 0 : min;
  }
  return filter_applies_ = !hard_.empty();
}

std::string_view PodTopologySpread::Filter(NodeIndex n, bool* unresolvable) const {
  *unresolvable = false;
  for (const Constraint& c : hard_) {
    const int32_t d = c.index->domain_of_node[n];
    if (d < 0) {
      *unresolvable = true;
      return kReasonMissingLabel;
    }
    const int64_t skew = int64_t{c.count[d]} + (c.self_match ? 1 : 0) - c.min_count;
    if (skew > c.max_skew) return kReasonSkew;
  }
  return {};
}

bool PodTopologySpread::ScoreApplies(const api::Pod& pod) {
  if (score_pod_ == &pod) return score_applies_;
  score_pod_ = &pod;
  if (pod.topology_spread_constraints.empty() && objects_.replica_sets.empty() &&
      objects_.stateful_sets.empty()) {
    soft_.clear();  // no constraint and no default selector: O(1) for the common case
    return score_applies_ = false;
  }
  Build(pod, "ScheduleAnyway", /*defaults=*/true, soft_);
  // requireAllTopologies: the pod's own constraints (system defaulting otherwise).
  require_all_ = !pod.topology_spread_constraints.empty();
  return score_applies_ = !soft_.empty();
}

void PodTopologySpread::BeginScore(const api::Pod& pod, const Snapshot& snapshot) {
  (void)ScoreApplies(pod);
  snapshot_ = &snapshot;
  for (NodeIndex n : feasible_) ignored_[n] = 0;
  feasible_.clear();
  ignored_.resize(static_cast<size_t>(nodes_.size()), 0);
  for (Constraint& c : soft_) {
    c.present.assign(static_cast<size_t>(c.index->domain_count()), 0);
    c.count.assign(static_cast<size_t>(c.index->domain_count()), 0);
    c.domains = 0;
    c.empty_present = false;
  }
}

void PodTopologySpread::AddFeasible(NodeIndex n) {
  feasible_.push_back(n);
  if (require_all_ && !HasAllKeys(soft_, n)) {
    ignored_[n] = 1;
    return;
  }
  for (Constraint& c : soft_) {
    if (c.hostname) continue;
    const int32_t d = c.index->domain_of_node[n];
    if (d < 0) {
      if (!c.empty_present) ++c.domains;  // the value "" is a domain of its own
      c.empty_present = true;
    } else if (!c.present[d]) {
      c.present[d] = 1;
      ++c.domains;
    }
  }
}

int32_t PodTopologySpread::CountOnNode(const Constraint& c, NodeIndex n) const {
  int32_t count = 0;
  for (PodIndex q : snapshot_->PodsOn(n)) count += Selects(c, *snapshot_->pods()[q].pod) ? 1 : 0;
  return count;
}

void PodTopologySpread::FinishScore() {
  int64_t counted = 0;
  for (NodeIndex n : feasible_) counted += ignored_[n] ? 0 : 1;
  for (Constraint& c : soft_) {
    const int64_t size = c.hostname ? counted : c.domains;
    c.weight = std::log(static_cast<double>(size + 2));
  }
  // Counts per domain over every node (not only the feasible ones), for the domains seen among
  // the feasible nodes; hostname constraints count on the node itself (CountOnNode).
  for (const PodInfo& other : snapshot_->pods()) {
    if (other.node == kNoNode || other.pod == soft_.front().owner) continue;
    const NodeIndex n = other.node;
    if (require_all_ && !HasAllKeys(soft_, n)) continue;
    for (Constraint& c : soft_) {
      if (c.hostname) continue;
      const int32_t d = c.index->domain_of_node[n];
      if (d < 0 || !c.present[d] || !Included(c, nodes_.node(n)) || !Selects(c, *other.pod)) {
        continue;
      }
      ++c.count[d];
    }
  }
  min_raw_ = std::numeric_limits<int64_t>::max();
  max_raw_ = 0;
  for (NodeIndex n : feasible_) {
    if (ignored_[n]) continue;
    const int64_t raw = RawScore(n);
    min_raw_ = std::min(min_raw_, raw);
    max_raw_ = std::max(max_raw_, raw);
  }
}

int64_t PodTopologySpread::RawScore(NodeIndex n) const {
  double score = 0;
  for (const Constraint& c : soft_) {
    const int32_t d = c.index->domain_of_node[n];
    if (d < 0) continue;
    const int64_t count = c.hostname ? CountOnNode(c, n) : c.count[d];
    score += static_cast<double>(count) * c.weight + static_cast<double>(c.max_skew - 1);
  }
  return static_cast<int64_t>(std::round(score));
}

int64_t PodTopologySpread::NormalizedScore(NodeIndex n) const {
  if (ignored_[n]) return 0;
  if (max_raw_ == 0) return 100;
  return 100 * (max_raw_ + min_raw_ - RawScore(n)) / max_raw_;
}

}  // namespace wasched::sched::plugins
