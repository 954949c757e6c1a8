// File: codec/decode_jobset.h
//
// Decoder for jobset.x-k8s.io/v1alpha2 JobSet (internal to codec/): metadata,
// spec.{replicatedJobs[] {name, groupName, replicas, template {metadata, spec: JobSpec},
// dependsOn}, startupPolicy, suspend, coordinator, network, scheduling (KEP-969)} and
// status.restarts, with the CRD defaults and JobSet webhook defaults that affect the pods
// (replicas 1, groupName "default", completionMode Indexed, pod restartPolicy OnFailure,
// enableDNSHostnames true). Other JobSet fields (failurePolicy, successPolicy, …) are ignored
// silently; unknown fields warn. Source: kubernetes-sigs/jobset api/jobset/v1alpha2.
#pragma once

#include "api/jobset.h"
#include "codec/yaml_reader.h"

namespace wasched::codec::internal {

void DecodeJobSet(const Reader& root, api::JobSet* out);

}  // namespace wasched::codec::internal
