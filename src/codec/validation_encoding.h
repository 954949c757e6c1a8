// File: codec/validation_encoding.h
//
// Encodes `wasched validate`'s report as the fixed JSON of design.md:
// {"errors": [{"object", "type", "field", "origin", "detail"}], "warnings": ["…"]} (2-space
// indent, trailing newline), each error followed by `file`, `document` (1-based) and `value` (the rendered bad
// value) when known: extra keys a reader of the contract ignores. `type` is one of the contract's Required, Invalid, NotSupported, Forbidden,
// TooMany, Duplicate, InternalError: upstream's NotFound and TooLong and wasched's TypeInvalid
// (a wrong YAML type) are reported as Invalid, and a NotFound's detail names what was not found
// (`not found: "ghost"`). The table output (InputError::ToString) keeps upstream's texts.
#pragma once

#include <string>
#include <vector>

#include "util/field_error.h"

namespace wasched::codec {

// EncodeValidationReportJson: deterministic; invalid UTF-8 is replaced, never an exception.
// `warnings` (the input's warning lines, without `warning: `) follow the errors as
// `"warnings": ["file: document 1: Job ns/j: unknown field \"spec.x\"", …]`, always present.
[[nodiscard]] std::string EncodeValidationReportJson(const InputErrors& errors,
                                                     const std::vector<std::string>& warnings = {});

}  // namespace wasched::codec
