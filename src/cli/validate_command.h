// File: cli/validate_command.h
//
// `wasched validate -f PATH... [-o table|json] [--feature-gates ...]`: reads manifests and
// reports every problem found — decoding errors and the checks of
// validation::ValidateForSchedule (names, quantities, policies, references). Contract
// (design.md): the report goes to stdout whatever it holds; exit 1 when it holds any error,
// else 0; warnings go to stderr. The JSON report is
//   {"errors": [{"object": "Workload ns/name", "type": "Invalid", "field": "...",
//                "origin": "minimum", "detail": "..."}]}
// Not yet: `--old PATH` (update validation) and the full v1.37 API validation, which arrive with
// their issues; until then `validate` checks what `schedule` checks.
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

#include "util/feature_gates.h"
#include "util/field_error.h"

namespace wasched::cli {

// ValidateOptions: `-o` is "table" (one line per error as InputError::ToString, then a count)
// or "json".
struct ValidateOptions {
  std::vector<std::string> paths;
  bool json = false;
  FeatureGates gates;
};

// RunValidate: returns 0 (no error) or 1 (any error); the report is always written to `out`.
[[nodiscard]] int RunValidate(const ValidateOptions& options, std::istream& in, std::ostream& out,
                              std::ostream& err);

}  // namespace wasched::cli
