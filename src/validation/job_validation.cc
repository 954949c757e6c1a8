// File: validation/job_validation.cc
//
// Job validation (see job_validation.h). DV rules from kubernetes/api batch/v1 types.go and the
// scheduling/v1alpha3 building-block markers; parallelism/completions as pkg/apis/batch/validation
// (ValidateNonnegativeField).
#include "validation/job_validation.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>

#include "controller/job/job_controller.h"
#include "validation/core_validation.h"
#include "validation/names.h"
#include "validation/object_meta_validation.h"
#include "validation/pod_validation.h"
#include "validation/scheduling_fields.h"
#include "validation/update_validation.h"

namespace wasched::validation {
namespace {

constexpr const char* kBasicWithAllDetail =
    "the disruptionMode `all` is not supported with the Basic scheduling policy";

PolicyView ViewOfBuildingBlock(const api::WorkloadPodGroupSchedulingPolicy& p) {
  PolicyView v;
  v.basic = p.basic.has_value();
  v.gang = p.gang.has_value();
  if (p.gang) v.count = p.gang->min_count;
  return v;
}

void ValidateNonNegative(const std::optional<int32_t>& value, const char* path, ErrorList* errs) {
  if (value && *value < 0) {
    errs->push_back(Invalid(path, std::to_string(*value), "must be greater than or equal to 0"));
  }
}

void ValidateScheduling(const api::JobSchedulingConfiguration& s,
                        const api::JobSchedulingConfiguration* old, ErrorList* errs) {
  const std::string base = "spec.scheduling";
  const std::string policy_path = Child(base, api::kJobSchedulingPolicyField);
  const auto* old_policy = old != nullptr ? &old->scheduling_policy : nullptr;
  if (!Unchanged(s.scheduling_policy, old_policy)) {
    const bool old_set = old_policy != nullptr && old_policy->has_value();
    const bool blocked = CheckNoSetNoUnset(s.scheduling_policy.has_value(),
                                           old != nullptr ? &old_set : nullptr, policy_path, errs);
    // A switch between basic and gang on update is one error at the policy (batch validation's
    // validateJobSchedulingUpdate; observed on the v1.37.2 control plane: no error at .basic or
    // .gang beside it).
    const bool variant_switch = !blocked && s.scheduling_policy && old_set &&
                                s.scheduling_policy->basic.has_value() !=
                                    (*old_policy)->basic.has_value();
    if (variant_switch) {
      errs->push_back(Invalid(policy_path, kNullValue, kPolicyVariantImmutableDetail));
    } else if (!blocked && s.scheduling_policy) {
      const PolicyView view = ViewOfBuildingBlock(*s.scheduling_policy);
      const PolicyView old_view = old_set ? ViewOfBuildingBlock(**old_policy) : PolicyView{};
      ValidatePolicy(view, old_set ? &old_view : nullptr, policy_path, "minCount",
                     CountKind::kPointer, errs);
    }
  }
  ValidateSchedulingConstraints(s.scheduling_constraints,
                                old != nullptr ? &old->scheduling_constraints : nullptr,
                                Child(base, api::kJobSchedulingConstraintsField),
                                /*gate_enabled=*/true, errs);
  ValidateDisruptionMode(s.disruption_mode, old != nullptr ? &old->disruption_mode : nullptr,
                         Child(base, "disruptionMode"), errs);
  // spec/was-v1.37.md §3.7/§9.4: upstream's Job validation runs workloadbuilder.Validate, whose
  // Basic+All cross-check resolves an unset policy to Basic.
  const bool basic = !s.scheduling_policy || s.scheduling_policy->basic.has_value();
  if (basic && s.disruption_mode && s.disruption_mode->all) {
    errs->push_back(Invalid(Child(base, "disruptionMode"), Quote(""), kBasicWithAllDetail));
  }
  ValidateResourceClaims(s.resource_claims, old != nullptr ? &old->resource_claims : nullptr,
                         Child(base, "resourceClaims"), errs);
}

// ValidateMinCountWithinParallelism: the hand-written KEP-5547 rule on the final object.
void ValidateMinCountWithinParallelism(const api::Job& job, ErrorList* errs) {
  if (!job.scheduling || !job.scheduling->scheduling_policy) return;
  const auto& gang = job.scheduling->scheduling_policy->gang;
  if (!gang || !gang->min_count || *gang->min_count < 1) return;  // DV reports < 1
  const int32_t parallelism = api::EffectiveParallelism(job);
  if (*gang->min_count <= parallelism) return;
  const std::string path =
      Child(Child(Child("spec.scheduling", api::kJobSchedulingPolicyField), "gang"),
            "minCount");
  errs->push_back(Invalid(path, std::to_string(*gang->min_count),
                          fmt::format(kMinCountAboveParallelismDetail, parallelism)));
}

// PrefixTemplate: a Pod's errors (`spec.containers…`) as the Job template's
// (`spec.template.spec.containers…`), appended to `errs`.
void AppendTemplateErrors(ErrorList pod_errors, ErrorList* errs) {
  for (FieldError& e : pod_errors) {
    e.field = Child("spec.template", e.field);
    errs->push_back(std::move(e));
  }
}

// ValidateTemplate: upstream validateJobSpec's template part (pkg/apis/batch/validation/
// validation.go): ValidatePodTemplateSpec at spec.template — labels (with the job-name labels
// the create strategy's generateSelector adds, so a name over 63 characters is
// `spec.template.labels: Invalid value: "<name>": must be no more than 63 characters`; identical
// errors once, as field.ErrorList.ToAggregate dedups), the PodSpec core rules
// (validation/core_validation.h), spec.schedulingGroup — then the Job's restartPolicy rule:
// "" or Always (SetDefaults_PodSpec defaults "" to Always) is Required "valid values:
// \"OnFailure\", \"Never\"", anything else NotSupported.
void ValidateTemplate(const api::Job& job, const FeatureGates& gates, ErrorList* errs) {
  std::map<std::string, std::string> labels = job.pod_template.meta.labels;
  if (!job.meta.name.empty()) {
    labels.emplace(controller::job::kJobNameLabel, job.meta.name);
    labels.emplace(controller::job::kLegacyJobNameLabel, job.meta.name);
  }
  for (FieldError& e : ValidateLabels(labels, "spec.template.labels")) {
    const bool seen = std::any_of(errs->begin(), errs->end(), [&](const FieldError& o) {
      return o.field == e.field && o.bad_value == e.bad_value && o.detail == e.detail;
    });
    if (!seen) errs->push_back(std::move(e));
  }
  for (FieldError& e :
       ValidateAnnotations(job.pod_template.meta.annotations, "spec.template.annotations")) {
    errs->push_back(std::move(e));
  }
  AppendTemplateErrors(ValidatePodSpecCore(job.pod_template, PodSpecSource::kTemplate), errs);
  if (gates.generic_workload) {
    AppendTemplateErrors(ValidatePodSchedulingGroup(job.pod_template, nullptr, gates), errs);
  }
  const std::string& policy = job.template_restart_policy;
  const char* restart_path = "spec.template.spec.restartPolicy";
  if (policy.empty() || policy == "Always") {
    errs->push_back(Required(restart_path, kJobRestartPolicyValues));
  } else if (policy != "OnFailure" && policy != "Never") {
    errs->push_back(NotSupported(restart_path, Quote(policy), {"OnFailure", "Never"}));
  }
}

// ValidateIndexed: validateJobSpec's Indexed rules and ValidateJob's pod-hostname rule.
void ValidateIndexed(const api::Job& job, ErrorList* errs) {
  if (job.completion_mode != api::CompletionMode::kIndexed) return;
  // Checked after defaulting, as the API server does: a Job with neither completions nor
  // parallelism gets both 1 (SetDefaults_Job), so only a Job with parallelism alone lacks them.
  const std::optional<int32_t> completions = api::EffectiveCompletions(job);
  if (!completions) {
    errs->push_back(Required("spec.completions", "when completion mode is Indexed"));
  }
  if (job.parallelism && *job.parallelism > kMaxParallelismForIndexedJob) {
    errs->push_back(Invalid("spec.parallelism", std::to_string(*job.parallelism),
                            fmt::format("must be less than or equal to {} when completion mode "
                                        "is Indexed",
                                        kMaxParallelismForIndexedJob)));
  }
  if (completions && *completions > 0 && !job.meta.name.empty()) {
    const std::string hostname = fmt::format("{}-{}", job.meta.name, *completions - 1);
    if (!Dns1123LabelErrors(hostname).empty()) {
      errs->push_back(Invalid("metadata.name", Quote(job.meta.name),
                              "will not able to create pod with invalid DNS label: " + hostname));
    }
  }
}

}  // namespace

ErrorList ValidateJob(const api::Job& job, const api::Job* old, const FeatureGates& gates) {
  ErrorList errs;
  if (old == nullptr) errs = ValidateObjectMeta(job.meta);
  ValidateNonNegative(job.parallelism, "spec.parallelism", &errs);
  ValidateNonNegative(job.completions, "spec.completions", &errs);
  ValidateIndexed(job, &errs);
  ValidateTemplate(job, gates, &errs);

  const auto* old_scheduling = old != nullptr ? &old->scheduling : nullptr;
  if (!Unchanged(job.scheduling, old_scheduling)) {
    bool blocked = false;
    if (!gates.workload_with_job && job.scheduling) {
      errs.push_back(Forbidden("spec.scheduling"));
      blocked = true;
    }
    const bool old_set = old_scheduling != nullptr && old_scheduling->has_value();
    blocked |= CheckNoSetNoUnset(job.scheduling.has_value(), old != nullptr ? &old_set : nullptr,
                                 "spec.scheduling", &errs);
    if (!blocked && job.scheduling) {
      ValidateScheduling(*job.scheduling, old_set ? &**old_scheduling : nullptr, &errs);
    }
  }
  if (gates.workload_with_job) ValidateMinCountWithinParallelism(job, &errs);
  return errs;
}

}  // namespace wasched::validation
