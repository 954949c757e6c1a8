// File: cli/compile_command.cc
#include "cli/compile_command.h"

#include <CLI/CLI.hpp>
#include <istream>
#include <memory>
#include <ostream>
#include <set>
#include <string_view>

#include "cli/subcommand.h"
#include "cli/feature_gates.h"
#include "cli/schedule_command.h"
#include <fmt/format.h>

#include "codec/generated_encoding.h"
#include "codec/input_limits.h"
#include "controller/job/job_pods.h"
#include "codec/loader.h"
#include "controller/job/job_controller.h"
#include "validation/api_validation.h"
#include "validation/object_set_validation.h"
#include "util/field_value.h"

namespace wasched::cli {

namespace {

// CreatedObjectNote: what happens upstream to a created object with this error. The API server
// resolves no references: a pod naming a missing PodGroup is created and held at PreEnqueue
// (spec/was-v1.37.md §4.2), a missing ResourceClaimTemplate leaves the group's claim uncreated
// (§7); a missing PriorityClass is refused by the Priority admission plugin, and field errors
// (a name over 63 characters) by validation.
std::string CreatedObjectNote(const InputError& e) {
  const FieldError& f = e.error;
  if (f.type == FieldErrorType::kNotFound && f.field == "spec.schedulingGroup.podGroupName") {
    return fmt::format(
        "created by the Job controller; the API server accepts it and the scheduler holds it at "
        "PreEnqueue until PodGroup {} exists",
        f.bad_value);
  }
  if (f.type == FieldErrorType::kNotFound && f.field.ends_with(".resourceClaimTemplateName")) {
    return fmt::format(
        "created by the Job controller; the API server accepts it, but the ResourceClaim "
        "controller cannot create the claim from ResourceClaimTemplate {}, so the pods stay "
        "pending",
        f.bad_value);
  }
  if (f.type == FieldErrorType::kNotFound && f.field.ends_with(".resourceClaimName")) {
    return fmt::format(
        "created by the Job controller; the API server accepts it, and the pods stay pending "
        "until ResourceClaim {} exists",
        f.bad_value);
  }
  return "created by the Job controller; the API server would refuse it";
}

}  // namespace

std::optional<InputError> CheckJobCreationLimit(const api::ObjectSet& objects) {
  int64_t count = static_cast<int64_t>(
      objects.nodes.size() + objects.pods.size() + objects.priority_classes.size() +
      objects.workloads.size() + objects.pod_groups.size() + objects.composite_pod_groups.size() +
      objects.jobs.size() + objects.pod_disruption_budgets.size() + objects.device_classes.size() +
      objects.resource_slices.size() + objects.resource_claims.size() +
      objects.resource_claim_templates.size());
  for (const api::Job& job : objects.jobs) {
    // At most a Workload, a PodGroup and WantActive pods per Job.
    const int64_t pods = controller::job::WantActive(job);
    count += 2 + pods;
    if (count <= codec::kMaxObjects) continue;
    const bool by_completions = job.completions && *job.completions < api::EffectiveParallelism(job);
    return InputError{
        job.meta.source, "Job " + api::NamespacedName(job.meta),
        FieldError{FieldErrorType::kInvalid,
                   by_completions ? "spec.completions" : "spec.parallelism",
                   std::to_string(by_completions ? *job.completions
                                                 : api::EffectiveParallelism(job)),
                   fmt::format("the Job controller would create {} pods; with the {} objects "
                               "before them that exceeds the input limit of {} objects",
                               pods, count - pods, codec::kMaxObjects),
                   ""}};
  }
  return std::nullopt;
}

InputErrors CreatedObjectErrors(const api::ObjectSet& objects,
                                const controller::job::ControllerRun& run,
                                const FeatureGates& gates) {
  std::set<std::string> created;
  for (const api::Workload& o : run.generated.workloads) created.insert("Workload " + api::NamespacedName(o.meta));
  for (const api::PodGroup& o : run.generated.pod_groups) created.insert("PodGroup " + api::NamespacedName(o.meta));
  for (const api::Pod& o : run.generated.pods) created.insert("Pod " + api::NamespacedName(o.meta));
  InputErrors out;
  if (created.empty()) return out;
  InputErrors ignored_warnings;
  for (InputError& e : validation::ValidateForSchedule(objects, gates, &ignored_warnings)) {
    if (created.count(e.object) == 0) continue;
    const std::string note = CreatedObjectNote(e);
    e.error.detail = e.error.detail.empty() ? "(" + note + ")" : e.error.detail + " (" + note + ")";
    out.push_back(std::move(e));
  }
  return out;
}

std::optional<controller::job::ControllerRun> RunJobControllerChecked(api::ObjectSet* objects,
                                                                     const FeatureGates& gates,
                                                                     bool refuse_invalid,
                                                                     std::ostream& err) {
  if (auto limit = CheckJobCreationLimit(*objects)) {
    err << "error: " << limit->ToString() << '\n';
    return std::nullopt;
  }
  controller::job::ControllerRun run = controller::job::RunJobController(objects, gates);
  for (const std::string& w : run.warnings) err << "warning: " << EscapeForTerminal(w) << '\n';
  for (const std::string& e : run.events) err << "event: " << EscapeForTerminal(e) << '\n';
  const InputErrors created_errors = CreatedObjectErrors(*objects, run, gates);
  for (const InputError& e : created_errors) {
    err << (refuse_invalid ? "error: " : "warning: ") << e.ToString() << '\n';
  }
  if (!created_errors.empty() && refuse_invalid) return std::nullopt;
  return run;
}

int RunCompile(const CompileOptions& options, std::istream& in, std::ostream& out,
               std::ostream& err) {
  auto loaded = codec::LoadPaths(options.paths, in);
  if (!loaded) {
    for (const InputError& e : loaded.error()) err << "error: " << e.ToString() << '\n';
    return kExitInvalidInput;
  }
  for (const std::string& w : loaded->warnings) err << "warning: " << EscapeForTerminal(w) << '\n';
  api::ObjectSet objects = std::move(loaded->objects);
  for (const std::string& w : ApplyFeatureGates(options.gates, &objects)) {
    err << "warning: " << EscapeForTerminal(w) << '\n';
  }
  const InputErrors errors = validation::ValidateCreate(objects, options.gates);
  if (!errors.empty()) {
    for (const InputError& e : errors) err << "error: " << e.ToString() << '\n';
    return kExitInvalidInput;
  }
  if (objects.jobs.empty()) {
    err << "error: no batch/v1 Job in the input: compile shows what the Job controller makes of "
           "a Job\n";
    return kExitInvalidInput;
  }
  const auto run = RunJobControllerChecked(&objects, options.gates, /*refuse_invalid=*/false, err);
  if (!run) return kExitInvalidInput;
  const std::string text = options.json ? codec::EncodeObjectsJsonList(run->generated)
                                        : codec::EncodeObjectsYaml(run->generated);
  return WriteOutput(out, err, text, kExitOk);
}

std::optional<int> RunCompileIfSelected(CLI::App& app, int argc, const char* const* argv,
                                        std::istream& in, std::ostream& out, std::ostream& err) {
  CLI::App* compile = app.add_subcommand(
      "compile",
      "Show what the v1.37 Job controller makes of batch/v1 Jobs: the Workload compiled from "
      "spec.scheduling, its PodGroup and the Job's Pods");
  struct Flags {
    std::vector<std::string> paths;
    std::string output = "yaml";
    std::vector<std::string> gates;
  };
  // The flags are bound to `flags`; the no-op callback keeps them alive as long as `app`.
  auto flags = std::make_shared<Flags>();
  compile->callback([flags] {});
  compile
      ->add_option("-f,--filename", flags->paths,
                   "Job manifests: files, folders (every *.yaml, *.yml, *.json, sorted) or - for "
                   "stdin")
      ->required()
      ->type_name("PATH");
  compile->add_option("-o,--output", flags->output, "Output format: yaml or json (a v1 List)")
      ->check(CLI::IsMember({"yaml", "json"}))
      ->capture_default_str();
  compile->add_option("--feature-gates", flags->gates, "Comma-separated Name=true|false pairs")
      ->allow_extra_args(false)
      ->type_name("K=V,...");

  if (!IsSelected(argc, argv, "compile")) return std::nullopt;
  if (auto code = ParseOrExitCode(app, argc, argv, out, err)) return code;
  CompileOptions options;
  options.paths = flags->paths;
  options.json = flags->output == "json";
  std::string spec;
  for (const std::string& s : flags->gates) spec += s + ",";
  auto gates = ParseFeatureGates(spec);
  if (!gates) {
    err << "error: " << gates.error() << '\n';
    return kExitUsage;
  }
  options.gates = *gates;
  return RunCompile(options, in, out, err);
}

}  // namespace wasched::cli
