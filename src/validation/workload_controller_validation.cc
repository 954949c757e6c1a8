// File: validation/workload_controller_validation.cc
//
// Upstream: kubernetes/kubernetes pkg/apis/apps/validation/validation.go (ValidateDeploymentSpec,
// ValidateReplicaSetSpec, ValidateStatefulSetSpec: ValidateNonnegativeField on replicas,
// "selector" Required / "empty selector is invalid for deployment", template labels "selector
// does not match template labels", ValidatePodTemplateSpec); kubernetes-sigs/jobset
// pkg/webhooks/jobset_webhook.go ValidateCreate (replicated job names); kubernetes-sigs/lws
// pkg/webhooks/leaderworkerset_webhook.go (size, replicas).
#include "validation/workload_controller_validation.h"

#include <fmt/format.h>

#include <set>

#include "validation/core_validation.h"
#include "validation/object_meta_validation.h"
#include "validation/pod_validation.h"

namespace wasched::validation {
namespace {

void NonNegative(const std::optional<int32_t>& v, const char* path, ErrorList* errs) {
  if (v && *v < 0) {
    errs->push_back(Invalid(path, std::to_string(*v), "must be greater than or equal to 0"));
  }
}

std::string LabelsValue(const std::map<std::string, std::string>& labels) {
  std::string out = "map[";
  bool first = true;
  for (const auto& [k, v] : labels) {
    if (!first) out += " ";
    out += k + ":" + v;
    first = false;
  }
  return out + "]";
}

// AppsSpec: the selector / template part the three apps kinds share.
void AppsSpec(const std::optional<api::LabelSelector>& selector, const api::Pod& tmpl,
              const FeatureGates& gates, const char* kind, ErrorList* errs) {
  if (!selector) {
    errs->push_back(Required("spec.selector"));
  } else if (api::IsEmpty(*selector)) {
    errs->push_back(Invalid("spec.selector", "{}", fmt::format("empty selector is invalid for {}", kind)));
  } else if (!api::Matches(*selector, tmpl.meta.labels)) {
    errs->push_back(Invalid("spec.template.metadata.labels", LabelsValue(tmpl.meta.labels),
                            "`selector` does not match template `labels`"));
  }
  for (FieldError& e : ValidateLabels(tmpl.meta.labels, "spec.template.labels")) {
    errs->push_back(std::move(e));
  }
  for (FieldError& e : ValidateAnnotations(tmpl.meta.annotations, "spec.template.annotations")) {
    errs->push_back(std::move(e));
  }
  ErrorList pod = ValidatePodSpecCore(tmpl, PodSpecSource::kTemplate);
  if (gates.generic_workload) {
    for (FieldError& e : ValidatePodSchedulingGroup(tmpl, nullptr, gates)) pod.push_back(std::move(e));
  }
  for (FieldError& e : pod) {
    e.field = Child("spec.template", e.field);
    errs->push_back(std::move(e));
  }
}

}  // namespace

ErrorList ValidateDeployment(const api::Deployment& d, const FeatureGates& gates) {
  ErrorList errs = ValidateObjectMeta(d.meta);
  NonNegative(d.replicas, "spec.replicas", &errs);
  AppsSpec(d.selector, d.pod_template, gates, "deployment", &errs);
  return errs;
}

ErrorList ValidateReplicaSet(const api::ReplicaSet& rs, const FeatureGates& gates) {
  ErrorList errs = ValidateObjectMeta(rs.meta);
  NonNegative(rs.replicas, "spec.replicas", &errs);
  AppsSpec(rs.selector, rs.pod_template, gates, "replicaset", &errs);
  return errs;
}

ErrorList ValidateStatefulSet(const api::StatefulSet& sts, const FeatureGates& gates) {
  ErrorList errs = ValidateObjectMeta(sts.meta);
  NonNegative(sts.replicas, "spec.replicas", &errs);
  if (sts.ordinals_start < 0) {
    errs.push_back(Invalid("spec.ordinals.start", std::to_string(sts.ordinals_start),
                           "must be greater than or equal to 0"));
  }
  AppsSpec(sts.selector, sts.pod_template, gates, "statefulset", &errs);
  return errs;
}

ErrorList ValidateJobSet(const api::JobSet& js) {
  ErrorList errs = ValidateObjectMeta(js.meta);
  std::set<std::string> names;
  for (size_t i = 0; i < js.replicated_jobs.size(); ++i) {
    const api::ReplicatedJob& rj = js.replicated_jobs[i];
    const std::string path = fmt::format("spec.replicatedJobs[{}]", i);
    if (rj.name.empty()) {
      errs.push_back(Required(Child(path, "name")));
    } else if (!names.insert(rj.name).second) {
      errs.push_back(Duplicate(Child(path, "name"), Quote(rj.name)));
    }
    if (rj.replicas < 0) {
      errs.push_back(Invalid(Child(path, "replicas"), std::to_string(rj.replicas),
                             "must be greater than or equal to 0"));
    }
  }
  return errs;
}

ErrorList ValidateLeaderWorkerSet(const api::LeaderWorkerSet& lws) {
  ErrorList errs = ValidateObjectMeta(lws.meta);
  if (lws.replicas < 0) {
    errs.push_back(Invalid("spec.replicas", std::to_string(lws.replicas),
                           "must be greater than or equal to 0"));
  }
  if (lws.size < 1) {
    errs.push_back(Invalid("spec.leaderWorkerTemplate.size", std::to_string(lws.size),
                           "must be greater than or equal to 1"));
  }
  return errs;
}

}  // namespace wasched::validation
