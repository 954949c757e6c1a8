// File: cli/validate_command.cc
#include "cli/validate_command.h"

#include <fmt/format.h>

#include <cstdio>
#include <istream>
#include <optional>
#include <ostream>
#include <string_view>
#include <utility>

#include "cli/compile_command.h"
#include "cli/schedule_command.h"
#include "codec/loader.h"
#include "codec/validation_encoding.h"
#include "validation/object_set_validation.h"
#include "util/field_value.h"

namespace wasched::cli {
namespace {

std::size_t CountObjects(const api::ObjectSet& o) {
  return o.nodes.size() + o.pods.size() + o.priority_classes.size() + o.workloads.size() +
         o.pod_groups.size() + o.composite_pod_groups.size() + o.jobs.size() +
         o.pod_disruption_budgets.size() + o.device_classes.size() + o.resource_slices.size() +
         o.resource_claims.size() + o.resource_claim_templates.size();
}

// Load: the objects of `paths`, or nullopt with the decoding errors appended to `errors`.
std::optional<api::ObjectSet> Load(const std::vector<std::string>& paths, std::istream& in,
                                   std::ostream& err, InputErrors* errors) {
  auto loaded = codec::LoadPaths(paths, in);
  if (!loaded) {
    for (InputError& e : loaded.error()) errors->push_back(std::move(e));
    return std::nullopt;
  }
  for (const std::string& w : loaded->warnings) err << "warning: " << EscapeForTerminal(w) << '\n';
  return std::move(loaded->objects);
}

}  // namespace

int RunValidate(const ValidateOptions& options, std::istream& in, std::ostream& out,
                std::ostream& err) {
  InputErrors errors;
  std::size_t objects_read = 0;
  std::optional<api::ObjectSet> objects = Load(options.paths, in, err, &errors);
  std::optional<api::ObjectSet> old;
  if (!options.old_paths.empty()) old = Load(options.old_paths, in, err, &errors);
  if (errors.empty() && objects) {
    objects_read = CountObjects(*objects);
    InputErrors warnings;
    errors = old ? validation::ValidateUpdateForSchedule(*old, *objects, options.gates, &warnings)
                 : validation::ValidateForSchedule(*objects, options.gates, &warnings);
    for (const InputError& w : warnings) err << "warning: " << w.ToString() << '\n';
    // What `schedule` refuses after running the Job controller (QA2 finding 16): the objects it
    // would create, checked the same way, on a copy (validate prints no controller events).
    if (errors.empty() && !old && !objects->jobs.empty()) {
      if (auto limit = CheckJobCreationLimit(*objects)) {
        errors.push_back(std::move(*limit));
      } else {
        api::ObjectSet after = *objects;
        const controller::job::ControllerRun run =
            controller::job::RunJobController(&after, options.gates);
        errors = CreatedObjectErrors(after, run, options.gates);
      }
    }
  }

  std::string report;
  if (options.json) {
    report = codec::EncodeValidationReportJson(errors);
  } else if (errors.empty()) {
    report = fmt::format("valid: {} object(s), 0 errors\n", objects_read);
  } else {
    for (const InputError& e : errors) report += e.ToString() + '\n';
    report += fmt::format("\n{} error(s)\n", errors.size());
  }
  return WriteOutput(out, err, report, errors.empty() ? kExitOk : kExitInvalidInput);
}

}  // namespace wasched::cli
