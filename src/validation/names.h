// File: validation/names.h
//
// Kubernetes name formats, with upstream's exact messages:
//   - content checks (`k8s.io/apimachinery/pkg/util/validation` / `pkg/api/validate/content`):
//     each returns the list of problems (empty = valid);
//   - the declarative-validation format rules (`pkg/api/validate/strfmt.go`): each turns those
//     problems into Invalid errors at a path with origin `format=<name>`.
//
//   Dns1123LabelErrors("Invalid_Name")  // {"a lowercase RFC 1123 label must consist of ..."}
//   ShortName("spec.podGroupTemplates[0].name", "Invalid_Name")
//       // Invalid, value "\"Invalid_Name\"", origin "format=k8s-short-name"
//
// Every check is O(length of the value).
#pragma once

#include <cstddef>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "validation/field_errors.h"

namespace wasched::validation {

inline constexpr std::size_t kDns1123LabelMaxLength = 63;
inline constexpr std::size_t kDns1123SubdomainMaxLength = 253;
inline constexpr std::size_t kQualifiedNameMaxLength = 63;
inline constexpr std::size_t kLabelValueMaxLength = 63;

// RegexError: upstream validation.RegexError: `msg (e.g. 'a',  or 'b', regex used for validation
// is 'fmt')` (the double space before "or" is upstream's).
[[nodiscard]] std::string RegexError(std::string_view msg, std::string_view fmt_text,
                                     std::initializer_list<std::string_view> examples);

// Dns1123LabelErrors: upstream IsDNS1123Label: ≤ 63 characters, `[a-z0-9]([-a-z0-9]*[a-z0-9])?`
// ("must not contain dots" when the value is a valid subdomain but not a label).
[[nodiscard]] std::vector<std::string> Dns1123LabelErrors(std::string_view value);

// Dns1123SubdomainErrors: upstream IsDNS1123Subdomain: ≤ 253 characters, dot-separated labels.
[[nodiscard]] std::vector<std::string> Dns1123SubdomainErrors(std::string_view value);

// PathSegmentNameErrors: upstream path.IsValidPathSegmentName: not `.` / `..`, no `/`, no `%`.
[[nodiscard]] std::vector<std::string> PathSegmentNameErrors(std::string_view value);

// QualifiedNameErrors: upstream IsQualifiedName (label keys, condition types): an optional
// DNS-subdomain prefix (≤ 253) and `/`, then a name ≤ 63 of alphanumerics and `-_.` that starts
// and ends alphanumeric (upper case allowed). Messages name the part: "prefix part ...",
// "name part ...".
[[nodiscard]] std::vector<std::string> QualifiedNameErrors(std::string_view value);

// LabelValueErrors: upstream IsValidLabelValue (label values, node selector values, toleration
// and taint values): empty, or ≤ 63 characters of alphanumerics and `-_.` that start and end
// alphanumeric.
[[nodiscard]] std::vector<std::string> LabelValueErrors(std::string_view value);

// Format rules (DV). Each returns one Invalid per problem, value quoted, at `path`; empty values
// are the caller's business (DV reports Required first and skips the format check).
[[nodiscard]] ErrorList ShortName(const std::string& path, std::string_view value);   // k8s-short-name
[[nodiscard]] ErrorList LongName(const std::string& path, std::string_view value);    // k8s-long-name
[[nodiscard]] ErrorList PathSegmentName(const std::string& path, std::string_view value);
[[nodiscard]] ErrorList LabelKey(const std::string& path, std::string_view value);    // k8s-label-key

}  // namespace wasched::validation
