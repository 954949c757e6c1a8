// File: controller/job/names.h
//
// The names and hashes the Job controller gives the objects it creates, exactly as upstream
// (kubernetes/kubernetes pkg/controller/job/job_scheduling_manager.go computeWorkloadName /
// computePodGroupName; k8s.io/apimachinery/pkg/util/rand.SafeEncodeString;
// pkg/util/hash.DeepHashObject; spec/was-v1.37.md §8.3–8.4), plus wasched's deterministic
// stand-ins for what the API server would generate (uids, pod name suffixes).
//
//   ComputeWorkloadName(job)                       // "train-5c7b8d9f4"  (job.name + "-" + hash(uid))
//   ComputePodGroupName("train-5c7b8d9f4", "train-pgt-0")
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "api/job.h"
#include "util/name_generation.h"

namespace wasched::controller::job {

// kDNS1123SubdomainMaxLength: validation.DNS1123SubdomainMaxLength.
inline constexpr size_t kDNS1123SubdomainMaxLength = 253;

// Fnv32a: util/name_generation.h (FNV-1a 32-bit, Go hash/fnv New32a).
using ::wasched::Fnv32a;

// SafeEncodeString, DerivedUid: util/name_generation.h.
using ::wasched::DerivedUid;
using ::wasched::SafeEncodeString;

// UidHash: SafeEncodeString(decimal(fnv32a(DeepHashObject(uid)))). DeepHashObject writes the
// value with go-spew's "%#v" (DisableMethods): a types.UID prints as `(types.UID)<uid>`, so that
// text is what is hashed. O(length of uid).
[[nodiscard]] std::string UidHash(std::string_view uid);

// ComputeWorkloadName: `<job name, truncated to 253 − len(hash) − 1>-<UidHash(job uid)>`.
[[nodiscard]] std::string ComputeWorkloadName(const api::Job& job);

// ComputePodGroupName: `<workload>-<template>-<hash>`, hash = SafeEncodeString(decimal(
// fnv32a(workload ‖ template))). When len(workload) + len(template) exceeds
// B = 253 − len(hash) − 2, the part that fits in half of B keeps its length and the other is
// cut to the rest; if both exceed half, the workload gets B − B/2 and the template B/2.
[[nodiscard]] std::string ComputePodGroupName(std::string_view workload_name,
                                              std::string_view template_name);

// PodGroupTemplateName: `<job name>-pgt-0` (the Job's single template).
[[nodiscard]] std::string PodGroupTemplateName(const api::Job& job);

// NameSuffix: wasched-only stand-in for the API server's generateName suffix (5 characters of
// rand.String's alphabet), derived from `seed` (util/name_generation.h DerivedNameSuffix).
// O(length of seed).
[[nodiscard]] std::string NameSuffix(std::string_view seed);

}  // namespace wasched::controller::job
