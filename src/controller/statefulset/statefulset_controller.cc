// File: controller/statefulset/statefulset_controller.cc
//
// Upstream: pkg/controller/statefulset/stateful_set_utils.go (getPodName `<set>-<ordinal>`,
// newStatefulSetPod, updateIdentity: pod-name label, pod-index label (PodIndexLabel, GA),
// hostname and subdomain), stateful_set_control.go (monotonic creation for OrderedReady).
#include "controller/statefulset/statefulset_controller.h"

#include <fmt/format.h>

#include <map>

#include "controller/template_hash.h"
#include "util/name_generation.h"

namespace wasched::controller::statefulset {

std::string RevisionName(const api::StatefulSet& sts) {
  return sts.meta.name + "-" + PodTemplateHash(sts.pod_template);
}

api::Pod NewPod(const api::StatefulSet& sts, int32_t ordinal) {
  api::Pod pod = sts.pod_template;
  pod.meta.name = fmt::format("{}-{}", sts.meta.name, ordinal);
  pod.meta.namespace_ = sts.meta.namespace_;
  pod.meta.source = sts.meta.source;
  pod.meta.uid = DerivedUid("Pod", pod.meta.namespace_, pod.meta.name);
  pod.meta.labels[kPodNameLabel] = pod.meta.name;
  pod.meta.labels[kPodIndexLabel] = std::to_string(ordinal);
  pod.meta.labels[kRevisionLabel] = RevisionName(sts);
  pod.meta.owner_references = {NewControllerRef(kApiVersion, kKind, sts.meta)};
  pod.node_name.clear();
  pod.phase.clear();
  return pod;
}

SyncResult Sync(const api::StatefulSet& sts, const api::ObjectSet& cluster) {
  SyncResult r;
  std::map<std::string, const api::Pod*> existing;
  for (const api::Pod& p : cluster.pods) {
    if (p.meta.namespace_ == sts.meta.namespace_) existing.emplace(p.meta.name, &p);
  }
  if (sts.volume_claim_templates > 0) {
    r.warnings.push_back(fmt::format(
        "spec.volumeClaimTemplates: not supported and ignored (volume binding is not modelled): "
        "the pods of StatefulSet {}/{} get no claims",
        sts.meta.namespace_, sts.meta.name));
  }
  const int32_t replicas = api::EffectiveReplicas(sts.replicas);
  // OrderedReady: the pod the next one waits for ("" when none, or when it is running).
  std::string previous;
  for (int32_t i = 0; i < replicas; ++i) {
    const int32_t ordinal = sts.ordinals_start + i;
    const std::string name = fmt::format("{}-{}", sts.meta.name, ordinal);
    const std::string key = sts.meta.namespace_ + "/" + name;
    if (auto it = existing.find(name); it != existing.end()) {
      previous = it->second->node_name.empty() ? key : "";
      continue;
    }
    api::Pod pod = NewPod(sts, ordinal);
    if (sts.pod_management_policy == api::PodManagementPolicy::kOrderedReady && !previous.empty()) {
      DeferredPods d;
      d.leaders = {previous};
      d.pods.push_back(std::move(pod));
      d.why = fmt::format("StatefulSet {}/{} (podManagementPolicy OrderedReady) creates {} only "
                          "once {} is running",
                          sts.meta.namespace_, sts.meta.name, name, previous);
      r.deferred.push_back(std::move(d));
    } else {
      r.created_pods.push_back(std::move(pod));
    }
    previous = key;
  }
  return r;
}

}  // namespace wasched::controller::statefulset
