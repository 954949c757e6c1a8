// File: controller/deployment/deployment_controller.cc
//
// Upstream: pkg/controller/deployment/sync.go (getNewReplicaSet: name
// `<deployment>-<podTemplateHash>`, labels / selector / template with pod-template-hash,
// SetNewReplicaSetAnnotations, NewRSNewReplicas), util/deployment_util.go (annotation keys;
// annotations the Deployment does not pass on: kubectl.kubernetes.io/last-applied-configuration
// and its own deployment.kubernetes.io/* keys).
#include "controller/deployment/deployment_controller.h"

#include <fmt/format.h>

#include "controller/controller.h"
#include "controller/template_hash.h"
#include "util/name_generation.h"

namespace wasched::controller::deployment {
namespace {

// SkipCopyAnnotation: upstream skipCopyAnnotation.
bool SkipCopyAnnotation(const std::string& key) {
  return key == "kubectl.kubernetes.io/last-applied-configuration" ||
         key == kRevisionAnnotation || key == "deployment.kubernetes.io/revision-history" ||
         key == kDesiredReplicasAnnotation || key == "deployment.kubernetes.io/max-replicas" ||
         key == "deprecated.deployment.rollback.to";
}

}  // namespace

SyncResult Sync(const api::Deployment& d, const api::ObjectSet& cluster) {
  SyncResult r;
  if (d.paused) return r;  // a paused Deployment only syncs existing ReplicaSets
  for (const api::ReplicaSet& rs : cluster.replica_sets) {
    if (rs.meta.namespace_ == d.meta.namespace_ && IsControlledBy(rs.meta, kKind, d.meta)) {
      return r;
    }
  }
  const std::string hash =
      PodTemplateHash(d.pod_template, std::to_string(d.collision_count.value_or(0)));
  api::ReplicaSet& rs = r.created.emplace();
  rs.meta.name = d.meta.name + "-" + hash;
  rs.meta.namespace_ = d.meta.namespace_;
  rs.meta.source = d.meta.source;
  rs.meta.uid = DerivedUid("ReplicaSet", rs.meta.namespace_, rs.meta.name);
  rs.meta.labels = d.pod_template.meta.labels;
  rs.meta.labels[kPodTemplateHashLabel] = hash;
  for (const auto& [k, v] : d.meta.annotations) {
    if (!SkipCopyAnnotation(k)) rs.meta.annotations[k] = v;
  }
  rs.meta.annotations[kRevisionAnnotation] = "1";
  rs.meta.annotations[kDesiredReplicasAnnotation] =
      std::to_string(api::EffectiveReplicas(d.replicas));
  rs.meta.owner_references = {NewControllerRef(kApiVersion, kKind, d.meta)};
  rs.replicas = api::EffectiveReplicas(d.replicas);
  rs.selector = d.selector.value_or(api::LabelSelector{});
  rs.selector->match_labels[kPodTemplateHashLabel] = hash;
  rs.pod_template = d.pod_template;
  rs.pod_template.meta.labels[kPodTemplateHashLabel] = hash;
  return r;
}

}  // namespace wasched::controller::deployment
