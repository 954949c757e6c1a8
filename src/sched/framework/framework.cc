#include "sched/framework/framework.h"

#include <algorithm>
#include <map>
#include <optional>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "sched/cache/snapshot.h"
#include "sched/plugins/inter_pod_affinity/inter_pod_affinity.h"
#include "sched/plugins/node_affinity/node_affinity.h"
#include "sched/plugins/node_name/node_name.h"
#include "sched/plugins/node_ports/node_ports.h"
#include "sched/plugins/node_resources_balanced_allocation/balanced_allocation.h"
#include "sched/plugins/node_resources_fit/node_resources_fit.h"
#include "sched/plugins/node_unschedulable/node_unschedulable.h"
#include "sched/plugins/pod_topology_spread/pod_topology_spread.h"
#include "sched/plugins/taint_toleration/taint_toleration.h"
#include "sched/plugins/topology_placement/topology_placement.h"
#include "sched/queue/cluster_event.h"

namespace wasched::sched {
namespace {

void AppendTerm(std::string& out, const api::NodeSelectorTerm& term) {
  auto add = [&](const std::vector<api::NodeSelectorRequirement>& reqs, char tag) {
    for (const auto& r : reqs) {
      out += fmt::format("{}{}\x1f{}", tag, r.key, static_cast<int>(r.op));
      for (const auto& v : r.values) out += "\x1e" + v;
      out += '\x1d';
    }
  };
  add(term.match_expressions, 'e');
  add(term.match_fields, 'f');
  out += '|';
}

}  // namespace

std::string StaticSignature(const api::Pod& pod) {
  std::string sig = "n=" + pod.node_name + "\x1d";
  for (const auto& [k, v] : pod.node_selector) sig += "s" + k + "\x1f" + v + "\x1d";
  if (pod.node_affinity) {
    if (pod.node_affinity->required) {
      sig += "R[";
      for (const auto& t : *pod.node_affinity->required) AppendTerm(sig, t);
      sig += "]";
    }
    for (const auto& p : pod.node_affinity->preferred) {
      sig += fmt::format("P{}:", p.weight);
      AppendTerm(sig, p.preference);
    }
  }
  for (const auto& t : pod.tolerations) {
    sig += fmt::format("t{}\x1f{}\x1f{}\x1f{}\x1d", t.key, static_cast<int>(t.op), t.value,
                       t.effect ? static_cast<int>(*t.effect) : -1);
  }
  return sig;
}

Framework::Framework(const NodeTable& nodes, const ResourceTable& resources,
                     ScoringStrategy scoring)
    : nodes_(nodes), resources_(resources), scoring_(scoring) {
  // Default-profile Filter order (upstream pkg/scheduler/apis/config/v1/default_plugins.go).
  filters_.push_back(std::make_unique<plugins::NodeUnschedulable>());
  filters_.push_back(std::make_unique<plugins::NodeName>());
  filters_.push_back(std::make_unique<plugins::TaintTolerationFilter>());
  filters_.push_back(std::make_unique<plugins::NodeAffinityFilter>());
  topology_ = std::make_unique<plugins::TopologyIndex>(nodes);
  inter_pod_affinity_ = std::make_unique<plugins::InterPodAffinity>(*topology_);
  scratch_.reserve(static_cast<size_t>(nodes.size()));
  excluded_mark_.assign(static_cast<size_t>(nodes.size()), 0);
}

Framework::~Framework() = default;

ClassIndex Framework::ClassOf(const api::Pod& pod) {
  std::string sig = StaticSignature(pod);
  auto it = class_ids_.find(sig);
  if (it != class_ids_.end()) return it->second;
  auto id = static_cast<ClassIndex>(classes_.size());
  classes_.emplace_back();
  BuildClass(pod, classes_.back());
  class_ids_.emplace(std::move(sig), id);
  return id;
}

std::optional<std::vector<NodeIndex>> Framework::PreFilterNodeNames(const api::Pod& pod) const {
  // NodeAffinity PreFilter: when every required term names its nodes with matchFields
  // metadata.name In [...], only those nodes can pass; the rest are rejected without a look.
  if (!pod.node_affinity || !pod.node_affinity->required) return std::nullopt;
  if (!node_by_name_) node_by_name_.emplace(nodes_);  // built on first use: few pods name nodes
  std::vector<NodeIndex> out;
  for (const auto& term : *pod.node_affinity->required) {
    const api::NodeSelectorRequirement* names = nullptr;
    for (const auto& req : term.match_fields) {
      if (req.key == "metadata.name" && req.op == api::NodeSelectorOperator::kIn) names = &req;
    }
    if (names == nullptr) return std::nullopt;  // this term may match any node
    for (const auto& v : names->values) {
      const NodeIndex n = node_by_name_->Find(v);
      if (n != kNoNode) out.push_back(n);
    }
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

void Framework::BuildClass(const api::Pod& pod, PodClass& cls) const {
  std::optional<std::vector<NodeIndex>> named = PreFilterNodeNames(pod);
  std::vector<NodeIndex> all;
  if (named) {
    cls.restricted = true;
    const auto rejected = static_cast<int32_t>(nodes_.size() - named->size());
    if (rejected > 0) cls.static_reasons[plugins::NodeAffinityFilter::kReason] += rejected;
  } else {
    cls.position_of_node.assign(static_cast<size_t>(nodes_.size()), -1);
    all.resize(static_cast<size_t>(nodes_.size()));
    for (NodeIndex n = 0; n < nodes_.size(); ++n) all[n] = n;
  }
  plugins::NodeAffinityScore affinity;
  plugins::TaintTolerationScore taint;
  bool any_static_score = false;
  for (NodeIndex n : named ? *named : all) {
    const api::Node& node = nodes_.node(n);
    bool ok = true;
    for (const auto& f : filters_) {
      Status s = f->Filter(pod, node);
      if (!s.IsSuccess()) {
        ++cls.static_reasons[s.Message()];
        ok = false;
        break;
      }
    }
    if (!ok) continue;
    if (!cls.restricted) cls.position_of_node[n] = static_cast<int32_t>(cls.feasible.size());
    cls.feasible.push_back(n);
    int64_t a = affinity.Score(pod, node);
    int64_t t = taint.Score(pod, node);
    cls.raw_affinity.push_back(a);
    cls.raw_taint.push_back(t);
    any_static_score = any_static_score || a != 0 || t != 0;
  }
  if (!any_static_score) {
    // Every feasible node gets the same static score, which cannot change the choice.
    cls.raw_affinity.clear();
    cls.raw_taint.clear();
  }
}

int64_t Framework::TotalScore(const PodInfo& pod, const PodClass& cls, size_t pos,
                              int64_t max_aff, int64_t max_taint) const {
  NodeIndex n = cls.feasible[pos];
  int64_t score = DynamicScore(pod, n);
  if (cls.raw_affinity.empty()) return score;
  int64_t aff = max_aff > 0 ? kMaxNodeScore * cls.raw_affinity[pos] / max_aff : 0;
  int64_t tnt =
      max_taint > 0 ? kMaxNodeScore - kMaxNodeScore * cls.raw_taint[pos] / max_taint : kMaxNodeScore;
  return score + 2 * aff + 3 * tnt;
}

int32_t Framework::SignatureOf(const PodInfo& pod) {
  // Pod-dependent filters (PodFits) change a node's verdict with the pods placed on it.
  if (pod.pod_filters != 0) return -1;
  return IndexSignature(pod);
}

int32_t Framework::AffinitySignatureOf(const PodInfo& pod) {
  // InterPodAffinity alone: FindNode may answer its verdicts as node exclusions.
  if (pod.pod_filters != kPodAffinity) return -1;
  return IndexSignature(pod);
}

int32_t Framework::IndexSignature(const PodInfo& pod) {
  const PodClass& cls = classes_[pod.static_class];
  // Classes with static scores need a scan to normalise; restricted classes have few nodes.
  if (!cls.raw_affinity.empty() || cls.restricted) return -1;
  std::vector<int64_t> key{pod.static_class, pod.nonzero_cpu, pod.nonzero_memory};
  for (const auto& ra : pod.requests) {
    key.push_back(ra.id);
    key.push_back(ra.amount);
  }
  auto it = signature_ids_.find(key);
  if (it != signature_ids_.end()) return it->second;
  if (static_cast<int32_t>(signatures_.size()) >= kMaxSignatures) return -1;
  auto id = static_cast<int32_t>(signatures_.size());
  Signature sig;
  sig.cls = pod.static_class;
  sig.probe.requests = pod.requests;
  sig.probe.nonzero_cpu = pod.nonzero_cpu;
  sig.probe.nonzero_memory = pod.nonzero_memory;
  sig.probe.request_cpu = pod.request_cpu;
  sig.probe.request_memory = pod.request_memory;
  sig.probe.static_class = pod.static_class;
  signatures_.push_back(std::move(sig));
  signature_ids_.emplace(std::move(key), id);
  return id;
}

int64_t Framework::LeafScore(const PodInfo& probe, NodeIndex n) const {
  if (!plugins::Fits(probe, nodes_, n)) return -1;
  return DynamicScore(probe, n);
}

int64_t Framework::DynamicScore(const PodInfo& pod, NodeIndex n) const {
  // Usage-dependent scores of the default profile, weight 1 each.
  return plugins::Score(pod, nodes_, n, scoring_) + plugins::BalancedAllocationScore(pod, nodes_, n);
}

NodeIndex Framework::FindNodeIndexed(Signature& sig, std::span<const NodeIndex> excluded) {
  const PodClass& cls = classes_[sig.cls];
  const auto& log = nodes_.change_log();
  const size_t pending = log.size() - std::min(sig.cursor, log.size());
  if (!sig.built || sig.epoch != nodes_.log_epoch() || pending * 8 > cls.feasible.size()) {
    leaf_scratch_.resize(cls.feasible.size());
    for (size_t pos = 0; pos < cls.feasible.size(); ++pos) {
      leaf_scratch_[pos] = LeafScore(sig.probe, cls.feasible[pos]);
    }
    sig.index.Build(leaf_scratch_);
    sig.built = true;
    sig.epoch = nodes_.log_epoch();
  } else {
    for (size_t i = sig.cursor; i < log.size(); ++i) {
      int32_t pos = cls.position_of_node[log[i]];
      if (pos >= 0) sig.index.Set(pos, LeafScore(sig.probe, log[i]));
    }
  }
  sig.cursor = log.size();
  int32_t best = sig.index.BestPos();
  if (excluded.empty() || best < 0) return best < 0 ? kNoNode : cls.feasible[best];
  // Excluded nodes (InterPodAffinity rejects them): take the best leaf out while it is one, then
  // put the leaves back. O(E) marks + O(k log F) for the k excluded nodes that outscore the
  // answer.
  if (++exclude_stamp_ == 0) {
    std::fill(excluded_mark_.begin(), excluded_mark_.end(), 0);
    exclude_stamp_ = 1;
  }
  for (NodeIndex n : excluded) excluded_mark_[n] = exclude_stamp_;
  taken_out_.clear();
  while (best >= 0 && excluded_mark_[cls.feasible[best]] == exclude_stamp_) {
    taken_out_.emplace_back(best, sig.index.ScoreAt(best));
    sig.index.Set(best, -1);
    best = sig.index.BestPos();
  }
  for (auto it = taken_out_.rbegin(); it != taken_out_.rend(); ++it) {
    sig.index.Set(it->first, it->second);
  }
  return best < 0 ? kNoNode : cls.feasible[best];
}

NodeIndex Framework::FindNode(const PodInfo& pod) {
  if (restricted_) return FindNodeAllowed(pod);
  if (use_score_index_ && DraClaims(pod) == nullptr) {
    if (pod.signature >= 0 &&
        (snapshot_ == nullptr || !inter_pod_affinity_->HasAntiAffinityPods(*snapshot_))) {
      // No pod-dependent filter can reject a node (today's common case): O(1) checks. A pod with
      // no PodFilters bit (every pod with a signature) is not pod-dependent while no placed pod
      // has required anti-affinity, which the condition above has just checked.
      if ((pod.pod_filters == 0 || !PodDependent(pod)) && !ScoreDependent(pod)) {
        return FindNodeIndexed(signatures_[pod.signature], {});
      }
    } else if (snapshot_ != nullptr) {
      // InterPodAffinity may reject nodes (the pod's required anti-affinity terms, or placed
      // pods' selecting it): when it can list them cheaply, the index answers without them.
      const int32_t sig = pod.signature >= 0 ? pod.signature : pod.affinity_signature;
      if (sig >= 0 && !ScoreDependent(pod)) {
        excluded_.clear();
        // Up to twice the class's nodes (a node may be listed once per pod and term that
        // rejects it): marking them costs less than one scan with PodFits per node.
        const size_t limit = 2 * classes_[pod.static_class].feasible.size() + 8;
        if (inter_pod_affinity_->ExcludedNodes(*pod.pod, *snapshot_, limit, excluded_)) {
          return FindNodeIndexed(signatures_[sig], excluded_);
        }
        if (pod.signature >= 0 && !PodDependent(pod)) {
          return FindNodeIndexed(signatures_[pod.signature], {});
        }
      }
    }
  }
  return FindNodeScan(pod);
}

NodeIndex Framework::FindNodeScan(const PodInfo& pod) {
  const PodClass& cls = classes_[pod.static_class];
  const bool dyn = PodDependent(pod);
  const bool ipa = AffinityScores(pod);
  const bool pts = SpreadScores(pod);
  if (pts) spread_->BeginScore(*pod.pod, *snapshot_);
  const DynamicResources::PodClaims* claims = DraClaims(pod);
  const size_t count = cls.feasible.size();
  if (cls.raw_affinity.empty() && !ipa && !pts) {
    // Single pass: only the resource score varies.
    NodeIndex best = kNoNode;
    int64_t best_score = -1;
    for (size_t pos = 0; pos < count; ++pos) {
      NodeIndex n = cls.feasible[pos];
      if (!plugins::Fits(pod, nodes_, n) || !DraFits(claims, n) || (dyn && !PodFits(pod, n))) {
        continue;
      }
      int64_t s = DynamicScore(pod, n);
      if (s > best_score) {
        best_score = s;
        best = n;
      }
    }
    return best;
  }
  // Two passes: normalisation of static scores (and InterPodAffinity's) is over the nodes that
  // pass every filter.
  scratch_.clear();
  int64_t max_aff = 0, max_taint = 0;
  AffinityRange range;
  for (size_t pos = 0; pos < count; ++pos) {
    if (!plugins::Fits(pod, nodes_, cls.feasible[pos]) || !DraFits(claims, cls.feasible[pos]) ||
        (dyn && !PodFits(pod, cls.feasible[pos]))) {
      continue;
    }
    scratch_.push_back(static_cast<uint32_t>(pos));
    if (!cls.raw_affinity.empty()) {
      max_aff = std::max(max_aff, cls.raw_affinity[pos]);
      max_taint = std::max(max_taint, cls.raw_taint[pos]);
    }
    if (ipa) range.Add(inter_pod_affinity_->RawScore(cls.feasible[pos]));
    if (pts) spread_->AddFeasible(cls.feasible[pos]);
  }
  if (pts) spread_->FinishScore();
  NodeIndex best = kNoNode;
  int64_t best_score = -1;
  for (uint32_t pos : scratch_) {
    int64_t s = TotalScore(pod, cls, pos, max_aff, max_taint);
    if (ipa) s += AffinityScore(range, cls.feasible[pos]);
    if (pts) s += SpreadScore(cls.feasible[pos]);
    if (s > best_score) {
      best_score = s;
      best = cls.feasible[pos];
    }
  }
  return best;
}

int32_t Framework::PositionIn(const PodClass& cls, NodeIndex n) const {
  if (!cls.restricted) return cls.position_of_node[n];
  auto it = std::lower_bound(cls.feasible.begin(), cls.feasible.end(), n);
  return it != cls.feasible.end() && *it == n ? static_cast<int32_t>(it - cls.feasible.begin()) : -1;
}

bool Framework::Allowed(NodeIndex n) const {
  return !restricted_ || std::binary_search(allowed_.begin(), allowed_.end(), n);
}

NodeIndex Framework::FindNodeAllowed(const PodInfo& pod) {
  // FindNodeScan over the allowed nodes only (a placement): same scores, same tie-break.
  const PodClass& cls = classes_[pod.static_class];
  const bool dyn = PodDependent(pod);
  const bool ipa = AffinityScores(pod);
  const bool pts = SpreadScores(pod);
  if (pts) spread_->BeginScore(*pod.pod, *snapshot_);
  const DynamicResources::PodClaims* claims = DraClaims(pod);
  NodeIndex best = kNoNode;
  int64_t best_score = -1;
  if (cls.raw_affinity.empty() && !ipa && !pts) {
    if (claims == nullptr && !dyn && pod.signature >= 0) return FindNodeAllowedMemo(pod);
    for (NodeIndex n : allowed_) {
      if (PositionIn(cls, n) < 0 || !plugins::Fits(pod, nodes_, n) || !DraFits(claims, n) ||
          (dyn && !PodFits(pod, n))) {
        continue;
      }
      int64_t s = DynamicScore(pod, n);
      if (s > best_score) {
        best_score = s;
        best = n;
      }
    }
    return best;
  }
  allowed_scratch_.clear();
  int64_t max_aff = 0, max_taint = 0;
  AffinityRange range;
  for (NodeIndex n : allowed_) {
    int32_t pos = PositionIn(cls, n);
    if (pos < 0 || !plugins::Fits(pod, nodes_, n) || !DraFits(claims, n) ||
        (dyn && !PodFits(pod, n))) {
      continue;
    }
    allowed_scratch_.push_back(pos);
    if (!cls.raw_affinity.empty()) {
      max_aff = std::max(max_aff, cls.raw_affinity[pos]);
      max_taint = std::max(max_taint, cls.raw_taint[pos]);
    }
    if (ipa) range.Add(inter_pod_affinity_->RawScore(n));
    if (pts) spread_->AddFeasible(n);
  }
  if (pts) spread_->FinishScore();
  for (int32_t pos : allowed_scratch_) {
    int64_t s = TotalScore(pod, cls, static_cast<size_t>(pos), max_aff, max_taint);
    if (ipa) s += AffinityScore(range, cls.feasible[pos]);
    if (pts) s += SpreadScore(cls.feasible[pos]);
    if (s > best_score) {
      best_score = s;
      best = cls.feasible[pos];
    }
  }
  return best;
}

NodeIndex Framework::FindNodeAllowedMemo(const PodInfo& pod) {
  const PodClass& cls = classes_[pod.static_class];
  const std::vector<NodeIndex>& log = nodes_.change_log();
  AllowedMemo& m = allowed_memo_;
  const size_t count = allowed_.size();
  auto score_at = [&](size_t i) -> int64_t {
    const NodeIndex n = allowed_[i];
    if (PositionIn(cls, n) < 0 || !plugins::Fits(pod, nodes_, n)) return -1;
    return DynamicScore(pod, n);  // ≥ 0
  };
  if (m.restriction != restriction_ || m.signature != pod.signature ||
      m.epoch != nodes_.log_epoch() || m.cursor > log.size() || log.size() - m.cursor > count) {
    m.scores.resize(count);
    for (size_t i = 0; i < count; ++i) m.scores[i] = score_at(i);
    m.restriction = restriction_;
    m.signature = pod.signature;
    m.epoch = nodes_.log_epoch();
  } else {
    for (size_t j = m.cursor; j < log.size(); ++j) {
      const auto it = std::lower_bound(allowed_.begin(), allowed_.end(), log[j]);
      if (it != allowed_.end() && *it == log[j]) {
        const auto i = static_cast<size_t>(it - allowed_.begin());
        m.scores[i] = score_at(i);
      }
    }
  }
  m.cursor = log.size();
  NodeIndex best = kNoNode;
  int64_t best_score = -1;
  for (size_t i = 0; i < count; ++i) {
    if (m.scores[i] > best_score) {
      best_score = m.scores[i];
      best = allowed_[i];
    }
  }
  return best;
}

void Framework::FeasibleNodes(const PodInfo& pod, std::vector<NodeIndex>& out) {
  out.clear();
  const PodClass& cls = classes_[pod.static_class];
  const bool dyn = PodDependent(pod);
  const bool ipa = AffinityScores(pod);
  const bool pts = SpreadScores(pod);
  if (pts) spread_->BeginScore(*pod.pod, *snapshot_);
  const DynamicResources::PodClaims* claims = DraClaims(pod);
  std::vector<std::pair<int64_t, NodeIndex>> scored;
  int64_t max_aff = 0, max_taint = 0;
  AffinityRange range;
  std::vector<size_t> fit;
  for (size_t pos = 0; pos < cls.feasible.size(); ++pos) {
    if (!plugins::Fits(pod, nodes_, cls.feasible[pos]) || !Allowed(cls.feasible[pos]) ||
        !DraFits(claims, cls.feasible[pos]) || (dyn && !PodFits(pod, cls.feasible[pos]))) {
      continue;
    }
    fit.push_back(pos);
    if (!cls.raw_affinity.empty()) {
      max_aff = std::max(max_aff, cls.raw_affinity[pos]);
      max_taint = std::max(max_taint, cls.raw_taint[pos]);
    }
    if (ipa) range.Add(inter_pod_affinity_->RawScore(cls.feasible[pos]));
    if (pts) spread_->AddFeasible(cls.feasible[pos]);
  }
  if (pts) spread_->FinishScore();
  for (size_t pos : fit) {
    int64_t s = TotalScore(pod, cls, pos, max_aff, max_taint);
    if (ipa) s += AffinityScore(range, cls.feasible[pos]);
    if (pts) s += SpreadScore(cls.feasible[pos]);
    scored.emplace_back(-s, cls.feasible[pos]);
  }
  std::sort(scored.begin(), scored.end());
  for (const auto& [s, n] : scored) out.push_back(n);
}

void Framework::set_objects(const api::ObjectSet& objects) {
  spread_ = std::make_unique<plugins::PodTopologySpread>(objects, nodes_, *topology_);
}

bool Framework::SpreadApplies(const PodInfo& pod) const {
  return spread_ != nullptr && (pod.pod_filters & kSpread) != 0 &&
         spread_->Prepare(*pod.pod, *snapshot_);
}

bool Framework::SpreadScores(const PodInfo& pod) const {
  return spread_ != nullptr && snapshot_ != nullptr && spread_->ScoreApplies(*pod.pod);
}

bool Framework::ScoreDependent(const PodInfo& pod) const {
  return SpreadScores(pod) || AffinityScores(pod);
}

bool Framework::AffinityScores(const PodInfo& pod) const {
  if (snapshot_ == nullptr) return false;
  if ((pod.pod_filters & kPodAffinity) == 0 && !inter_pod_affinity_->HasAffinityPods(*snapshot_)) {
    return false;
  }
  const api::Pod& p = *pod.pod;
  const bool own_preferred = (p.pod_affinity && !p.pod_affinity->preferred.empty()) ||
                             (p.pod_anti_affinity && !p.pod_anti_affinity->preferred.empty());
  if (!own_preferred && !inter_pod_affinity_->HasScoringAffinityPods(*snapshot_)) {
    return false;  // PrepareScore would record nothing (required anti-affinity is not scored)
  }
  return inter_pod_affinity_->PrepareScore(*pod.pod, *snapshot_);
}

int64_t Framework::SpreadScore(NodeIndex n) const {
  return plugins::PodTopologySpread::kWeight * spread_->NormalizedScore(n);
}

int64_t Framework::AffinityScore(const AffinityRange& range, NodeIndex n) const {
  // InterPodAffinity NormalizeScore: (raw − min) / (max − min) × 100, truncated, as upstream
  // computes it in float64; then the default-profile weight.
  const int64_t diff = range.max - range.min;
  if (diff <= 0) return 0;
  const int64_t raw = inter_pod_affinity_->RawScore(n);
  const auto normalised = static_cast<int64_t>(
      static_cast<double>(kMaxNodeScore) *
      (static_cast<double>(raw - range.min) / static_cast<double>(diff)));
  return plugins::InterPodAffinity::kWeight * normalised;
}

bool Framework::AffinityApplies(const PodInfo& pod) const {
  if ((pod.pod_filters & kPodAffinity) == 0 &&
      !inter_pod_affinity_->HasAntiAffinityPods(*snapshot_)) {
    return false;
  }
  return inter_pod_affinity_->Prepare(*pod.pod, *snapshot_);
}

bool Framework::PodDependent(const PodInfo& pod) const {
  if (snapshot_ == nullptr) return false;
  return (pod.pod_filters & kHostPorts) != 0 || SpreadApplies(pod) || AffinityApplies(pod);
}

bool Framework::FitIsNodeLocal(const PodInfo& pod) const {
  if (snapshot_ == nullptr) return true;
  if ((pod.pod_filters & (kPodAffinity | kSpread)) != 0) return false;
  return !inter_pod_affinity_->HasAntiAffinityPods(*snapshot_);
}

bool Framework::FitReadsWholeCluster(const PodInfo& pod) const {
  const api::Pod& p = *pod.pod;
  if (!p.topology_spread_constraints.empty()) return true;
  for (const api::PodAffinityTerm& term : plugins::RequiredAffinityTerms(p)) {
    if (plugins::TermMatches(term, p, p)) return true;  // the first-pod rule
  }
  return false;
}

bool Framework::PlacementMayAffect(const PodInfo& pod, NodeIndex n, const PodInfo& other,
                                   NodeIndex m) const {
  const api::Pod& p = *pod.pod;
  const api::Pod& o = *other.pod;
  if (o.pod_affinity || o.pod_anti_affinity) return true;  // its anti-affinity may select `pod`
  const auto& n_labels = nodes_.node(n).meta.labels;
  const auto& m_labels = nodes_.node(m).meta.labels;
  auto other_domain = [&](const std::string& key) {  // both nodes carry the key, values differ
    const auto a = n_labels.find(key);
    if (a == n_labels.end()) return false;
    const auto b = m_labels.find(key);
    return b != m_labels.end() && a->second != b->second;
  };
  for (const api::PodAffinityTerm& term : plugins::RequiredAffinityTerms(p)) {
    if (!other_domain(term.topology_key) && plugins::TermMatches(term, p, o)) return true;
  }
  for (const api::PodAffinityTerm& term : plugins::RequiredAntiAffinityTerms(p)) {
    if (!other_domain(term.topology_key) && plugins::TermMatches(term, p, o)) return true;
  }
  return false;
}

bool Framework::PodFits(const PodInfo& pod, NodeIndex n) const {
  bool unresolvable = false;
  return PodFilterReason(pod, n, /*before_resources=*/true, &unresolvable).empty() &&
         PodFilterReason(pod, n, /*before_resources=*/false, &unresolvable).empty();
}

std::string_view Framework::PodFilterReason(const PodInfo& pod, NodeIndex n, bool before_resources,
                                            bool* unresolvable) const {
  *unresolvable = false;
  if (snapshot_ == nullptr) return {};
  if (before_resources) {
    if ((pod.pod_filters & kHostPorts) != 0 &&
        !plugins::PortsFit(*pod.pod, snapshot_->PodsOn(n), snapshot_->pods())) {
      return plugins::kNodePortsReason;  // Unschedulable: preemption may free the port
    }
    return {};
  }
  // Default-profile order after NodeResourcesFit: PodTopologySpread, then InterPodAffinity.
  if (SpreadApplies(pod)) {
    std::string_view reason = spread_->Filter(n, unresolvable);
    if (!reason.empty()) return reason;
  }
  if (AffinityApplies(pod)) return inter_pod_affinity_->Filter(n, unresolvable);
  return {};
}

uint32_t Framework::PodDependentRejectors(const PodInfo& pod) const {
  if (snapshot_ == nullptr || (pod.pod_filters & (kPodAffinity | kSpread)) == 0) return 0;
  const bool spread = (pod.pod_filters & kSpread) != 0 &&
                      plugins::PodTopologySpread::HasHardConstraints(*pod.pod) && SpreadApplies(pod);
  const bool affinity = (pod.pod_filters & kPodAffinity) != 0 &&
                        !plugins::RequiredAffinityTerms(*pod.pod).empty() && AffinityApplies(pod);
  if (!spread && !affinity) return 0;
  const PodClass& cls = classes_[pod.static_class];
  uint32_t bits = 0;
  bool unresolvable = false;
  for (NodeIndex n : cls.feasible) {
    if (restricted_ && !Allowed(n)) continue;
    if (!PodFilterReason(pod, n, /*before_resources=*/true, &unresolvable).empty() ||
        !plugins::Fits(pod, nodes_, n)) {
      continue;  // NodePorts or NodeResourcesFit rejected it first
    }
    if (spread && !spread_->Filter(n, &unresolvable).empty()) {
      bits |= kRejectorPodTopologySpread;
    } else if (affinity && !inter_pod_affinity_->Filter(n, &unresolvable).empty()) {
      bits |= kRejectorInterPodAffinity;
    }
    if (bits == (kRejectorPodTopologySpread | kRejectorInterPodAffinity)) break;
  }
  return bits;
}

std::string Framework::Diagnose(const PodInfo& pod, Code* code, std::string_view outside,
                                bool* filtered) const {
  bool other = false;  // a reason other than NodeResourcesFit's (`filtered`)
  if (filtered != nullptr) *filtered = false;
  if (nodes_.size() == 0) {
    // Upstream ErrNoNodesAvailable (pkg/scheduler/schedule_one.go).
    if (code) *code = Code::kUnschedulableAndUnresolvable;
    return "no nodes available to schedule pods";
  }
  const PodClass& cls = classes_[pod.static_class];
  const DynamicResources::PodClaims* claims = DraClaims(pod);
  if (claims != nullptr && !DynamicResources::Problem(*claims).empty()) {
    // A PreFilter rejection (upstream FitError with PreFilterMsg): no node was filtered.
    if (code) *code = Code::kUnschedulableAndUnresolvable;
    if (filtered != nullptr) *filtered = true;
    const auto total = restricted_ ? static_cast<int32_t>(allowed_.size()) : nodes_.size();
    return fmt::format("0/{} nodes are available: {}.", total, DynamicResources::Problem(*claims));
  }
  std::map<std::string, int32_t> reasons;
  std::vector<NodeIndex> checked;
  if (restricted_) {
    // Only the placement's nodes count; a node failing a static filter gets that filter's reason.
    for (NodeIndex n : allowed_) {
      if (PositionIn(cls, n) >= 0) {
        checked.push_back(n);
        continue;
      }
      for (const auto& f : filters_) {
        Status s = f->Filter(*pod.pod, nodes_.node(n));
        if (!s.IsSuccess()) {
          ++reasons[s.Message()];
          other = true;
          break;
        }
      }
    }
  } else {
    reasons.insert(cls.static_reasons.begin(), cls.static_reasons.end());
    other = !cls.static_reasons.empty();
  }
  const std::vector<NodeIndex>& candidates = restricted_ ? checked : cls.feasible;
  std::vector<std::string> node_reasons;
  bool any_resolvable = false;
  int32_t fitting = 0;
  for (NodeIndex n : candidates) {
    node_reasons.clear();
    bool unresolvable = false;
    // Default-profile Filter order: NodePorts, NodeResourcesFit, InterPodAffinity,
    // DynamicResources; the first plugin that rejects a node names its reason.
    std::string_view early = PodFilterReason(pod, n, /*before_resources=*/true, &unresolvable);
    if (!early.empty()) {
      other = true;
      ++reasons[std::string(early)];
      any_resolvable = any_resolvable || !unresolvable;
      continue;
    }
    plugins::InsufficientReasons(pod, nodes_, resources_, n, node_reasons);
    if (node_reasons.empty()) {
      std::string_view late = PodFilterReason(pod, n, /*before_resources=*/false, &unresolvable);
      if (!late.empty()) {
        other = true;
        ++reasons[std::string(late)];
        any_resolvable = any_resolvable || !unresolvable;
        continue;
      }
    }
    if (node_reasons.empty() && claims != nullptr) {
      // DynamicResources runs after NodeResourcesFit in the default profile; its rejections
      // are UnschedulableAndUnresolvable upstream (preemption cannot free a claim's devices).
      const std::string_view dra_reason = dra_->FilterReason(*claims, n);
      if (!dra_reason.empty()) {
        other = true;
        ++reasons[std::string(dra_reason)];
        continue;
      }
    }
    if (node_reasons.empty()) {
      ++fitting;  // fits alone; rejected by the caller's context (e.g. the group)
      continue;
    }
    any_resolvable = true;
    for (auto& r : node_reasons) ++reasons[r];
  }
  if (code) {
    *code = any_resolvable ? Code::kUnschedulable : Code::kUnschedulableAndUnresolvable;
  }
  if (filtered != nullptr) *filtered = other;
  // Upstream FitError.Error(): "<count> <reason>" strings sorted, joined by ", ".
  std::vector<std::string> parts;
  for (const auto& [reason, count] : reasons) parts.push_back(fmt::format("{} {}", count, reason));
  std::sort(parts.begin(), parts.end());
  const bool count_outside = restricted_ && !outside.empty();
  if (count_outside && nodes_.size() > static_cast<int32_t>(allowed_.size())) {
    parts.push_back(fmt::format("{} {}", nodes_.size() - static_cast<int32_t>(allowed_.size()),
                                outside));
    std::sort(parts.begin(), parts.end());
  }
  const auto total =
      restricted_ && !count_outside ? static_cast<int32_t>(allowed_.size()) : nodes_.size();
  (void)fitting;  // fits alone: counted in the total only (the pod is pending all the same)
  std::string msg = fmt::format("0/{} nodes are available", total);
  if (!parts.empty()) msg += ": " + fmt::format("{}", fmt::join(parts, ", "));
  return msg + ".";
}

}  // namespace wasched::sched
