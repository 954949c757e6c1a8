// File: codec/validation_encoding.h
//
// Encodes `wasched validate`'s report as the fixed JSON of design.md:
// {"errors": [{"object", "type", "field", "origin", "detail"}]} (2-space indent, trailing
// newline). `type` is the upstream field.ErrorType name (Invalid, Required, …).
#pragma once

#include <string>

#include "util/field_error.h"

namespace wasched::codec {

// EncodeValidationReportJson: deterministic; invalid UTF-8 is replaced, never an exception.
[[nodiscard]] std::string EncodeValidationReportJson(const InputErrors& errors);

}  // namespace wasched::codec
