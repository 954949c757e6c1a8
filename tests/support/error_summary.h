// File: tests/support/error_summary.h
//
// Summary: a field-error list as compact strings ("Invalid spec.x.minCount (minimum)") so
// validation tests can compare type, path and origin with ElementsAre in one line.
#pragma once

#include <string>
#include <vector>

#include "validation/field_errors.h"

namespace wasched::test {

[[nodiscard]] inline std::vector<std::string> Summary(const validation::ErrorList& errs) {
  std::vector<std::string> out;
  for (const FieldError& e : errs) {
    out.push_back(std::string(FieldErrorTypeName(e.type)) + " " + e.field +
                  (e.origin.empty() ? "" : " (" + e.origin + ")"));
  }
  return out;
}

}  // namespace wasched::test
