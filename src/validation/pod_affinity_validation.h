// File: validation/pod_affinity_validation.h
//
// Pod (anti-)affinity terms and topology spread constraints, as kube-apiserver v1.37.2 validates
// them on create (kubernetes/kubernetes pkg/apis/core/validation/validation.go: validateAffinity,
// validatePodAffinity, validatePodAntiAffinity, validatePodAffinityTerms,
// validateWeightedPodAffinityTerms, validatePodAffinityTerm, ValidatePodAffinityTermSelector,
// validateTopologySpreadConstraints, validateMinDomains, ValidateSpreadConstraintNotRepeat,
// validateNodeInclusionPolicy, ValidateMatchLabelKeysAndMismatchLabelKeys, validateLabelKeys),
// with upstream's paths, values, details and origins.
//
//   ErrorList errs = ValidatePodAffinity(pod, PodSpecSource::kPod);
//   // spec.affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution[0]
//   //   .topologyKey: Required value: can not be empty
//   ErrorList more = ValidateTopologySpreadConstraints(pod, PodSpecSource::kPod);
//
// Gates at their v1.37.2 defaults (wasched has no switch for them): MatchLabelKeysInPodAffinity
// (GA, locked on), MatchLabelKeysInPodTopologySpread (beta, on) and
// MatchLabelKeysInPodTopologySpreadSelectorMerge (beta, on), so on create a constraint's
// matchLabelKeys follow ValidateMatchLabelKeysAndMismatchLabelKeys (not the legacy
// ValidateMatchLabelKeysInTopologySpread), and selectors are checked with
// AllowInvalidLabelValueInSelector / AllowInvalidTopologySpreadConstraintLabelSelector off (they
// only let an update keep what an old object held).
//
// Pods and templates differ (PodSpecSource): the Pod create strategy
// (pkg/registry/core/pod/strategy.go PrepareForCreate: mutatePodAffinity,
// mutateTopologySpreadConstraints) merges `key In (the pod's value)` for every matchLabelKeys
// key the pod has a label for (`NotIn` for mismatchLabelKeys) into the term's / constraint's
// non-null labelSelector before validation; pod templates (Jobs, Deployments, …) are validated as
// written. Validation sees the merged selector, so "exists in both matchLabelKeys and
// labelSelector" fires for a Pod that carries the label and also names the key in its selector,
// and its matchExpressions paths count the merged requirements. wasched keeps the selectors as
// written (the plugins merge at scheduling time); the merge here is for validation only.
#pragma once

#include "api/pod.h"
#include "validation/field_errors.h"

namespace wasched::validation {

// PodSpecSource: what the validated spec belongs to.
//  * kPod: a Pod (selectors merged with matchLabelKeys / mismatchLabelKeys first, as the create
//    strategy does);
//  * kTemplate: a pod template of a workload (no merge).
enum class PodSpecSource { kPod, kTemplate };

// ValidatePodAffinity: `spec.affinity.podAffinity`, then `spec.affinity.podAntiAffinity`, each
// requiredDuringSchedulingIgnoredDuringExecution[i] then preferredDuringScheduling…[j] (weight
// outside 1–100: Invalid `.weight` "must be in the range 1-100"; the term at `.podAffinityTerm`).
// Per term: labelSelector and namespaceSelector (validation/label_selector_validation.h); each of
// `namespaces` a DNS-1123 label (Invalid at `<term>.namespace`, singular, as upstream);
// matchLabelKeys / mismatchLabelKeys without a labelSelector Forbidden "must not be specified
// when labelSelector is not set", else each key a qualified name; a matchLabelKeys key that
// appears twice in the (merged) labelSelector: Invalid at `<term>[i]` (upstream indexes the term
// path) "exists in both matchLabelKeys and labelSelector"; a key in both lists: Invalid
// `<term>.matchLabelKeys[i]` "exists in both matchLabelKeys and mismatchLabelKeys"; an empty
// topologyKey Required "can not be empty", and the topologyKey a qualified name.
// O(terms × selector size).
[[nodiscard]] ErrorList ValidatePodAffinity(const api::Pod& pod, PodSpecSource source);

// ValidateTopologySpreadConstraints: per `spec.topologySpreadConstraints[i]`, in upstream's
// order: maxSkew ≤ 0 Invalid "must be greater than zero" (origin minimum); empty topologyKey
// Required "can not be empty"; whenUnsatisfiable not DoNotSchedule / ScheduleAnyway NotSupported
// (also when empty: core/v1 has no default); a later constraint with the same topologyKey and
// whenUnsatisfiable: Duplicate `[i].{topologyKey, whenUnsatisfiable}` "{key, action}" (once, at
// the first); minDomains ≤ 0 Invalid "must be greater than zero" (origin minimum) and, unless
// whenUnsatisfiable is DoNotSchedule, Invalid "can only use minDomains if
// whenUnsatisfiable=DoNotSchedule, not <action>" (origin dependsOn); nodeAffinityPolicy /
// nodeTaintsPolicy other than Honor / Ignore NotSupported; matchLabelKeys as for affinity terms
// (paths `[i].matchLabelKeys[k]`, `[i][k]`); the (merged) labelSelector.
// O(constraints² + selector sizes).
[[nodiscard]] ErrorList ValidateTopologySpreadConstraints(const api::Pod& pod,
                                                          PodSpecSource source);

}  // namespace wasched::validation
