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

namespace wasched::controller::job {

// kDNS1123SubdomainMaxLength: validation.DNS1123SubdomainMaxLength.
inline constexpr size_t kDNS1123SubdomainMaxLength = 253;

// Fnv32a: FNV-1a 32-bit of `data` (Go hash/fnv New32a), continuing from `hash`. O(length).
[[nodiscard]] uint32_t Fnv32a(std::string_view data, uint32_t hash = 2166136261u);

// SafeEncodeString: rand.SafeEncodeString: each character c becomes
// "bcdfghjklmnpqrstvwxz2456789"[c % 27]. O(length).
[[nodiscard]] std::string SafeEncodeString(std::string_view s);

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

// DerivedUid: wasched-only. A deterministic UUID-shaped uid (RFC 9562 version 8, i.e. custom)
// from `kind`, namespace and name, for a Job read without metadata.uid and for the objects
// wasched creates (where the API server would assign a random one). O(length).
[[nodiscard]] std::string DerivedUid(std::string_view kind, std::string_view namespace_,
                                     std::string_view name);

// NameSuffix: wasched-only stand-in for the API server's generateName suffix (5 characters of
// rand.String's alphabet), derived from `seed`. O(length of seed).
[[nodiscard]] std::string NameSuffix(std::string_view seed);

}  // namespace wasched::controller::job
