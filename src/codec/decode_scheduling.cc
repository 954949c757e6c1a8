// File: codec/decode_scheduling.cc
//
// Workload, PodGroup and CompositePodGroup decoders (see decode_scheduling.h).
#include "codec/decode_scheduling.h"

#include <fmt/format.h>

#include "codec/decode_common.h"

namespace wasched::codec::internal {

void DecodeSchedulingConstraints(const Reader& r, std::optional<api::SchedulingConstraints>* out) {
  if (r.IsNull()) return;
  if (!r.ExpectKind(ValueKind::kMap)) return;
  api::SchedulingConstraints& constraints = out->emplace();
  r.ForEachField([&](std::string_view key, const Reader& f) {
    if (key != "topology") return false;
    f.ForEachItem([&](size_t, const Reader& item) {
      api::TopologyConstraint& tc = constraints.topology.emplace_back();
      item.ForEachField([&](std::string_view tkey, const Reader& tf) {
        if (tkey != "key") return false;
        tf.Read(&tc.key);
        return true;
      });
    });
    return true;
  });
}

void DecodeDisruptionMode(const Reader& r, std::optional<api::DisruptionMode>* out) {
  if (r.IsNull()) return;
  if (!r.ExpectKind(ValueKind::kMap)) return;
  api::DisruptionMode& mode = out->emplace();
  r.ForEachField([&](std::string_view key, const Reader& f) {
    if (key == "single") mode.single = DecodeEmptyStruct(f);
    else if (key == "all") mode.all = DecodeEmptyStruct(f);
    else return false;
    return true;
  });
}

void DecodeResourceClaims(const Reader& r, std::vector<api::PodGroupResourceClaim>* out) {
  DecodeClaimReferences(r, out);
}

void DecodePodGroupPolicy(const Reader& r, api::PodGroupSchedulingPolicy* policy) {
  r.ForEachField([&](std::string_view key, const Reader& f) {
    if (key == "basic") {
      if (DecodeEmptyStruct(f)) policy->basic.emplace();
    } else if (key == "gang") {
      if (!f.ExpectKind(ValueKind::kMap)) return true;
      api::GangSchedulingPolicy& gang = policy->gang.emplace();
      f.ForEachField([&](std::string_view gkey, const Reader& gf) {
        if (gkey != "minCount") return false;
        gf.Read(&gang.min_count);
        return true;
      });
    } else {
      return false;
    }
    return true;
  });
}

namespace {

// SharedGroupFields: the fields PodGroupTemplate, CompositePodGroupTemplate, PodGroup.spec and
// CompositePodGroup.spec have in common.
struct SharedGroupFields {
  std::optional<api::SchedulingConstraints>* constraints;
  std::optional<api::DisruptionMode>* disruption_mode;
  std::string* priority_class_name;
  std::optional<int32_t>* priority;
  std::optional<api::PreemptionPolicy>* preemption_policy;
};

// DecodeSharedGroupField: handles `key` when it is one of the shared fields; false otherwise.
bool DecodeSharedGroupField(std::string_view key, const Reader& f, const SharedGroupFields& s) {
  if (key == "schedulingConstraints") DecodeSchedulingConstraints(f, s.constraints);
  else if (key == "disruptionMode") DecodeDisruptionMode(f, s.disruption_mode);
  else if (key == "priorityClassName") f.Read(s.priority_class_name);
  else if (key == "priority") f.Read(s.priority);
  else if (key == "preemptionPolicy") DecodePreemptionPolicy(f, s.preemption_policy);
  else return false;
  return true;
}

void DecodeCompositePolicy(const Reader& r, api::CompositePodGroupSchedulingPolicy* policy) {
  r.ForEachField([&](std::string_view key, const Reader& f) {
    if (key == "basic") {
      if (DecodeEmptyStruct(f)) policy->basic.emplace();
    } else if (key == "gang") {
      if (!f.ExpectKind(ValueKind::kMap)) return true;
      api::CompositeGangSchedulingPolicy& gang = policy->gang.emplace();
      f.ForEachField([&](std::string_view gkey, const Reader& gf) {
        if (gkey != "minGroupCount") return false;
        gf.Read(&gang.min_group_count);
        return true;
      });
    } else {
      return false;
    }
    return true;
  });
}

void DecodeWorkloadRef(const Reader& r, std::optional<api::WorkloadReference>* out) {
  if (r.IsNull()) return;
  if (!r.ExpectKind(ValueKind::kMap)) return;
  api::WorkloadReference& ref = out->emplace();
  r.ForEachField([&](std::string_view key, const Reader& f) {
    if (key == "workloadName") f.Read(&ref.workload_name);
    else if (key == "templateName") f.Read(&ref.template_name);
    else return false;
    return true;
  });
}

void DecodePodGroupTemplate(const Reader& r, api::PodGroupTemplate* t) {
  const SharedGroupFields shared{&t->scheduling_constraints, &t->disruption_mode,
                                 &t->priority_class_name, &t->priority, &t->preemption_policy};
  r.ForEachField([&](std::string_view key, const Reader& f) {
    if (key == "name") f.Read(&t->name);
    else if (key == "schedulingPolicy") DecodePodGroupPolicy(f, &t->scheduling_policy);
    else if (key == "resourceClaims") DecodeResourceClaims(f, &t->resource_claims);
    else return DecodeSharedGroupField(key, f, shared);
    return true;
  });
}

void DecodeCompositeTemplate(const Reader& r, int depth, api::CompositePodGroupTemplate* t) {
  if (depth > kMaxTemplateNesting) {
    r.Error(FieldErrorType::kInvalid, "",
            fmt::format("compositePodGroupTemplates nested deeper than {} levels",
                        kMaxTemplateNesting));
    return;
  }
  const SharedGroupFields shared{&t->scheduling_constraints, &t->disruption_mode,
                                 &t->priority_class_name, &t->priority, &t->preemption_policy};
  r.ForEachField([&](std::string_view key, const Reader& f) {
    if (key == "name") {
      f.Read(&t->name);
    } else if (key == "schedulingPolicy") {
      DecodeCompositePolicy(f, &t->scheduling_policy);
    } else if (key == "podGroupTemplates") {
      f.ForEachItem([&](size_t, const Reader& item) {
        DecodePodGroupTemplate(item, &t->pod_group_templates.emplace_back());
      });
    } else if (key == "compositePodGroupTemplates") {
      f.ForEachItem([&](size_t, const Reader& item) {
        DecodeCompositeTemplate(item, depth + 1, &t->composite_pod_group_templates.emplace_back());
      });
    } else {
      return DecodeSharedGroupField(key, f, shared);
    }
    return true;
  });
}

void DecodeConditions(const Reader& r, std::vector<api::Condition>* out) {
  r.ForEachItem([&](size_t, const Reader& item) { DecodeCondition(item, &out->emplace_back()); });
}

}  // namespace

void DecodeWorkload(const Reader& root, api::Workload* workload) {
  DecodeTopLevel(root, /*namespaced=*/true, &workload->meta, [&](std::string_view key,
                                                                const Reader& f) {
    if (key == "status") return true;  // Workload has no status; ignore like other kinds' status
    if (key != "spec") return false;
    f.ForEachField([&](std::string_view skey, const Reader& sf) {
      if (skey == "controllerRef") {
        if (sf.IsNull() || !sf.ExpectKind(ValueKind::kMap)) return true;
        api::TypedLocalObjectReference& ref = workload->controller_ref.emplace();
        sf.ForEachField([&](std::string_view ckey, const Reader& cf) {
          if (ckey == "apiGroup") cf.Read(&ref.api_group);
          else if (ckey == "kind") cf.Read(&ref.kind);
          else if (ckey == "name") cf.Read(&ref.name);
          else return false;
          return true;
        });
      } else if (skey == "podGroupTemplates") {
        sf.ForEachItem([&](size_t, const Reader& item) {
          DecodePodGroupTemplate(item, &workload->pod_group_templates.emplace_back());
        });
      } else if (skey == "compositePodGroupTemplates") {
        sf.ForEachItem([&](size_t, const Reader& item) {
          DecodeCompositeTemplate(item, 1, &workload->composite_pod_group_templates.emplace_back());
        });
      } else {
        return false;
      }
      return true;
    });
    return true;
  });
}

void DecodePodGroup(const Reader& root, api::PodGroup* group) {
  const SharedGroupFields shared{&group->scheduling_constraints, &group->disruption_mode,
                                 &group->priority_class_name, &group->priority,
                                 &group->preemption_policy};
  DecodeTopLevel(root, /*namespaced=*/true, &group->meta, [&](std::string_view key,
                                                             const Reader& f) {
    if (key == "spec") {
      f.ForEachField([&](std::string_view skey, const Reader& sf) {
        if (skey == "parentCompositePodGroupName") {
          sf.Read(&group->parent_composite_pod_group_name);
        } else if (skey == "workloadRef") {
          DecodeWorkloadRef(sf, &group->workload_ref);
        } else if (skey == "schedulingPolicy") {
          DecodePodGroupPolicy(sf, &group->scheduling_policy);
        } else if (skey == "resourceClaims") {
          DecodeResourceClaims(sf, &group->resource_claims);
        } else {
          return DecodeSharedGroupField(skey, sf, shared);
        }
        return true;
      });
    } else if (key == "status") {
      f.ForEachField([&](std::string_view skey, const Reader& sf) {
        if (skey == "conditions") {
          DecodeConditions(sf, &group->conditions);
        } else if (skey == "resourceClaimStatuses") {
          sf.ForEachItem([&](size_t, const Reader& item) {
            api::PodGroupResourceClaimStatus& status =
                group->resource_claim_statuses.emplace_back();
            item.ForEachField([&](std::string_view ckey, const Reader& cf) {
              if (ckey == "name") cf.Read(&status.name);
              else if (ckey == "resourceClaimName") cf.Read(&status.resource_claim_name);
              else return false;
              return true;
            });
          });
        }
        return true;  // other status fields are not read
      });
    } else {
      return false;
    }
    return true;
  });
}

void DecodeCompositePodGroup(const Reader& root, api::CompositePodGroup* group) {
  const SharedGroupFields shared{&group->scheduling_constraints, &group->disruption_mode,
                                 &group->priority_class_name, &group->priority,
                                 &group->preemption_policy};
  DecodeTopLevel(root, /*namespaced=*/true, &group->meta, [&](std::string_view key,
                                                             const Reader& f) {
    if (key == "spec") {
      f.ForEachField([&](std::string_view skey, const Reader& sf) {
        if (skey == "parentCompositePodGroupName") {
          sf.Read(&group->parent_composite_pod_group_name);
        } else if (skey == "workloadRef") {
          DecodeWorkloadRef(sf, &group->workload_ref);
        } else if (skey == "schedulingPolicy") {
          DecodeCompositePolicy(sf, &group->scheduling_policy);
        } else {
          return DecodeSharedGroupField(skey, sf, shared);
        }
        return true;
      });
    } else if (key == "status") {
      f.ForEachField([&](std::string_view skey, const Reader& sf) {
        if (skey == "conditions") DecodeConditions(sf, &group->conditions);
        return true;  // other status fields are not read
      });
    } else {
      return false;
    }
    return true;
  });
}

}  // namespace wasched::codec::internal
