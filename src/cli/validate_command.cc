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

// kCreatedObjectNote: appended to a finding about what the controllers would create.
constexpr const char* kCreatedObjectNote =
    " (when the controllers create it; the API server accepts the input, `schedule` refuses it)";

// Load: the objects of `paths`, or nullopt with the decoding errors appended to `errors`; the
// warnings (of a failed load too) are appended to `warnings`; `skipped` counts skipped objects.
std::optional<api::ObjectSet> Load(const std::vector<std::string>& paths, std::istream& in,
                                   const codec::LoadOptions& options, InputErrors* errors,
                                   std::vector<std::string>* warnings, int64_t* skipped) {
  auto loaded = codec::LoadPaths(paths, in, options);
  if (!loaded) {
    for (std::string& w : loaded.error().warnings) warnings->push_back(std::move(w));
    for (InputError& e : loaded.error()) errors->push_back(std::move(e));
    return std::nullopt;
  }
  for (std::string& w : loaded->warnings) warnings->push_back(std::move(w));
  for (InputError& e : loaded->object_errors) errors->push_back(std::move(e));
  *skipped += loaded->skipped;
  return std::move(loaded->objects);
}

}  // namespace

int RunValidate(const ValidateOptions& options, std::istream& in, std::ostream& out,
                std::ostream& err) {
  InputErrors errors;
  std::vector<std::string> warnings;  // every warning of the input, in the order found
  std::size_t objects_read = 0;
  int64_t skipped = 0;
  // Each object is checked on its own, as the API server takes each object of `kubectl create
  // -f`: one that cannot be decoded is reported and left out, the others are validated (observed
  // on v1.37.2: upstream case Q01's two Basic Jobs are checked beside the one with an unknown
  // field). Without --old only: an update needs every stored object.
  codec::LoadOptions load = options.load;
  load.keep_valid_objects = options.old_paths.empty();
  std::optional<api::ObjectSet> objects =
      Load(options.paths, in, load, &errors, &warnings, &skipped);
  const std::size_t load_errors = errors.size();
  std::optional<api::ObjectSet> old;
  if (!options.old_paths.empty()) {
    int64_t old_skipped = 0;
    old = Load(options.old_paths, in, options.load, &errors, &warnings, &old_skipped);
  }
  if (objects && (errors.empty() || load.keep_valid_objects)) {
    objects_read = api::CountObjects(*objects);
    if (objects_read == 0 && load_errors == 0) {
      // Nothing to validate is not "valid" (issue 20 item 4): every object was skipped.
      InputError nothing;
      nothing.error.detail = NothingReadMessage(skipped);
      errors.push_back(std::move(nothing));
    }
  }
  if (objects && objects_read > 0 && (errors.empty() || load.keep_valid_objects)) {
    InputErrors validation_warnings;
    InputErrors found =
        old ? validation::ValidateUpdateForSchedule(*old, *objects, options.gates,
                                                    &validation_warnings)
            : validation::ValidateForSchedule(*objects, options.gates, &validation_warnings);
    for (InputError& e : found) errors.push_back(std::move(e));
    for (const InputError& w : validation_warnings) warnings.push_back(w.ToString());
    // What `schedule` refuses after running the controllers (QA2 finding 16): the objects they
    // would create — waiting pods included — checked the same way, on a copy (validate prints
    // no controller events). These are warnings, not errors: the API server accepts the input
    // objects themselves (observed on v1.37.2: a Job whose PodGroup would name a missing
    // PriorityClass, or whose parallelism exceeds wasched's object limit, is created), and the
    // problem shows only when a controller creates its objects; `schedule` refuses them.
    const bool controlled = !objects->jobs.empty() || !objects->job_sets.empty() ||
                            !objects->leader_worker_sets.empty() || !objects->deployments.empty() ||
                            !objects->replica_sets.empty() || !objects->stateful_sets.empty();
    if (errors.empty() && !old && controlled) {
      std::vector<InputError> created;
      if (auto limit = CheckCreationLimit(*objects)) {
        created.push_back(std::move(*limit));
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
        created = std::move(run.errors);
        for (InputError& e : CreatedObjectErrors(after, run.generated, options.gates)) {
          created.push_back(std::move(e));
        }
      }
      for (const InputError& e : created) {
        warnings.push_back(e.ToString() + kCreatedObjectNote);
      }
    }
  }

  // The report holds every warning and every error, warnings first (issue 20 item 6: the
  // unknown-field warning is often what explains an error).
  std::string report;
  if (options.json) {
    report = codec::EncodeValidationReportJson(errors, warnings);
  } else {
    for (const std::string& w : warnings) report += "warning: " + EscapeForTerminal(w) + '\n';
    const std::string warned =
        warnings.empty() ? "" : fmt::format(", {} warning(s)", warnings.size());
    if (errors.empty()) {
      report += fmt::format("valid: {} object(s), 0 errors{}\n", objects_read, warned);
    } else {
      report += FormatErrorLines(errors, "");
      report += fmt::format("\n{} error(s){}\n", errors.size(), warned);
    }
  }
  return WriteOutput(out, err, report, errors.empty() ? kExitOk : kExitInvalidInput);
}

}  // namespace wasched::cli
