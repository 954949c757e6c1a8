// File: controller/lws/lws_controller.cc
//
// Upstream: kubernetes-sigs/lws pkg/controllers/leaderworkerset_controller.go
// (constructLeaderStatefulSetApplyConfiguration), pkg/controllers/pod_controller.go (Reconcile:
// worker StatefulSet per leader pod, exclusive placement waits for the leader's node;
// constructWorkerStatefulSetApplyConfiguration), pkg/webhooks/pod_webhook.go (Default,
// genGroupUniqueKey, SetExclusiveAffinities, getSubGroupIndex), pkg/schedulerprovider
// kubernetes_provider.go of KEP-666 (NewWorkloadItem, NewWorkloadBuilder, ReconcileScheduling,
// InjectPodGroupMetadata), interface.go (GetPodGroupName).
#include "controller/lws/lws_controller.h"

#include <fmt/format.h>

#include "controller/template_hash.h"
#include "util/name_generation.h"
#include "util/sha1.h"
#include "workloadbuilder/builder.h"

namespace wasched::controller::lws {
namespace {

namespace wb = workloadbuilder;

const api::Pod& LeaderTemplate(const api::LeaderWorkerSet& lws) {
  return lws.leader_template ? *lws.leader_template : lws.worker_template;
}

// CompositeMode: the wasched option, for LWS with at least one group member.
bool CompositeMode(const LwsOptions& o) { return o.composite_groups; }

std::optional<api::WorkloadPodGroupSchedulingPolicy> MapPolicy(
    const std::optional<api::PodGroupSchedulingPolicy>& p) {
  if (!p) return std::nullopt;
  api::WorkloadPodGroupSchedulingPolicy out;
  if (p->basic) out.basic = api::BasicSchedulingPolicy{};
  if (p->gang) {
    out.gang.emplace();
    if (p->gang->min_count > 0) out.gang->min_count = p->gang->min_count;
  }
  return out;
}

wb::SchedulingConfigFunc DefaultMinCount(int32_t n) {
  return [n](wb::SchedulingConfig& c) {
    if (c.policy && c.policy->gang && !c.policy->gang->min_count) c.policy->gang->min_count = n;
  };
}

wb::BuildOptions Options(const api::LeaderWorkerSet& lws) {
  wb::BuildOptions opts;
  opts.name = lws.meta.name;
  opts.namespace_ = lws.meta.namespace_;
  opts.owner = NewControllerRef(kApiVersion, kKind, lws.meta);
  opts.allowed_policies = {wb::SchedulingPolicyOption::kBasicPolicy,
                           wb::SchedulingPolicyOption::kGangPolicy};
  opts.allowed_disruption_modes = {wb::DisruptionModeOption::kSingleMode,
                                   wb::DisruptionModeOption::kAllMode};
  return opts;
}

// FlatItem: NewWorkloadItem (KEP-666).
wb::WorkloadItem FlatItem(const api::LeaderWorkerSet& lws) {
  wb::WorkloadItem item;
  item.name = "replica";
  item.path = "spec.scheduling";
  item.default_config.emplace();
  item.default_config->policy = wb::Gang(std::nullopt);
  item.default_config->priority_class_name = LeaderTemplate(lws).priority_class_name;
  item.callbacks.push_back(DefaultMinCount(lws.size));
  if (const auto& s = lws.scheduling) {
    item.input.policy = {MapPolicy(s->scheduling_policy), std::nullopt, {"schedulingPolicy"}};
    item.input.constraints = {s->scheduling_constraints, std::nullopt, {"schedulingConstraints"}};
    item.input.disruption_mode = {s->disruption_mode, std::nullopt, {"disruptionMode"}};
    item.input.resource_claims = {s->resource_claims, {"resourceClaims"}};
  }
  return item;
}

// CompositeItem: the `replica` composite over `leader` and `workers`.
wb::WorkloadItem CompositeItem(const api::LeaderWorkerSet& lws) {
  wb::WorkloadItem root;
  root.name = "replica";
  root.path = "spec.scheduling";
  root.default_config.emplace();
  root.default_config->policy = wb::Gang(std::nullopt);
  root.default_config->priority_class_name = LeaderTemplate(lws).priority_class_name;
  const int32_t children = lws.size > 1 ? 2 : 1;
  root.callbacks.push_back(DefaultMinCount(children));
  if (const auto& s = lws.scheduling) {
    if (s->scheduling_policy) {
      api::WorkloadCompositePodGroupSchedulingPolicy p;
      if (s->scheduling_policy->basic) p.basic = api::BasicSchedulingPolicy{};
      if (s->scheduling_policy->gang) p.gang.emplace();
      root.input.policy = {std::nullopt, p, {"schedulingPolicy"}};
    }
    root.input.constraints = {std::nullopt, s->scheduling_constraints, {"schedulingConstraints"}};
    root.input.disruption_mode = {std::nullopt, s->disruption_mode, {"disruptionMode"}};
  }
  auto leaf = [&](const char* name, int32_t count, const api::Pod& tmpl) {
    wb::WorkloadItem item;
    item.name = name;
    item.path = "spec.leaderWorkerTemplate";
    item.default_config.emplace();
    item.default_config->policy = wb::Gang(count);
    item.default_config->priority_class_name = tmpl.priority_class_name;
    if (lws.scheduling && !lws.scheduling->resource_claims.empty()) {
      item.input.resource_claims = {lws.scheduling->resource_claims, {"resourceClaims"}};
    }
    return item;
  };
  root.children.push_back(leaf("leader", 1, LeaderTemplate(lws)));
  if (lws.size > 1) root.children.push_back(leaf("workers", lws.size - 1, lws.worker_template));
  return root;
}

std::string PodGroupName(const std::string& lws, const std::string& group_index,
                         const std::string& revision) {
  return fmt::format("{}-{}-{}", lws, group_index, revision);
}

api::LabelSelectorRequirement Requirement(const char* key, api::LabelSelectorOperator op,
                                          std::vector<std::string> values) {
  api::LabelSelectorRequirement r;
  r.key = key;
  r.op = op;
  r.op_text = op == api::LabelSelectorOperator::kIn      ? "In"
              : op == api::LabelSelectorOperator::kNotIn ? "NotIn"
                                                         : "Exists";
  r.values = std::move(values);
  return r;
}

// ExclusiveApplied: exclusiveAffinityApplied.
bool ExclusiveApplied(const api::Pod& pod, const std::string& topology_key) {
  bool affinity = false;
  bool anti = false;
  if (pod.pod_affinity) {
    for (const auto& t : pod.pod_affinity->required) affinity |= t.topology_key == topology_key;
  }
  if (pod.pod_anti_affinity) {
    for (const auto& t : pod.pod_anti_affinity->required) anti |= t.topology_key == topology_key;
  }
  return affinity && anti;
}

// SetExclusiveAffinities: podAffinity to the group's key, podAntiAffinity against other keys.
void SetExclusiveAffinities(api::Pod* pod, const std::string& unique_key,
                            const std::string& topology_key, const char* label) {
  if (ExclusiveApplied(*pod, topology_key)) return;
  api::PodAffinityTerm affinity;
  affinity.label_selector.emplace();
  affinity.label_selector->match_expressions.push_back(
      Requirement(label, api::LabelSelectorOperator::kIn, {unique_key}));
  affinity.topology_key = topology_key;
  api::PodAffinityTerm anti;
  anti.label_selector.emplace();
  anti.label_selector->match_expressions.push_back(
      Requirement(label, api::LabelSelectorOperator::kExists, {}));
  anti.label_selector->match_expressions.push_back(
      Requirement(label, api::LabelSelectorOperator::kNotIn, {unique_key}));
  anti.topology_key = topology_key;
  if (!pod->pod_affinity) pod->pod_affinity.emplace();
  if (!pod->pod_anti_affinity) pod->pod_anti_affinity.emplace();
  pod->pod_affinity->required.push_back(std::move(affinity));
  pod->pod_anti_affinity->required.push_back(std::move(anti));
}

// Ordinal: statefulsetutils.GetParentNameAndOrdinal's ordinal (-1 when the name has none).
int64_t Ordinal(const std::string& name) {
  const size_t dash = name.rfind('-');
  if (dash == std::string::npos || dash + 1 >= name.size() || name.size() - dash > 11) return -1;
  int64_t v = 0;
  for (size_t i = dash + 1; i < name.size(); ++i) {
    if (name[i] < '0' || name[i] > '9') return -1;
    v = v * 10 + (name[i] - '0');
  }
  return v;
}

std::string SubGroupIndex(int64_t pod_count, int64_t sub_group_size, int64_t worker_index) {
  if (sub_group_size <= 0) return "0";
  if ((pod_count - 1) % sub_group_size == 0 && pod_count % sub_group_size != 0) {
    return std::to_string((worker_index - 1) / sub_group_size);
  }
  return std::to_string(worker_index / sub_group_size);
}

void CommonAnnotations(const api::LeaderWorkerSet& lws, std::map<std::string, std::string>* a,
                       const LwsOptions* options) {
  (*a)[kSizeKey] = std::to_string(lws.size);
  if (auto it = lws.meta.annotations.find(kExclusiveKey);
      it != lws.meta.annotations.end() && !it->second.empty()) {
    (*a)[kExclusiveKey] = it->second;
  }
  if (lws.sub_group_policy) {
    (*a)[kSubGroupPolicyTypeKey] = lws.sub_group_policy->type;
    (*a)[kSubGroupSizeKey] = std::to_string(lws.sub_group_policy->sub_group_size);
    if (auto it = lws.meta.annotations.find(kSubGroupExclusiveKey);
        it != lws.meta.annotations.end() && !it->second.empty()) {
      (*a)[kSubGroupExclusiveKey] = it->second;
    }
  }
  if (options != nullptr && lws.subdomain_policy == "UniquePerReplica") {
    (*a)[kSubdomainPolicyKey] = "UniquePerReplica";
  }
}

}  // namespace

std::string RevisionKey(const api::LeaderWorkerSet& lws) {
  const std::string salt =
      fmt::format("{}|{}|{}|{}|{}", PodTemplateHash(LeaderTemplate(lws)), lws.size,
                  lws.subdomain_policy, lws.restart_policy,
                  lws.sub_group_policy ? std::to_string(lws.sub_group_policy->sub_group_size) : "");
  return PodTemplateHash(lws.worker_template, salt);
}

LwsSyncResult Sync(const api::LeaderWorkerSet& lws, const api::ObjectSet& cluster,
                   const LwsOptions& options) {
  LwsSyncResult r;
  const std::string who = fmt::format("LeaderWorkerSet {}/{}", lws.meta.namespace_, lws.meta.name);
  const std::string revision = RevisionKey(lws);
  const bool scheduling = lws.scheduling.has_value() || CompositeMode(options);

  // Workload → PodGroups before any pod (KEP-666 ordering).
  if (scheduling) {
    wb::Builder b = wb::Builder::New(CompositeMode(options) ? CompositeItem(lws) : FlatItem(lws),
                                     Options(lws));
    r.errors = b.Validate();
    if (r.errors.empty()) {
      auto wl = b.BuildWorkload();
      if (!wl) {
        r.events.push_back({"Warning", "InvalidSchedulingConfiguration", who,
                            "build Workload: " + wl.error()});
      } else {
        api::Workload workload = **wl;
        workload.meta.uid = DerivedUid("Workload", workload.meta.namespace_, workload.meta.name);
        workload.meta.source = lws.meta.source;
        for (int32_t i = 0; i < lws.replicas; ++i) {
          const std::string name = PodGroupName(lws.meta.name, std::to_string(i), revision);
          const std::map<std::string, std::string> labels = {
              {kSetNameKey, lws.meta.name}, {kGroupIndexKey, std::to_string(i)}, {kRevisionKey, revision}};
          if (CompositeMode(options)) {
            auto g = b.NewCompositePodGroup(name, "replica");
            if (!g) continue;
            g->meta.labels = labels;
            r.composite_pod_groups.push_back(std::move(*g));
            for (const char* role : {"leader", "workers"}) {
              if (lws.size <= 1 && std::string(role) == "workers") continue;
              auto pg = b.NewChildPodGroup(name + "-" + role, role, name);
              if (!pg) continue;
              pg->meta.labels = labels;
              r.pod_groups.push_back(std::move(*pg));
            }
          } else {
            auto pg = b.NewPodGroup(name, "replica");
            if (!pg) continue;
            pg->meta.labels = labels;
            r.pod_groups.push_back(std::move(*pg));
          }
        }
        for (auto& g : r.composite_pod_groups) {
          g.meta.uid = DerivedUid("CompositePodGroup", g.meta.namespace_, g.meta.name);
          g.meta.source = lws.meta.source;
        }
        for (auto& g : r.pod_groups) {
          g.meta.uid = DerivedUid("PodGroup", g.meta.namespace_, g.meta.name);
          g.meta.source = lws.meta.source;
        }
        r.workload = std::move(workload);
        r.events.push_back({"Normal", "WorkloadCreated", who,
                            fmt::format("Created Workload {} and {} group(s)", lws.meta.name,
                                        lws.replicas)});
      }
    }
  }

  for (const api::StatefulSet& s : cluster.stateful_sets) {
    if (s.meta.namespace_ == lws.meta.namespace_ && s.meta.name == lws.meta.name) return r;
  }
  api::StatefulSet& sts = r.leader_stateful_set.emplace();
  sts.meta.name = lws.meta.name;
  sts.meta.namespace_ = lws.meta.namespace_;
  sts.meta.source = lws.meta.source;
  sts.meta.uid = DerivedUid("StatefulSet", sts.meta.namespace_, sts.meta.name);
  sts.meta.labels = lws.meta.labels;
  sts.meta.labels[kSetNameKey] = lws.meta.name;
  sts.meta.labels[kRevisionKey] = revision;
  sts.meta.annotations = lws.meta.annotations;
  sts.meta.annotations[kReplicasKey] = std::to_string(lws.replicas);
  sts.meta.owner_references = {NewControllerRef(kApiVersion, kKind, lws.meta)};
  sts.replicas = lws.replicas;
  sts.service_name = lws.meta.name;
  sts.pod_management_policy = api::PodManagementPolicy::kParallel;
  sts.selector.emplace();
  sts.selector->match_labels = {{kSetNameKey, lws.meta.name}, {kWorkerIndexKey, "0"}};
  sts.volume_claim_templates = lws.volume_claim_templates;
  sts.pod_template = LeaderTemplate(lws);
  sts.pod_template.meta.labels[kWorkerIndexKey] = "0";
  sts.pod_template.meta.labels[kSetNameKey] = lws.meta.name;
  sts.pod_template.meta.labels[kRevisionKey] = revision;
  CommonAnnotations(lws, &sts.pod_template.meta.annotations, &options);
  if (scheduling && r.workload) sts.pod_template.meta.annotations[kWorkloadSchedulingKey] = "true";
  if (CompositeMode(options) && r.workload) sts.pod_template.meta.annotations[kCompositeGroupsKey] = "true";
  return r;
}

std::optional<WorkerSet> WorkerStatefulSet(const api::LeaderWorkerSet& lws, const api::Pod& leader) {
  if (lws.size <= 1) return std::nullopt;
  WorkerSet w;
  api::StatefulSet& sts = w.stateful_set;
  sts.meta.name = leader.meta.name;
  sts.meta.namespace_ = leader.meta.namespace_;
  sts.meta.source = lws.meta.source;
  sts.meta.uid = DerivedUid("StatefulSet", sts.meta.namespace_, sts.meta.name);
  const auto label = [&](const char* k) {
    auto it = leader.meta.labels.find(k);
    return it == leader.meta.labels.end() ? std::string() : it->second;
  };
  const std::map<std::string, std::string> labels = {{kGroupIndexKey, label(kGroupIndexKey)},
                                                     {kSetNameKey, lws.meta.name},
                                                     {kGroupKeyKey, label(kGroupKeyKey)},
                                                     {kRevisionKey, label(kRevisionKey)}};
  sts.meta.labels = lws.meta.labels;
  for (const auto& [k, v] : labels) sts.meta.labels[k] = v;
  sts.meta.annotations = lws.meta.annotations;
  sts.meta.owner_references = {NewControllerRef("v1", "Pod", leader.meta)};
  sts.replicas = lws.size - 1;
  sts.ordinals_start = 1;
  sts.service_name = lws.meta.name;
  sts.pod_management_policy = api::PodManagementPolicy::kParallel;
  sts.selector.emplace();
  sts.selector->match_labels = {{kGroupIndexKey, label(kGroupIndexKey)},
                                {kSetNameKey, lws.meta.name},
                                {kGroupKeyKey, label(kGroupKeyKey)}};
  sts.volume_claim_templates = lws.volume_claim_templates;
  sts.pod_template = lws.worker_template;
  for (const auto& [k, v] : labels) sts.pod_template.meta.labels[k] = v;
  auto& a = sts.pod_template.meta.annotations;
  CommonAnnotations(lws, &a, nullptr);
  a[kLeaderNameKey] = leader.meta.name;
  for (const char* key : {kWorkloadSchedulingKey, kCompositeGroupsKey}) {
    if (auto it = leader.meta.annotations.find(key); it != leader.meta.annotations.end()) a[key] = it->second;
  }
  if (lws.startup_policy == "LeaderReady") w.wait_for_leader = true;
  if (auto it = lws.meta.annotations.find(kExclusiveKey); it != lws.meta.annotations.end()) {
    w.wait_for_leader = true;
    w.topology_key = it->second;
  }
  return w;
}

void AdmitPod(api::Pod* pod) {
  auto& labels = pod->meta.labels;
  auto& annotations = pod->meta.annotations;
  if (labels.count(kSetNameKey) == 0) return;
  const auto size_it = annotations.find(kSizeKey);
  if (size_it == annotations.end()) return;  // upstream refuses the pod ("size annotation …")
  const int64_t pod_count = std::atoll(size_it->second.c_str());
  const bool leader = labels.count(kWorkerIndexKey) > 0 && labels[kWorkerIndexKey] == "0";
  if (leader) {
    if (labels.count(kGroupIndexKey) == 0) {
      const int64_t ordinal = Ordinal(pod->meta.name);
      if (ordinal >= 0) labels[kGroupIndexKey] = std::to_string(ordinal);
    }
    std::string group_key;
    if (auto it = labels.find(kGroupKeyKey); it != labels.end()) {
      group_key = it->second;
    } else {
      group_key = Sha1Hex(pod->meta.namespace_ + "/" + pod->meta.name);
      labels[kGroupKeyKey] = group_key;
    }
    if (auto it = annotations.find(kExclusiveKey); it != annotations.end()) {
      SetExclusiveAffinities(pod, group_key, it->second, kGroupKeyKey);
    }
    const auto sub_size = annotations.find(kSubGroupSizeKey);
    const auto sub_type = annotations.find(kSubGroupPolicyTypeKey);
    const bool excluded = sub_type != annotations.end() && sub_type->second == "LeaderExcluded";
    if (sub_size != annotations.end() && labels[kSubGroupIndexKey].empty() && !excluded) {
      labels[kSubGroupIndexKey] = "0";
      const std::string key = Sha1Hex(pod->meta.name + "/0");
      labels[kSubGroupKeyKey] = key;
      if (auto it = annotations.find(kSubGroupExclusiveKey); it != annotations.end()) {
        SetExclusiveAffinities(pod, key, it->second, kSubGroupKeyKey);
      }
    } else if (labels[kSubGroupIndexKey].empty()) {
      labels.erase(kSubGroupIndexKey);
    }
  } else {
    const int64_t worker_index = Ordinal(pod->meta.name);
    if (worker_index >= 0) labels[kWorkerIndexKey] = std::to_string(worker_index);
    const auto sub_size = annotations.find(kSubGroupSizeKey);
    if (sub_size != annotations.end() && labels.count(kSubGroupIndexKey) == 0 && worker_index >= 0) {
      const std::string index =
          SubGroupIndex(pod_count, std::atoll(sub_size->second.c_str()), worker_index);
      labels[kSubGroupIndexKey] = index;
      const std::string key = Sha1Hex(annotations[kLeaderNameKey] + "/" + index);
      labels[kSubGroupKeyKey] = key;
      if (auto it = annotations.find(kSubGroupExclusiveKey); it != annotations.end()) {
        SetExclusiveAffinities(pod, key, it->second, kSubGroupKeyKey);
      }
    }
  }
  // InjectPodGroupMetadata (KEP-666 kubernetes provider).
  if (auto it = annotations.find(kWorkloadSchedulingKey); it != annotations.end() && it->second == "true") {
    std::string name = PodGroupName(labels[kSetNameKey], labels[kGroupIndexKey], labels[kRevisionKey]);
    if (annotations.count(kCompositeGroupsKey) > 0) name += leader ? "-leader" : "-workers";
    pod->pod_group_name = name;
    pod->scheduling_group_set = true;
  }
}

}  // namespace wasched::controller::lws
