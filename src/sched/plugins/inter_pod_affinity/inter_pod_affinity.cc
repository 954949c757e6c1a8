// File: sched/plugins/inter_pod_affinity/inter_pod_affinity.cc
#include "sched/plugins/inter_pod_affinity/inter_pod_affinity.h"

#include <algorithm>
#include <climits>
#include <cstdint>
#include <functional>

namespace wasched::sched::plugins {
namespace {

constexpr std::string_view kNamespaceNameLabel = "kubernetes.io/metadata.name";

// NamespaceSelected: `selector` matches the labels of namespace `ns`, taken as
// {kubernetes.io/metadata.name: ns} (metav1.LabelSelectorAsSelector semantics on a one-label
// set, without building it).
bool NamespaceSelected(const api::LabelSelector& selector, std::string_view ns) {
  for (const auto& [key, value] : selector.match_labels) {
    if (key != kNamespaceNameLabel || value != ns) return false;
  }
  for (const api::LabelSelectorRequirement& req : selector.match_expressions) {
    const bool has = req.key == kNamespaceNameLabel;
    const bool in_values =
        has && std::find(req.values.begin(), req.values.end(), ns) != req.values.end();
    switch (req.op) {
      case api::LabelSelectorOperator::kIn:
        if (!in_values) return false;
        break;
      case api::LabelSelectorOperator::kNotIn:
        if (in_values) return false;
        break;
      case api::LabelSelectorOperator::kExists:
        if (!has) return false;
        break;
      case api::LabelSelectorOperator::kDoesNotExist:
        if (has) return false;
        break;
      case api::LabelSelectorOperator::kUnknown:
        return false;
    }
  }
  return true;
}

// SelectsNoLabels: `selector` matches an empty label set (a namespace whose labels are not
// known): only NotIn and DoesNotExist requirements, no matchLabels.
bool SelectsNoLabels(const api::LabelSelector& selector) {
  if (!selector.match_labels.empty()) return false;
  for (const api::LabelSelectorRequirement& req : selector.match_expressions) {
    if (req.op != api::LabelSelectorOperator::kNotIn &&
        req.op != api::LabelSelectorOperator::kDoesNotExist) {
      return false;
    }
  }
  return true;
}

// TermSelects: TermMatches with the target's namespace labels known (`namespace_labels`: the
// Filter's view, where upstream merged the namespaceSelector into the namespace set) or not
// (the queueing hint's view: upstream matches the unmerged term against nil namespace labels).
bool TermSelects(const api::PodAffinityTerm& term, const api::Pod& owner, const api::Pod& target,
                 bool namespace_labels) {
  if (!term.label_selector) return false;  // a nil selector selects nothing
  const std::string& ns = target.meta.namespace_;
  if (term.namespaces.empty() && !term.namespace_selector) {
    if (ns != owner.meta.namespace_) return false;
  } else if (std::find(term.namespaces.begin(), term.namespaces.end(), ns) ==
                 term.namespaces.end() &&
             !(term.namespace_selector &&
               (namespace_labels ? NamespaceSelected(*term.namespace_selector, ns)
                                 : SelectsNoLabels(*term.namespace_selector)))) {
    return false;
  }
  const auto& labels = target.meta.labels;
  if (!api::Matches(*term.label_selector, labels)) return false;
  // matchLabelKeys / mismatchLabelKeys: key in / notin (the owner's value), when the owner has
  // the label (upstream registry/core/pod applyLabelKeysToLabelSelector).
  for (const std::string& key : term.match_label_keys) {
    auto own = owner.meta.labels.find(key);
    if (own == owner.meta.labels.end()) continue;
    auto it = labels.find(key);
    if (it == labels.end() || it->second != own->second) return false;
  }
  for (const std::string& key : term.mismatch_label_keys) {
    auto own = owner.meta.labels.find(key);
    if (own == owner.meta.labels.end()) continue;
    auto it = labels.find(key);
    if (it != labels.end() && it->second == own->second) return false;
  }
  return true;
}

}  // namespace

std::span<const api::PodAffinityTerm> RequiredAffinityTerms(const api::Pod& pod) {
  if (!pod.pod_affinity) return {};
  return pod.pod_affinity->required;
}

std::span<const api::PodAffinityTerm> RequiredAntiAffinityTerms(const api::Pod& pod) {
  if (!pod.pod_anti_affinity) return {};
  return pod.pod_anti_affinity->required;
}

bool AssignedPodMayHelp(const api::Pod& pod, const api::Pod& assigned) {
  const std::span<const api::PodAffinityTerm> terms = RequiredAffinityTerms(pod);
  if (terms.empty()) return false;
  for (const api::PodAffinityTerm& t : terms) {
    if (!TermSelects(t, pod, assigned, /*namespace_labels=*/false)) return false;
  }
  return true;
}

bool TermMatches(const api::PodAffinityTerm& term, const api::Pod& owner, const api::Pod& target) {
  return TermSelects(term, owner, target, /*namespace_labels=*/true);
}

bool InterPodAffinity::HasAntiAffinityPods(const Snapshot& snapshot) {
  ScanAntiAffinityPods(snapshot);
  return !anti_pods_.empty();
}

bool InterPodAffinity::HasAffinityPods(const Snapshot& snapshot) {
  ScanAntiAffinityPods(snapshot);
  return !affinity_pods_.empty();
}

bool InterPodAffinity::HasScoringAffinityPods(const Snapshot& snapshot) {
  ScanAntiAffinityPods(snapshot);
  return scoring_affinity_pods_;
}

void InterPodAffinity::ScanAntiAffinityPods(const Snapshot& snapshot) {
  const std::vector<PodInfo>& pods = snapshot.pods();
  if (scanned_pods_ == pods.size()) return;
  anti_pods_.clear();
  affinity_pods_.clear();
  scoring_affinity_pods_ = false;
  for (size_t p = 0; p < pods.size(); ++p) {
    const api::Pod& pod = *pods[p].pod;
    if (!RequiredAntiAffinityTerms(pod).empty()) anti_pods_.push_back(static_cast<PodIndex>(p));
    if (pod.pod_affinity || pod.pod_anti_affinity) affinity_pods_.push_back(static_cast<PodIndex>(p));
    // The terms PrepareScore weighs when they select another pod (scoring.go
    // processExistingPod): pod affinity terms, required and preferred, and preferred
    // anti-affinity terms.
    if ((pod.pod_affinity &&
         (!pod.pod_affinity->required.empty() || !pod.pod_affinity->preferred.empty())) ||
        (pod.pod_anti_affinity && !pod.pod_anti_affinity->preferred.empty())) {
      scoring_affinity_pods_ = true;
    }
  }
  scanned_pods_ = pods.size();
}

namespace {

uint64_t ValueHash(std::string_view value) { return std::hash<std::string_view>{}(value); }

// PairHash: a label (key, value) pair as one integer; collisions only cost a TermMatches.
uint64_t PairHash(std::string_view key, std::string_view value) {
  const uint64_t k = std::hash<std::string_view>{}(key);
  return (k * 0x9E3779B97F4A7C15ULL) ^ (ValueHash(value) + 0x7F4A7C15ULL + (k << 6) + (k >> 2));
}

}  // namespace

void InterPodAffinity::BuildFastIndex(const Snapshot& snapshot) {
  const std::vector<PodInfo>& pods = snapshot.pods();
  if (fast_pods_data_ == pods.data() && fast_pods_size_ == pods.size()) return;
  fast_pods_data_ = pods.data();
  fast_pods_size_ = pods.size();
  label_values_.clear();
  term_index_.clear();
  unindexed_terms_.clear();
  fast_valid_ = false;
  fast_pod_ = fast_rep_ = nullptr;
  scanned_pods_ = SIZE_MAX;  // the pod list changed: rescan whatever its size
  ScanAntiAffinityPods(snapshot);
  for (PodIndex q : anti_pods_) {
    const std::span<const api::PodAffinityTerm> terms = RequiredAntiAffinityTerms(*pods[q].pod);
    for (size_t i = 0; i < terms.size(); ++i) {
      const api::PodAffinityTerm& t = terms[i];
      if (!t.label_selector) continue;  // selects nothing
      const auto term = static_cast<int32_t>(i);
      if (t.label_selector->match_labels.empty()) {
        unindexed_terms_.push_back({0, q, term});
      } else {
        // Every matchLabels pair must be among the selected pod's labels: the first will do.
        const auto& [key, value] = *t.label_selector->match_labels.begin();
        term_index_.push_back({PairHash(key, value), q, term});
      }
    }
  }
  std::sort(term_index_.begin(), term_index_.end(), [](const TermRef& a, const TermRef& b) {
    return a.hash != b.hash ? a.hash < b.hash : a.pod != b.pod ? a.pod < b.pod : a.term < b.term;
  });
}

const InterPodAffinity::LabelValues& InterPodAffinity::ValuesOf(const std::vector<PodInfo>& pods,
                                                               const std::string& key) {
  for (const LabelValues& v : label_values_) {
    if (v.key == key) return v;
  }
  LabelValues& v = label_values_.emplace_back();
  v.key = key;
  for (size_t q = 0; q < pods.size(); ++q) {
    const auto& labels = pods[q].pod->meta.labels;
    auto it = labels.find(key);
    if (it != labels.end()) v.pods.emplace_back(ValueHash(it->second), static_cast<PodIndex>(q));
  }
  std::sort(v.pods.begin(), v.pods.end());
  return v;
}

bool InterPodAffinity::SameFastClass(const api::Pod& pod) const {
  if (!fast_valid_) return false;
  if (fast_pod_ == &pod || fast_rep_ == &pod) return true;
  const api::Pod& rep = *fast_rep_;
  if (pod.meta.namespace_ != rep.meta.namespace_ || pod.meta.labels != rep.meta.labels) {
    return false;
  }
  const std::span<const api::PodAffinityTerm> a = RequiredAntiAffinityTerms(pod);
  const std::span<const api::PodAffinityTerm> b = RequiredAntiAffinityTerms(rep);
  return std::equal(a.begin(), a.end(), b.begin(), b.end());
}

bool InterPodAffinity::FastClassOf(const api::Pod& pod, const std::vector<PodInfo>& pods) {
  if (SameFastClass(pod)) {
    fast_pod_ = &pod;
    return fast_eligible_;
  }
  fast_valid_ = true;
  fast_pod_ = fast_rep_ = &pod;
  fast_eligible_ = false;
  fast_matches_.clear();
  // The pod's own required anti-affinity terms: candidates are the pods carrying the first
  // matchLabels pair of the term's selector.
  for (const api::PodAffinityTerm& t : RequiredAntiAffinityTerms(pod)) {
    if (!t.label_selector) continue;  // selects nothing
    if (t.label_selector->match_labels.empty()) return false;
    const auto& [key, value] = *t.label_selector->match_labels.begin();
    const LabelValues& values = ValuesOf(pods, key);
    const uint64_t h = ValueHash(value);
    auto lo = std::lower_bound(values.pods.begin(), values.pods.end(),
                               std::pair<uint64_t, PodIndex>(h, INT32_MIN));
    auto hi = std::upper_bound(lo, values.pods.end(), std::pair<uint64_t, PodIndex>(h, INT32_MAX));
    if (fast_matches_.size() + static_cast<size_t>(hi - lo) > kMaxFastMatches) return false;
    const TopologyKeyIndex* index = &topology_.Get(t.topology_key);
    for (auto it = lo; it != hi; ++it) {
      if (TermMatches(t, pod, *pods[it->second].pod)) fast_matches_.push_back({it->second, index});
    }
  }
  // Symmetry: the required anti-affinity terms of other pods that select this one.
  auto consider = [&](const TermRef& ref) {
    const api::Pod& owner = *pods[ref.pod].pod;
    const api::PodAffinityTerm& u = RequiredAntiAffinityTerms(owner)[ref.term];
    if (TermMatches(u, owner, pod)) fast_matches_.push_back({ref.pod, &topology_.Get(u.topology_key)});
  };
  if (fast_matches_.size() + unindexed_terms_.size() > kMaxFastMatches) return false;
  for (const TermRef& ref : unindexed_terms_) consider(ref);
  for (const auto& [key, value] : pod.meta.labels) {
    const uint64_t h = PairHash(key, value);
    auto lo = std::lower_bound(term_index_.begin(), term_index_.end(), h,
                               [](const TermRef& r, uint64_t v) { return r.hash < v; });
    auto hi = std::upper_bound(lo, term_index_.end(), h,
                               [](uint64_t v, const TermRef& r) { return v < r.hash; });
    if (fast_matches_.size() + static_cast<size_t>(hi - lo) > kMaxFastMatches) return false;
    for (auto it = lo; it != hi; ++it) consider(*it);
  }
  fast_eligible_ = true;
  return true;
}

bool InterPodAffinity::ExcludedNodes(const api::Pod& pod, const Snapshot& snapshot, size_t limit,
                                     std::vector<NodeIndex>& out) {
  if (!RequiredAffinityTerms(pod).empty()) return false;
  BuildFastIndex(snapshot);
  const std::vector<PodInfo>& pods = snapshot.pods();
  if (!FastClassOf(pod, pods)) return false;
  for (const FastMatch& m : fast_matches_) {
    const PodInfo& q = pods[m.pod];
    if (q.node == kNoNode || q.pod == &pod) continue;  // not placed, or the pod itself
    const int32_t d = m.key->domain_of_node[q.node];
    if (d < 0) continue;  // the node lacks the term's key: nothing recorded (Filter)
    const std::span<const NodeIndex> nodes = m.key->NodesOf(d);
    if (out.size() + nodes.size() > limit) return false;
    out.insert(out.end(), nodes.begin(), nodes.end());
  }
  return true;
}

int32_t InterPodAffinity::SlotOf(const std::string& key) {
  for (size_t i = 0; i < slots_.size(); ++i) {
    if (slots_[i].index->key == key) return static_cast<int32_t>(i);
  }
  Slot& s = slots_.emplace_back();
  s.index = &topology_.Get(key);
  const auto domains = static_cast<size_t>(s.index->domain_count());
  s.affinity.assign(domains, 0);
  s.anti.assign(domains, 0);
  s.existing.assign(domains, 0);
  s.listed.assign(domains, 0);
  return static_cast<int32_t>(slots_.size() - 1);
}

void InterPodAffinity::Count(std::vector<int32_t> Slot::*counts, int32_t slot, NodeIndex n,
                             int32_t delta) {
  Slot& s = slots_[slot];
  const int32_t d = s.index->domain_of_node[n];
  if (d < 0) return;  // the node has no such label: nothing recorded (upstream update)
  if (s.listed[d] == 0) {
    s.listed[d] = 1;
    s.touched.push_back(d);
  }
  (s.*counts)[d] += delta;
  if (counts == &Slot::affinity) affinity_matches_ += delta;
  if (counts == &Slot::anti) anti_matches_ += delta;
  if (counts == &Slot::existing) existing_matches_ += delta;
}

bool InterPodAffinity::SameClass(const api::Pod& pod) {
  if (pod_ == &pod) return true;
  if (pod_ == nullptr || self_relevant_) return false;
  const size_t slot = (reinterpret_cast<uintptr_t>(&pod) / alignof(api::Pod)) % kEquivalentSlots;
  if (equivalent_.size() == kEquivalentSlots && equivalent_[slot] == &pod) return true;
  if (pod.meta.namespace_ != class_namespace_ || pod.meta.labels != class_labels_) return false;
  const std::span<const api::PodAffinityTerm> affinity = RequiredAffinityTerms(pod);
  const std::span<const api::PodAffinityTerm> anti = RequiredAntiAffinityTerms(pod);
  if (!std::equal(affinity.begin(), affinity.end(), class_affinity_.begin(), class_affinity_.end()) ||
      !std::equal(anti.begin(), anti.end(), class_anti_.begin(), class_anti_.end())) {
    return false;
  }
  if (equivalent_.size() != kEquivalentSlots) equivalent_.assign(kEquivalentSlots, nullptr);
  equivalent_[slot] = &pod;
  return true;
}

void InterPodAffinity::NewClass(const api::Pod& pod) {
  ++epoch_;
  std::fill(equivalent_.begin(), equivalent_.end(), nullptr);
  const std::span<const api::PodAffinityTerm> affinity = RequiredAffinityTerms(pod);
  const std::span<const api::PodAffinityTerm> anti = RequiredAntiAffinityTerms(pod);
  class_namespace_ = pod.meta.namespace_;
  class_labels_ = pod.meta.labels;
  class_affinity_.assign(affinity.begin(), affinity.end());
  class_anti_.assign(anti.begin(), anti.end());
  affinity_slot_.clear();
  anti_slot_.clear();
  self_match_ = !affinity.empty();
  for (const api::PodAffinityTerm& t : affinity) {
    affinity_slot_.push_back(SlotOf(t.topology_key));
    self_match_ = self_match_ && TermMatches(t, pod, pod);
  }
  self_relevant_ = self_match_;
  for (const api::PodAffinityTerm& t : anti) {
    anti_slot_.push_back(SlotOf(t.topology_key));
    self_relevant_ = self_relevant_ || TermMatches(t, pod, pod);
  }
}

const InterPodAffinity::PodMatch& InterPodAffinity::MatchOf(const std::vector<PodInfo>& pods,
                                                            PodIndex q) {
  PodMatch& m = match_[q];
  const api::Pod& target = *pods[q].pod;
  if (m.epoch == epoch_ && m.pod == &target) return m;
  m = PodMatch{epoch_, &target, false, false, 0, 0};
  if (!affinity_terms_.empty()) {
    // Affinity counts a pod that matches every term, once per term's topology key.
    m.affinity = true;
    for (const api::PodAffinityTerm& t : affinity_terms_) {
      if (!TermMatches(t, *pod_, target)) {
        m.affinity = false;
        break;
      }
    }
  }
  for (size_t i = 0; i < anti_terms_.size() && i < 64; ++i) {
    if (TermMatches(anti_terms_[i], *pod_, target)) m.anti |= uint64_t{1} << i;
  }
  // Placed pods' required anti-affinity terms that select the pod (symmetry).
  const std::span<const api::PodAffinityTerm> own = RequiredAntiAffinityTerms(target);
  for (size_t i = 0; i < own.size() && i < 64; ++i) {
    if (TermMatches(own[i], target, *pod_)) m.existing |= uint64_t{1} << i;
  }
  m.counts = m.affinity || m.anti != 0 || m.existing != 0 || own.size() > 64 ||
             anti_terms_.size() > 64;
  return m;
}

void InterPodAffinity::Apply(const PodMatch& m, const api::Pod& target, NodeIndex n,
                             int32_t delta) {
  if (n == kNoNode || !m.counts) return;
  const std::span<const api::PodAffinityTerm> own = RequiredAntiAffinityTerms(target);
  // Terms past the 64th of a pod are matched here each time (no bit for them).
  for (size_t i = 0; i < own.size(); ++i) {
    if (i < 64 ? (m.existing >> i & 1) != 0 : TermMatches(own[i], target, *pod_)) {
      Count(&Slot::existing, SlotOf(own[i].topology_key), n, delta);
    }
  }
  if (m.affinity) {
    for (int32_t slot : affinity_slot_) Count(&Slot::affinity, slot, n, delta);
  }
  for (size_t i = 0; i < anti_terms_.size(); ++i) {
    if (i < 64 ? (m.anti >> i & 1) != 0 : TermMatches(anti_terms_[i], *pod_, target)) {
      Count(&Slot::anti, anti_slot_[i], n, delta);
    }
  }
}

void InterPodAffinity::Recount(const Snapshot& snapshot) {
  for (Slot& s : slots_) {
    for (int32_t d : s.touched) s.affinity[d] = s.anti[d] = s.existing[d] = s.listed[d] = 0;
    s.touched.clear();
  }
  affinity_matches_ = anti_matches_ = existing_matches_ = 0;
  ScanAntiAffinityPods(snapshot);
  const std::vector<PodInfo>& pods = snapshot.pods();
  match_.resize(pods.size());
  counted_node_.assign(pods.size(), kNoNode);
  auto count = [&](PodIndex q) {
    const PodInfo& other = pods[q];
    if (other.node == kNoNode || other.pod == pod_) return;
    counted_node_[q] = other.node;
    Apply(MatchOf(pods, q), *other.pod, other.node, +1);
  };
  if (affinity_terms_.empty() && anti_terms_.empty()) {
    for (PodIndex q : anti_pods_) count(q);  // only they can match (symmetry)
  } else {
    for (size_t q = 0; q < pods.size(); ++q) count(static_cast<PodIndex>(q));
  }
}

void InterPodAffinity::Update(const Snapshot& snapshot) {
  const std::vector<PodInfo>& pods = snapshot.pods();
  if (match_.size() < pods.size()) {
    match_.resize(pods.size());
    counted_node_.resize(pods.size(), kNoNode);
  }
  for (uint64_t v = version_; v < snapshot.version(); ++v) {
    const PodIndex q = snapshot.ChangedPod(v);
    const PodInfo& other = pods[q];
    const NodeIndex now = other.pod == pod_ ? kNoNode : other.node;
    const NodeIndex was = counted_node_[q];
    if (was == now) continue;
    counted_node_[q] = now;
    const PodMatch& m = MatchOf(pods, q);
    Apply(m, *other.pod, was, -1);
    Apply(m, *other.pod, now, +1);
  }
}

bool InterPodAffinity::Prepare(const api::Pod& pod, const Snapshot& snapshot) {
  const uint64_t version = snapshot.version();
  if (pod_ == &pod && snapshot_ == &snapshot && version_ == version) return applies_;
  const bool same = snapshot_ == &snapshot && SameClass(pod);
  if (!same) NewClass(pod);
  pod_ = &pod;
  affinity_terms_ = RequiredAffinityTerms(pod);
  anti_terms_ = RequiredAntiAffinityTerms(pod);
  if (same && version >= version_ && version - version_ <= Snapshot::kChangeWindow) {
    Update(snapshot);
  } else {
    Recount(snapshot);
  }
  snapshot_ = &snapshot;
  version_ = version;
  applies_ = existing_matches_ > 0 || !affinity_terms_.empty() || !anti_terms_.empty();
  return applies_;
}

std::string_view InterPodAffinity::Filter(NodeIndex n, bool* unresolvable) const {
  *unresolvable = false;
  if (!affinity_terms_.empty()) {
    bool pods_exist = true;
    for (int32_t slot : affinity_slot_) {
      const Slot& s = slots_[slot];
      const int32_t d = s.index->domain_of_node[n];
      if (d < 0) {  // the node lacks the term's topology key
        *unresolvable = true;
        return kReasonAffinity;
      }
      if (s.affinity[d] <= 0) pods_exist = false;
    }
    // No matching pod anywhere: the first pod of a series that matches its own terms may go
    // anywhere the keys exist (upstream satisfiesSelfAffinityCheck).
    if (!pods_exist && !(affinity_matches_ == 0 && self_match_)) {
      *unresolvable = true;
      return kReasonAffinity;
    }
  }
  if (anti_matches_ > 0) {
    for (int32_t slot : anti_slot_) {
      const Slot& s = slots_[slot];
      const int32_t d = s.index->domain_of_node[n];
      if (d >= 0 && s.anti[d] > 0) return kReasonAntiAffinity;
    }
  }
  if (existing_matches_ > 0) {
    for (const Slot& s : slots_) {
      if (s.touched.empty()) continue;
      const int32_t d = s.index->domain_of_node[n];
      if (d >= 0 && s.existing[d] > 0) return kReasonExistingAntiAffinity;
    }
  }
  return {};
}

void InterPodAffinity::AddScore(const std::string& key, NodeIndex n, int64_t weight) {
  ScoreSlot* slot = nullptr;
  for (ScoreSlot& s : score_slots_) {
    if (s.index->key == key) slot = &s;
  }
  if (slot == nullptr) {
    slot = &score_slots_.emplace_back();
    slot->index = &topology_.Get(key);
    slot->score.assign(static_cast<size_t>(slot->index->domain_count()), 0);
  }
  const int32_t d = slot->index->domain_of_node[n];
  if (d < 0) return;  // the node has no such label: nothing recorded
  slot->touched.push_back(d);
  slot->score[d] += weight;
  score_applies_ = true;
}

bool InterPodAffinity::PrepareScore(const api::Pod& pod, const Snapshot& snapshot) {
  if (score_pod_ == &pod && score_version_ == snapshot.version()) return score_applies_;
  score_pod_ = &pod;
  score_version_ = snapshot.version();
  score_applies_ = false;
  for (ScoreSlot& s : score_slots_) {
    for (int32_t d : s.touched) s.score[d] = 0;
    s.touched.clear();
  }
  ScanAntiAffinityPods(snapshot);
  const std::span<const api::WeightedPodAffinityTerm> preferred =
      pod.pod_affinity ? std::span<const api::WeightedPodAffinityTerm>(pod.pod_affinity->preferred)
                       : std::span<const api::WeightedPodAffinityTerm>();
  const std::span<const api::WeightedPodAffinityTerm> preferred_anti =
      pod.pod_anti_affinity
          ? std::span<const api::WeightedPodAffinityTerm>(pod.pod_anti_affinity->preferred)
          : std::span<const api::WeightedPodAffinityTerm>();
  const bool own = !preferred.empty() || !preferred_anti.empty();
  const std::vector<PodInfo>& pods = snapshot.pods();
  auto process = [&](const PodInfo& other) {
    if (other.node == kNoNode || other.pod == &pod) return;
    const api::Pod& q = *other.pod;
    for (const api::WeightedPodAffinityTerm& w : preferred) {
      if (TermMatches(w.term, pod, q)) AddScore(w.term.topology_key, other.node, w.weight);
    }
    for (const api::WeightedPodAffinityTerm& w : preferred_anti) {
      if (TermMatches(w.term, pod, q)) AddScore(w.term.topology_key, other.node, -w.weight);
    }
    if (q.pod_affinity) {
      for (const api::PodAffinityTerm& t : q.pod_affinity->required) {
        if (TermMatches(t, q, pod)) AddScore(t.topology_key, other.node, kHardPodAffinityWeight);
      }
      for (const api::WeightedPodAffinityTerm& w : q.pod_affinity->preferred) {
        if (TermMatches(w.term, q, pod)) AddScore(w.term.topology_key, other.node, w.weight);
      }
    }
    if (q.pod_anti_affinity) {
      for (const api::WeightedPodAffinityTerm& w : q.pod_anti_affinity->preferred) {
        if (TermMatches(w.term, q, pod)) AddScore(w.term.topology_key, other.node, -w.weight);
      }
    }
  };
  if (own) {
    for (const PodInfo& other : pods) process(other);
  } else {
    for (PodIndex q : affinity_pods_) process(pods[q]);
  }
  return score_applies_;
}

int64_t InterPodAffinity::RawScore(NodeIndex n) const {
  int64_t score = 0;
  for (const ScoreSlot& s : score_slots_) {
    if (s.touched.empty()) continue;
    const int32_t d = s.index->domain_of_node[n];
    if (d >= 0) score += s.score[d];
  }
  return score;
}

}  // namespace wasched::sched::plugins
