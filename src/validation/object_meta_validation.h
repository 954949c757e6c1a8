// File: validation/object_meta_validation.h
//
// ObjectMeta validation (upstream `ValidateObjectMeta` in k8s.io/apimachinery/pkg/api/validation
// with NameIsDNSSubdomain, as every kind wasched reads uses): metadata.name required and a
// DNS-1123 subdomain, metadata.namespace a DNS-1123 label, labels (meta/v1 ValidateLabels) and
// annotations (ValidateAnnotations). Imperative rules: no DV origin.
//
//   ErrorList errs = ValidateObjectMeta(workload.meta);   // {} when valid
#pragma once

#include <cstddef>
#include <map>
#include <string>

#include "api/object_meta.h"
#include "validation/field_errors.h"

namespace wasched::validation {

// kTotalAnnotationSizeLimit: upstream TotalAnnotationSizeLimitB (256 KiB of keys and values).
inline constexpr std::size_t kTotalAnnotationSizeLimit = 256 * 1024;

// ValidateLabels: upstream meta/v1 validation.ValidateLabels: per entry, one `Invalid <path>`
// (value = the key) per qualified-name problem of the key and one (value = the value) per
// label-value problem of the value, with upstream's origins (format=k8s-label-key /
// format=k8s-label-value). The path is the map's (`metadata.labels`, `spec.nodeSelector`), not
// the entry's, as upstream. O(total text).
[[nodiscard]] ErrorList ValidateLabels(const std::map<std::string, std::string>& labels,
                                       const std::string& path);

// ValidateAnnotations: upstream ValidateAnnotations: each key (lower-cased) a qualified name
// (`Invalid <path>`, value = the key as written); keys and values together ≤ 256 KiB (`TooLong
// <path>`). O(total text).
[[nodiscard]] ErrorList ValidateAnnotations(const std::map<std::string, std::string>& annotations,
                                            const std::string& path);

// ValidateObjectMeta: one `Invalid metadata.generateName` per DNS-1123 subdomain problem of
// generateName with a trailing '-' masked (upstream NameIsDNSSubdomain(prefix=true)); then
// `Required metadata.name: name or generateName is required` when the name is empty,
// else one `Invalid metadata.name` per DNS-1123 subdomain problem; one `Invalid
// metadata.namespace` per DNS-1123 label problem when a namespace is set; then labels
// (`metadata.labels`) and annotations (`metadata.annotations`). O(name length + labels +
// annotations).
[[nodiscard]] ErrorList ValidateObjectMeta(const api::ObjectMeta& meta);

}  // namespace wasched::validation
