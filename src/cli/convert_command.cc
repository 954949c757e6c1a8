// File: cli/convert_command.cc
#include "cli/convert_command.h"

#include <CLI/CLI.hpp>
#include <istream>
#include <memory>
#include <ostream>
#include <string_view>

#include "cli/subcommand.h"
#include "cli/schedule_command.h"
#include "codec/convert.h"
#include "util/field_value.h"

namespace wasched::cli {
namespace {

// NormalizeTarget: "v1beta1" → "scheduling.k8s.io/v1beta1"; full forms unchanged.
std::string NormalizeTarget(const std::string& to) {
  if (to.find('/') == std::string::npos) return "scheduling.k8s.io/" + to;
  return to;
}

}  // namespace

int RunConvert(const ConvertCommandOptions& options, std::istream& in, std::ostream& out,
               std::ostream& err) {
  codec::ConvertOptions convert_options;
  convert_options.target = NormalizeTarget(options.to);
  if (!codec::IsConvertTarget(convert_options.target)) {
    err << "error: unsupported --to \"" << options.to << "\": must be one of "
        << codec::kConvertTargetV1beta1 << ", " << codec::kConvertTargetV1alpha3 << '\n';
    return kExitUsage;
  }
  if (options.output == "json") {
    convert_options.format = codec::ConvertFormat::kJson;
  } else if (options.output != "yaml") {
    err << "error: unsupported output format \"" << options.output
        << "\": must be one of yaml, json\n";
    return kExitUsage;
  }
  auto result = codec::ConvertPaths(options.paths, in, convert_options);
  if (!result) {
    err << FormatErrorLines(result.error(), "error: ");
    return kExitInvalidInput;
  }
  for (const std::string& w : result->warnings) err << "warning: " << EscapeForTerminal(w) << '\n';
  if (result->objects == 0) {
    // Nothing to convert is not a conversion (as validate and schedule: exit 1, no output).
    err << "error: no object in the input to convert\n";
    return kExitInvalidInput;
  }
  for (const codec::ConvertIssue& issue : result->issues) {
    err << "warning: " << issue.ToString() << '\n';
  }
  return WriteOutput(out, err, result->text, kExitOk);
}

std::optional<int> RunConvertIfSelected(CLI::App& app, int argc, const char* const* argv,
                                        std::istream& in, std::ostream& out, std::ostream& err) {
  CLI::App* convert = app.add_subcommand(
      "convert",
      "Rewrite v1alpha1 (1.35) and v1alpha2 (1.36) Workload/PodGroup manifests, and the pods "
      "that use them, into the v1.37 API; move scheduler-plugins coscheduling, Volcano and Kueue "
      "pod groups to native PodGroups / Workloads");
  // The flags are bound to `options`; the no-op callback keeps them alive as long as `app`.
  auto options = std::make_shared<ConvertCommandOptions>();
  convert->callback([options] {});
  convert
      ->add_option("-f,--filename", options->paths,
                   "Manifest files, folders (every *.yaml, *.yml, *.json, sorted) or - for stdin")
      ->required()
      ->type_name("PATH");
  convert
      ->add_option("--to", options->to,
                   "Target apiVersion: scheduling.k8s.io/v1beta1 or scheduling.k8s.io/v1alpha3 "
                   "(or v1beta1 / v1alpha3)")
      ->required()
      ->check(CLI::IsMember({std::string(codec::kConvertTargetV1beta1),
                             std::string(codec::kConvertTargetV1alpha3), std::string("v1beta1"),
                             std::string("v1alpha3")}))
      ->type_name("APIVERSION");
  convert->add_option("-o,--output", options->output, "Output format: yaml or json")
      ->check(CLI::IsMember({"yaml", "json"}))
      ->capture_default_str();

  if (!IsSelected(argc, argv, "convert")) return std::nullopt;
  if (auto code = ParseOrExitCode(app, argc, argv, out, err)) return code;
  return RunConvert(*options, in, out, err);
}

}  // namespace wasched::cli
