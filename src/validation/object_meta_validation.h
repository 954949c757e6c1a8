// File: validation/object_meta_validation.h
//
// ObjectMeta validation (upstream `ValidateObjectMeta` in k8s.io/apimachinery/pkg/api/validation
// with NameIsDNSSubdomain, as every kind wasched reads uses): metadata.name required and a
// DNS-1123 subdomain, metadata.namespace a DNS-1123 label. Imperative rules: no DV origin.
//
//   ErrorList errs = ValidateObjectMeta(workload.meta);   // {} when valid
#pragma once

#include "api/object_meta.h"
#include "validation/field_errors.h"

namespace wasched::validation {

// ValidateObjectMeta: `Required metadata.name: name or generateName is required` when empty,
// else one `Invalid metadata.name` per DNS-1123 subdomain problem; one `Invalid
// metadata.namespace` per DNS-1123 label problem when a namespace is set. O(name length).
[[nodiscard]] ErrorList ValidateObjectMeta(const api::ObjectMeta& meta);

}  // namespace wasched::validation
