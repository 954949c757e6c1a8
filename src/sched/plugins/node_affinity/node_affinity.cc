#include "sched/plugins/node_affinity/node_affinity.h"

#include <algorithm>
#include <charconv>

namespace wasched::sched::plugins {
namespace {

bool ParseInt(const std::string& s, int64_t& out) {
  auto [ptr, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return ec == std::errc() && ptr == s.data() + s.size();
}

// Matches: one requirement against a value that may be absent.
bool Matches(const api::NodeSelectorRequirement& req, const std::string* value) {
  using Op = api::NodeSelectorOperator;
  const auto& vals = req.values;
  switch (req.op) {
    case Op::kIn:
      return value && std::find(vals.begin(), vals.end(), *value) != vals.end();
    case Op::kNotIn:
      return !value || std::find(vals.begin(), vals.end(), *value) == vals.end();
    case Op::kExists:
      return value != nullptr;
    case Op::kDoesNotExist:
      return value == nullptr;
    case Op::kGt:
    case Op::kLt: {
      int64_t have = 0, want = 0;
      if (!value || vals.size() != 1 || !ParseInt(*value, have) || !ParseInt(vals[0], want)) {
        return false;
      }
      return req.op == Op::kGt ? have > want : have < want;
    }
  }
  return false;
}

}  // namespace

bool MatchesNodeSelectorTerm(const api::NodeSelectorTerm& term, const api::Node& node) {
  if (term.match_expressions.empty() && term.match_fields.empty()) return false;
  for (const auto& req : term.match_expressions) {
    auto it = node.meta.labels.find(req.key);
    if (!Matches(req, it == node.meta.labels.end() ? nullptr : &it->second)) return false;
  }
  for (const auto& req : term.match_fields) {
    // Only metadata.name is a supported field selector (upstream validation rejects others).
    if (req.key != "metadata.name") return false;
    if (!Matches(req, &node.meta.name)) return false;
  }
  return true;
}

Status NodeAffinityFilter::Filter(const api::Pod& pod, const api::Node& node) const {
  for (const auto& [key, value] : pod.node_selector) {
    auto it = node.meta.labels.find(key);
    if (it == node.meta.labels.end() || it->second != value) {
      return Status::UnschedulableAndUnresolvable(kReason, std::string(kName));
    }
  }
  if (pod.node_affinity && pod.node_affinity->required) {
    bool any = false;
    for (const auto& term : *pod.node_affinity->required) {
      if (MatchesNodeSelectorTerm(term, node)) {
        any = true;
        break;
      }
    }
    if (!any) return Status::UnschedulableAndUnresolvable(kReason, std::string(kName));
  }
  return Status::Success();
}

int64_t NodeAffinityScore::Score(const api::Pod& pod, const api::Node& node) const {
  if (!pod.node_affinity) return 0;
  int64_t total = 0;
  for (const auto& pref : pod.node_affinity->preferred) {
    if (pref.weight != 0 && MatchesNodeSelectorTerm(pref.preference, node)) total += pref.weight;
  }
  return total;
}

}  // namespace wasched::sched::plugins
