// File: codec/decode_batch.cc
//
// batch/v1 Job decoder (see decode_batch.h).
#include "codec/decode_batch.h"

#include <fmt/format.h>

#include <string>
#include <string_view>

#include "codec/decode_common.h"
#include "codec/decode_core.h"
#include "codec/decode_scheduling.h"

namespace wasched::codec::internal {
namespace {

// batch/v1 JobSpec fields that do not affect what wasched computes.
constexpr std::string_view kIgnoredJobSpecFields[] = {
    "activeDeadlineSeconds", "backoffLimit",     "backoffLimitPerIndex", "maxFailedIndexes",
    "podFailurePolicy",      "successPolicy",    "selector",             "manualSelector",
    "ttlSecondsAfterFinished", "podReplacementPolicy", "managedBy"};

// PodTemplateSpec metadata fields besides labels/annotations: legal, without effect on a template.
constexpr std::string_view kIgnoredTemplateMetaFields[] = {
    "name", "generateName", "namespace", "uid", "creationTimestamp", "ownerReferences",
    "finalizers", "resourceVersion", "generation", "managedFields", "selfLink"};

// batch/v1 JobStatus fields wasched does not read.
constexpr std::string_view kIgnoredJobStatusFields[] = {
    "conditions", "startTime", "completionTime", "completedIndexes", "failedIndexes",
    "terminating", "uncountedTerminatedPods", "ready"};

void DecodeCompletionMode(const Reader& r, std::optional<api::CompletionMode>* out) {
  if (r.IsNull()) return;
  if (r.Kind() != ValueKind::kString) {
    r.TypeError("string");
    return;
  }
  const std::string_view text = r.Scalar();
  if (text == "NonIndexed") {
    *out = api::CompletionMode::kNonIndexed;
  } else if (text == "Indexed") {
    *out = api::CompletionMode::kIndexed;
  } else {
    r.Error(FieldErrorType::kNotSupported, QuoteValue(text),
            "supported values: \"Indexed\", \"NonIndexed\"");
  }
}

}  // namespace

void DecodePodTemplate(const Reader& r, api::Pod* pod, std::string* restart_policy) {
  r.ForEachField([&](std::string_view key, const Reader& f) {
    if (key == "metadata") {
      f.ForEachField([&](std::string_view mkey, const Reader& mf) {
        if (mkey == "labels") mf.Read(&pod->meta.labels);
        else if (mkey == "annotations") mf.Read(&pod->meta.annotations);
        else return IsOneOf(mkey, kIgnoredTemplateMetaFields);
        return true;
      });
    } else if (key == "spec") {
      if (f.Kind() == ValueKind::kMap) {
        f.ForEachField([&](std::string_view skey, const Reader& sf) {
          if (skey == "restartPolicy" && !sf.IsNull()) sf.Read(restart_policy);
          return true;
        });
      }
      DecodePodSpec(f, pod);
    } else {
      return false;
    }
    return true;
  });
}

namespace {

// DecodeBuildingBlockPolicy: WorkloadPodGroupSchedulingPolicy (basic{} | gang{minCount *int32}).
void DecodeBuildingBlockPolicy(const Reader& r,
                               std::optional<api::WorkloadPodGroupSchedulingPolicy>* out) {
  if (r.IsNull()) return;
  if (!r.ExpectKind(ValueKind::kMap)) return;
  api::WorkloadPodGroupSchedulingPolicy& policy = out->emplace();
  r.ForEachField([&](std::string_view key, const Reader& f) {
    if (key == "basic") {
      if (DecodeEmptyStruct(f)) policy.basic.emplace();
    } else if (key == "gang") {
      if (!f.ExpectKind(ValueKind::kMap)) return true;
      api::WorkloadPodGroupGangSchedulingPolicy& gang = policy.gang.emplace();
      f.ForEachField([&](std::string_view gkey, const Reader& gf) {
        if (gkey != "minCount") return false;
        gf.Read(&gang.min_count);
        return true;
      });
    } else {
      return false;
    }
    return true;
  });
}

void DecodeJobStatus(const Reader& r, api::JobStatus* status) {
  r.ForEachField([&](std::string_view key, const Reader& f) {
    if (key == "active") f.Read(&status->active);
    else if (key == "succeeded") f.Read(&status->succeeded);
    else if (key == "failed") f.Read(&status->failed);
    else return IsOneOf(key, kIgnoredJobStatusFields);
    return true;
  });
}

}  // namespace

void DecodeJobSchedulingConfiguration(const Reader& r,
                                      std::optional<api::JobSchedulingConfiguration>* out) {
  if (r.IsNull()) return;
  if (!r.ExpectKind(ValueKind::kMap)) return;
  api::JobSchedulingConfiguration& s = out->emplace();
  // Only the v1.37 spellings: the older alpha `policy` / `constraints` are not fields of
  // k8s.io/api batch/v1 v0.37.2, so they are unknown fields (observed on the v1.37.2 control
  // plane: `unknown field "spec.scheduling.policy"` with kubectl's strict validation).
  r.ForEachField([&](std::string_view key, const Reader& f) {
    if (key == api::kJobSchedulingPolicyField) {
      DecodeBuildingBlockPolicy(f, &s.scheduling_policy);
    } else if (key == api::kJobSchedulingConstraintsField) {
      DecodeSchedulingConstraints(f, &s.scheduling_constraints);
    } else if (key == "disruptionMode") {
      DecodeDisruptionMode(f, &s.disruption_mode);
    } else if (key == "resourceClaims") {
      DecodeResourceClaims(f, &s.resource_claims);
    } else {
      return false;
    }
    return true;
  });
}

void DecodeJobSpec(const Reader& spec, api::Job* job) {
  spec.ForEachField([&](std::string_view skey, const Reader& sf) {
    if (skey == "parallelism") sf.Read(&job->parallelism);
    else if (skey == "completions") sf.Read(&job->completions);
    else if (skey == "completionMode") DecodeCompletionMode(sf, &job->completion_mode);
    else if (skey == "suspend") sf.Read(&job->suspend);
    else if (skey == "template") DecodePodTemplate(sf, &job->pod_template, &job->template_restart_policy);
    else if (skey == "scheduling") DecodeJobSchedulingConfiguration(sf, &job->scheduling);
    else return IsOneOf(skey, kIgnoredJobSpecFields);
    return true;
  });
}

void DecodeJob(const Reader& root, api::Job* job) {
  DecodeTopLevel(root, /*namespaced=*/true, &job->meta, [&](std::string_view key,
                                                            const Reader& f) {
    if (key == "spec") {
      DecodeJobSpec(f, job);
    } else if (key == "status") {
      DecodeJobStatus(f, &job->status);
    } else {
      return false;
    }
    return true;
  });
}

}  // namespace wasched::codec::internal
