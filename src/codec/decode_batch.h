// File: codec/decode_batch.h
//
// Decoder for batch/v1 Job (internal to codec/): metadata, spec.{parallelism, completions,
// completionMode, suspend, template, scheduling} and the status counters
// (spec/was-v1.37.md §2.8; kubernetes/api batch/v1/types.go). `spec.scheduling` holds the
// scheduling.k8s.io/v1alpha3 building blocks (§2.6), decoded here too. Both the current field
// names `schedulingPolicy` / `schedulingConstraints` and the older alpha spellings `policy` /
// `constraints` are read; the spelling used is recorded in the api object so that validation
// errors carry the path the user wrote. Other Job fields that do not matter to scheduling
// (backoffLimit, podFailurePolicy, selector, …) are ignored silently; unknown fields warn.
#pragma once

#include "api/job.h"
#include "codec/yaml_reader.h"

namespace wasched::codec::internal {

// DecodeJob: the whole object; errors (wrong types, both spellings of one field, unknown
// completionMode) go to the Reader's Diagnostics. O(fields).
void DecodeJob(const Reader& root, api::Job* job);

// DecodeJobSpec: a batch/v1 JobSpec (the fields DecodeJob reads under `spec`) into `job`;
// shared with JobSet's replicatedJobs[].template.spec. O(fields).
void DecodeJobSpec(const Reader& spec, api::Job* job);

// DecodePodTemplate: a PodTemplateSpec `{metadata: {labels, annotations}, spec: PodSpec}` into
// `pod` (its meta gets only labels and annotations; other template metadata is legal and
// ignored). `restart_policy` gets spec.restartPolicy as written (a Pod keeps none). Shared with
// the apps/v1 kinds, JobSet and LeaderWorkerSet. O(fields).
void DecodePodTemplate(const Reader& r, api::Pod* pod, std::string* restart_policy);

// DecodeJobSchedulingConfiguration: `spec.scheduling`; null leaves `*out` unset, a map sets it
// (even `{}`, which is "set" for the NoSet/NoUnset rules). O(fields).
void DecodeJobSchedulingConfiguration(const Reader& r,
                                      std::optional<api::JobSchedulingConfiguration>* out);

}  // namespace wasched::codec::internal
