// File: controller/jobset/names.h
//
// The names, labels and annotations the JobSet controller gives what it creates, exactly as
// upstream: child Jobs `<jobset>-<replicatedJob>-<index>` (pkg/util/placement GenJobName), the
// `jobset.sigs.k8s.io/*` keys (api/jobset/v1alpha2/jobset_types.go, pkg/constants), the job key
// SHA-1 of `<namespace>/<job>`, and the KEP-969 workload-aware scheduling names (pkg/controllers
// scheduling.go of the KEP's implementation: `<name>-<10 hex of SHA-1 of kind/namespace/name>`
// cut to 63 characters). Pure; O(length).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "api/jobset.h"

namespace wasched::controller::jobset {

inline constexpr const char* kApiVersion = "jobset.x-k8s.io/v1alpha2";
inline constexpr const char* kKind = "JobSet";

// Label / annotation keys.
inline constexpr const char* kJobSetNameKey = "jobset.sigs.k8s.io/jobset-name";
inline constexpr const char* kJobSetUidKey = "jobset.sigs.k8s.io/jobset-uid";
inline constexpr const char* kReplicatedJobNameKey = "jobset.sigs.k8s.io/replicatedjob-name";
inline constexpr const char* kReplicatedJobReplicasKey = "jobset.sigs.k8s.io/replicatedjob-replicas";
inline constexpr const char* kGlobalReplicasKey = "jobset.sigs.k8s.io/global-replicas";
inline constexpr const char* kJobIndexKey = "jobset.sigs.k8s.io/job-index";
inline constexpr const char* kJobGlobalIndexKey = "jobset.sigs.k8s.io/job-global-index";
inline constexpr const char* kJobKey = "jobset.sigs.k8s.io/job-key";
inline constexpr const char* kGroupNameKey = "jobset.sigs.k8s.io/group-name";
inline constexpr const char* kGroupReplicasKey = "jobset.sigs.k8s.io/group-replicas";
inline constexpr const char* kJobGroupIndexKey = "jobset.sigs.k8s.io/job-group-index";
inline constexpr const char* kRestartsKey = "jobset.sigs.k8s.io/restart-attempt";
inline constexpr const char* kCoordinatorKey = "jobset.sigs.k8s.io/coordinator";
inline constexpr const char* kPriorityKey = "jobset.sigs.k8s.io/priority";
inline constexpr const char* kExclusiveKey = "alpha.jobset.sigs.k8s.io/exclusive-topology";
inline constexpr const char* kNodeSelectorStrategyKey = "alpha.jobset.sigs.k8s.io/node-selector";
inline constexpr const char* kNamespacedJobKey = "alpha.jobset.sigs.k8s.io/namespaced-job";
inline constexpr const char* kNoScheduleTaintKey = "alpha.jobset.sigs.k8s.io/no-schedule";
// KEP-6089 controller linkage (child Job → its PodGroupTemplate).
inline constexpr const char* kGroupTemplateNameKey = "scheduling.k8s.io/group-template-name";

// JobName: `<jobset>-<replicatedJob>-<index>`.
[[nodiscard]] std::string JobName(const std::string& jobset, const std::string& replicated_job,
                                  int32_t index);

// JobKey: SHA-1 hex of `<namespace>/<job name>` (the job-key label).
[[nodiscard]] std::string JobKey(const std::string& namespace_, const std::string& job_name);

// KEP-969 names (scheduling.go): HashedName `<prefix>-<hash>` cut so the result has at most 63
// characters (the prefix is cut); IdentityHash the first 10 hex characters of SHA-1 of
// `<kind>/<namespace>/<name>`.
[[nodiscard]] std::string HashedName(const std::string& prefix, const std::string& hash);
[[nodiscard]] std::string IdentityHash(const std::string& kind, const std::string& namespace_,
                                       const std::string& name);
[[nodiscard]] std::string WorkloadName(const api::JobSet& js);
[[nodiscard]] std::string TopLevelTemplateName(const api::JobSet& js);
[[nodiscard]] std::string PerReplicatedJobTemplateName(const api::JobSet& js, const std::string& rj);
[[nodiscard]] std::string GroupTemplateName(const api::JobSet& js,
                                            const std::vector<std::string>& targets);
[[nodiscard]] std::string PerJobTemplateName(const api::JobSet& js, const std::string& rj,
                                             int32_t index);
// PodGroupName: `<jobset>-<template>` when it fits 63 characters, else the JobSet name cut to
// 52 characters + `-` + 10 hex of SHA-1 of `<jobset>/<template>`.
[[nodiscard]] std::string PodGroupName(const std::string& jobset, const std::string& template_name);

}  // namespace wasched::controller::jobset
