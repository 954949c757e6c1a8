// File: validation/workload_controller_validation.h
//
// Create validation of the workload controllers' kinds, the parts wasched models:
//   - apps/v1 Deployment, ReplicaSet, StatefulSet (kubernetes/kubernetes
//     pkg/apis/apps/validation/validation.go ValidateDeploymentSpec / ValidateReplicaSetSpec /
//     ValidateStatefulSetSpec): metadata; spec.replicas ≥ 0; spec.selector Required and not
//     empty; spec.template.metadata.labels must match it ("selector does not match template
//     labels"); the pod template as a Job's (labels, annotations, the core PodSpec rules, the
//     schedulingGroup gate);
//   - jobset.x-k8s.io/v1alpha2 JobSet (its webhook, pkg/webhooks/jobset_webhook.go, in part):
//     metadata; replicatedJobs non-empty names, each once; replicas ≥ 0;
//   - leaderworkerset.x-k8s.io/v1 LeaderWorkerSet (its webhook, in part): metadata; replicas
//     ≥ 0; leaderWorkerTemplate.size ≥ 1.
// What the controllers create (Jobs, StatefulSets, ReplicaSets, Pods, groups) is validated as
// created objects (cli/compile_command.h CreatedObjectErrors), as the API server would.
//
//   ErrorList errs = ValidateDeployment(d, gates);
#pragma once

#include "api/apps.h"
#include "api/jobset.h"
#include "api/leader_worker_set.h"
#include "util/feature_gates.h"
#include "validation/field_errors.h"

namespace wasched::validation {

[[nodiscard]] ErrorList ValidateDeployment(const api::Deployment& d, const FeatureGates& gates);
[[nodiscard]] ErrorList ValidateReplicaSet(const api::ReplicaSet& rs, const FeatureGates& gates);
[[nodiscard]] ErrorList ValidateStatefulSet(const api::StatefulSet& sts, const FeatureGates& gates);
[[nodiscard]] ErrorList ValidateJobSet(const api::JobSet& js);
[[nodiscard]] ErrorList ValidateLeaderWorkerSet(const api::LeaderWorkerSet& lws);

}  // namespace wasched::validation
