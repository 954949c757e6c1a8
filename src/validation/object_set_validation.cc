// File: validation/object_set_validation.cc
//
// ValidateForSchedule: per-object field checks and cross-object reference checks, each reported
// as upstream's field.Error (type, path, rendered value, detail). Sources for the messages:
// k8s.io/apimachinery/pkg/api/validation (ObjectMeta, DNS-1123 names),
// pkg/apis/core/validation (resources, node selector requirements),
// pkg/apis/scheduling/validation (PriorityClass), plugin/pkg/admission/priority (class lookup,
// one global default), labels.NewRequirement (Gt/Lt values), and the scheduling.k8s.io
// declarative-validation rules of spec/was-v1.37.md §3.1–3.6.
#include "validation/object_set_validation.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include "api/quantity.h"

namespace wasched::validation {
namespace {

constexpr const char* kDns1123SubdomainDetail =
    "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or "
    "'.', and must start and end with an alphanumeric character (e.g. 'example.com', regex used "
    "for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*')";
constexpr const char* kDns1123LabelDetail =
    "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and "
    "must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used "
    "for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')";
constexpr std::size_t kDns1123SubdomainMaxLength = 253;
constexpr std::size_t kDns1123LabelMaxLength = 63;
constexpr const char* kNonNegativeDetail = "must be greater than or equal to 0";
constexpr const char* kSystemPriorityClassPrefix = "system-";

// Built-in PriorityClasses (upstream scheduling.SystemPriorityClasses()).
struct SystemPriorityClass {
  const char* name;
  int32_t value;
};
constexpr SystemPriorityClass kSystemPriorityClasses[] = {
    {"system-node-critical", api::kSystemNodeCritical},
    {"system-cluster-critical", api::kSystemClusterCritical},
};

// Quote: a string value rendered as upstream's field.Error does (Go's %q for plain text).
std::string Quote(std::string_view value) {
  std::string out = "\"";
  for (char c : value) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

bool IsLowerAlnum(char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); }

// IsDns1123LabelShape: `[a-z0-9]([-a-z0-9]*[a-z0-9])?`, length not checked.
bool IsDns1123LabelShape(std::string_view s) {
  if (s.empty() || !IsLowerAlnum(s.front()) || !IsLowerAlnum(s.back())) return false;
  return std::all_of(s.begin(), s.end(), [](char c) { return IsLowerAlnum(c) || c == '-'; });
}

// IsDns1123SubdomainShape: dot-separated DNS-1123 labels, length not checked.
bool IsDns1123SubdomainShape(std::string_view s) {
  if (s.empty()) return false;
  std::size_t start = 0;
  while (true) {
    std::size_t dot = s.find('.', start);
    std::string_view label = s.substr(start, dot == std::string_view::npos ? dot : dot - start);
    if (!IsDns1123LabelShape(label)) return false;
    if (dot == std::string_view::npos) return true;
    start = dot + 1;
  }
}

// Dns1123SubdomainErrors: upstream validation.IsDNS1123Subdomain messages (each one an error).
std::vector<std::string> Dns1123SubdomainErrors(std::string_view s) {
  std::vector<std::string> out;
  if (s.size() > kDns1123SubdomainMaxLength) {
    out.push_back(fmt::format("must be no more than {} characters", kDns1123SubdomainMaxLength));
  }
  if (!IsDns1123SubdomainShape(s)) out.push_back(kDns1123SubdomainDetail);
  return out;
}

// Dns1123LabelErrors: upstream validation.IsDNS1123Label messages.
std::vector<std::string> Dns1123LabelErrors(std::string_view s) {
  std::vector<std::string> out;
  if (s.size() > kDns1123LabelMaxLength) {
    out.push_back(fmt::format("must be no more than {} characters", kDns1123LabelMaxLength));
  }
  if (!IsDns1123LabelShape(s)) out.push_back(kDns1123LabelDetail);
  return out;
}

// IsInt64: strconv.ParseInt(s, 10, 64) succeeds.
bool IsInt64(std::string_view s) {
  std::size_t i = 0;
  if (!s.empty() && (s[0] == '+' || s[0] == '-')) i = 1;
  if (i == s.size()) return false;
  unsigned __int128 value = 0;
  for (; i < s.size(); ++i) {
    if (s[i] < '0' || s[i] > '9') return false;
    value = value * 10 + static_cast<unsigned>(s[i] - '0');
    if (value > (static_cast<unsigned __int128>(INT64_MAX) + 1)) return false;
  }
  return s[0] == '-' || value <= static_cast<unsigned __int128>(INT64_MAX);
}

// Where: "file.yaml document 3" for Duplicate details.
std::string Where(const api::SourceRef& source) {
  if (source.file.empty() && source.document <= 0) return "earlier in the input";
  if (source.document <= 0) return source.file;
  if (source.file.empty()) return fmt::format("document {}", source.document);
  return fmt::format("{} document {}", source.file, source.document);
}

// ObjectName: "Kind ns/name" ("Node name" for cluster-scoped kinds; "Kind" when unnamed).
std::string ObjectName(std::string_view kind, const api::ObjectMeta& meta) {
  if (meta.name.empty()) return std::string(kind);
  return fmt::format("{} {}", kind, api::NamespacedName(meta));
}

// Ordering of kinds for errors of objects in the same document (a List).
enum KindRank : int {
  kRankPriorityClass,
  kRankNode,
  kRankWorkload,
  kRankCompositePodGroup,
  kRankPodGroup,
  kRankPod,
};

// Entry: one error plus its position in the input, for the final input-order sort.
struct Entry {
  std::size_t file_rank = 0;
  int document = 0;
  int kind_rank = 0;
  std::size_t index = 0;  // index within its kind's vector
  std::size_t seq = 0;    // insertion order, last tie-break
  InputError error;
};

// Reporter: adds errors for one object.
class Reporter {
 public:
  Reporter(std::vector<Entry>* out, const api::ObjectMeta& meta, std::string object, int kind_rank,
           std::size_t index)
      : out_(out), meta_(meta), object_(std::move(object)), kind_rank_(kind_rank), index_(index) {}

  void Add(FieldErrorType type, std::string field, std::string bad_value, std::string detail,
           std::string origin = "") {
    Entry e;
    e.document = meta_.source.document;
    e.kind_rank = kind_rank_;
    e.index = index_;
    e.seq = out_->size();
    e.error.source = meta_.source;
    e.error.object = object_;
    e.error.error = FieldError{type, std::move(field), std::move(bad_value), std::move(detail),
                               std::move(origin)};
    out_->push_back(std::move(e));
  }

  const api::ObjectMeta& meta() const { return meta_; }

 private:
  std::vector<Entry>* out_;
  const api::ObjectMeta& meta_;
  std::string object_;
  int kind_rank_;
  std::size_t index_;
};

// ValidateMeta: metadata.name (DNS-1123 subdomain for every kind wasched reads) and, where set,
// metadata.namespace (DNS-1123 label). Upstream: ValidateObjectMeta.
void ValidateMeta(Reporter& r) {
  const api::ObjectMeta& meta = r.meta();
  if (meta.name.empty()) {
    r.Add(FieldErrorType::kRequired, "metadata.name", "", "name or generateName is required");
  } else {
    for (std::string& msg : Dns1123SubdomainErrors(meta.name)) {
      r.Add(FieldErrorType::kInvalid, "metadata.name", Quote(meta.name), std::move(msg));
    }
  }
  if (!meta.namespace_.empty()) {
    for (std::string& msg : Dns1123LabelErrors(meta.namespace_)) {
      r.Add(FieldErrorType::kInvalid, "metadata.namespace", Quote(meta.namespace_), std::move(msg));
    }
  }
}

// ValidateNonNegative: every amount in `list` is ≥ 0; path `<path>[<resource>]`.
void ValidateNonNegative(Reporter& r, const api::ResourceList& list, const std::string& path) {
  for (const auto& [name, amount] : list) {
    if (amount < 0) {
      r.Add(FieldErrorType::kInvalid, fmt::format("{}[{}]", path, name),
            Quote(api::FormatAmount(name, amount)), kNonNegativeDetail);
    }
  }
}

void ValidateContainers(Reporter& r, const std::vector<api::Container>& containers,
                        const char* list_name) {
  for (std::size_t i = 0; i < containers.size(); ++i) {
    std::string base = fmt::format("spec.{}[{}].resources", list_name, i);
    ValidateNonNegative(r, containers[i].requests, base + ".requests");
    ValidateNonNegative(r, containers[i].limits, base + ".limits");
  }
}

// ValidateRequirement: upstream ValidateNodeSelectorRequirement (value counts per operator) plus
// labels.NewRequirement's integer check for Gt/Lt, which upstream applies when the scheduler
// parses the affinity.
void ValidateRequirement(Reporter& r, const api::NodeSelectorRequirement& req,
                         const std::string& path, bool is_field) {
  const std::string values_path = path + ".values";
  if (req.key.empty()) {
    r.Add(FieldErrorType::kRequired, path + ".key", "", "");
  }
  switch (req.op) {
    case api::NodeSelectorOperator::kIn:
    case api::NodeSelectorOperator::kNotIn:
      if (req.values.empty()) {
        r.Add(FieldErrorType::kRequired, values_path, "",
              "must be specified when `operator` is 'In' or 'NotIn'");
      } else if (is_field && req.values.size() != 1) {
        r.Add(FieldErrorType::kRequired, values_path, "",
              "must be only one value when `operator` is 'In' or 'NotIn' for node field selector");
      }
      break;
    case api::NodeSelectorOperator::kExists:
    case api::NodeSelectorOperator::kDoesNotExist:
      if (!req.values.empty()) {
        r.Add(FieldErrorType::kForbidden, values_path, "",
              "may not be specified when `operator` is 'Exists' or 'DoesNotExist'");
      }
      break;
    case api::NodeSelectorOperator::kGt:
    case api::NodeSelectorOperator::kLt:
      if (req.values.size() != 1) {
        r.Add(FieldErrorType::kRequired, values_path, "",
              "must be specified single value when `operator` is 'Lt' or 'Gt'");
      }
      for (std::size_t i = 0; i < req.values.size(); ++i) {
        if (!IsInt64(req.values[i])) {
          r.Add(FieldErrorType::kInvalid, fmt::format("{}[{}]", values_path, i),
                Quote(req.values[i]), "for 'Gt', 'Lt' operators, the value must be an integer");
        }
      }
      break;
  }
  if (is_field && req.key != "metadata.name") {
    r.Add(FieldErrorType::kInvalid, path + ".key", Quote(req.key),
          "not a valid field selector key");
  }
}

void ValidateTerm(Reporter& r, const api::NodeSelectorTerm& term, const std::string& path) {
  for (std::size_t i = 0; i < term.match_expressions.size(); ++i) {
    ValidateRequirement(r, term.match_expressions[i],
                        fmt::format("{}.matchExpressions[{}]", path, i), /*is_field=*/false);
  }
  for (std::size_t i = 0; i < term.match_fields.size(); ++i) {
    ValidateRequirement(r, term.match_fields[i], fmt::format("{}.matchFields[{}]", path, i),
                        /*is_field=*/true);
  }
}

void ValidateNodeAffinity(Reporter& r, const api::NodeAffinity& affinity) {
  const std::string base = "spec.affinity.nodeAffinity";
  if (affinity.required) {
    const std::string terms_path =
        base + ".requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms";
    if (affinity.required->empty()) {
      r.Add(FieldErrorType::kRequired, terms_path, "", "must have at least one node selector term");
    }
    for (std::size_t i = 0; i < affinity.required->size(); ++i) {
      ValidateTerm(r, (*affinity.required)[i], fmt::format("{}[{}]", terms_path, i));
    }
  }
  for (std::size_t i = 0; i < affinity.preferred.size(); ++i) {
    const std::string path =
        fmt::format("{}.preferredDuringSchedulingIgnoredDuringExecution[{}]", base, i);
    const api::PreferredSchedulingTerm& term = affinity.preferred[i];
    if (term.weight < 1 || term.weight > 100) {
      r.Add(FieldErrorType::kInvalid, path + ".weight", std::to_string(term.weight),
            "must be in the range 1-100");
    }
    ValidateTerm(r, term.preference, path + ".preference");
  }
}

// ValidatePolicyUnion: union basic|gang and gang.<count_name> ≥ 1 (0 → Required, as the count is a
// non-pointer int32). `path` is the schedulingPolicy path.
void ValidatePolicyUnion(Reporter& r, bool has_basic, bool has_gang, int32_t count,
                         const std::string& path, const char* count_name) {
  if (has_basic && has_gang) {
    r.Add(FieldErrorType::kInvalid, path, Quote("{basic, gang}"),
          "must specify exactly one of: `basic`, `gang`", "union");
  } else if (!has_basic && !has_gang) {
    r.Add(FieldErrorType::kInvalid, path, Quote(""), "must specify one of: `basic`, `gang`",
          "union");
  }
  if (!has_gang) return;
  const std::string count_path = fmt::format("{}.gang.{}", path, count_name);
  if (count == 0) {
    r.Add(FieldErrorType::kRequired, count_path, "", "");
  } else if (count < 0) {
    r.Add(FieldErrorType::kInvalid, count_path, std::to_string(count),
          "must be greater than or equal to 1", "minimum");
  }
}

void ValidatePolicy(Reporter& r, const api::PodGroupSchedulingPolicy& policy,
                    const std::string& path) {
  ValidatePolicyUnion(r, policy.basic.has_value(), policy.gang.has_value(),
                      policy.gang ? policy.gang->min_count : 0, path, "minCount");
}

void ValidatePolicy(Reporter& r, const api::CompositePodGroupSchedulingPolicy& policy,
                    const std::string& path) {
  ValidatePolicyUnion(r, policy.basic.has_value(), policy.gang.has_value(),
                      policy.gang ? policy.gang->min_group_count : 0, path, "minGroupCount");
}

// ValidateConstraints: topology has at most one item, each with a key.
void ValidateConstraints(Reporter& r, const std::optional<api::SchedulingConstraints>& constraints,
                         const std::string& path) {
  if (!constraints) return;
  const std::string topology_path = path + ".topology";
  if (constraints->topology.size() > 1) {
    r.Add(FieldErrorType::kTooMany, topology_path, std::to_string(constraints->topology.size()),
          "must have at most 1 item", "maxItems");
  }
  for (std::size_t i = 0; i < constraints->topology.size(); ++i) {
    if (constraints->topology[i].key.empty()) {
      r.Add(FieldErrorType::kRequired, fmt::format("{}[{}].key", topology_path, i), "", "");
    }
  }
}

void ValidatePodGroupTemplates(Reporter& r, const std::vector<api::PodGroupTemplate>& templates,
                               const std::string& path) {
  for (std::size_t i = 0; i < templates.size(); ++i) {
    const std::string item = fmt::format("{}[{}]", path, i);
    ValidatePolicy(r, templates[i].scheduling_policy, item + ".schedulingPolicy");
    ValidateConstraints(r, templates[i].scheduling_constraints, item + ".schedulingConstraints");
  }
}

void ValidateCompositeTemplates(Reporter& r,
                                const std::vector<api::CompositePodGroupTemplate>& templates,
                                const std::string& path) {
  for (std::size_t i = 0; i < templates.size(); ++i) {
    const std::string item = fmt::format("{}[{}]", path, i);
    ValidatePolicy(r, templates[i].scheduling_policy, item + ".schedulingPolicy");
    ValidateConstraints(r, templates[i].scheduling_constraints, item + ".schedulingConstraints");
    ValidatePodGroupTemplates(r, templates[i].pod_group_templates, item + ".podGroupTemplates");
    ValidateCompositeTemplates(r, templates[i].composite_pod_group_templates,
                               item + ".compositePodGroupTemplates");
  }
}

// DuplicateChecker: first occurrence of each key; later ones are Duplicate at metadata.name.
class DuplicateChecker {
 public:
  void Check(Reporter& r, const std::string& key) {
    if (r.meta().name.empty()) return;  // already Required
    auto [it, inserted] = first_.emplace(key, &r.meta().source);
    if (!inserted) {
      r.Add(FieldErrorType::kDuplicate, "metadata.name", Quote(r.meta().name),
            "also defined in " + Where(*it->second));
    }
  }

 private:
  std::map<std::string, const api::SourceRef*> first_;
};

// IsSystemPriorityClass: one of the classes every cluster has built in.
bool IsSystemPriorityClass(std::string_view name) {
  return std::any_of(std::begin(kSystemPriorityClasses), std::end(kSystemPriorityClasses),
                     [&](const SystemPriorityClass& c) { return name == c.name; });
}

// ValidatePriorityClass: upstream ValidatePriorityClass (reserved `system-` names, the user
// maximum) plus the admission plugin's single-global-default rule.
void ValidatePriorityClass(Reporter& r, const api::PriorityClass& pc,
                           const api::PriorityClass*& first_default) {
  const std::string& name = pc.meta.name;
  if (name.rfind(kSystemPriorityClassPrefix, 0) == 0) {
    std::string problem;
    auto it = std::find_if(std::begin(kSystemPriorityClasses), std::end(kSystemPriorityClasses),
                           [&](const SystemPriorityClass& c) { return name == c.name; });
    if (it == std::end(kSystemPriorityClasses)) {
      problem = fmt::format("{} is not a known system priority class", name);
    } else if (pc.value != it->value) {
      problem = fmt::format("value of {} PriorityClass must be {}", name, it->value);
    } else if (pc.global_default) {
      problem = fmt::format("globalDefault of {} PriorityClass must be false", name);
    }
    if (!problem.empty()) {
      r.Add(FieldErrorType::kForbidden, "metadata.name", "",
            fmt::format("priority class names with '{}' prefix are reserved for system use only. "
                        "error: {}",
                        kSystemPriorityClassPrefix, problem));
    }
  } else if (pc.value > api::kHighestUserDefinablePriority) {
    r.Add(FieldErrorType::kForbidden, "value", "",
          fmt::format("maximum allowed value of a user defined priority is {}",
                      api::kHighestUserDefinablePriority));
  }
  if (pc.global_default) {
    if (first_default == nullptr) {
      first_default = &pc;
    } else {
      r.Add(FieldErrorType::kInvalid, "globalDefault", "true",
            fmt::format("PriorityClass {} is already marked as default (in {}). Only one default "
                        "can exist",
                        first_default->meta.name, Where(first_default->meta.source)));
    }
  }
}

// FileRanks: the input order of files, reconstructed from the per-kind vectors (each one is a
// subsequence of the input order): a topological merge, ties broken by first appearance.
class FileRanks {
 public:
  void AddSequence(const std::vector<const std::string*>& files) {
    const std::string* prev = nullptr;
    for (const std::string* f : files) {
      Intern(*f);
      if (prev != nullptr && *prev != *f) edges_[id_[*prev]].insert(id_[*f]);
      prev = f;
    }
  }

  // Compute: assigns each file its rank. O(F log F + E).
  void Compute() {
    const std::size_t n = names_.size();
    std::vector<int> indegree(n, 0);
    for (const auto& [from, tos] : edges_) {
      for (std::size_t to : tos) ++indegree[to];
    }
    std::set<std::size_t> ready;  // by first appearance
    std::vector<bool> done(n, false);
    for (std::size_t i = 0; i < n; ++i) {
      if (indegree[i] == 0) ready.insert(i);
    }
    rank_.assign(n, 0);
    for (std::size_t next_rank = 0; next_rank < n; ++next_rank) {
      std::size_t pick;
      if (!ready.empty()) {
        pick = *ready.begin();
        ready.erase(ready.begin());
      } else {  // a cycle (the same file read twice): take the earliest remaining
        pick = static_cast<std::size_t>(std::find(done.begin(), done.end(), false) - done.begin());
      }
      done[pick] = true;
      rank_[pick] = next_rank;
      auto it = edges_.find(pick);
      if (it == edges_.end()) continue;
      for (std::size_t to : it->second) {
        if (!done[to] && --indegree[to] == 0) ready.insert(to);
      }
    }
  }

  std::size_t Rank(const std::string& file) const {
    auto it = id_.find(file);
    return it == id_.end() ? 0 : rank_[it->second];
  }

 private:
  void Intern(const std::string& f) {
    if (id_.emplace(f, names_.size()).second) names_.push_back(f);
  }
  std::map<std::string, std::size_t> id_;
  std::vector<std::string> names_;
  std::map<std::size_t, std::set<std::size_t>> edges_;
  std::vector<std::size_t> rank_;
};

template <typename T>
std::vector<const std::string*> FilesOf(const std::vector<T>& objects) {
  std::vector<const std::string*> files;
  files.reserve(objects.size());
  for (const T& o : objects) files.push_back(&o.meta.source.file);
  return files;
}

}  // namespace

InputErrors ValidateForSchedule(const api::ObjectSet& objects) {
  std::vector<Entry> entries;

  // Name indexes for reference checks.
  std::set<std::string> node_names;
  for (const api::Node& n : objects.nodes) node_names.insert(n.meta.name);
  std::set<std::string> class_names;
  for (const api::PriorityClass& pc : objects.priority_classes) class_names.insert(pc.meta.name);
  std::set<std::pair<std::string, std::string>> pod_groups;  // (namespace, name)
  for (const api::PodGroup& pg : objects.pod_groups) {
    pod_groups.emplace(pg.meta.namespace_, pg.meta.name);
  }
  auto class_exists = [&](const std::string& name) {
    return class_names.count(name) > 0 || IsSystemPriorityClass(name);
  };
  auto check_class = [&](Reporter& r, const std::string& name) {
    if (!name.empty() && !class_exists(name)) {
      r.Add(FieldErrorType::kNotFound, "spec.priorityClassName", Quote(name), "");
    }
  };

  {
    DuplicateChecker dups;
    const api::PriorityClass* first_default = nullptr;
    for (std::size_t i = 0; i < objects.priority_classes.size(); ++i) {
      const api::PriorityClass& pc = objects.priority_classes[i];
      Reporter r(&entries, pc.meta, ObjectName("PriorityClass", pc.meta), kRankPriorityClass, i);
      ValidateMeta(r);
      dups.Check(r, pc.meta.name);
      ValidatePriorityClass(r, pc, first_default);
    }
  }
  {
    DuplicateChecker dups;
    for (std::size_t i = 0; i < objects.nodes.size(); ++i) {
      const api::Node& node = objects.nodes[i];
      Reporter r(&entries, node.meta, ObjectName("Node", node.meta), kRankNode, i);
      ValidateMeta(r);
      dups.Check(r, node.meta.name);
      ValidateNonNegative(r, node.allocatable, "status.allocatable");
    }
  }
  {
    DuplicateChecker dups;
    for (std::size_t i = 0; i < objects.workloads.size(); ++i) {
      const api::Workload& w = objects.workloads[i];
      Reporter r(&entries, w.meta, ObjectName("Workload", w.meta), kRankWorkload, i);
      ValidateMeta(r);
      dups.Check(r, api::NamespacedName(w.meta));
      ValidatePodGroupTemplates(r, w.pod_group_templates, "spec.podGroupTemplates");
      ValidateCompositeTemplates(r, w.composite_pod_group_templates,
                                 "spec.compositePodGroupTemplates");
    }
  }
  {
    DuplicateChecker dups;
    for (std::size_t i = 0; i < objects.composite_pod_groups.size(); ++i) {
      const api::CompositePodGroup& g = objects.composite_pod_groups[i];
      Reporter r(&entries, g.meta, ObjectName("CompositePodGroup", g.meta), kRankCompositePodGroup,
                 i);
      ValidateMeta(r);
      dups.Check(r, api::NamespacedName(g.meta));
      ValidatePolicy(r, g.scheduling_policy, "spec.schedulingPolicy");
      ValidateConstraints(r, g.scheduling_constraints, "spec.schedulingConstraints");
      check_class(r, g.priority_class_name);
    }
  }
  {
    DuplicateChecker dups;
    for (std::size_t i = 0; i < objects.pod_groups.size(); ++i) {
      const api::PodGroup& g = objects.pod_groups[i];
      Reporter r(&entries, g.meta, ObjectName("PodGroup", g.meta), kRankPodGroup, i);
      ValidateMeta(r);
      dups.Check(r, api::NamespacedName(g.meta));
      ValidatePolicy(r, g.scheduling_policy, "spec.schedulingPolicy");
      ValidateConstraints(r, g.scheduling_constraints, "spec.schedulingConstraints");
      check_class(r, g.priority_class_name);
    }
  }
  {
    DuplicateChecker dups;
    for (std::size_t i = 0; i < objects.pods.size(); ++i) {
      const api::Pod& pod = objects.pods[i];
      Reporter r(&entries, pod.meta, ObjectName("Pod", pod.meta), kRankPod, i);
      ValidateMeta(r);
      dups.Check(r, api::NamespacedName(pod.meta));
      ValidateContainers(r, pod.init_containers, "initContainers");
      ValidateContainers(r, pod.containers, "containers");
      ValidateNonNegative(r, pod.overhead, "spec.overhead");
      if (pod.node_affinity) ValidateNodeAffinity(r, *pod.node_affinity);
      if (!pod.node_name.empty() && node_names.count(pod.node_name) == 0) {
        r.Add(FieldErrorType::kNotFound, "spec.nodeName", Quote(pod.node_name), "");
      }
      check_class(r, pod.priority_class_name);
      if (pod.pod_group_name && pod_groups.count({pod.meta.namespace_, *pod.pod_group_name}) == 0) {
        r.Add(FieldErrorType::kNotFound, "spec.schedulingGroup.podGroupName",
              Quote(*pod.pod_group_name), "");
      }
    }
  }

  // Input order: file (as read), document, then kind and index for objects of one List.
  FileRanks ranks;
  ranks.AddSequence(FilesOf(objects.priority_classes));
  ranks.AddSequence(FilesOf(objects.nodes));
  ranks.AddSequence(FilesOf(objects.workloads));
  ranks.AddSequence(FilesOf(objects.composite_pod_groups));
  ranks.AddSequence(FilesOf(objects.pod_groups));
  ranks.AddSequence(FilesOf(objects.pods));
  ranks.Compute();
  for (Entry& e : entries) e.file_rank = ranks.Rank(e.error.source.file);
  std::sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) {
    return std::tie(a.file_rank, a.document, a.kind_rank, a.index, a.seq) <
           std::tie(b.file_rank, b.document, b.kind_rank, b.index, b.seq);
  });

  InputErrors out;
  out.reserve(entries.size());
  for (Entry& e : entries) out.push_back(std::move(e.error));
  return out;
}

}  // namespace wasched::validation
