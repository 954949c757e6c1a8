// File: validation/object_set_validation.cc
//
// The pre-scheduling checks — Node, Pod and PriorityClass fields, and cross-object references
// and duplicates — each reported as upstream's field.Error (type, path, rendered value, detail),
// merged with the API validation (validation/api_validation.h) into one input-ordered report.
// Sources for the messages: k8s.io/apimachinery/pkg/api/validation (ObjectMeta, DNS-1123 names),
// pkg/apis/core/validation (resources, tolerations, taints, node selector requirements:
// validation/core_validation.h), pkg/apis/scheduling/validation (PriorityClass),
// plugin/pkg/admission/priority (class lookup, one global default, explicit priority vs class:
// validation/priority_admission.h), labels.NewRequirement (Gt/Lt values). The int64 accounting
// limit is wasched's own (validation/accounting_validation.h).
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
#include "validation/accounting_validation.h"
#include "validation/api_validation.h"
#include "validation/core_validation.h"
#include "validation/dra_validation.h"
#include "validation/error_collector.h"
#include "validation/field_errors.h"
#include "validation/object_meta_validation.h"
#include "validation/priority_admission.h"

namespace wasched::validation {
namespace {

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

// Reporter: adds the errors of one object to the collector.
class Reporter {
 public:
  Reporter(internal::ErrorCollector* out, const api::ObjectMeta& meta, std::string object,
           internal::KindRank kind_rank, std::size_t index)
      : out_(out), meta_(meta), object_(std::move(object)), kind_rank_(kind_rank), index_(index) {}

  void Add(FieldErrorType type, std::string field, std::string bad_value, std::string detail,
           std::string origin = "") {
    out_->Add(meta_, object_, kind_rank_, index_,
              FieldError{type, std::move(field), std::move(bad_value), std::move(detail),
                         std::move(origin)});
  }
  void AddAll(ErrorList errors) {
    out_->AddAll(meta_, object_, kind_rank_, index_, std::move(errors));
  }

  const api::ObjectMeta& meta() const { return meta_; }

 private:
  internal::ErrorCollector* out_;
  const api::ObjectMeta& meta_;
  std::string object_;
  internal::KindRank kind_rank_;
  std::size_t index_;
};

// ValidateMeta: metadata.name and metadata.namespace (validation/object_meta_validation.h).
void ValidateMeta(Reporter& r) { r.AddAll(ValidateObjectMeta(r.meta())); }

// ValidateNonNegative: every amount in `list` is ≥ 0; path `<path>[<resource>]`.
void ValidateNonNegative(Reporter& r, const api::ResourceList& list, const std::string& path) {
  for (const auto& [name, amount] : list) {
    if (amount < 0) {
      r.Add(FieldErrorType::kInvalid, fmt::format("{}[{}]", path, name),
            Quote(api::FormatAmount(name, amount)), kNonNegativeDetail);
    }
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

// AppendDuplicates: the metadata.name Duplicate errors of one kind's `list` (keyed by name for
// cluster-scoped kinds, namespace/name otherwise), as the pre-scheduling checks report them.
template <typename T>
void AppendDuplicates(const std::vector<T>& list, const char* kind, internal::KindRank rank,
                      bool namespaced, internal::ErrorCollector* out) {
  DuplicateChecker dups;
  for (std::size_t i = 0; i < list.size(); ++i) {
    Reporter r(out, list[i].meta, internal::ObjectLabel(kind, list[i].meta), rank, i);
    dups.Check(r, namespaced ? api::NamespacedName(list[i].meta) : list[i].meta.name);
  }
}

// AppendDuplicateObjects: every duplicated object of `objects` (used for the stored set of an
// update, which is otherwise only looked up, first one wins).
void AppendDuplicateObjects(const api::ObjectSet& objects, internal::ErrorCollector* out) {
  AppendDuplicates(objects.priority_classes, "PriorityClass", internal::kRankPriorityClass, false,
                   out);
  AppendDuplicates(objects.nodes, "Node", internal::kRankNode, false, out);
  AppendDuplicates(objects.workloads, "Workload", internal::kRankWorkload, true, out);
  AppendDuplicates(objects.composite_pod_groups, "CompositePodGroup",
                   internal::kRankCompositePodGroup, true, out);
  AppendDuplicates(objects.pod_groups, "PodGroup", internal::kRankPodGroup, true, out);
  AppendDuplicates(objects.pods, "Pod", internal::kRankPod, true, out);
  AppendDuplicates(objects.jobs, "Job", internal::kRankJob, true, out);
  AppendDuplicates(objects.deployments, "Deployment", internal::kRankDeployment, true, out);
  AppendDuplicates(objects.replica_sets, "ReplicaSet", internal::kRankReplicaSet, true, out);
  AppendDuplicates(objects.stateful_sets, "StatefulSet", internal::kRankStatefulSet, true, out);
  AppendDuplicates(objects.job_sets, "JobSet", internal::kRankJobSet, true, out);
  AppendDuplicates(objects.leader_worker_sets, "LeaderWorkerSet", internal::kRankLeaderWorkerSet,
                   true, out);
}

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

// AppendScheduleChecks: the pre-scheduling checks of `objects` into `out`, warnings into
// `warnings`; `gates` decide which admission rules apply (all on when the caller has none).
void AppendScheduleChecks(const api::ObjectSet& objects, const FeatureGates& gates,
                          internal::ErrorCollector* out, internal::ErrorCollector* warnings) {
  using internal::ObjectLabel;
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
  const PriorityAdmission admission(objects.priority_classes);

  {
    DuplicateChecker dups;
    const api::PriorityClass* first_default = nullptr;
    for (std::size_t i = 0; i < objects.priority_classes.size(); ++i) {
      const api::PriorityClass& pc = objects.priority_classes[i];
      Reporter r(out, pc.meta, ObjectLabel("PriorityClass", pc.meta), internal::kRankPriorityClass,
                 i);
      ValidateMeta(r);
      dups.Check(r, pc.meta.name);
      ValidatePriorityClass(r, pc, first_default);
    }
  }
  {
    DuplicateChecker dups;
    for (std::size_t i = 0; i < objects.nodes.size(); ++i) {
      const api::Node& node = objects.nodes[i];
      Reporter r(out, node.meta, ObjectLabel("Node", node.meta), internal::kRankNode, i);
      ValidateMeta(r);
      dups.Check(r, node.meta.name);
      r.AddAll(ValidateNodeTaints(node.taints, "spec.taints"));
      ValidateNonNegative(r, node.allocatable, "status.allocatable");
    }
  }
  // Workloads, CompositePodGroups, PodGroups and Jobs: their fields are API validation's; here
  // only duplicates and references.
  {
    DuplicateChecker dups;
    for (std::size_t i = 0; i < objects.workloads.size(); ++i) {
      const api::Workload& w = objects.workloads[i];
      Reporter r(out, w.meta, ObjectLabel("Workload", w.meta), internal::kRankWorkload, i);
      dups.Check(r, api::NamespacedName(w.meta));
    }
  }
  {
    DuplicateChecker dups;
    for (std::size_t i = 0; i < objects.composite_pod_groups.size(); ++i) {
      const api::CompositePodGroup& g = objects.composite_pod_groups[i];
      Reporter r(out, g.meta, ObjectLabel("CompositePodGroup", g.meta),
                 internal::kRankCompositePodGroup, i);
      dups.Check(r, api::NamespacedName(g.meta));
      check_class(r, g.priority_class_name);
      if (gates.composite_pod_group) {
        r.AddAll(admission.CheckGroup(g.priority_class_name, g.priority, g.preemption_policy,
                                      gates.pod_group_preemption_policy, "composite pod group"));
      }
    }
  }
  {
    DuplicateChecker dups;
    for (std::size_t i = 0; i < objects.pod_groups.size(); ++i) {
      const api::PodGroup& g = objects.pod_groups[i];
      Reporter r(out, g.meta, ObjectLabel("PodGroup", g.meta), internal::kRankPodGroup, i);
      dups.Check(r, api::NamespacedName(g.meta));
      check_class(r, g.priority_class_name);
      if (gates.generic_workload) {
        r.AddAll(admission.CheckGroup(g.priority_class_name, g.priority, g.preemption_policy,
                                      gates.pod_group_preemption_policy, "pod group"));
      }
    }
  }
  {
    DuplicateChecker dups;
    for (std::size_t i = 0; i < objects.pods.size(); ++i) {
      const api::Pod& pod = objects.pods[i];
      Reporter r(out, pod.meta, ObjectLabel("Pod", pod.meta), internal::kRankPod, i);
      ValidateMeta(r);
      dups.Check(r, api::NamespacedName(pod.meta));
      r.AddAll(ValidatePodSpecCore(pod, PodSpecSource::kPod));
      if (pod.node_affinity) ValidateNodeAffinity(r, *pod.node_affinity);
      if (!pod.node_name.empty() && node_names.count(pod.node_name) == 0) {
        // A snapshot taken after the node was deleted (the pod not yet garbage-collected): the
        // scheduler ignores such a pod's usage (it is on no node it accounts), so this is a
        // warning, not an error.
        Reporter w(warnings, pod.meta, ObjectLabel("Pod", pod.meta), internal::kRankPod, i);
        w.Add(FieldErrorType::kNotFound, "spec.nodeName", Quote(pod.node_name),
              "the pod is bound to a node that is not in the input; its requests are not "
              "counted on any node");
      }
      check_class(r, pod.priority_class_name);
      r.AddAll(admission.CheckPod(pod));
      if (pod.pod_group_name && pod_groups.count({pod.meta.namespace_, *pod.pod_group_name}) == 0) {
        // The API server resolves no reference here: it creates the pod, and the scheduler's
        // PreEnqueue (pkg/scheduler/framework/plugins/gangscheduling, v1.37.2) holds it until
        // its PodGroup appears. A warning, so that `schedule` runs and reports the pod held.
        Reporter w(warnings, pod.meta, ObjectLabel("Pod", pod.meta), internal::kRankPod, i);
        w.Add(FieldErrorType::kNotFound, "spec.schedulingGroup.podGroupName",
              Quote(*pod.pod_group_name),
              "the PodGroup is not in the input; the API server accepts the pod, and the "
              "scheduler holds it at PreEnqueue until the PodGroup exists");
      }
    }
  }
  {
    DuplicateChecker dups;
    for (std::size_t i = 0; i < objects.jobs.size(); ++i) {
      const api::Job& job = objects.jobs[i];
      Reporter r(out, job.meta, ObjectLabel("Job", job.meta), internal::kRankJob, i);
      dups.Check(r, api::NamespacedName(job.meta));
    }
  }
  AppendDuplicates(objects.deployments, "Deployment", internal::kRankDeployment, true, out);
  AppendDuplicates(objects.replica_sets, "ReplicaSet", internal::kRankReplicaSet, true, out);
  AppendDuplicates(objects.stateful_sets, "StatefulSet", internal::kRankStatefulSet, true, out);
  AppendDuplicates(objects.job_sets, "JobSet", internal::kRankJobSet, true, out);
  AppendDuplicates(objects.leader_worker_sets, "LeaderWorkerSet", internal::kRankLeaderWorkerSet,
                   true, out);
  // A warning: the API server accepts any amounts (a Quantity is arbitrary precision); the
  // scheduler's sums saturate at the int64 bound (docs/known-gaps.md).
  internal::AppendAccountingErrors(objects, warnings);
}

// Run: API validation (`old` nullptr = create) and the pre-scheduling checks of `objects`;
// warnings into `warnings` when given.
InputErrors Run(const api::ObjectSet& objects, const api::ObjectSet* old,
                const FeatureGates* gates, InputErrors* warnings) {
  internal::ErrorCollector collector;
  internal::ErrorCollector warning_collector;
  if (gates != nullptr) internal::AppendApiErrors(objects, old, *gates, &collector);
  AppendScheduleChecks(objects, gates != nullptr ? *gates : FeatureGates{}, &collector,
                       &warning_collector);
  internal::AppendDraErrors(objects, gates != nullptr ? *gates : FeatureGates{}, &collector,
                            &warning_collector);
  if (warnings != nullptr) *warnings = std::move(warning_collector).Finish(objects);
  return std::move(collector).Finish(objects);
}

}  // namespace

InputErrors CheckScheduleInput(const api::ObjectSet& objects, InputErrors* warnings) {
  return Run(objects, nullptr, nullptr, warnings);
}

InputErrors ValidateForSchedule(const api::ObjectSet& objects, const FeatureGates& gates,
                                InputErrors* warnings) {
  return Run(objects, nullptr, &gates, warnings);
}

InputErrors ValidateForSchedule(const api::ObjectSet& objects) {
  return ValidateForSchedule(objects, FeatureGates{});
}

InputErrors ValidateUpdateForSchedule(const api::ObjectSet& old, const api::ObjectSet& updated,
                                      const FeatureGates& gates, InputErrors* warnings) {
  // Objects duplicated in the stored set are reported as -f reports them (before the new set's
  // errors), not silently resolved to the first copy.
  internal::ErrorCollector old_duplicates;
  AppendDuplicateObjects(old, &old_duplicates);
  InputErrors errors = std::move(old_duplicates).Finish(old);
  for (InputError& e : Run(updated, &old, &gates, warnings)) errors.push_back(std::move(e));
  return errors;
}

}  // namespace wasched::validation
