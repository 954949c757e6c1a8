// File: validation/workload_validation.cc
//
// Workload validation (see workload_validation.h). DV rules from the markers of kubernetes/api
// scheduling/v1beta1 types.go (WorkloadSpec, PodGroupTemplate, CompositePodGroupTemplate);
// hand-written rules as pkg/apis/scheduling/validation/validation.go.
#include "validation/workload_validation.h"

#include <functional>
#include <set>
#include <string>
#include <vector>

#include "validation/names.h"
#include "validation/object_meta_validation.h"
#include "validation/scheduling_fields.h"
#include "validation/update_validation.h"

namespace wasched::validation {
namespace {

constexpr std::size_t kMaxTemplates = static_cast<std::size_t>(api::kWorkloadMaxPodGroupTemplates);

void Append(ErrorList* errs, ErrorList more) {
  for (FieldError& e : more) errs->push_back(std::move(e));
}

PriorityFields PriorityOf(const api::PodGroupTemplate& t) {
  return {&t.priority_class_name, &t.priority, &t.preemption_policy};
}
PriorityFields PriorityOf(const api::CompositePodGroupTemplate& t) {
  return {&t.priority_class_name, &t.priority, &t.preemption_policy};
}

// ValidateTemplateName: `name` Required / short name; immutable as the list's map key (a rename
// is an add plus a remove, reported by the list).
void ValidateTemplateName(const std::string& name, const std::string& path, ErrorList* errs) {
  if (name.empty()) {
    errs->push_back(Required(Child(path, "name")));
  } else {
    Append(errs, ShortName(Child(path, "name"), name));
  }
}

// ValidateConstraints / ValidateDisruptionAndPriority: the fields PodGroupTemplate and
// CompositePodGroupTemplate share, checked the same way for both (T is either template type).
template <typename T>
void ValidateConstraints(const T& t, const T* old, const std::string& path,
                         const FeatureGates& gates, ErrorList* errs) {
  ValidateSchedulingConstraints(t.scheduling_constraints,
                                old != nullptr ? &old->scheduling_constraints : nullptr,
                                Child(path, "schedulingConstraints"),
                                gates.topology_aware_workload_scheduling, errs);
}

template <typename T>
void ValidateDisruptionAndPriority(const T& t, const T* old, const std::string& path,
                                   const FeatureGates& gates, ErrorList* errs) {
  ValidateDisruptionMode(t.disruption_mode, old != nullptr ? &old->disruption_mode : nullptr,
                         Child(path, "disruptionMode"), errs);
  const PriorityFields fields = PriorityOf(t);
  const PriorityFields old_fields = old != nullptr ? PriorityOf(*old) : PriorityFields{};
  ValidatePriorityFields(fields, old != nullptr ? &old_fields : nullptr, path,
                         gates.pod_group_preemption_policy, errs);
}

void ValidatePodGroupTemplate(const api::PodGroupTemplate& t, const api::PodGroupTemplate* old,
                              const std::string& path, const FeatureGates& gates,
                              ErrorList* errs) {
  if (Unchanged(t, old)) return;
  if (old == nullptr) ValidateTemplateName(t.name, path, errs);
  const PolicyView policy = ViewOf(t.scheduling_policy);
  const PolicyView old_policy = old != nullptr ? ViewOf(old->scheduling_policy) : PolicyView{};
  ValidatePolicy(policy, old != nullptr ? &old_policy : nullptr, Child(path, "schedulingPolicy"),
                 "minCount", CountKind::kValue, errs);
  ValidateConstraints(t, old, path, gates, errs);
  ValidateResourceClaims(t.resource_claims, old != nullptr ? &old->resource_claims : nullptr,
                         Child(path, "resourceClaims"), errs);
  ValidateDisruptionAndPriority(t, old, path, gates, errs);
}

// ValidateList: a template list (podGroupTemplates or compositePodGroupTemplates at any level):
// ≤ 8 items (TooMany stops the list's checks), NoAddItem / NoRemoveItem on update (stops them too), names
// unique, then each item against its old counterpart (matched by name).
template <typename T, typename ItemFn>
void ValidateList(const std::vector<T>& list, const std::vector<T>* old, const std::string& path,
                  ErrorList* errs, ItemFn&& item_fn) {
  if (Unchanged(list, old)) return;
  bool blocked = false;
  if (list.size() > kMaxTemplates) {
    errs->push_back(TooMany(path, list.size(), kMaxTemplates));
    blocked = true;
  }
  // update=NoAddItem,NoRemoveItem is a short-circuit validator upstream (MarkShortCircuit): when
  // it reports, the list's other checks (uniqueness, each item) do not run.
  blocked |= CheckNoAddRemoveItems(list, old, path, errs);
  if (blocked) return;
  CheckDuplicateNames(list, path, errs);
  for (std::size_t i = 0; i < list.size(); ++i) {
    const T* old_item = old != nullptr ? FindByName(*old, list[i].name) : nullptr;
    item_fn(list[i], old_item, Index(path, i));
  }
}

void ValidateCompositeTemplate(const api::CompositePodGroupTemplate& t,
                               const api::CompositePodGroupTemplate* old, const std::string& path,
                               const FeatureGates& gates, ErrorList* errs) {
  if (Unchanged(t, old)) return;
  if (old == nullptr) ValidateTemplateName(t.name, path, errs);
  const PolicyView policy = ViewOf(t.scheduling_policy);
  const PolicyView old_policy = old != nullptr ? ViewOf(old->scheduling_policy) : PolicyView{};
  // Choice (spec §12 item 5): minGroupCount is mutable in a Workload template, as the markers
  // say (basic immutable, gang NoSet/NoUnset, the count itself unmarked).
  ValidatePolicy(policy, old != nullptr ? &old_policy : nullptr, Child(path, "schedulingPolicy"),
                 "minGroupCount", CountKind::kValue, errs);
  ValidateConstraints(t, old, path, gates, errs);
  ValidateDisruptionAndPriority(t, old, path, gates, errs);
  ValidateList(t.pod_group_templates, old != nullptr ? &old->pod_group_templates : nullptr,
               Child(path, "podGroupTemplates"), errs,
               [&](const api::PodGroupTemplate& item, const api::PodGroupTemplate* old_item,
                   const std::string& item_path) {
                 ValidatePodGroupTemplate(item, old_item, item_path, gates, errs);
               });
  ValidateList(t.composite_pod_group_templates,
               old != nullptr ? &old->composite_pod_group_templates : nullptr,
               Child(path, "compositePodGroupTemplates"), errs,
               [&](const api::CompositePodGroupTemplate& item,
                   const api::CompositePodGroupTemplate* old_item, const std::string& item_path) {
                 ValidateCompositeTemplate(item, old_item, item_path, gates, errs);
               });
}

void ValidateControllerRef(const std::optional<api::TypedLocalObjectReference>& ref,
                           const std::optional<api::TypedLocalObjectReference>* old,
                           ErrorList* errs) {
  const std::string path = "spec.controllerRef";
  if (Unchanged(ref, old)) return;
  if (CheckImmutable(ref, old, path, errs) || !ref) return;
  if (!ref->api_group.empty()) Append(errs, LongName(Child(path, "apiGroup"), ref->api_group));
  if (ref->kind.empty()) {
    errs->push_back(Required(Child(path, "kind")));
  } else {
    Append(errs, PathSegmentName(Child(path, "kind"), ref->kind));
  }
  if (ref->name.empty()) {
    errs->push_back(Required(Child(path, "name")));
  } else {
    Append(errs, PathSegmentName(Child(path, "name"), ref->name));
  }
}

// ---- hand-written rules (pkg/apis/scheduling/validation ValidateWorkloadSpec) ----------------

// CheckListNames / CheckCompositeNames: global template-name uniqueness. Each list's names are
// checked against every name recorded before the list (earlier lists, ancestors' lists), then
// added; duplicates inside one list are left to DV's Duplicate.
void CheckCompositeListNames(const std::vector<api::CompositePodGroupTemplate>& list,
                             const std::string& list_path, std::set<std::string>* names,
                             ErrorList* errs);

void CheckCompositeChildrenNames(const api::CompositePodGroupTemplate& t, const std::string& path,
                                 std::set<std::string>* names, ErrorList* errs) {
  std::set<std::string> list_names;
  const std::string pg_path = Child(path, "podGroupTemplates");
  for (std::size_t i = 0; i < t.pod_group_templates.size(); ++i) {
    const std::string& name = t.pod_group_templates[i].name;
    if (names->count(name) > 0) {
      errs->push_back(Duplicate(Child(Index(pg_path, i), "name"), Quote(name)));
    }
    list_names.insert(name);
  }
  names->insert(list_names.begin(), list_names.end());
  CheckCompositeListNames(t.composite_pod_group_templates, Child(path, "compositePodGroupTemplates"),
                          names, errs);
}

void CheckCompositeListNames(const std::vector<api::CompositePodGroupTemplate>& list,
                             const std::string& list_path, std::set<std::string>* names,
                             ErrorList* errs) {
  std::set<std::string> list_names;
  for (std::size_t i = 0; i < list.size(); ++i) {
    if (names->count(list[i].name) > 0) {
      errs->push_back(Duplicate(Child(Index(list_path, i), "name"), Quote(list[i].name)));
    }
    list_names.insert(list[i].name);
  }
  names->insert(list_names.begin(), list_names.end());
  for (std::size_t i = 0; i < list.size(); ++i) {
    CheckCompositeChildrenNames(list[i], Index(list_path, i), names, errs);
  }
}

// TooDeep: a composite at depth kWorkloadMaxTreeDepth somewhere under `t` (at `depth`).
bool TooDeep(const api::CompositePodGroupTemplate& t, int depth) {
  if (depth >= api::kWorkloadMaxTreeDepth) return true;
  for (const api::CompositePodGroupTemplate& child : t.composite_pod_group_templates) {
    if (TooDeep(child, depth + 1)) return true;
  }
  return false;
}

// SamePriority: walks every template (PodGroupTemplates first, then composites depth-first with
// their children) comparing (priorityClassName, priority) to the first one seen.
class PriorityCheck {
 public:
  bool Check(const std::string& class_name, const std::optional<int32_t>& priority) {
    if (!first_) {
      first_ = true;
      class_ = class_name;
      priority_ = priority;
      return true;
    }
    return class_ == class_name && priority_ == priority;
  }
  bool CheckComposite(const api::CompositePodGroupTemplate& t) {
    if (!Check(t.priority_class_name, t.priority)) return false;
    for (const api::CompositePodGroupTemplate& child : t.composite_pod_group_templates) {
      if (!CheckComposite(child)) return false;
    }
    for (const api::PodGroupTemplate& child : t.pod_group_templates) {
      if (!Check(child.priority_class_name, child.priority)) return false;
    }
    return true;
  }

 private:
  bool first_ = false;
  std::string class_;
  std::optional<int32_t> priority_;
};

void CheckNonEmptyComposites(const std::vector<api::CompositePodGroupTemplate>& list,
                             const std::string& list_path, ErrorList* errs) {
  for (std::size_t i = 0; i < list.size(); ++i) {
    const api::CompositePodGroupTemplate& t = list[i];
    const std::string path = Index(list_path, i);
    if (t.pod_group_templates.empty() && t.composite_pod_group_templates.empty()) {
      errs->push_back(Invalid(path, Quote(t.name), kEmptyCompositeDetail));
    }
    CheckNonEmptyComposites(t.composite_pod_group_templates,
                            Child(path, "compositePodGroupTemplates"), errs);
  }
}

void ValidateHandWritten(const api::Workload& w, ErrorList* errs) {
  const std::string composites_path = "spec.compositePodGroupTemplates";
  std::set<std::string> names;
  for (const api::PodGroupTemplate& t : w.pod_group_templates) names.insert(t.name);
  CheckCompositeListNames(w.composite_pod_group_templates, composites_path, &names, errs);

  for (std::size_t i = 0; i < w.composite_pod_group_templates.size(); ++i) {
    if (TooDeep(w.composite_pod_group_templates[i], 1)) {
      errs->push_back(Invalid(Index(composites_path, i), "", kWorkloadMaxDepthDetail));
    }
  }

  // validateWorkloadPriority (pkg/apis/scheduling/validation/validation.go): a difference among
  // the PodGroupTemplates and one found among the composites have different details.
  PriorityCheck priority;
  bool same = true;
  for (const api::PodGroupTemplate& t : w.pod_group_templates) {
    same = same && priority.Check(t.priority_class_name, t.priority);
  }
  if (!same) {
    errs->push_back(Invalid("spec", kNullValue, kMultiplePriorityDetail));
  } else {
    for (const api::CompositePodGroupTemplate& t : w.composite_pod_group_templates) {
      same = same && priority.CheckComposite(t);
    }
    if (!same) errs->push_back(Invalid("spec", kNullValue, kCompositePriorityDetail));
  }

  CheckNonEmptyComposites(w.composite_pod_group_templates, composites_path, errs);
}

}  // namespace

ErrorList ValidateWorkload(const api::Workload& w, const api::Workload* old,
                           const FeatureGates& gates) {
  ErrorList errs;
  if (old == nullptr) errs = ValidateObjectMeta(w.meta);

  ValidateControllerRef(w.controller_ref, old != nullptr ? &old->controller_ref : nullptr, &errs);

  // spec union: exactly one list non-empty; the message lists only gate-enabled members.
  const bool has_pgt = !w.pod_group_templates.empty();
  const bool has_cpgt = !w.composite_pod_group_templates.empty();
  const std::vector<bool> old_members =
      old != nullptr ? std::vector<bool>{!old->pod_group_templates.empty(),
                                         !old->composite_pod_group_templates.empty()}
                     : std::vector<bool>{};
  CheckUnion("spec",
             {{"podGroupTemplates", has_pgt},
              {"compositePodGroupTemplates", has_cpgt, gates.composite_pod_group}},
             old != nullptr ? &old_members : nullptr, &errs);

  ValidateList(w.pod_group_templates, old != nullptr ? &old->pod_group_templates : nullptr,
               "spec.podGroupTemplates", &errs,
               [&](const api::PodGroupTemplate& t, const api::PodGroupTemplate* old_t,
                   const std::string& path) { ValidatePodGroupTemplate(t, old_t, path, gates, &errs); });

  const std::vector<api::CompositePodGroupTemplate>* old_composites =
      old != nullptr ? &old->composite_pod_group_templates : nullptr;
  if (!Unchanged(w.composite_pod_group_templates, old_composites)) {
    const std::string path = "spec.compositePodGroupTemplates";
    if (!gates.composite_pod_group && has_cpgt) {
      // Forbidden short-circuits the list: nested problems are not reported (case A58).
      errs.push_back(Forbidden(path));
      CheckNoAddRemoveItems(w.composite_pod_group_templates, old_composites, path, &errs);
    } else {
      ValidateList(w.composite_pod_group_templates, old_composites, path, &errs,
                   [&](const api::CompositePodGroupTemplate& t,
                       const api::CompositePodGroupTemplate* old_t, const std::string& item_path) {
                     ValidateCompositeTemplate(t, old_t, item_path, gates, &errs);
                   });
    }
  }

  ValidateHandWritten(w, &errs);
  return errs;
}

}  // namespace wasched::validation
