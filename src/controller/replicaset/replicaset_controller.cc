// File: controller/replicaset/replicaset_controller.cc
//
// Upstream: pkg/controller/replicaset/replica_set.go (manageReplicas: diff = len(filteredPods)
// − replicas; create −diff pods), pkg/controller/controller_utils.go (GetPodFromTemplate:
// labels, annotations, generateName, ownerReferences and spec copied from the template).
#include "controller/replicaset/replicaset_controller.h"

#include <fmt/format.h>

#include "controller/controller.h"
#include "util/name_generation.h"
#include "validation/names.h"

namespace wasched::controller::replicaset {

std::string PodsPrefix(const std::string& controller_name) {
  std::string prefix = controller_name + "-";
  // ValidatePodName(prefix, true): a DNS subdomain once the trailing '-' is masked.
  std::string masked = prefix.size() > 1 ? prefix.substr(0, prefix.size() - 2) + "a" : prefix;
  if (!validation::Dns1123SubdomainErrors(masked).empty()) prefix = controller_name;
  return prefix;
}

std::vector<const api::Pod*> ActivePods(const api::ReplicaSet& rs, const api::ObjectSet& cluster) {
  std::vector<const api::Pod*> pods;
  for (const api::Pod& p : cluster.pods) {
    if (p.meta.namespace_ != rs.meta.namespace_) continue;
    if (p.phase == "Succeeded" || p.phase == "Failed") continue;
    if (IsControlledBy(p.meta, kKind, rs.meta)) pods.push_back(&p);
  }
  return pods;
}

SyncResult Sync(const api::ReplicaSet& rs, const api::ObjectSet& cluster,
                std::unordered_set<std::string>* taken) {
  SyncResult r;
  const int64_t active = static_cast<int64_t>(ActivePods(rs, cluster).size());
  const int64_t want = api::EffectiveReplicas(rs.replicas) - active;
  const std::string prefix = PodsPrefix(rs.meta.name);
  const std::string key_prefix = rs.meta.namespace_ + "/";
  for (int64_t i = 0; i < want; ++i) {
    api::Pod pod = rs.pod_template;
    pod.meta.namespace_ = rs.meta.namespace_;
    pod.meta.source = rs.meta.source;
    pod.meta.generate_name = prefix;
    const std::string seed = fmt::format("{}/{}", rs.meta.uid, active + i);
    pod.meta.name = GenerateName(prefix, seed);
    for (int attempt = 1; !taken->insert(key_prefix + pod.meta.name).second; ++attempt) {
      pod.meta.name = GenerateName(prefix, fmt::format("{}#{}", seed, attempt));
    }
    pod.meta.uid = DerivedUid("Pod", pod.meta.namespace_, pod.meta.name);
    pod.meta.owner_references = {NewControllerRef(kApiVersion, kKind, rs.meta)};
    pod.node_name.clear();
    pod.phase.clear();
    r.created_pods.push_back(std::move(pod));
  }
  return r;
}

}  // namespace wasched::controller::replicaset
