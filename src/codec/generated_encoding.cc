// File: codec/generated_encoding.cc
//
// api objects → manifests (see generated_encoding.h). Field names from kubernetes/api
// scheduling/v1beta1, scheduling/v1alpha3 and core/v1 types.go.
#include "codec/generated_encoding.h"

#include <nlohmann/json.hpp>
#include <yaml-cpp/yaml.h>

#include <utility>

#include "api/quantity.h"

namespace wasched::codec {
namespace {

using internal::YamlTree;

YamlTree Str(const std::string& s) { return YamlTree::String(s); }
YamlTree Int(int64_t v) { return YamlTree::Plain(std::to_string(v)); }
YamlTree Bool(bool v) { return YamlTree::Plain(v ? "true" : "false"); }
YamlTree EmptyMap() { return YamlTree::Map(); }

YamlTree StringMap(const std::map<std::string, std::string>& m) {
  YamlTree t = YamlTree::Map();
  for (const auto& [k, v] : m) t.Set(k, Str(v));
  return t;
}

YamlTree Metadata(const api::ObjectMeta& meta, bool namespaced = true) {
  YamlTree t = YamlTree::Map();
  t.Set("name", Str(meta.name));
  if (namespaced && !meta.namespace_.empty()) t.Set("namespace", Str(meta.namespace_));
  if (!meta.uid.empty()) t.Set("uid", Str(meta.uid));
  if (!meta.labels.empty()) t.Set("labels", StringMap(meta.labels));
  if (!meta.annotations.empty()) t.Set("annotations", StringMap(meta.annotations));
  if (!meta.owner_references.empty()) {
    YamlTree refs = YamlTree::Seq();
    for (const api::OwnerReference& o : meta.owner_references) {
      YamlTree r = YamlTree::Map();
      r.Set("apiVersion", Str(o.api_version));
      r.Set("kind", Str(o.kind));
      r.Set("name", Str(o.name));
      r.Set("uid", Str(o.uid));
      if (o.controller) r.Set("controller", Bool(true));
      if (o.block_owner_deletion) r.Set("blockOwnerDeletion", Bool(true));
      refs.children.push_back(std::move(r));
    }
    t.Set("ownerReferences", std::move(refs));
  }
  return t;
}

YamlTree Header(const std::string& api_version, const char* kind, const api::ObjectMeta& meta) {
  YamlTree t = YamlTree::Map();
  t.Set("apiVersion", Str(api_version));
  t.Set("kind", Str(kind));
  t.Set("metadata", Metadata(meta));
  return t;
}

YamlTree Policy(const api::PodGroupSchedulingPolicy& p) {
  YamlTree t = YamlTree::Map();
  if (p.basic) t.Set("basic", EmptyMap());
  if (p.gang) {
    YamlTree g = YamlTree::Map();
    g.Set("minCount", Int(p.gang->min_count));
    t.Set("gang", std::move(g));
  }
  return t;
}

YamlTree Policy(const api::CompositePodGroupSchedulingPolicy& p) {
  YamlTree t = YamlTree::Map();
  if (p.basic) t.Set("basic", EmptyMap());
  if (p.gang) {
    YamlTree g = YamlTree::Map();
    g.Set("minGroupCount", Int(p.gang->min_group_count));
    t.Set("gang", std::move(g));
  }
  return t;
}

YamlTree Constraints(const api::SchedulingConstraints& c) {
  YamlTree t = YamlTree::Map();
  YamlTree topology = YamlTree::Seq();
  for (const api::TopologyConstraint& tc : c.topology) {
    YamlTree k = YamlTree::Map();
    k.Set("key", Str(tc.key));
    topology.children.push_back(std::move(k));
  }
  t.Set("topology", std::move(topology));
  return t;
}

YamlTree Disruption(const api::DisruptionMode& d) {
  YamlTree t = YamlTree::Map();
  if (d.single) t.Set("single", EmptyMap());
  if (d.all) t.Set("all", EmptyMap());
  return t;
}

YamlTree Claims(const std::vector<api::PodGroupResourceClaim>& claims) {
  YamlTree t = YamlTree::Seq();
  for (const auto& c : claims) {
    YamlTree m = YamlTree::Map();
    m.Set("name", Str(c.name));
    if (c.resource_claim_name) m.Set("resourceClaimName", Str(*c.resource_claim_name));
    if (c.resource_claim_template_name) {
      m.Set("resourceClaimTemplateName", Str(*c.resource_claim_template_name));
    }
    t.children.push_back(std::move(m));
  }
  return t;
}

// GroupFields: the fields templates and groups share, after schedulingPolicy.
template <typename T>
void SetGroupFields(YamlTree& t, const T& g) {
  if (g.scheduling_constraints) t.Set("schedulingConstraints", Constraints(*g.scheduling_constraints));
  if constexpr (requires { g.resource_claims; }) {
    if (!g.resource_claims.empty()) t.Set("resourceClaims", Claims(g.resource_claims));
  }
  if (g.disruption_mode) t.Set("disruptionMode", Disruption(*g.disruption_mode));
  if (!g.priority_class_name.empty()) t.Set("priorityClassName", Str(g.priority_class_name));
  if (g.priority) t.Set("priority", Int(*g.priority));
  if (g.preemption_policy) t.Set("preemptionPolicy", Str(api::PreemptionPolicyName(*g.preemption_policy)));
}

YamlTree PodGroupTemplate(const api::PodGroupTemplate& t) {
  YamlTree m = YamlTree::Map();
  m.Set("name", Str(t.name));
  m.Set("schedulingPolicy", Policy(t.scheduling_policy));
  SetGroupFields(m, t);
  return m;
}

YamlTree CompositeTemplate(const api::CompositePodGroupTemplate& t) {
  YamlTree m = YamlTree::Map();
  m.Set("name", Str(t.name));
  m.Set("schedulingPolicy", Policy(t.scheduling_policy));
  SetGroupFields(m, t);
  if (!t.pod_group_templates.empty()) {
    YamlTree list = YamlTree::Seq();
    for (const auto& c : t.pod_group_templates) list.children.push_back(PodGroupTemplate(c));
    m.Set("podGroupTemplates", std::move(list));
  }
  if (!t.composite_pod_group_templates.empty()) {
    YamlTree list = YamlTree::Seq();
    for (const auto& c : t.composite_pod_group_templates) list.children.push_back(CompositeTemplate(c));
    m.Set("compositePodGroupTemplates", std::move(list));
  }
  return m;
}

YamlTree WorkloadTree(const api::Workload& wl) {
  YamlTree t = Header(wl.api_version.empty() ? "scheduling.k8s.io/v1beta1" : wl.api_version,
                      "Workload", wl.meta);
  YamlTree spec = YamlTree::Map();
  if (wl.controller_ref) {
    YamlTree r = YamlTree::Map();
    if (!wl.controller_ref->api_group.empty()) r.Set("apiGroup", Str(wl.controller_ref->api_group));
    r.Set("kind", Str(wl.controller_ref->kind));
    r.Set("name", Str(wl.controller_ref->name));
    spec.Set("controllerRef", std::move(r));
  }
  if (!wl.pod_group_templates.empty()) {
    YamlTree list = YamlTree::Seq();
    for (const auto& c : wl.pod_group_templates) list.children.push_back(PodGroupTemplate(c));
    spec.Set("podGroupTemplates", std::move(list));
  }
  if (!wl.composite_pod_group_templates.empty()) {
    YamlTree list = YamlTree::Seq();
    for (const auto& c : wl.composite_pod_group_templates) list.children.push_back(CompositeTemplate(c));
    spec.Set("compositePodGroupTemplates", std::move(list));
  }
  t.Set("spec", std::move(spec));
  return t;
}

YamlTree WorkloadRef(const api::WorkloadReference& r) {
  YamlTree m = YamlTree::Map();
  m.Set("workloadName", Str(r.workload_name));
  m.Set("templateName", Str(r.template_name));
  return m;
}

template <typename G>
YamlTree GroupTree(const G& g, const char* kind, const char* default_version) {
  YamlTree t = Header(g.api_version.empty() ? default_version : g.api_version, kind, g.meta);
  YamlTree spec = YamlTree::Map();
  if (g.parent_composite_pod_group_name) {
    spec.Set("parentCompositePodGroupName", Str(*g.parent_composite_pod_group_name));
  }
  if (g.workload_ref) spec.Set("workloadRef", WorkloadRef(*g.workload_ref));
  spec.Set("schedulingPolicy", Policy(g.scheduling_policy));
  SetGroupFields(spec, g);
  t.Set("spec", std::move(spec));
  return t;
}

YamlTree Resources(const api::ResourceList& list, const std::map<std::string, std::string>& raw) {
  YamlTree t = YamlTree::Map();
  for (const auto& [name, amount] : list) {
    const auto it = raw.find(name);
    t.Set(name, Str(it != raw.end() ? it->second : api::FormatAmount(name, amount)));
  }
  return t;
}

YamlTree ContainerTree(const api::Container& c, bool init) {
  YamlTree t = YamlTree::Map();
  t.Set("name", Str(c.name));
  if (!c.image.empty()) t.Set("image", Str(c.image));
  if (init && c.restart_policy_always) t.Set("restartPolicy", Str("Always"));
  if (!c.ports.empty()) {
    YamlTree ports = YamlTree::Seq();
    for (const api::ContainerPort& p : c.ports) {
      YamlTree m = YamlTree::Map();
      if (p.container_port != 0) m.Set("containerPort", Int(p.container_port));
      if (p.host_port != 0) m.Set("hostPort", Int(p.host_port));
      if (p.protocol != "TCP") m.Set("protocol", Str(p.protocol));
      if (!p.host_ip.empty()) m.Set("hostIP", Str(p.host_ip));
      ports.children.push_back(std::move(m));
    }
    t.Set("ports", std::move(ports));
  }
  if (!c.requests.empty() || !c.limits.empty() || !c.claims.empty()) {
    YamlTree r = YamlTree::Map();
    if (!c.requests.empty()) r.Set("requests", Resources(c.requests, c.non_integer_requests));
    if (!c.limits.empty()) r.Set("limits", Resources(c.limits, c.non_integer_limits));
    if (!c.claims.empty()) {
      YamlTree claims = YamlTree::Seq();
      for (const api::ResourceClaimRequest& rc : c.claims) {
        YamlTree m = YamlTree::Map();
        m.Set("name", Str(rc.name));
        if (!rc.request.empty()) m.Set("request", Str(rc.request));
        claims.children.push_back(std::move(m));
      }
      r.Set("claims", std::move(claims));
    }
    t.Set("resources", std::move(r));
  }
  return t;
}

const char* OperatorName(api::NodeSelectorOperator op) {
  switch (op) {
    case api::NodeSelectorOperator::kIn: return "In";
    case api::NodeSelectorOperator::kNotIn: return "NotIn";
    case api::NodeSelectorOperator::kExists: return "Exists";
    case api::NodeSelectorOperator::kDoesNotExist: return "DoesNotExist";
    case api::NodeSelectorOperator::kGt: return "Gt";
    case api::NodeSelectorOperator::kLt: return "Lt";
  }
  return "In";
}

YamlTree Requirements(const std::vector<api::NodeSelectorRequirement>& reqs) {
  YamlTree list = YamlTree::Seq();
  for (const auto& r : reqs) {
    YamlTree m = YamlTree::Map();
    m.Set("key", Str(r.key));
    m.Set("operator", Str(OperatorName(r.op)));
    if (!r.values.empty()) {
      YamlTree v = YamlTree::Seq();
      for (const auto& s : r.values) v.children.push_back(Str(s));
      m.Set("values", std::move(v));
    }
    list.children.push_back(std::move(m));
  }
  return list;
}

YamlTree Term(const api::NodeSelectorTerm& term) {
  YamlTree m = YamlTree::Map();
  if (!term.match_expressions.empty()) m.Set("matchExpressions", Requirements(term.match_expressions));
  if (!term.match_fields.empty()) m.Set("matchFields", Requirements(term.match_fields));
  return m;
}

YamlTree Strings(const std::vector<std::string>& list) {
  YamlTree t = YamlTree::Seq();
  for (const std::string& s : list) t.children.push_back(Str(s));
  return t;
}

YamlTree Selector(const api::LabelSelector& sel) {
  YamlTree t = YamlTree::Map();
  if (!sel.match_labels.empty()) t.Set("matchLabels", StringMap(sel.match_labels));
  if (!sel.match_expressions.empty()) {
    YamlTree list = YamlTree::Seq();
    for (const api::LabelSelectorRequirement& r : sel.match_expressions) {
      YamlTree m = YamlTree::Map();
      m.Set("key", Str(r.key));
      m.Set("operator", Str(r.op_text));
      if (!r.values.empty()) m.Set("values", Strings(r.values));
      list.children.push_back(std::move(m));
    }
    t.Set("matchExpressions", std::move(list));
  }
  return t;
}

YamlTree AffinityTerm(const api::PodAffinityTerm& term) {
  YamlTree t = YamlTree::Map();
  if (term.label_selector) t.Set("labelSelector", Selector(*term.label_selector));
  if (!term.namespaces.empty()) t.Set("namespaces", Strings(term.namespaces));
  t.Set("topologyKey", Str(term.topology_key));
  if (term.namespace_selector) t.Set("namespaceSelector", Selector(*term.namespace_selector));
  if (!term.match_label_keys.empty()) t.Set("matchLabelKeys", Strings(term.match_label_keys));
  if (!term.mismatch_label_keys.empty()) t.Set("mismatchLabelKeys", Strings(term.mismatch_label_keys));
  return t;
}

YamlTree PodAffinityTree(const api::PodAffinity& a) {
  YamlTree t = YamlTree::Map();
  if (!a.required.empty()) {
    YamlTree list = YamlTree::Seq();
    for (const auto& term : a.required) list.children.push_back(AffinityTerm(term));
    t.Set("requiredDuringSchedulingIgnoredDuringExecution", std::move(list));
  }
  if (!a.preferred.empty()) {
    YamlTree list = YamlTree::Seq();
    for (const auto& w : a.preferred) {
      YamlTree m = YamlTree::Map();
      m.Set("weight", Int(w.weight));
      m.Set("podAffinityTerm", AffinityTerm(w.term));
      list.children.push_back(std::move(m));
    }
    t.Set("preferredDuringSchedulingIgnoredDuringExecution", std::move(list));
  }
  return t;
}

// PodSpecTree: a core/v1 PodSpec of `p` (the fields wasched models); `restart_policy` as written
// for a template ("" = none).
YamlTree PodSpecTree(const api::Pod& p, const std::string& restart_policy = "");

YamlTree PodTree(const api::Pod& p) {
  YamlTree t = Header("v1", "Pod", p.meta);
  t.Set("spec", PodSpecTree(p));
  return t;
}

YamlTree PodSpecTree(const api::Pod& p, const std::string& restart_policy) {
  YamlTree spec = YamlTree::Map();
  if (!restart_policy.empty()) spec.Set("restartPolicy", Str(restart_policy));
  if (p.scheduler_name != "default-scheduler") spec.Set("schedulerName", Str(p.scheduler_name));
  if (!p.priority_class_name.empty()) spec.Set("priorityClassName", Str(p.priority_class_name));
  if (p.priority) spec.Set("priority", Int(*p.priority));
  if (p.preemption_policy) spec.Set("preemptionPolicy", Str(api::PreemptionPolicyName(*p.preemption_policy)));
  if (!p.node_name.empty()) spec.Set("nodeName", Str(p.node_name));
  if (!p.node_selector.empty()) spec.Set("nodeSelector", StringMap(p.node_selector));
  if (p.node_affinity) {
    YamlTree na = YamlTree::Map();
    if (p.node_affinity->required) {
      YamlTree req = YamlTree::Map();
      YamlTree terms = YamlTree::Seq();
      for (const auto& term : *p.node_affinity->required) terms.children.push_back(Term(term));
      req.Set("nodeSelectorTerms", std::move(terms));
      na.Set("requiredDuringSchedulingIgnoredDuringExecution", std::move(req));
    }
    if (!p.node_affinity->preferred.empty()) {
      YamlTree pref = YamlTree::Seq();
      for (const auto& w : p.node_affinity->preferred) {
        YamlTree m = YamlTree::Map();
        m.Set("weight", Int(w.weight));
        m.Set("preference", Term(w.preference));
        pref.children.push_back(std::move(m));
      }
      na.Set("preferredDuringSchedulingIgnoredDuringExecution", std::move(pref));
    }
    YamlTree affinity = YamlTree::Map();
    affinity.Set("nodeAffinity", std::move(na));
    spec.Set("affinity", std::move(affinity));
  }
  if (p.pod_affinity || p.pod_anti_affinity) {
    YamlTree* affinity = spec.Find("affinity");
    if (affinity == nullptr) affinity = &spec.Set("affinity", YamlTree::Map());
    if (p.pod_affinity) affinity->Set("podAffinity", PodAffinityTree(*p.pod_affinity));
    if (p.pod_anti_affinity) affinity->Set("podAntiAffinity", PodAffinityTree(*p.pod_anti_affinity));
  }
  if (!p.topology_spread_constraints.empty()) {
    YamlTree list = YamlTree::Seq();
    for (const api::TopologySpreadConstraint& c : p.topology_spread_constraints) {
      YamlTree m = YamlTree::Map();
      m.Set("maxSkew", Int(c.max_skew));
      m.Set("topologyKey", Str(c.topology_key));
      m.Set("whenUnsatisfiable", Str(c.when_unsatisfiable));
      if (c.label_selector) m.Set("labelSelector", Selector(*c.label_selector));
      if (c.min_domains) m.Set("minDomains", Int(*c.min_domains));
      if (!c.node_affinity_policy.empty()) m.Set("nodeAffinityPolicy", Str(c.node_affinity_policy));
      if (!c.node_taints_policy.empty()) m.Set("nodeTaintsPolicy", Str(c.node_taints_policy));
      if (!c.match_label_keys.empty()) m.Set("matchLabelKeys", Strings(c.match_label_keys));
      list.children.push_back(std::move(m));
    }
    spec.Set("topologySpreadConstraints", std::move(list));
  }
  if (!p.tolerations.empty()) {
    YamlTree list = YamlTree::Seq();
    for (const auto& tol : p.tolerations) {
      YamlTree m = YamlTree::Map();
      if (!tol.key.empty()) m.Set("key", Str(tol.key));
      m.Set("operator", Str(tol.op == api::TolerationOperator::kExists ? "Exists" : "Equal"));
      if (!tol.value.empty()) m.Set("value", Str(tol.value));
      if (tol.effect) m.Set("effect", Str(api::TaintEffectName(*tol.effect)));
      if (tol.toleration_seconds) m.Set("tolerationSeconds", Int(*tol.toleration_seconds));
      list.children.push_back(std::move(m));
    }
    spec.Set("tolerations", std::move(list));
  }
  if (!p.scheduling_gates.empty()) {
    YamlTree list = YamlTree::Seq();
    for (const auto& g : p.scheduling_gates) {
      YamlTree m = YamlTree::Map();
      m.Set("name", Str(g));
      list.children.push_back(std::move(m));
    }
    spec.Set("schedulingGates", std::move(list));
  }
  if (p.pod_group_name) {
    YamlTree g = YamlTree::Map();
    g.Set("podGroupName", Str(*p.pod_group_name));
    spec.Set("schedulingGroup", std::move(g));
  }
  if (!p.overhead.empty()) spec.Set("overhead", Resources(p.overhead, p.non_integer_overhead));
  if (!p.pod_level_requests.empty()) {
    YamlTree r = YamlTree::Map();
    r.Set("requests", Resources(p.pod_level_requests, {}));
    spec.Set("resources", std::move(r));
  }
  if (!p.init_containers.empty()) {
    YamlTree list = YamlTree::Seq();
    for (const auto& c : p.init_containers) list.children.push_back(ContainerTree(c, true));
    spec.Set("initContainers", std::move(list));
  }
  YamlTree containers = YamlTree::Seq();
  for (const auto& c : p.containers) containers.children.push_back(ContainerTree(c, false));
  spec.Set("containers", std::move(containers));
  if (!p.resource_claims.empty()) {
    YamlTree list = YamlTree::Seq();
    for (const api::PodResourceClaim& c : p.resource_claims) {
      YamlTree m = YamlTree::Map();
      m.Set("name", Str(c.name));
      if (c.resource_claim_name) m.Set("resourceClaimName", Str(*c.resource_claim_name));
      if (c.resource_claim_template_name) {
        m.Set("resourceClaimTemplateName", Str(*c.resource_claim_template_name));
      }
      list.children.push_back(std::move(m));
    }
    spec.Set("resourceClaims", std::move(list));
  }
  return spec;
}

// TemplateTree: a PodTemplateSpec {metadata: {labels, annotations}, spec}.
YamlTree TemplateTree(const api::Pod& p, const std::string& restart_policy = "") {
  YamlTree t = YamlTree::Map();
  YamlTree meta = YamlTree::Map();
  if (!p.meta.labels.empty()) meta.Set("labels", StringMap(p.meta.labels));
  if (!p.meta.annotations.empty()) meta.Set("annotations", StringMap(p.meta.annotations));
  t.Set("metadata", std::move(meta));
  t.Set("spec", PodSpecTree(p, restart_policy));
  return t;
}

YamlTree JobTree(const api::Job& job) {
  YamlTree t = Header(job.api_version.empty() ? "batch/v1" : job.api_version, "Job", job.meta);
  YamlTree spec = YamlTree::Map();
  if (job.parallelism) spec.Set("parallelism", Int(*job.parallelism));
  if (job.completions) spec.Set("completions", Int(*job.completions));
  if (job.completion_mode) spec.Set("completionMode", Str(api::CompletionModeName(*job.completion_mode)));
  if (job.suspend) spec.Set("suspend", Bool(true));
  if (job.scheduling) {
    YamlTree s = YamlTree::Map();
    if (const auto& p = job.scheduling->scheduling_policy) {
      YamlTree m = YamlTree::Map();
      if (p->basic) m.Set("basic", EmptyMap());
      if (p->gang) {
        YamlTree g = YamlTree::Map();
        if (p->gang->min_count) g.Set("minCount", Int(*p->gang->min_count));
        m.Set("gang", std::move(g));
      }
      s.Set(api::kJobSchedulingPolicyField, std::move(m));
    }
    if (const auto& c = job.scheduling->scheduling_constraints) {
      s.Set(api::kJobSchedulingConstraintsField, Constraints(*c));
    }
    if (const auto& d = job.scheduling->disruption_mode) s.Set("disruptionMode", Disruption(*d));
    if (!job.scheduling->resource_claims.empty()) {
      s.Set("resourceClaims", Claims(job.scheduling->resource_claims));
    }
    spec.Set("scheduling", std::move(s));
  }
  spec.Set("template", TemplateTree(job.pod_template, job.template_restart_policy));
  t.Set("spec", std::move(spec));
  return t;
}

YamlTree ReplicaSetTree(const api::ReplicaSet& rs) {
  YamlTree t = Header("apps/v1", "ReplicaSet", rs.meta);
  YamlTree spec = YamlTree::Map();
  spec.Set("replicas", Int(api::EffectiveReplicas(rs.replicas)));
  if (rs.selector) spec.Set("selector", Selector(*rs.selector));
  spec.Set("template", TemplateTree(rs.pod_template));
  t.Set("spec", std::move(spec));
  return t;
}

YamlTree StatefulSetTree(const api::StatefulSet& sts) {
  YamlTree t = Header("apps/v1", "StatefulSet", sts.meta);
  YamlTree spec = YamlTree::Map();
  spec.Set("replicas", Int(api::EffectiveReplicas(sts.replicas)));
  if (!sts.service_name.empty()) spec.Set("serviceName", Str(sts.service_name));
  spec.Set("podManagementPolicy",
           Str(sts.pod_management_policy == api::PodManagementPolicy::kParallel ? "Parallel"
                                                                                 : "OrderedReady"));
  if (sts.ordinals_start != 0) {
    YamlTree o = YamlTree::Map();
    o.Set("start", Int(sts.ordinals_start));
    spec.Set("ordinals", std::move(o));
  }
  if (sts.selector) spec.Set("selector", Selector(*sts.selector));
  spec.Set("template", TemplateTree(sts.pod_template));
  t.Set("spec", std::move(spec));
  return t;
}

void EmitTree(YAML::Emitter& out, const YamlTree& t) {
  if (t.IsMap()) {
    if (t.MapSize() == 0) {
      out << YAML::Flow << YAML::BeginMap << YAML::EndMap;
      return;
    }
    out << YAML::BeginMap;
    for (size_t i = 0; i < t.MapSize(); ++i) {
      out << YAML::Key << std::string(t.KeyText(i)) << YAML::Value;
      EmitTree(out, t.Value(i));
    }
    out << YAML::EndMap;
  } else if (t.IsSeq()) {
    if (t.children.empty()) {
      out << YAML::Flow << YAML::BeginSeq << YAML::EndSeq;
      return;
    }
    out << YAML::BeginSeq;
    for (const YamlTree& c : t.children) EmitTree(out, c);
    out << YAML::EndSeq;
  } else if (t.IsString()) {
    out << YAML::DoubleQuoted << t.text;
  } else if (t.type == internal::YamlType::kNull) {
    out << YAML::Null;
  } else {
    out << t.text;  // numbers and booleans this file wrote
  }
}

}  // namespace

namespace internal {

std::vector<YamlTree> ObjectTrees(const api::ObjectSet& objects) {
  std::vector<YamlTree> trees;
  for (const auto& wl : objects.workloads) trees.push_back(WorkloadTree(wl));
  for (const auto& g : objects.composite_pod_groups) {
    trees.push_back(GroupTree(g, "CompositePodGroup", "scheduling.k8s.io/v1alpha3"));
  }
  for (const auto& g : objects.pod_groups) {
    trees.push_back(GroupTree(g, "PodGroup", "scheduling.k8s.io/v1beta1"));
  }
  for (const auto& j : objects.jobs) trees.push_back(JobTree(j));
  for (const auto& rs : objects.replica_sets) trees.push_back(ReplicaSetTree(rs));
  for (const auto& s : objects.stateful_sets) trees.push_back(StatefulSetTree(s));
  for (const auto& p : objects.pods) trees.push_back(PodTree(p));
  return trees;
}

std::string GeneratedJsonText(const api::ObjectSet& objects) {
  YamlTree list = YamlTree::Seq();
  list.children = ObjectTrees(objects);
  return WriteJson(list);
}

void EmitGeneratedYaml(YAML::Emitter& out, const api::ObjectSet& objects) {
  YamlTree list = YamlTree::Seq();
  list.children = ObjectTrees(objects);
  out << YAML::Key << "generated" << YAML::Value;
  EmitTree(out, list);
}

}  // namespace internal

std::string EncodeObjectsYaml(const api::ObjectSet& objects) {
  std::string text;
  for (const YamlTree& t : internal::ObjectTrees(objects)) {
    if (!text.empty()) text += "---\n";
    text += internal::WriteYaml(t);
  }
  return text;
}

std::string EncodeObjectsJsonList(const api::ObjectSet& objects) {
  YamlTree list = YamlTree::Map();
  list.Set("apiVersion", YamlTree::String("v1"));
  list.Set("kind", YamlTree::String("List"));
  YamlTree items = YamlTree::Seq();
  items.children = internal::ObjectTrees(objects);
  list.Set("items", std::move(items));
  list.Set("metadata", YamlTree::Map());
  return internal::WriteJson(list);
}

}  // namespace wasched::codec
