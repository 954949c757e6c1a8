// File: validation/job_validation.h
//
// batch/v1 Job validation, the parts workload-aware scheduling owns (spec/was-v1.37.md §2.8,
// §3.7; KEP-5547): metadata, spec.parallelism / spec.completions ≥ 0, the Indexed limits
// (completions Required, parallelism ≤ 100000, `<name>-<completions-1>` a DNS label), the pod
// template as upstream's validateJobSpec checks it (pkg/apis/batch/validation/validation.go:
// ValidatePodTemplateSpec at `spec.template` — labels including the job-name labels the create
// strategy adds (a name over 63 characters is invalid), annotations, the core PodSpec rules of
// validation/core_validation.h under `spec.template.spec…`, spec.schedulingGroup — and
// restartPolicy OnFailure or Never), and spec.scheduling:
//   - Forbidden `spec.scheduling` while WorkloadWithJob is off (create, or a changed value);
//   - NoSet / NoUnset of spec.scheduling and of its schedulingPolicy (Invalid, origin update);
//   - schedulingPolicy: union basic | gang, basic immutable, gang NoSet/NoUnset, gang.minCount
//     a *int32: unset is fine (the controller defaults it to parallelism), 0 or less is
//     Invalid(minimum) — not Required as in a PodGroupTemplate;
//   - schedulingConstraints (topology ≤ 1, keys Required / label key), disruptionMode (union)
//     and resourceClaims (≤ 4, unique names, union of references, name formats): immutable;
//   - hand-written (KEP-5547 "API Validation"; pkg/apis/batch/validation validateGangMinCount):
//     gang.minCount must not exceed the Job's parallelism (defaulted: unset → 1), checked on the
//     final object on create and update, so raising both in one request is accepted. The error:
//     `Invalid spec.scheduling.<policy>.gang.minCount`, value the count,
//     detail "must not be greater than parallelism (N)", no origin (upstream's
//     hand-written errors carry none).
// Paths use the spelling the manifest used: `spec.scheduling.policy…` for an old alpha manifest,
// `spec.scheduling.schedulingPolicy…` otherwise.
//
//   ErrorList errs = ValidateJob(job, /*old=*/nullptr, gates);
#pragma once

#include "api/job.h"
#include "util/feature_gates.h"
#include "validation/field_errors.h"

namespace wasched::validation {

// kMinCountAboveParallelismDetail: detail of the hand-written rule ({} = the parallelism);
// upstream pkg/apis/batch/validation validateGangMinCount, observed on the v1.37.2 control plane.
inline constexpr const char* kMinCountAboveParallelismDetail =
    "must not be greater than parallelism ({})";

// kPolicyVariantImmutableDetail: a Job update that switches spec.scheduling.schedulingPolicy
// between basic and gang (upstream validateJobSchedulingUpdate).
inline constexpr const char* kPolicyVariantImmutableDetail =
    "the basic/gang policy variant is immutable after creation; only schedulingPolicy.gang.minCount "
    "may be updated";

// kMaxParallelismForIndexedJob: upstream maxParallelismForIndexedJob (pkg/apis/batch/validation/
// validation.go): an Indexed Job's spec.parallelism above it is Invalid.
inline constexpr int32_t kMaxParallelismForIndexedJob = 100000;

// kJobRestartPolicyValues: detail of `Required spec.template.spec.restartPolicy` (upstream
// validateJobSpec, for "" and the defaulted "Always").
inline constexpr const char* kJobRestartPolicyValues = "valid values: \"OnFailure\", \"Never\"";

// ValidateJob: the rules above; `old` nullptr = create. O(fields).
[[nodiscard]] ErrorList ValidateJob(const api::Job& job, const api::Job* old,
                                    const FeatureGates& gates);

}  // namespace wasched::validation
