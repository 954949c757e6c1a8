// File: validation/scheduling_fields.cc
//
// Shared field validators (see scheduling_fields.h). Rules from the DV markers of kubernetes/api
// scheduling/v1beta1 and v1alpha3 types.go as spec/was-v1.37.md §2–3 records them, messages from
// k8s.io/apimachinery/pkg/api/validate.
#include "validation/scheduling_fields.h"

#include <fmt/format.h>

#include "validation/names.h"
#include "validation/update_validation.h"

namespace wasched::validation {

void CheckUnion(const std::string& path, std::initializer_list<UnionMember> members,
                const std::vector<bool>* old_members, ErrorList* errs) {
  if (old_members != nullptr) {
    bool changed = old_members->size() != members.size();
    std::size_t i = 0;
    for (const UnionMember& m : members) {
      if (!changed && (*old_members)[i] != m.set) changed = true;
      ++i;
    }
    if (!changed) return;
  }
  std::string listed;
  std::string specified;
  int set_count = 0;
  for (const UnionMember& m : members) {
    if (m.listed) listed += fmt::format("{}`{}`", listed.empty() ? "" : ", ", m.name);
    if (m.set) {
      specified += fmt::format("{}{}", specified.empty() ? "" : ", ", m.name);
      ++set_count;
    }
  }
  if (set_count > 1) {
    errs->push_back(Invalid(path, Quote("{" + specified + "}"),
                            "must specify exactly one of: " + listed, kOriginUnion));
  } else if (set_count == 0) {
    errs->push_back(Invalid(path, Quote(""), "must specify one of: " + listed, kOriginUnion));
  }
}

PolicyView ViewOf(const api::PodGroupSchedulingPolicy& p) {
  PolicyView v;
  v.basic = p.basic.has_value();
  v.gang = p.gang.has_value();
  if (p.gang) v.count = p.gang->min_count;
  return v;
}

PolicyView ViewOf(const api::CompositePodGroupSchedulingPolicy& p) {
  PolicyView v;
  v.basic = p.basic.has_value();
  v.gang = p.gang.has_value();
  if (p.gang) v.count = p.gang->min_group_count;
  return v;
}

void ValidatePolicy(const PolicyView& policy, const PolicyView* old, const std::string& path,
                    const char* count_name, CountKind count_kind, ErrorList* errs) {
  if (Unchanged(policy, old)) return;
  const std::vector<bool> old_members =
      old != nullptr ? std::vector<bool>{old->basic, old->gang} : std::vector<bool>{};
  CheckUnion(path, {{"basic", policy.basic}, {"gang", policy.gang}},
             old != nullptr ? &old_members : nullptr, errs);
  const bool old_basic = old != nullptr && old->basic;
  const bool old_gang = old != nullptr && old->gang;
  CheckImmutable(policy.basic, old != nullptr ? &old_basic : nullptr, Child(path, "basic"), errs);
  const bool gang_blocked =
      CheckNoSetNoUnset(policy.gang, old != nullptr ? &old_gang : nullptr, Child(path, "gang"), errs);
  if (!policy.gang || gang_blocked) return;
  if (old != nullptr && old->gang && old->count == policy.count) return;  // ratcheted
  const std::string count_path = Child(Child(path, "gang"), count_name);
  if (!policy.count) return;  // pointer count left to the controller
  const int32_t count = *policy.count;
  if (count_kind == CountKind::kValue && count == 0) {
    errs->push_back(Required(count_path));
  } else if (count < 1) {
    errs->push_back(Minimum(count_path, count, 1));
  }
}

void ValidateSchedulingConstraints(const std::optional<api::SchedulingConstraints>& constraints,
                                   const std::optional<api::SchedulingConstraints>* old,
                                   const std::string& path, bool gate_enabled, ErrorList* errs,
                                   bool immutable_only_when_enabled) {
  if (Unchanged(constraints, old)) return;
  bool blocked = false;
  if (!gate_enabled && constraints) {
    errs->push_back(Forbidden(path));
    blocked = true;
  }
  if (gate_enabled || !immutable_only_when_enabled) {
    blocked |= CheckImmutable(constraints, old, path, errs);
  }
  if (blocked || !constraints) return;
  const std::string topology_path = Child(path, "topology");
  if (constraints->topology.size() > 1) {
    errs->push_back(TooMany(topology_path, constraints->topology.size(), 1));
    return;
  }
  for (std::size_t i = 0; i < constraints->topology.size(); ++i) {
    const std::string key_path = Child(Index(topology_path, i), "key");
    const std::string& key = constraints->topology[i].key;
    if (key.empty()) {
      errs->push_back(Required(key_path));
    } else {
      for (FieldError& e : LabelKey(key_path, key)) errs->push_back(std::move(e));
    }
  }
}

void ValidateResourceClaims(const std::vector<api::PodGroupResourceClaim>& claims,
                            const std::vector<api::PodGroupResourceClaim>* old,
                            const std::string& path, ErrorList* errs) {
  if (Unchanged(claims, old)) return;
  if (CheckImmutable(claims, old, path, errs)) return;
  if (claims.size() > static_cast<std::size_t>(api::kMaxPodGroupResourceClaims)) {
    errs->push_back(TooMany(path, claims.size(), api::kMaxPodGroupResourceClaims));
    return;
  }
  CheckDuplicateNames(claims, path, errs);
  for (std::size_t i = 0; i < claims.size(); ++i) {
    const api::PodGroupResourceClaim& c = claims[i];
    const std::string item = Index(path, i);
    if (c.name.empty()) {
      errs->push_back(Required(Child(item, "name")));
    } else {
      for (FieldError& e : ShortName(Child(item, "name"), c.name)) errs->push_back(std::move(e));
    }
    CheckUnion(item,
               {{"resourceClaimName", c.resource_claim_name.has_value()},
                {"resourceClaimTemplateName", c.resource_claim_template_name.has_value()}},
               nullptr, errs);
    if (c.resource_claim_name) {
      for (FieldError& e : LongName(Child(item, "resourceClaimName"), *c.resource_claim_name)) {
        errs->push_back(std::move(e));
      }
    }
    if (c.resource_claim_template_name) {
      for (FieldError& e : LongName(Child(item, "resourceClaimTemplateName"),
                                    *c.resource_claim_template_name)) {
        errs->push_back(std::move(e));
      }
    }
  }
}

void ValidateDisruptionMode(const std::optional<api::DisruptionMode>& mode,
                            const std::optional<api::DisruptionMode>* old,
                            const std::string& path, ErrorList* errs) {
  if (Unchanged(mode, old)) return;
  if (CheckImmutable(mode, old, path, errs)) return;
  if (!mode) return;
  CheckUnion(path, {{"single", mode->single}, {"all", mode->all}}, nullptr, errs);
}

void ValidatePriorityFields(const PriorityFields& fields, const PriorityFields* old,
                            const std::string& parent, bool preemption_policy_gate,
                            ErrorList* errs) {
  const std::string class_path = Child(parent, "priorityClassName");
  const std::string* old_class = old != nullptr ? old->priority_class_name : nullptr;
  if (!Unchanged(*fields.priority_class_name, old_class) &&
      !CheckImmutable(*fields.priority_class_name, old_class, class_path, errs) &&
      !fields.priority_class_name->empty()) {
    for (FieldError& e : LongName(class_path, *fields.priority_class_name)) {
      errs->push_back(std::move(e));
    }
  }

  const std::string priority_path = Child(parent, "priority");
  const std::optional<int32_t>* old_priority = old != nullptr ? old->priority : nullptr;
  if (!Unchanged(*fields.priority, old_priority) &&
      !CheckImmutable(*fields.priority, old_priority, priority_path, errs) && *fields.priority &&
      **fields.priority > api::kHighestUserDefinablePriority) {
    errs->push_back(Maximum(priority_path, **fields.priority, api::kHighestUserDefinablePriority));
  }

  const std::string policy_path = Child(parent, "preemptionPolicy");
  const std::optional<api::PreemptionPolicy>* old_policy =
      old != nullptr ? old->preemption_policy : nullptr;
  if (!Unchanged(*fields.preemption_policy, old_policy)) {
    if (!preemption_policy_gate && fields.preemption_policy->has_value()) {
      errs->push_back(Forbidden(policy_path));
    }
    CheckImmutable(*fields.preemption_policy, old_policy, policy_path, errs);
  }
}

}  // namespace wasched::validation
