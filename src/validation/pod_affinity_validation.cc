// File: validation/pod_affinity_validation.cc
//
// Upstream: kubernetes/kubernetes v1.37.2 pkg/apis/core/validation/validation.go (pod affinity
// terms, topology spread constraints, matchLabelKeys rules) and pkg/registry/core/pod/strategy.go
// (the create-time merge of matchLabelKeys into selectors). See pod_affinity_validation.h.
#include "validation/pod_affinity_validation.h"

#include <fmt/format.h>

#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "validation/label_selector_validation.h"
#include "validation/names.h"

namespace wasched::validation {
namespace {

constexpr const char* kNotPositive = "must be greater than zero";  // isNotPositiveErrorMsg
constexpr const char* kNoSelector = "must not be specified when labelSelector is not set";
constexpr const char* kDoNotSchedule = "DoNotSchedule";
constexpr const char* kScheduleAnyway = "ScheduleAnyway";

void Append(ErrorList* errs, ErrorList more) {
  for (FieldError& e : more) errs->push_back(std::move(e));
}

// MergeLabelKeys: strategy.go applyLabelKeysToLabelSelector: `key <op> (value)` appended for
// every key the pod has a label for.
void MergeLabelKeys(const std::vector<std::string>& keys, api::LabelSelectorOperator op,
                    const char* op_text, const std::map<std::string, std::string>& labels,
                    api::LabelSelector* selector) {
  for (const std::string& key : keys) {
    auto it = labels.find(key);
    if (it == labels.end()) continue;
    selector->match_expressions.push_back(
        api::LabelSelectorRequirement{key, op, op_text, {it->second}});
  }
}

// EffectiveSelector: the selector validation sees: as written for a template or when nothing is
// merged (strategy.go: no keys, or a null selector), else with the keys merged.
std::optional<api::LabelSelector> EffectiveSelector(
    const std::optional<api::LabelSelector>& written, const std::vector<std::string>& match_keys,
    const std::vector<std::string>& mismatch_keys, const api::Pod& pod, PodSpecSource source) {
  if (source != PodSpecSource::kPod || !written || (match_keys.empty() && mismatch_keys.empty())) {
    return written;
  }
  api::LabelSelector merged = *written;
  MergeLabelKeys(match_keys, api::LabelSelectorOperator::kIn, "In", pod.meta.labels, &merged);
  MergeLabelKeys(mismatch_keys, api::LabelSelectorOperator::kNotIn, "NotIn", pod.meta.labels,
                 &merged);
  return merged;
}

// ValidateLabelKeys: validateLabelKeys: Forbidden without a selector, else each key a label name.
void ValidateLabelKeys(const std::string& path, const std::vector<std::string>& keys,
                       const std::optional<api::LabelSelector>& selector, ErrorList* errs) {
  if (keys.empty()) return;
  if (!selector) {
    errs->push_back(Forbidden(path, kNoSelector));
    return;
  }
  for (size_t i = 0; i < keys.size(); ++i) Append(errs, LabelKey(Index(path, i), keys[i]));
}

// ValidateMatchLabelKeys: ValidateMatchLabelKeysAndMismatchLabelKeys at `path` (the term or the
// constraint).
void ValidateMatchLabelKeys(const std::string& path, const std::vector<std::string>& match_keys,
                            const std::vector<std::string>& mismatch_keys,
                            const std::optional<api::LabelSelector>& selector, ErrorList* errs) {
  ValidateLabelKeys(Child(path, "matchLabelKeys"), match_keys, selector, errs);
  ValidateLabelKeys(Child(path, "mismatchLabelKeys"), mismatch_keys, selector, errs);
  if (selector) {
    // A matchLabelKeys key (its last position, as upstream's map keeps) named again by a
    // requirement after matchLabels or an earlier requirement already named it.
    std::map<std::string, size_t> position;
    for (size_t i = 0; i < match_keys.size(); ++i) position[match_keys[i]] = i;
    std::set<std::string> seen;
    for (const auto& [key, value] : selector->match_labels) seen.insert(key);
    for (const api::LabelSelectorRequirement& req : selector->match_expressions) {
      if (auto it = position.find(req.key); it != position.end() && seen.contains(req.key)) {
        errs->push_back(Invalid(Index(path, it->second), Quote(req.key),
                                "exists in both matchLabelKeys and labelSelector",
                                "duplicatedLabelKeys"));
      }
      seen.insert(req.key);
    }
  }
  const std::set<std::string> mismatch(mismatch_keys.begin(), mismatch_keys.end());
  for (size_t i = 0; i < match_keys.size(); ++i) {
    if (mismatch.contains(match_keys[i])) {
      errs->push_back(Invalid(Index(Child(path, "matchLabelKeys"), i), Quote(match_keys[i]),
                              "exists in both matchLabelKeys and mismatchLabelKeys",
                              "duplicatedMismatchLabelKeys"));
    }
  }
}

// ValidateTerm: validatePodAffinityTerm at `path`.
void ValidateTerm(const api::PodAffinityTerm& term, const api::Pod& pod, PodSpecSource source,
                  const std::string& path, ErrorList* errs) {
  const std::optional<api::LabelSelector> selector = EffectiveSelector(
      term.label_selector, term.match_label_keys, term.mismatch_label_keys, pod, source);
  if (selector) Append(errs, ValidateLabelSelector(*selector, Child(path, "labelSelector")));
  if (term.namespace_selector) {
    Append(errs, ValidateLabelSelector(*term.namespace_selector, Child(path, "namespaceSelector")));
  }
  for (const std::string& ns : term.namespaces) {
    for (std::string& msg : Dns1123LabelErrors(ns)) {
      errs->push_back(Invalid(Child(path, "namespace"), Quote(ns), std::move(msg)));
    }
  }
  ValidateMatchLabelKeys(path, term.match_label_keys, term.mismatch_label_keys, selector, errs);
  const std::string key_path = Child(path, "topologyKey");
  if (term.topology_key.empty()) errs->push_back(Required(key_path, "can not be empty"));
  Append(errs, LabelKey(key_path, term.topology_key));
}

// ValidateAffinity: validatePodAffinity / validatePodAntiAffinity at `path`.
void ValidateAffinity(const api::PodAffinity& affinity, const api::Pod& pod,
                      PodSpecSource source, const std::string& path, ErrorList* errs) {
  const std::string required = Child(path, "requiredDuringSchedulingIgnoredDuringExecution");
  for (size_t i = 0; i < affinity.required.size(); ++i) {
    ValidateTerm(affinity.required[i], pod, source, Index(required, i), errs);
  }
  const std::string preferred = Child(path, "preferredDuringSchedulingIgnoredDuringExecution");
  for (size_t j = 0; j < affinity.preferred.size(); ++j) {
    const api::WeightedPodAffinityTerm& w = affinity.preferred[j];
    const std::string item = Index(preferred, j);
    if (w.weight <= 0 || w.weight > 100) {
      errs->push_back(
          Invalid(Child(item, "weight"), std::to_string(w.weight), "must be in the range 1-100"));
    }
    ValidateTerm(w.term, pod, source, Child(item, "podAffinityTerm"), errs);
  }
}

// ValidatePositive: ValidatePositiveField.
void ValidatePositive(int64_t value, const std::string& path, ErrorList* errs) {
  if (value <= 0) {
    errs->push_back(Invalid(path, std::to_string(value), kNotPositive, kOriginMinimum));
  }
}

bool IsScheduleAction(const std::string& action) {
  return action == kDoNotSchedule || action == kScheduleAnyway;
}

// ValidateNodeInclusionPolicy: validateNodeInclusionPolicy ("" is an unset policy here).
void ValidateNodeInclusionPolicy(const std::string& policy, const std::string& path,
                                 ErrorList* errs) {
  if (policy.empty() || policy == "Honor" || policy == "Ignore") return;
  errs->push_back(NotSupported(path, Quote(policy), {"Honor", "Ignore"}));
}

}  // namespace

ErrorList ValidatePodAffinity(const api::Pod& pod, PodSpecSource source) {
  ErrorList errs;
  if (pod.pod_affinity) {
    ValidateAffinity(*pod.pod_affinity, pod, source, "spec.affinity.podAffinity", &errs);
  }
  if (pod.pod_anti_affinity) {
    ValidateAffinity(*pod.pod_anti_affinity, pod, source, "spec.affinity.podAntiAffinity", &errs);
  }
  return errs;
}

ErrorList ValidateTopologySpreadConstraints(const api::Pod& pod, PodSpecSource source) {
  ErrorList errs;
  const std::vector<api::TopologySpreadConstraint>& constraints = pod.topology_spread_constraints;
  for (size_t i = 0; i < constraints.size(); ++i) {
    const api::TopologySpreadConstraint& c = constraints[i];
    const std::string path = Index("spec.topologySpreadConstraints", i);
    ValidatePositive(c.max_skew, Child(path, "maxSkew"), &errs);
    if (c.topology_key.empty()) {
      errs.push_back(Required(Child(path, "topologyKey"), "can not be empty"));
    }
    if (!IsScheduleAction(c.when_unsatisfiable)) {
      errs.push_back(NotSupported(Child(path, "whenUnsatisfiable"), Quote(c.when_unsatisfiable),
                                  {kDoNotSchedule, kScheduleAnyway}));
    }
    for (size_t j = i + 1; j < constraints.size(); ++j) {
      if (constraints[j].topology_key == c.topology_key &&
          constraints[j].when_unsatisfiable == c.when_unsatisfiable) {
        errs.push_back(Duplicate(Child(path, "{topologyKey, whenUnsatisfiable}"),
                                 Quote(fmt::format("{{{}, {}}}", c.topology_key,
                                                   c.when_unsatisfiable))));
        break;
      }
    }
    if (c.min_domains) {
      const std::string min_path = Child(path, "minDomains");
      ValidatePositive(*c.min_domains, min_path, &errs);
      if (c.when_unsatisfiable != kDoNotSchedule) {
        errs.push_back(
            Invalid(min_path, std::to_string(*c.min_domains),
                    fmt::format("can only use minDomains if whenUnsatisfiable={}, not {}",
                                kDoNotSchedule, c.when_unsatisfiable),
                    "dependsOn"));
      }
    }
    ValidateNodeInclusionPolicy(c.node_affinity_policy, Child(path, "nodeAffinityPolicy"), &errs);
    ValidateNodeInclusionPolicy(c.node_taints_policy, Child(path, "nodeTaintsPolicy"), &errs);
    const std::optional<api::LabelSelector> selector =
        EffectiveSelector(c.label_selector, c.match_label_keys, {}, pod, source);
    ValidateMatchLabelKeys(path, c.match_label_keys, {}, selector, &errs);
    if (selector) Append(&errs, ValidateLabelSelector(*selector, Child(path, "labelSelector")));
  }
  return errs;
}

}  // namespace wasched::validation
