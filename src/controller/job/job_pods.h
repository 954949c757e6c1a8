// File: controller/job/job_pods.h
//
// The pods a Job controller sync creates (kubernetes/kubernetes pkg/controller/job
// job_controller.go manageJob / indexed_job_utils.go): as many as the Job wants active minus
// those running, each a copy of spec.template with the Job's labels, its controller owner
// reference and, for a Job managed with a PodGroup, `spec.schedulingGroup.podGroupName`.
#pragma once

#include <optional>
#include <string>
#include <unordered_set>
#include <vector>

#include "api/job.h"
#include "api/pod.h"

namespace wasched::controller::job {

// WantActive: pods the Job wants running: 0 when suspended; parallelism (defaulted 1) when
// completions is unset and nothing succeeded yet (0 once one did); else
// min(parallelism, completions − succeeded), at least 0.
[[nodiscard]] int32_t WantActive(const api::Job& job);

// NewJobPods: WantActive(job) − |active existing pods| new pods (active: not Succeeded/Failed).
// Names: the API server's generateName `<job>-` (NonIndexed) or `<job>-<index>-` (Indexed;
// upstream podGenerateNameWithIndex), cut to 58 characters (the job name is cut, `-<index>-`
// kept), plus NameSuffix(<uid>/<ordinal>) (wasched's deterministic stand-in
// for the random suffix); a name an existing pod or an earlier new pod holds is derived again
// from NameSuffix(<uid>/<ordinal>#<attempt>), as the API server retries a colliding generateName. Indexed pods take the lowest completion indexes in [0, completions)
// that no existing pod holds and carry the index as label and annotation
// batch.kubernetes.io/job-completion-index. Labels: the template's, then
// batch.kubernetes.io/controller-uid, batch.kubernetes.io/job-name, controller-uid, job-name.
// Owner: batch/v1 Job, controller, blockOwnerDeletion. Uid: DerivedUid("Pod", ns, name).
// O(pods).
// `taken_pod_keys` ("ns/name", may be nullptr): names other pods hold, also avoided.
[[nodiscard]] std::vector<api::Pod> NewJobPods(
    const api::Job& job, const std::vector<const api::Pod*>& existing,
    const std::optional<std::string>& pod_group_name,
    const std::unordered_set<std::string>* taken_pod_keys = nullptr);

// JobOwnerReference: metav1.NewControllerRef(job, batch/v1 Job).
[[nodiscard]] api::OwnerReference JobOwnerReference(const api::Job& job);

}  // namespace wasched::controller::job
