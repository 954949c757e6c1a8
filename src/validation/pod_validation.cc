// File: validation/pod_validation.cc
#include "validation/pod_validation.h"

#include "validation/names.h"
#include "validation/scheduling_fields.h"
#include "validation/update_validation.h"

namespace wasched::validation {

ErrorList ValidatePodSchedulingGroup(const api::Pod& pod, const api::Pod* old,
                                     const FeatureGates& gates) {
  ErrorList errs;
  const std::string path = "spec.schedulingGroup";
  // One-member union (podGroupName): `{}` / `{podGroupName: null}` is "must specify one of",
  // reported at the member (pkg/apis/core/validation validateSchedulingGroup; observed on the
  // v1.37.2 control plane: `spec.schedulingGroup.podGroupName: Invalid value: null`).
  const bool empty = pod.scheduling_group_set && !pod.pod_group_name;
  const bool old_empty = old != nullptr && old->scheduling_group_set && !old->pod_group_name;
  if (empty && !old_empty) {
    errs.push_back(Invalid(Child(path, "podGroupName"), kNullValue,
                           "must specify one of: `podGroupName`"));
  }
  const auto* old_group = old != nullptr ? &old->pod_group_name : nullptr;
  if (Unchanged(pod.pod_group_name, old_group)) return errs;
  bool blocked = false;
  if (!gates.generic_workload && pod.pod_group_name) {
    errs.push_back(Forbidden(path));
    blocked = true;
  }
  blocked |= CheckImmutable(pod.pod_group_name, old_group, path, &errs);
  if (!blocked && pod.pod_group_name) {
    for (FieldError& e : LongName(Child(path, "podGroupName"), *pod.pod_group_name)) {
      errs.push_back(std::move(e));
    }
  }
  return errs;
}

}  // namespace wasched::validation
