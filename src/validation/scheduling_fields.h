// File: validation/scheduling_fields.h
//
// Validators for the fields that Workload templates, PodGroup, CompositePodGroup and the Job
// building blocks share (spec/was-v1.37.md §2.2–2.6, §3.2–3.7): scheduling policy unions,
// scheduling constraints, resource claims, disruption mode and the priority fields. Each one
// follows the conventions of validation/update_validation.h (`old` nullptr on create,
// ratcheting, short-circuit) and appends upstream-shaped errors to `errs`.
//
//   ValidateDisruptionMode(t.disruption_mode, old ? &old->disruption_mode : nullptr,
//                          Child(path, "disruptionMode"), &errs);
#pragma once

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <vector>

#include "api/pod.h"
#include "api/workload.h"
#include "validation/field_errors.h"

namespace wasched::validation {

// UnionMember: one member of a DV union: its field name, whether it is set, and whether the
// "must specify one of" message lists it (members behind a disabled gate are not listed).
struct UnionMember {
  const char* name;
  bool set;
  bool listed = true;
};

// CheckUnion: DV `union`: none set → `Invalid <path>: "": must specify one of: `a`, `b``;
// several → `Invalid <path>: "{a, b}": must specify exactly one of: `a`, `b`` (origin union).
// On update (`old_members` non-null, same order) nothing is checked unless the set of members
// that are set changed (upstream's union ratcheting).
void CheckUnion(const std::string& path, std::initializer_list<UnionMember> members,
                const std::vector<bool>* old_members, ErrorList* errs);

// PolicyView: a scheduling-policy union (basic{} | gang{<count>}) seen the same way for the four
// policy types: PodGroupSchedulingPolicy (count `minCount`, non-pointer: 0 = missing),
// CompositePodGroupSchedulingPolicy (`minGroupCount`, non-pointer) and the building blocks'
// WorkloadPodGroupSchedulingPolicy / WorkloadCompositePodGroupSchedulingPolicy (pointer counts:
// nullopt = unset, 0 is Invalid(minimum)).
struct PolicyView {
  bool basic = false;
  bool gang = false;
  std::optional<int32_t> count;  // gang's count; nullopt when gang unset or (pointer) count unset
  friend bool operator==(const PolicyView&, const PolicyView&) = default;
};

[[nodiscard]] PolicyView ViewOf(const api::PodGroupSchedulingPolicy& p);
[[nodiscard]] PolicyView ViewOf(const api::CompositePodGroupSchedulingPolicy& p);

// CountKind: how the gang count is declared (changes what 0 means).
enum class CountKind {
  kValue,    // int32: 0 = missing → Required; < 0 → Invalid(minimum)
  kPointer,  // *int32: unset is fine; < 1 → Invalid(minimum)
};

// ValidatePolicy: the union (`basic` | `gang`, origin union, ratcheted on membership), `basic`
// immutable (Invalid immutable at <path>.basic), `gang` NoSet/NoUnset (Invalid update at
// <path>.gang), and `gang.<count_name>` minimum 1 (mutable; ratcheted when unchanged).
// `old` nullptr on create.
void ValidatePolicy(const PolicyView& policy, const PolicyView* old, const std::string& path,
                    const char* count_name, CountKind count_kind, ErrorList* errs);

// ValidateSchedulingConstraints: `schedulingConstraints` (`{topology: [{key}]}`): Forbidden when
// set and `gate_enabled` is false (TopologyAwareWorkloadScheduling), immutable on update; then
// `topology` at most 1 item (TooMany, origin maxItems), each `key` Required / label key
// (format=k8s-label-key). An empty `{}` is valid. `immutable_only_when_enabled`: the PodGroup
// object's `+k8s:ifEnabled(TopologyAwareWorkloadScheduling)=+k8s:immutable` (with the gate off,
// removal is valid and change/add report only Forbidden); Workload templates' immutability is
// unconditional.
void ValidateSchedulingConstraints(const std::optional<api::SchedulingConstraints>& constraints,
                                   const std::optional<api::SchedulingConstraints>* old,
                                   const std::string& path, bool gate_enabled, ErrorList* errs,
                                   bool immutable_only_when_enabled = false);

// ValidateResourceClaims: `resourceClaims`: immutable on update (any add, change, remove); at
// most api::kMaxPodGroupResourceClaims (TooMany); names unique (Duplicate at the 2nd);
// each item `name` Required / short name, union `resourceClaimName` | `resourceClaimTemplateName`
// at the item, each reference a long name. DRAWorkloadResourceClaims is an OpenAPI-only gate
// upstream: DV does not forbid claims when it is off (spec/was-v1.37.md §2.2), nor does this.
void ValidateResourceClaims(const std::vector<api::PodGroupResourceClaim>& claims,
                            const std::vector<api::PodGroupResourceClaim>* old,
                            const std::string& path, ErrorList* errs);

// ValidateDisruptionMode: immutable on update; union `single` | `all` (origin union).
void ValidateDisruptionMode(const std::optional<api::DisruptionMode>& mode,
                            const std::optional<api::DisruptionMode>* old,
                            const std::string& path, ErrorList* errs);

// PriorityFields: the three priority fields of a template / group and their paths' parent.
struct PriorityFields {
  const std::string* priority_class_name;
  const std::optional<int32_t>* priority;
  const std::optional<api::PreemptionPolicy>* preemption_policy;
};

// ValidatePriorityFields: each immutable on update; `priorityClassName` a long name;
// `priority` ≤ api::kHighestUserDefinablePriority (Invalid, origin maximum; negatives allowed);
// `preemptionPolicy` Forbidden when `preemption_policy_gate` (PodGroupPreemptionPolicy) is off.
// Unknown preemptionPolicy values are NotSupported already when decoded (codec).
// `parent` is the path that holds the three fields.
void ValidatePriorityFields(const PriorityFields& fields, const PriorityFields* old,
                            const std::string& parent, bool preemption_policy_gate,
                            ErrorList* errs);

}  // namespace wasched::validation
