// File: util/field_error.h
//
// Field-path errors in upstream's shape (`k8s.io/apimachinery/pkg/util/validation/field.Error`)
// and InputError, which adds where the bad object came from. Everything that rejects user input
// (codec, validation, reference checks) reports through these types, so every message names file,
// document, object and field path:
//
//   pods.yaml: document 2: Pod default/p1: spec.containers[0].resources.requests[cpu]:
//     Invalid value: "-1": must be greater than or equal to 0
#pragma once

#include <string>
#include <vector>

#include "api/object_meta.h"

namespace wasched {

// FieldErrorType: upstream `field.ErrorType`, with the text each one prints.
enum class FieldErrorType {
  kNotFound,       // "Not found"
  kRequired,       // "Required value"
  kDuplicate,      // "Duplicate value"
  kInvalid,        // "Invalid value"
  kNotSupported,   // "Unsupported value"
  kForbidden,      // "Forbidden"
  kTooLong,        // "Too long"
  kTooMany,        // "Too many"
  kInternal,       // "Internal error"
  kTypeInvalid,    // "Invalid value" (wrong type: a list where a map belongs, …)
  kUnknownField,   // `unknown field "<field>"` (kubectl's strict decoding; not a field.ErrorType)
};

// FieldError: one error at one field path. `bad_value` is the rendered value ("" when upstream
// prints none); `origin` is the declarative-validation origin (`minimum`, `immutable`, …).
struct FieldError {
  FieldErrorType type = FieldErrorType::kInvalid;
  std::string field;
  std::string bad_value;
  std::string detail;
  std::string origin;

  // ToString: `<field>: <type text>[: <value>][: <detail>]` as upstream's Error(); an
  // UnknownField error reads as kubectl's `unknown field "<field>"[: <detail>]`.
  [[nodiscard]] std::string ToString() const;
};

[[nodiscard]] const char* FieldErrorTypeName(FieldErrorType t);   // "Invalid", "Required", …
[[nodiscard]] const char* FieldErrorTypeText(FieldErrorType t);   // "Invalid value", …

// InputError: a FieldError located in the input. `object` is "<Kind> <ns/name>" or empty when
// the object could not be identified (e.g. malformed YAML).
struct InputError {
  api::SourceRef source;
  std::string object;
  FieldError error;

  // ToString: "<file>: document <n>: <object>: <field error>", omitting empty parts.
  [[nodiscard]] std::string ToString() const;
};

using InputErrors = std::vector<InputError>;

}  // namespace wasched
