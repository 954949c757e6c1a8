// File: codec/decode_core.cc
//
// Node, Pod and PriorityClass decoders (see decode_core.h).
#include "codec/decode_core.h"

#include <fmt/format.h>

#include "api/quantity.h"
#include "codec/decode_common.h"
#include "codec/decode_dra.h"
#include "codec/decode_policy.h"

namespace wasched::codec::internal {
namespace {

// core/v1 PodSpec fields that do not affect what wasched computes.
constexpr std::string_view kIgnoredPodSpecFields[] = {
    "ephemeralContainers", "restartPolicy", "terminationGracePeriodSeconds",
    "activeDeadlineSeconds", "dnsPolicy", "serviceAccountName", "serviceAccount",
    "automountServiceAccountToken", "hostNetwork", "hostPID", "hostIPC", "shareProcessNamespace",
    "securityContext", "imagePullSecrets", "hostname", "subdomain", "hostAliases", "dnsConfig",
    "readinessGates", "runtimeClassName", "enableServiceLinks", "setHostnameAsFQDN", "os",
    "hostUsers", "hostnameOverride"};

// core/v1 Container fields that do not affect scheduling.
constexpr std::string_view kIgnoredContainerFields[] = {
    "command", "args", "workingDir", "envFrom", "env", "resizePolicy",
    "restartPolicyRules", "volumeMounts", "volumeDevices", "livenessProbe", "readinessProbe",
    "startupProbe", "lifecycle", "terminationMessagePath", "terminationMessagePolicy",
    "imagePullPolicy", "securityContext", "stdin", "stdinOnce", "tty"};

constexpr std::string_view kIgnoredNodeSpecFields[] = {"podCIDR", "podCIDRs", "providerID",
                                                       "configSource", "externalID"};

// Reads an enum-valued string field; `names` maps wire text to values. Unknown → NotSupported
// listing `supported` (upstream's sorted list).
template <typename E, size_t N>
std::optional<E> DecodeEnum(const Reader& r, const std::pair<std::string_view, E> (&names)[N],
                            std::string_view supported) {
  if (r.IsNull()) return std::nullopt;
  if (r.Kind() != ValueKind::kString) {
    r.TypeError("string");
    return std::nullopt;
  }
  const std::string_view text = r.Scalar();
  for (const auto& [name, value] : names) {
    if (name == text) return value;
  }
  r.Error(FieldErrorType::kNotSupported, QuoteValue(text),
          fmt::format("supported values: {}", supported));
  return std::nullopt;
}

constexpr std::pair<std::string_view, api::TaintEffect> kTaintEffects[] = {
    {"NoSchedule", api::TaintEffect::kNoSchedule},
    {"PreferNoSchedule", api::TaintEffect::kPreferNoSchedule},
    {"NoExecute", api::TaintEffect::kNoExecute}};
constexpr std::string_view kTaintEffectsSupported =
    "\"NoExecute\", \"NoSchedule\", \"PreferNoSchedule\"";

constexpr std::pair<std::string_view, api::NodeSelectorOperator> kSelectorOperators[] = {
    {"In", api::NodeSelectorOperator::kIn},
    {"NotIn", api::NodeSelectorOperator::kNotIn},
    {"Exists", api::NodeSelectorOperator::kExists},
    {"DoesNotExist", api::NodeSelectorOperator::kDoesNotExist},
    {"Gt", api::NodeSelectorOperator::kGt},
    {"Lt", api::NodeSelectorOperator::kLt}};

constexpr std::pair<std::string_view, api::TolerationOperator> kTolerationOperators[] = {
    {"", api::TolerationOperator::kEqual},
    {"Equal", api::TolerationOperator::kEqual},
    {"Exists", api::TolerationOperator::kExists}};

// ---- Node -------------------------------------------------------------------------------------

void DecodeTaint(const Reader& r, api::Taint* taint) {
  bool has_effect = false;
  r.ForEachField([&](std::string_view key, const Reader& f) {
    if (key == "key") {
      f.Read(&taint->key);
    } else if (key == "value") {
      f.Read(&taint->value);
    } else if (key == "effect") {
      if (f.IsNull() || (f.Kind() == ValueKind::kString && f.Scalar().empty())) {
        return true;  // reported as Required below
      }
      has_effect = true;  // when unknown, DecodeEnum reports NotSupported
      if (auto e = DecodeEnum(f, kTaintEffects, kTaintEffectsSupported)) taint->effect = *e;
    } else if (key == "timeAdded") {
      // Only NoExecute eviction timing uses it; scheduling does not.
    } else {
      return false;
    }
    return true;
  });
  if (!has_effect && r.Kind() == ValueKind::kMap) {
    r.diagnostics()->AddError(
        FieldError{FieldErrorType::kRequired, r.ChildPath("effect"), "", "", ""});
  }
}

// ---- Pod --------------------------------------------------------------------------------------

void DecodeContainer(const Reader& r, bool init_container, api::Container* c) {
  r.ForEachField([&](std::string_view key, const Reader& f) {
    if (key == "name") {
      f.Read(&c->name);
    } else if (key == "image") {
      f.Read(&c->image);
    } else if (key == "resources") {
      f.ForEachField([&](std::string_view rkey, const Reader& rf) {
        if (rkey == "requests") DecodeResourceList(rf, &c->requests, &c->non_integer_requests);
        else if (rkey == "limits") DecodeResourceList(rf, &c->limits, &c->non_integer_limits);
        else if (rkey == "claims") DecodeContainerClaims(rf, &c->claims);
        else return false;
        return true;
      });
    } else if (key == "ports") {
      // Host ports feed the NodePorts filter (sched/plugins/node_ports): the regular containers'
      // and the sidecars' (init containers with restartPolicy Always), as upstream
      // util.GetHostPorts; containerPort and name do not affect scheduling.
      f.ForEachItem([&](size_t, const Reader& port) {
        api::ContainerPort& cp = c->ports.emplace_back();
        port.ForEachField([&](std::string_view pkey, const Reader& pf) {
          if (pkey == "hostPort") {
            pf.Read(&cp.host_port);
          } else if (pkey == "containerPort") {
            pf.Read(&cp.container_port);
          } else if (pkey == "protocol") {
            std::string protocol;
            pf.Read(&protocol);
            if (!protocol.empty()) cp.protocol = std::move(protocol);
          } else if (pkey == "hostIP") {
            pf.Read(&cp.host_ip);
          } else {
            return pkey == "name";
          }
          return true;
        });
      });
    } else if (key == "restartPolicy") {
      std::string policy;
      f.Read(&policy);
      if (!init_container || policy.empty()) return true;
      if (policy == "Always") {
        c->restart_policy_always = true;
      } else if (policy != "OnFailure" && policy != "Never") {
        f.Error(FieldErrorType::kNotSupported, QuoteValue(policy), "supported values: \"Always\"");
      }
    } else {
      return IsOneOf(key, kIgnoredContainerFields);
    }
    return true;
  });
  // API defaulting (core/v1 SetDefaults_Container via defaults.go): a resource with a limit and
  // no request requests its limit.
  for (const auto& [name, amount] : c->limits) {
    if (!c->requests.try_emplace(name, amount).second) continue;
    if (auto it = c->non_integer_limits.find(name); it != c->non_integer_limits.end()) {
      c->non_integer_requests.emplace(name, it->second);
    }
  }
}

void DecodeSelectorRequirement(const Reader& r, api::NodeSelectorRequirement* req) {
  bool has_operator = false;
  r.ForEachField([&](std::string_view key, const Reader& f) {
    if (key == "key") {
      f.Read(&req->key);
    } else if (key == "operator") {
      has_operator = true;
      if (f.IsNull()) {
        f.Error(FieldErrorType::kNotSupported, "\"\"",
                "supported values: \"DoesNotExist\", \"Exists\", \"Gt\", \"In\", \"Lt\", \"NotIn\"");
      } else if (auto op = DecodeEnum(
                     f, kSelectorOperators,
                     "\"DoesNotExist\", \"Exists\", \"Gt\", \"In\", \"Lt\", \"NotIn\"")) {
        req->op = *op;
      }
    } else if (key == "values") {
      f.Read(&req->values);
    } else {
      return false;
    }
    return true;
  });
  if (!has_operator && r.Kind() == ValueKind::kMap) {
    r.diagnostics()->AddError(FieldError{
        FieldErrorType::kNotSupported, r.ChildPath("operator"), "\"\"",
        "supported values: \"DoesNotExist\", \"Exists\", \"Gt\", \"In\", \"Lt\", \"NotIn\"", ""});
  }
}

void DecodeSelectorTerm(const Reader& r, api::NodeSelectorTerm* term) {
  r.ForEachField([&](std::string_view key, const Reader& f) {
    if (key == "matchExpressions" || key == "matchFields") {
      auto& list = key == "matchExpressions" ? term->match_expressions : term->match_fields;
      f.ForEachItem([&](size_t, const Reader& item) {
        DecodeSelectorRequirement(item, &list.emplace_back());
      });
    } else {
      return false;
    }
    return true;
  });
}

void DecodeNodeAffinity(const Reader& r, api::NodeAffinity* affinity) {
  r.ForEachField([&](std::string_view key, const Reader& f) {
    if (key == "requiredDuringSchedulingIgnoredDuringExecution") {
      if (f.IsNull()) return true;
      auto& terms = affinity->required.emplace();
      f.ForEachField([&](std::string_view skey, const Reader& sf) {
        if (skey != "nodeSelectorTerms") return false;
        sf.ForEachItem([&](size_t, const Reader& item) {
          DecodeSelectorTerm(item, &terms.emplace_back());
        });
        return true;
      });
    } else if (key == "preferredDuringSchedulingIgnoredDuringExecution") {
      f.ForEachItem([&](size_t, const Reader& item) {
        api::PreferredSchedulingTerm& term = affinity->preferred.emplace_back();
        item.ForEachField([&](std::string_view pkey, const Reader& pf) {
          if (pkey == "weight") pf.Read(&term.weight);
          else if (pkey == "preference") DecodeSelectorTerm(pf, &term.preference);
          else return false;
          return true;
        });
      });
    } else {
      return false;
    }
    return true;
  });
}

void DecodeToleration(const Reader& r, api::Toleration* t) {
  r.ForEachField([&](std::string_view key, const Reader& f) {
    if (key == "key") {
      f.Read(&t->key);
    } else if (key == "operator") {
      if (auto op = DecodeEnum(f, kTolerationOperators, "\"Equal\", \"Exists\"")) t->op = *op;
    } else if (key == "value") {
      f.Read(&t->value);
    } else if (key == "effect") {
      if (f.Kind() == ValueKind::kString && f.Scalar().empty()) return true;
      t->effect = DecodeEnum(f, kTaintEffects, kTaintEffectsSupported);
    } else if (key == "tolerationSeconds") {
      f.Read(&t->toleration_seconds);
    } else {
      return false;
    }
    return true;
  });
}

// DecodePodAffinityTerm: core/v1 PodAffinityTerm. A null labelSelector stays nullopt (selects
// no pod); so does a null namespaceSelector (upstream: only `namespaces`, or the pod's own
// namespace when both are empty).
void DecodePodAffinityTerm(const Reader& r, api::PodAffinityTerm* term) {
  r.ForEachField([&](std::string_view key, const Reader& f) {
    if (key == "labelSelector") {
      if (!f.IsNull()) DecodeLabelSelector(f, &term->label_selector.emplace());
    } else if (key == "namespaceSelector") {
      if (!f.IsNull()) DecodeLabelSelector(f, &term->namespace_selector.emplace());
    } else if (key == "namespaces") {
      f.Read(&term->namespaces);
    } else if (key == "topologyKey") {
      f.Read(&term->topology_key);
    } else if (key == "matchLabelKeys") {
      f.Read(&term->match_label_keys);
    } else if (key == "mismatchLabelKeys") {
      f.Read(&term->mismatch_label_keys);
    } else {
      return false;
    }
    return true;
  });
}

// DecodePodAffinity: spec.affinity.podAffinity / podAntiAffinity (InterPodAffinity,
// sched/plugins/inter_pod_affinity): required terms filter, preferred terms score.
void DecodePodAffinity(const Reader& r, api::PodAffinity* affinity) {
  r.ForEachField([&](std::string_view key, const Reader& f) {
    if (key == "requiredDuringSchedulingIgnoredDuringExecution") {
      f.ForEachItem([&](size_t, const Reader& item) {
        DecodePodAffinityTerm(item, &affinity->required.emplace_back());
      });
    } else if (key == "preferredDuringSchedulingIgnoredDuringExecution") {
      f.ForEachItem([&](size_t, const Reader& item) {
        api::WeightedPodAffinityTerm& w = affinity->preferred.emplace_back();
        item.ForEachField([&](std::string_view wkey, const Reader& wf) {
          if (wkey == "weight") wf.Read(&w.weight);
          else if (wkey == "podAffinityTerm") DecodePodAffinityTerm(wf, &w.term);
          else return false;
          return true;
        });
      });
    } else {
      return false;
    }
    return true;
  });
}

// DecodeTopologySpreadConstraint: one spec.topologySpreadConstraints[i] (PodTopologySpread,
// sched/plugins/pod_topology_spread). A null labelSelector stays nullopt (selects no pod).
// whenUnsatisfiable has no default in core/v1: left out or "" it stays "", which validation
// reports as NotSupported (validation/pod_affinity_validation.h); an unknown value is reported
// here. A policy written as "" is NotSupported too (upstream holds a pointer to "").
void DecodeTopologySpreadConstraint(const Reader& r, api::TopologySpreadConstraint* c) {
  if (!r.ExpectKind(ValueKind::kMap)) return;
  c->when_unsatisfiable.clear();
  r.ForEachField([&](std::string_view key, const Reader& f) {
    if (key == "whenUnsatisfiable") {
      std::string action;
      f.Read(&action);
      if (action == "ScheduleAnyway" || action == "DoNotSchedule") {
        c->when_unsatisfiable = action;
      } else if (!action.empty()) {
        f.Error(FieldErrorType::kNotSupported, QuoteValue(action),
                "supported values: \"DoNotSchedule\", \"ScheduleAnyway\"");
      }
    } else if (key == "maxSkew") {
      f.Read(&c->max_skew);
    } else if (key == "topologyKey") {
      f.Read(&c->topology_key);
    } else if (key == "labelSelector") {
      if (!f.IsNull()) DecodeLabelSelector(f, &c->label_selector.emplace());
    } else if (key == "minDomains") {
      f.Read(&c->min_domains);
    } else if (key == "matchLabelKeys") {
      f.Read(&c->match_label_keys);
    } else if (key == "nodeAffinityPolicy" || key == "nodeTaintsPolicy") {
      std::string policy;
      f.Read(&policy);
      if (f.Kind() == ValueKind::kString && policy != "Honor" && policy != "Ignore") {
        f.Error(FieldErrorType::kNotSupported, QuoteValue(policy),
                "supported values: \"Honor\", \"Ignore\"");
      }
      (key == "nodeAffinityPolicy" ? c->node_affinity_policy : c->node_taints_policy) = policy;
    } else {
      return false;
    }
    return true;
  });
}

// DecodePodLevelResourceList: spec.resources.requests / limits. What upstream's validation
// checks there is checked here, since validation sees only the defaulted requests: a resource
// other than cpu, memory and hugepages-* is NotSupported, a negative amount Invalid.
void DecodePodLevelResourceList(const Reader& r, api::ResourceList* out) {
  api::ResourceList list;
  DecodeResourceList(r, &list);
  for (const auto& [name, amount] : list) {
    const std::string path = fmt::format("{}[{}]", r.Path(), name);
    if (!api::IsSupportedPodLevelResource(name)) {
      r.diagnostics()->AddError(FieldError{FieldErrorType::kNotSupported, path, QuoteValue(name),
                                           "supported values: \"cpu\", \"hugepages-\", \"memory\"",
                                           ""});
    } else if (amount < 0) {
      r.diagnostics()->AddError(FieldError{FieldErrorType::kInvalid, path,
                                           QuoteValue(api::FormatAmount(name, amount)),
                                           "must be greater than or equal to 0", ""});
    } else {
      (*out)[name] = amount;
    }
  }
}

// DecodePodLevelResources: spec.resources {requests, limits} (PodLevelResources).
void DecodePodLevelResources(const Reader& r, api::ResourceList* limits,
                             api::ResourceList* requests) {
  r.ForEachField([&](std::string_view key, const Reader& f) {
    if (key == "requests") {
      DecodePodLevelResourceList(f, requests);
    } else if (key == "limits") {
      DecodePodLevelResourceList(f, limits);
    } else {
      return false;
    }
    return true;
  });
}

// DefaultPodLevelRequests: core/v1 defaultPodRequests (pkg/apis/core/v1/defaults.go), which
// runs only when pod-level limits are set: a supported resource without a pod-level request
// requests the containers' aggregate when it is cpu or memory and the containers request it,
// else its pod-level limit.
void DefaultPodLevelRequests(const api::Pod& pod, const api::ResourceList& limits,
                             api::ResourceList* requests) {
  if (limits.empty()) return;
  for (const auto& [name, amount] : api::AggregateContainerRequests(pod)) {
    if (name == api::kResourceCPU || name == api::kResourceMemory) {
      requests->try_emplace(name, amount);
    }
  }
  for (const auto& [name, amount] : limits) requests->try_emplace(name, amount);
}

}  // namespace

void DecodePodSpec(const Reader& r, api::Pod* pod) {
  api::ResourceList pod_limits;
  r.ForEachField([&](std::string_view key, const Reader& f) {
    if (key == "containers") {
      f.ForEachItem([&](size_t, const Reader& item) {
        DecodeContainer(item, /*init_container=*/false, &pod->containers.emplace_back());
      });
    } else if (key == "initContainers") {
      f.ForEachItem([&](size_t, const Reader& item) {
        DecodeContainer(item, /*init_container=*/true, &pod->init_containers.emplace_back());
      });
    } else if (key == "overhead") {
      DecodeResourceList(f, &pod->overhead, &pod->non_integer_overhead);
    } else if (key == "nodeSelector") {
      f.Read(&pod->node_selector);
    } else if (key == "affinity") {
      f.ForEachField([&](std::string_view akey, const Reader& af) {
        if (akey == "nodeAffinity") {
          if (!af.IsNull()) DecodeNodeAffinity(af, &pod->node_affinity.emplace());
        } else if (akey == "podAffinity" || akey == "podAntiAffinity") {
          if (af.IsNull()) return true;
          auto& target = akey == "podAffinity" ? pod->pod_affinity : pod->pod_anti_affinity;
          DecodePodAffinity(af, &target.emplace());
        } else {
          return false;
        }
        return true;
      });
    } else if (key == "tolerations") {
      f.ForEachItem([&](size_t, const Reader& item) {
        DecodeToleration(item, &pod->tolerations.emplace_back());
      });
    } else if (key == "priority") {
      f.Read(&pod->priority);
    } else if (key == "priorityClassName") {
      f.Read(&pod->priority_class_name);
    } else if (key == "preemptionPolicy") {
      DecodePreemptionPolicy(f, &pod->preemption_policy);
    } else if (key == "schedulerName") {
      std::string name;
      f.Read(&name);
      if (!name.empty()) pod->scheduler_name = std::move(name);
    } else if (key == "nodeName") {
      f.Read(&pod->node_name);
    } else if (key == "schedulingGroup") {
      pod->scheduling_group_set = !f.IsNull();
      f.ForEachField([&](std::string_view gkey, const Reader& gf) {
        if (gkey != "podGroupName") return false;
        gf.Read(&pod->pod_group_name);
        return true;
      });
    } else if (key == "schedulingGates") {
      f.ForEachItem([&](size_t, const Reader& item) {
        item.ForEachField([&](std::string_view gkey, const Reader& gf) {
          if (gkey != "name") return false;
          gf.Read(&pod->scheduling_gates.emplace_back());
          return true;
        });
      });
    } else if (key == "volumes") {
      // Volume binding (VolumeBinding, VolumeRestrictions, VolumeZone) is not modelled: claims
      // are warned about; other volume types do not affect placement.
      f.ForEachItem([&](size_t, const Reader& volume) {
        volume.ForEachField([&](std::string_view vkey, const Reader& vf) {
          if ((vkey == "persistentVolumeClaim" || vkey == "ephemeral") && !vf.IsNull()) {
            vf.WarnUnsupportedField();
          }
          return true;
        });
      });
    } else if (key == "topologySpreadConstraints") {
      f.ForEachItem([&](size_t, const Reader& item) {
        DecodeTopologySpreadConstraint(item, &pod->topology_spread_constraints.emplace_back());
      });
    } else if (key == "resources") {
      DecodePodLevelResources(f, &pod_limits, &pod->pod_level_requests);
    } else if (key == "resourceClaims") {
      DecodePodResourceClaims(f, &pod->resource_claims);  // DRA: scheduled (issue 6)
    } else {
      return IsOneOf(key, kIgnoredPodSpecFields);
    }
    return true;
  });
  DefaultPodLevelRequests(*pod, pod_limits, &pod->pod_level_requests);
}

void DecodeNode(const Reader& root, api::Node* node, bool* defaulted_pods) {
  std::optional<api::ResourceList> allocatable;
  std::optional<api::ResourceList> capacity;
  DecodeTopLevel(root, /*namespaced=*/false, &node->meta, [&](std::string_view key,
                                                             const Reader& f) {
    if (key == "spec") {
      f.ForEachField([&](std::string_view skey, const Reader& sf) {
        if (skey == "taints") {
          sf.ForEachItem([&](size_t, const Reader& item) {
            DecodeTaint(item, &node->taints.emplace_back());
          });
        } else if (skey == "unschedulable") {
          sf.Read(&node->unschedulable);
        } else {
          return IsOneOf(skey, kIgnoredNodeSpecFields);
        }
        return true;
      });
    } else if (key == "status") {
      f.ForEachField([&](std::string_view skey, const Reader& sf) {
        if (skey == "allocatable" && !sf.IsNull()) DecodeResourceList(sf, &allocatable.emplace());
        if (skey == "capacity" && !sf.IsNull()) DecodeResourceList(sf, &capacity.emplace());
        return true;  // other status fields (conditions, addresses, images, …) are not read
      });
    } else {
      return false;
    }
    return true;
  });
  if (allocatable) {
    node->allocatable = std::move(*allocatable);
  } else if (capacity) {
    node->allocatable = std::move(*capacity);
  }
  *defaulted_pods = false;
  if (!node->allocatable.contains(api::kResourcePods)) {
    node->allocatable[api::kResourcePods] = kDefaultMaxPods;
    *defaulted_pods = true;
  }
}

void DecodePod(const Reader& root, api::Pod* pod) {
  DecodeTopLevel(root, /*namespaced=*/true, &pod->meta, [&](std::string_view key,
                                                            const Reader& f) {
    if (key == "spec") {
      DecodePodSpec(f, pod);
    } else if (key == "status") {
      f.ForEachField([&](std::string_view skey, const Reader& sf) {
        if (skey == "phase") sf.Read(&pod->phase);
        if (skey == "startTime") DecodeTimestamp(sf, &pod->start_time);
        return true;  // other status fields are not read
      });
    } else {
      return false;
    }
    return true;
  });
}

void DecodeNodeSelectorTerms(const Reader& r, std::vector<api::NodeSelectorTerm>* terms) {
  r.ForEachItem([&](size_t, const Reader& item) {
    DecodeSelectorTerm(item, &terms->emplace_back());
  });
}

void DecodePriorityClass(const Reader& root, api::PriorityClass* pc) {
  DecodeTopLevel(root, /*namespaced=*/false, &pc->meta, [&](std::string_view key,
                                                           const Reader& f) {
    if (key == "value") f.Read(&pc->value);
    else if (key == "globalDefault") f.Read(&pc->global_default);
    else if (key == "preemptionPolicy") DecodePreemptionPolicy(f, &pc->preemption_policy);
    else if (key == "description") {}
    else return false;
    return true;
  });
}

}  // namespace wasched::codec::internal
