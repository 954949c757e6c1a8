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
  std::size_t n = 0;
  api::ForEachKind(o, [&](const char*, bool, const auto& list) { n += list.size(); });
  return n;
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
    err << FormatErrorLines(warnings, "warning: ");
    // What `schedule` refuses after running the controllers (QA2 finding 16): the objects they
    // would create — waiting pods included — checked the same way, on a copy (validate prints
    // no controller events).
    const bool controlled = !objects->jobs.empty() || !objects->job_sets.empty() ||
                            !objects->leader_worker_sets.empty() || !objects->deployments.empty() ||
                            !objects->replica_sets.empty() || !objects->stateful_sets.empty();
    if (errors.empty() && !old && controlled) {
      if (auto limit = CheckCreationLimit(*objects)) {
        errors.push_back(std::move(*limit));
      } else {
        api::ObjectSet after = *objects;
        controller::ManagerOptions controllers = options.controllers;
        controllers.gates = options.gates;
        controller::ManagerRun run = controller::ControllerManager(controllers).Run(&after);
        for (controller::DeferredPods& d : run.deferred) {
          for (api::Pod& p : d.pods) {
            run.generated.pods.push_back(p);
            after.pods.push_back(std::move(p));
          }
        }
        errors = std::move(run.errors);
        for (InputError& e : CreatedObjectErrors(after, run.generated, options.gates)) {
          errors.push_back(std::move(e));
        }
      }
    }
  }

  std::string report;
  if (options.json) {
    report = codec::EncodeValidationReportJson(errors);
  } else if (errors.empty()) {
    report = fmt::format("valid: {} object(s), 0 errors\n", objects_read);
  } else {
    report += FormatErrorLines(errors, "");
    report += fmt::format("\n{} error(s)\n", errors.size());
  }
  return WriteOutput(out, err, report, errors.empty() ? kExitOk : kExitInvalidInput);
}

}  // namespace wasched::cli
