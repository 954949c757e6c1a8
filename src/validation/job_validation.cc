// File: validation/job_validation.cc
//
// Job validation (see job_validation.h). DV rules from kubernetes/api batch/v1 types.go and the
// scheduling/v1alpha3 building-block markers; parallelism/completions as pkg/apis/batch/validation
// (ValidateNonnegativeField).
#include "validation/job_validation.h"

#include <fmt/format.h>

#include "validation/object_meta_validation.h"
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
  const std::string policy_path = Child(base, s.scheduling_policy_field);
  const auto* old_policy = old != nullptr ? &old->scheduling_policy : nullptr;
  if (!Unchanged(s.scheduling_policy, old_policy)) {
    const bool old_set = old_policy != nullptr && old_policy->has_value();
    const bool blocked = CheckNoSetNoUnset(s.scheduling_policy.has_value(),
                                           old != nullptr ? &old_set : nullptr, policy_path, errs);
    if (!blocked && s.scheduling_policy) {
      const PolicyView view = ViewOfBuildingBlock(*s.scheduling_policy);
      const PolicyView old_view = old_set ? ViewOfBuildingBlock(**old_policy) : PolicyView{};
      ValidatePolicy(view, old_set ? &old_view : nullptr, policy_path, "minCount",
                     CountKind::kPointer, errs);
    }
  }
  ValidateSchedulingConstraints(s.scheduling_constraints,
                                old != nullptr ? &old->scheduling_constraints : nullptr,
                                Child(base, s.scheduling_constraints_field),
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
      Child(Child(Child("spec.scheduling", job.scheduling->scheduling_policy_field), "gang"),
            "minCount");
  errs->push_back(Invalid(path, std::to_string(*gang->min_count),
                          fmt::format(kMinCountAboveParallelismDetail, parallelism)));
}

}  // namespace

ErrorList ValidateJob(const api::Job& job, const api::Job* old, const FeatureGates& gates) {
  ErrorList errs;
  if (old == nullptr) errs = ValidateObjectMeta(job.meta);
  ValidateNonNegative(job.parallelism, "spec.parallelism", &errs);
  ValidateNonNegative(job.completions, "spec.completions", &errs);

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
