// File: cli/validate_command.h
//
// `wasched validate -f PATH... [--old PATH...] [-o table|json] [--feature-gates ...]`: reads
// manifests and reports every problem found, as the v1.37 API server would on create — or, with
// `--old`, on update of the stored objects given there (objects are paired by kind, namespace and
// name; objects without a stored counterpart are creates) — plus the pre-scheduling checks
// `schedule` applies (references, duplicates, amounts): validation::ValidateForSchedule /
// ValidateUpdateForSchedule. Objects are validated as written: a field set while its gate is off
// is reported `Forbidden` (unlike `schedule`, which drops it as the API server's create strategy
// would).
//
// Contract (design.md): the report goes to stdout whatever it holds; exit 1 when it holds any
// error, else 0. The report holds every warning of the input and every error, warnings first
// (issue 20 item 6: an unknown-field warning often explains an error). Decoding errors
// (malformed YAML, wrong types, unknown fields under --validate=strict, kinds wasched does not
// read) are reported the same way, with their field paths; input where nothing wasched reads
// remains is an error. The JSON report is
//   {"errors": [{"object": "Workload ns/name", "type": "Invalid", "field": "...",
//                "origin": "minimum", "detail": "..."}],
//    "warnings": ["file: document 1: Job ns/j: unknown field \"spec.x\"", ...]}
// the table is `warning: …` lines, one line per error
// (`file: document N: Kind ns/name: field: Type: value: detail`) and a count, or
// `valid: N object(s), 0 errors` (`, K warning(s)` appended when there are warnings).
#pragma once

#include <iosfwd>
#include <string>
#include <vector>

#include "codec/load_options.h"
#include "controller/manager/controller_manager.h"
#include "util/feature_gates.h"
#include "util/field_error.h"

namespace wasched::cli {

// ValidateOptions: `paths` are -f, `old_paths` --old (empty = create validation); `json` is
// `-o json` (else the table).
struct ValidateOptions {
  std::vector<std::string> paths;
  std::vector<std::string> old_paths;
  bool json = false;
  FeatureGates gates;
  controller::ManagerOptions controllers;  // what `schedule` would run (their gates: `gates`)
  codec::LoadOptions load;                 // --validate, --skip-unknown-kinds (both -f and --old)
};

// RunValidate: returns 0 (no error) or 1 (any error); the report is always written to `out`.
// `in` serves "-" (in -f or --old, not both). O(input size).
[[nodiscard]] int RunValidate(const ValidateOptions& options, std::istream& in, std::ostream& out,
                              std::ostream& err);

}  // namespace wasched::cli
