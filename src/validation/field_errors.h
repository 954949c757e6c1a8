// File: validation/field_errors.h
//
// Building FieldErrors the way upstream's `k8s.io/apimachinery/pkg/util/validation/field`
// constructors and the declarative-validation (DV) library `k8s.io/apimachinery/pkg/api/validate`
// build them: one function per error kind, with the rendered bad value, the detail text and the
// DV origin (spec/was-v1.37.md §3.1). Paths are strings in upstream's syntax
// (`spec.podGroupTemplates[0].name`); Child / Index build them.
//
//   ErrorList errs;
//   errs.push_back(TooMany(Child(path, "topology"), 2, 1));   // "must have at most 1 item"
//   errs.push_back(Immutable(Child(path, "priority")));        // Invalid, origin "immutable"
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "util/field_error.h"

namespace wasched::validation {

// ErrorList: the errors of one object, in the order found (upstream field.ErrorList).
using ErrorList = std::vector<FieldError>;

// Origins of DV errors (upstream `WithOrigin`), as the validate JSON reports them.
inline constexpr const char* kOriginMinimum = "minimum";
inline constexpr const char* kOriginMaximum = "maximum";
inline constexpr const char* kOriginMaxItems = "maxItems";
inline constexpr const char* kOriginUnion = "union";
inline constexpr const char* kOriginImmutable = "immutable";
inline constexpr const char* kOriginUpdate = "update";
inline constexpr const char* kOriginShortName = "format=k8s-short-name";
inline constexpr const char* kOriginLongName = "format=k8s-long-name";
inline constexpr const char* kOriginPathSegmentName = "format=k8s-path-segment-name";
inline constexpr const char* kOriginLabelKey = "format=k8s-label-key";
inline constexpr const char* kOriginLabelValue = "format=k8s-label-value";

// Child: `path.field` (just `field` when `path` is empty). O(length).
[[nodiscard]] std::string Child(std::string_view path, std::string_view field);
// Index: `path[i]`. O(length).
[[nodiscard]] std::string Index(std::string_view path, std::size_t i);

// Quote: a string value as upstream prints it in errors (Go %q: `"a\"b"`). O(length).
[[nodiscard]] std::string Quote(std::string_view value);

// kNullValue: how upstream renders a nil bad value ("Invalid value: null: field is immutable").
inline constexpr const char* kNullValue = "null";

// Required: field.Required — no value printed; `detail` usually empty for DV.
[[nodiscard]] FieldError Required(std::string path, std::string detail = "");
// Invalid: field.Invalid with an already-rendered value (Quote() it for strings).
[[nodiscard]] FieldError Invalid(std::string path, std::string value, std::string detail,
                                 std::string origin = "");
// Forbidden: field.Forbidden — DV's gate check (`ifDisabled → forbidden`) uses an empty detail.
[[nodiscard]] FieldError Forbidden(std::string path, std::string detail = "",
                                   std::string origin = "");
// TooMany: field.TooMany(path, actual, max) with origin maxItems: "must have at most N items"
// ("item" when N is 1).
[[nodiscard]] FieldError TooMany(std::string path, std::size_t actual, std::size_t max);
// Duplicate: field.Duplicate at the second occurrence (`list[i]`), value = the item's key.
[[nodiscard]] FieldError Duplicate(std::string path, std::string value);
// NotSupported: field.NotSupported: detail `supported values: "A", "B"` (given sorted).
[[nodiscard]] FieldError NotSupported(std::string path, std::string value,
                                      const std::vector<std::string>& supported);

// Minimum / Maximum: DV `minimum=N` / `maximum=N`: Invalid with
// "must be greater than or equal to N" / "must be less than or equal to N".
[[nodiscard]] FieldError Minimum(std::string path, int64_t value, int64_t min);
[[nodiscard]] FieldError Maximum(std::string path, int64_t value, int64_t max);

// Immutable: DV `immutable`: Invalid(null, "field is immutable"), origin immutable.
[[nodiscard]] FieldError Immutable(std::string path);
// NoSetError / NoUnsetError: DV `update=NoSet` / `update=NoUnset`: Invalid(null,
// "field cannot be set once created" / "field cannot be cleared once set"), origin update.
[[nodiscard]] FieldError NoSetError(std::string path);
[[nodiscard]] FieldError NoUnsetError(std::string path);
// ItemAddedError / ItemRemovedError: DV `update=NoAddItem` at `list[i]` ("item may not be
// added") and `update=NoRemoveItem` at the list ("item may not be removed"): Forbidden, origin
// update.
[[nodiscard]] FieldError ItemAddedError(std::string item_path);
[[nodiscard]] FieldError ItemRemovedError(std::string list_path);

}  // namespace wasched::validation
