// File: cli/validate_command.cc
#include "cli/validate_command.h"

#include <fmt/format.h>

#include <cstdio>
#include <istream>
#include <ostream>
#include <string_view>
#include <utility>

#include "cli/feature_gates.h"
#include "cli/schedule_command.h"
#include "codec/loader.h"
#include "codec/validation_encoding.h"
#include "validation/object_set_validation.h"

namespace wasched::cli {
namespace {

std::size_t CountObjects(const api::ObjectSet& o) {
  return o.nodes.size() + o.pods.size() + o.priority_classes.size() + o.workloads.size() +
         o.pod_groups.size() + o.composite_pod_groups.size();
}

}  // namespace

int RunValidate(const ValidateOptions& options, std::istream& in, std::ostream& out,
                std::ostream& err) {
  InputErrors errors;
  std::size_t objects_read = 0;
  auto loaded = codec::LoadPaths(options.paths, in);
  if (!loaded) {
    errors = std::move(loaded.error());
  } else {
    for (const std::string& w : loaded->warnings) err << "warning: " << w << '\n';
    for (const std::string& w : ApplyFeatureGates(options.gates, &loaded->objects)) {
      err << "warning: " << w << '\n';
    }
    objects_read = CountObjects(loaded->objects);
    errors = validation::ValidateForSchedule(loaded->objects);
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
  out << report;
  out.flush();
  return errors.empty() ? kExitOk : kExitInvalidInput;
}

}  // namespace wasched::cli
