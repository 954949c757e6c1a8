// File: validation/core_validation.h
//
// core/v1 Pod and Node field rules that matter to scheduling, as kube-apiserver applies them on
// create (kubernetes/kubernetes pkg/apis/core/validation/validation.go: ValidatePodSpec,
// validateContainers, validateResourceRequirements, validateContainerResourceName,
// ValidateResourceQuantityValue, ValidateTolerations, validateNodeTaints; resource-name classes
// from pkg/apis/core/helper/helpers.go). Upstream's field paths, types and details; values are
// rendered as the rest of validation/ renders them (strings and quantities quoted).
//
//   ErrorList errs = ValidatePodSpecCore(pod);   // spec.containers: Required value, ...
//   ErrorList node_errs = ValidateNodeTaints(node.taints, "spec.taints");
//
// Not modelled (the codec does not keep them): container names and images, ports, probes,
// volumes, hugepages page-size rules, pod-level resources (checked by the codec).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "api/node.h"
#include "api/pod.h"
#include "validation/field_errors.h"
#include "validation/pod_affinity_validation.h"

namespace wasched::validation {

// Resource-name classes (pkg/apis/core/helper/helpers.go). O(length).
// IsHugePageResourceName: `hugepages-` prefix.
[[nodiscard]] bool IsHugePageResourceName(std::string_view name);
// IsNativeResource: no `/`, or in the `kubernetes.io/` namespace.
[[nodiscard]] bool IsNativeResource(std::string_view name);
// IsExtendedResourceName: not native, no `requests.` prefix, and `requests.<name>` is a
// qualified name (e.g. `nvidia.com/gpu`).
[[nodiscard]] bool IsExtendedResourceName(std::string_view name);
// IsOvercommitAllowed: native and not hugepages (requests may be below limits).
[[nodiscard]] bool IsOvercommitAllowed(std::string_view name);
// IsIntegerResourceName: the object-count resources (`pods`, `services`, …) and every extended
// resource.
[[nodiscard]] bool IsIntegerResourceName(std::string_view name);
// IsStandardContainerResourceName: `cpu`, `memory`, `ephemeral-storage`, `hugepages-*`.
[[nodiscard]] bool IsStandardContainerResourceName(std::string_view name);
// IsStandardResourceName: the names the system knows (container resources, quota names such as
// `requests.cpu`, `pods`, `services`, …, `hugepages-*`, `requests.hugepages-*`).
[[nodiscard]] bool IsStandardResourceName(std::string_view name);

// ValidateContainerResourceName: upstream validateContainerResourceName at `path` (value = the
// name): qualified-name problems, else "must be a standard resource type or fully qualified" for
// an unknown unprefixed name; then "must be a standard resource for containers" for an unprefixed
// name a container may not request (`CPU`, `foo`, `pods`) or "doesn't follow extended resource
// name standard" for a prefixed one that is neither native nor extended.
[[nodiscard]] ErrorList ValidateContainerResourceName(std::string_view name,
                                                      const std::string& path);

// ValidateResourceRequirements: upstream validateResourceRequirements for a container's
// `resources` at `path` (`spec.containers[0].resources`), limits first then requests, each entry
// at `<path>.limits[<name>]` / `<path>.requests[<name>]`: the container resource name, a
// non-negative amount ("must be greater than or equal to 0"), a whole amount for integer
// resources ("must be an integer", from api::Container::non_integer_*); then per request, at
// `<path>.requests`: "must be equal to <name> limit of <limit>" for a resource that cannot be
// overcommitted (extended resources, hugepages), "must be less than or equal to <name> limit of
// <limit>" otherwise; a non-overcommitable request without a limit is `Required <path>.limits:
// Limit must be set for non overcommitable resources`. O(resources).
[[nodiscard]] ErrorList ValidateResourceRequirements(const api::Container& container,
                                                     const std::string& path);

// ValidateTolerations: upstream ValidateTolerations at `path` (`spec.tolerations`), per item i:
// a non-empty key a qualified name (`[i].key`); an empty key needs operator Exists (`[i].operator`
// "operator must be Exists when `key` is empty, which means \"match all values and all keys\"");
// tolerationSeconds only with effect NoExecute (`[i].effect`); operator Equal needs a label value
// (`[i].operator`, problems joined by ";"); operator Exists needs an empty value (`[i].operator`
// "value must be empty when `operator` is 'Exists'"). Unknown operators and effects are already
// NotSupported when decoded. Rendering limits: an operator written as "" and one written "Equal"
// are the same value here and print as "Equal"; a whole toleration prints as Go's %#v of
// core.Toleration with tolerationSeconds as `(*int64)(nil)` or `&N`. O(tolerations).
[[nodiscard]] ErrorList ValidateTolerations(const std::vector<api::Toleration>& tolerations,
                                            const std::string& path);

// ValidateNodeTaints: upstream validateNodeTaints at `path` (`spec.taints`), per item i: key a
// qualified name (`[i].key`), value a label value (`[i].value`, problems joined by ";"), and
// unique by (key, effect): `Duplicate [i]` "taints must be unique by key and effect pair".
// (A missing or unknown effect is reported when decoded.) O(taints · log taints).
[[nodiscard]] ErrorList ValidateNodeTaints(const std::vector<api::Taint>& taints,
                                           const std::string& path);

// ValidatePodSpecCore: the ValidatePodSpec rules above for a Pod or a pod template (`source`;
// paths start at `spec.`): `spec.containers` Required when empty, every container's name,
// `image` (Required when empty; a Pod's also without leading or trailing whitespace) and
// resources (containers, then initContainers), `spec.nodeSelector` labels
// (validation/object_meta_validation.h ValidateLabels), `spec.affinity.podAffinity` /
// `podAntiAffinity` and `spec.topologySpreadConstraints` (validation/pod_affinity_validation.h;
// a Pod's selectors merged with its matchLabelKeys first), `spec.tolerations`,
// `spec.schedulerName` a DNS-1123 subdomain (one Invalid per problem), and `spec.overhead`
// (validateOverhead: container resource names and quantities). O(fields).
[[nodiscard]] ErrorList ValidatePodSpecCore(const api::Pod& pod, PodSpecSource source);

}  // namespace wasched::validation
