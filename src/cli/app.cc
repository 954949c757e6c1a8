// File: cli/app.cc
#include "cli/app.h"

#include <exception>
#include <istream>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include <CLI/CLI.hpp>

#include "cli/bench_command.h"
#include "cli/compile_command.h"
#include "cli/convert_command.h"
#include "cli/demo_command.h"
#include "cli/feature_gates.h"
#include "cli/explain_command.h"
#include "cli/run_command.h"
#include "cli/schedule_command.h"
#include "cli/simulate_command.h"
#include "cli/subcommand.h"
#include "cli/validate_command.h"

namespace wasched::cli {
namespace {

constexpr const char* kVersion = "wasched 0.1.0";

// CommonFlags: flags `schedule` and `demo` share, as given on the command line.
struct CommonFlags {
  controller::ManagerOptions controllers;
  LoadFlags load;
  std::string output = "table";
  std::vector<std::string> feature_gates;
  std::string scoring_strategy = "LeastAllocated";
  std::string gang_satisfaction = "upstream";
  std::string placement = "complete";
  std::string scheduler_name = "default-scheduler";
};

// AddGangSatisfactionFlag: `--gang-satisfaction upstream|once-scheduled` (issue 20 A.2).
void AddGangSatisfactionFlag(CLI::App* cmd, CommonFlags* flags) {
  cmd->add_option("--gang-satisfaction", flags->gang_satisfaction,
                  "When a gang has its quorum: upstream (the members that exist now, as "
                  "kube-scheduler v1.37.2) or once-scheduled (a PodGroup once scheduled stays "
                  "satisfied, so replacements of ended members schedule one by one)")
      ->check(CLI::IsMember({"upstream", "once-scheduled"}))
      ->capture_default_str();
}

// AddPlacementFlag: `--placement complete|upstream` (issue 20 A.3). Checked by ParsePlacement,
// so a bad value names the flag and both values.
void AddPlacementFlag(CLI::App* cmd, CommonFlags* flags) {
  cmd->add_option("--placement", flags->placement, kPlacementHelp)->capture_default_str();
}

void AddCommonFlags(CLI::App* cmd, CommonFlags* flags) {
  AddControllerFlags(cmd, &flags->controllers);
  cmd->add_option("--scheduler-name", flags->scheduler_name,
                  "The spec.schedulerName scheduled (the profile's name; pods of any other are "
                  "NotHandled): wasched to see what `wasched run` does with its pods")
      ->capture_default_str();
  AddLoadFlags(cmd, &flags->load);
  cmd->add_option("-o,--output", flags->output,
                  "Output format: table (for people), json, yaml, html (a self-contained page: "
                  "the node map with each gang's pods, pending groups, evictions)")
      ->check(CLI::IsMember({"table", "json", "yaml", "html"}))
      ->capture_default_str();
  cmd->add_option("--feature-gates", flags->feature_gates,
                  "Comma-separated Name=true|false pairs; every v1.37 gate is on by default: "
                  "GenericWorkload, TopologyAwareWorkloadScheduling, DRAWorkloadResourceClaims, "
                  "CompositePodGroup, WorkloadWithJob, PodGroupPreemptionPolicy")
      ->allow_extra_args(false)
      ->type_name("K=V,...");
  cmd->add_option("--scoring-strategy", flags->scoring_strategy,
                  "NodeResourcesFit scoring: LeastAllocated (spread) or MostAllocated (pack)")
      ->check(CLI::IsMember({"LeastAllocated", "MostAllocated"}))
      ->capture_default_str();
  AddGangSatisfactionFlag(cmd, flags);
  AddPlacementFlag(cmd, flags);
}

// JoinGateSpecs: every --feature-gates occurrence as one comma-separated list (later wins).
std::string JoinGateSpecs(const std::vector<std::string>& specs) {
  std::string joined;
  for (const std::string& s : specs) joined += s + ",";
  return joined;
}

// ToScheduleOptions: the parsed common flags, or a usage error message.
tl::expected<ScheduleOptions, std::string> ToScheduleOptions(const CommonFlags& flags) {
  ScheduleOptions options;
  auto output = ParseOutputFormat(flags.output);
  if (!output) return tl::unexpected(output.error());
  options.output = *output;
  auto gates = ParseFeatureGates(JoinGateSpecs(flags.feature_gates));
  if (!gates) return tl::unexpected(gates.error());
  options.gates = *gates;
  auto scoring = ParseScoringStrategy(flags.scoring_strategy);
  if (!scoring) return tl::unexpected(scoring.error());
  options.scheduler.scoring = *scoring;
  auto satisfaction = ParseGangSatisfaction(flags.gang_satisfaction);
  if (!satisfaction) return tl::unexpected(satisfaction.error());
  options.scheduler.gang_satisfaction = *satisfaction;
  auto placement = ParsePlacement(flags.placement);
  if (!placement) return tl::unexpected(placement.error());
  options.scheduler.placement = *placement;
  if (flags.scheduler_name.empty()) return tl::unexpected(std::string("--scheduler-name: empty"));
  options.scheduler.scheduler_name = flags.scheduler_name;
  options.controllers = flags.controllers;
  auto load = ToLoadOptions(flags.load);
  if (!load) return tl::unexpected(load.error());
  options.load = *load;
  return options;
}

int RunParsed(int argc, const char* const* argv, std::istream& in, std::ostream& out,
              std::ostream& err) {
  CLI::App app{
      "wasched: Kubernetes v1.37 workload-aware (gang) scheduling.\n"
      "Reads manifests (Nodes, Pods, PriorityClasses, Workloads, PodGroups, "
      "CompositePodGroups, Jobs, JobSets, LeaderWorkerSets, Deployments, ReplicaSets, "
      "StatefulSets, PodDisruptionBudgets, DRA DeviceClasses, ResourceSlices, "
      "ResourceClaims and templates) and shows what the v1.37 scheduler would bind, leave "
      "pending or preempt, and why, from files or a live cluster; schedules a live cluster "
      "(`run`); compiles Jobs, converts older manifests, benchmarks, and replays GPU traces.",
      "wasched"};
  app.require_subcommand(1);
  app.set_version_flag("--version", kVersion);
  // Usage errors from CLI11 read like wasched's own (`error: ...`), then point at --help.
  app.failure_message([](const CLI::App*, const CLI::Error& e) {
    return "error: " + std::string(e.what()) + "\nRun with --help for more information.\n";
  });

  CLI::App* schedule = app.add_subcommand(
      "schedule",
      "Schedule the pods of the given manifests onto their nodes and report the result");
  std::vector<std::string> paths;
  schedule
      ->add_option("-f,--filename", paths,
                   "Manifest files, folders (every *.yaml, *.yml, *.json, sorted) or - for stdin "
                   "(with --kubeconfig: read on top of the cluster's objects)")
      ->type_name("PATH");
  std::string schedule_kubeconfig;
  CLI::Option* kubeconfig_option =
      schedule
          ->add_option("--kubeconfig", schedule_kubeconfig,
                       "Read the live cluster's objects (read-only) through this kubeconfig; an "
                       "empty value uses KUBECONFIG, the in-cluster service account or "
                       "~/.kube/config")
          ->type_name("PATH");
  std::string schedule_context;
  schedule->add_option("--context", schedule_context, "The kubeconfig context to use")
      ->needs(kubeconfig_option);
  bool schedule_insecure = false;
  schedule
      ->add_flag("--insecure-skip-tls-verify", schedule_insecure,
                 "Do not verify the API server's certificate (also needed to accept a kubeconfig "
                 "that sets insecure-skip-tls-verify)")
      ->needs(kubeconfig_option);
  CommonFlags schedule_flags;
  AddCommonFlags(schedule, &schedule_flags);
  bool schedule_summary = false;
  schedule->add_flag("--summary", schedule_summary,
                     "Table output: one line per group (counts, domain, reason), no per-pod lines");

  CLI::App* explain = app.add_subcommand(
      "explain", "Explain why one pod or PodGroup is bound or pending (the same run as schedule)");
  std::string explain_kind, explain_name;
  explain->add_option("kind", explain_kind, "pod or podgroup")
      ->required()
      ->check(CLI::IsMember({"pod", "podgroup"}));
  explain->add_option("name", explain_name, "NAMESPACE/NAME")->required();
  std::vector<std::string> explain_paths;
  explain->add_option("-f,--filename", explain_paths, "Manifest files, folders or - for stdin")
      ->type_name("PATH");
  std::string explain_kubeconfig, explain_context;
  CLI::Option* explain_kubeconfig_option =
      explain->add_option("--kubeconfig", explain_kubeconfig, "Read the live cluster (read-only)")
          ->type_name("PATH");
  explain->add_option("--context", explain_context, "The kubeconfig context to use")
      ->needs(explain_kubeconfig_option);
  bool explain_insecure = false;
  explain->add_flag("--insecure-skip-tls-verify", explain_insecure,
                    "Do not verify the API server's certificate")
      ->needs(explain_kubeconfig_option);
  CommonFlags explain_flags;
  explain->add_option("--feature-gates", explain_flags.feature_gates,
                      "Comma-separated Name=true|false pairs")
      ->allow_extra_args(false)
      ->type_name("K=V,...");
  explain->add_option("--scoring-strategy", explain_flags.scoring_strategy,
                      "NodeResourcesFit scoring: LeastAllocated or MostAllocated")
      ->check(CLI::IsMember({"LeastAllocated", "MostAllocated"}));
  AddLoadFlags(explain, &explain_flags.load);
  AddGangSatisfactionFlag(explain, &explain_flags);
  AddPlacementFlag(explain, &explain_flags);
  explain->add_option("--scheduler-name", explain_flags.scheduler_name,
                      "The spec.schedulerName scheduled (wasched for `wasched run`'s pods)")
      ->capture_default_str();

  CLI::App* validate = app.add_subcommand(
      "validate", "Check manifests and report every error found (the report goes to stdout)");
  std::vector<std::string> validate_paths;
  validate
      ->add_option("-f,--filename", validate_paths,
                   "Manifest files, folders (every *.yaml, *.yml, *.json, sorted) or - for stdin")
      ->required()
      ->type_name("PATH");
  std::string validate_output = "table";
  validate->add_option("-o,--output", validate_output, "Report format: table or json")
      ->check(CLI::IsMember({"table", "json"}))
      ->capture_default_str();
  std::vector<std::string> validate_gates;
  validate->add_option("--feature-gates", validate_gates, "Comma-separated Name=true|false pairs")
      ->allow_extra_args(false)
      ->type_name("K=V,...");
  controller::ManagerOptions validate_controllers;
  AddControllerFlags(validate, &validate_controllers);
  LoadFlags validate_load;
  AddLoadFlags(validate, &validate_load);
  std::vector<std::string> validate_old;
  validate
      ->add_option("--old", validate_old,
                   "The stored objects: validate the -f objects as updates of them (paired by "
                   "kind, namespace and name)")
      ->type_name("PATH");

  CLI::App* demo = app.add_subcommand(
      "demo", "Run `schedule` on the bundled example: gang scheduling on a 32-node GPU cluster");
  CommonFlags demo_flags;
  AddCommonFlags(demo, &demo_flags);

  if (auto code = RunConvertIfSelected(app, argc, argv, in, out, err)) return *code;
  if (auto code = RunCompileIfSelected(app, argc, argv, in, out, err)) return *code;
  if (auto code = RunBenchIfSelected(app, argc, argv, out, err)) return *code;
  if (auto code = RunSimulateIfSelected(app, argc, argv, out, err)) return *code;
  if (auto code = RunRunIfSelected(app, argc, argv, out, err)) return *code;
  if (argc > 1 && argv[1][0] != '-') {
    // CLI11 reports a mistyped subcommand as "A subcommand is required"; name it instead.
    const std::string first = argv[1];
    const auto subcommands = app.get_subcommands([&](CLI::App* sub) { return sub->check_name(first); });
    if (subcommands.empty()) {
      err << "error: unknown subcommand \"" << first << "\" (see wasched --help)\n";
      return kExitUsage;
    }
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return ExitOnParseError(app, e, out, err);
  }

  if (validate->parsed()) {
    ValidateOptions validate_options;
    validate_options.paths = validate_paths;
    validate_options.old_paths = validate_old;
    validate_options.json = validate_output == "json";
    auto gates = ParseFeatureGates(JoinGateSpecs(validate_gates));
    if (!gates) {
      err << "error: " << gates.error() << '\n';
      return kExitUsage;
    }
    validate_options.gates = *gates;
    validate_options.controllers = validate_controllers;
    auto load = ToLoadOptions(validate_load);
    if (!load) {
      err << "error: " << load.error() << '\n';
      return kExitUsage;
    }
    validate_options.load = *load;
    return RunValidate(validate_options, in, out, err);
  }

  if (explain->parsed()) {
    auto explain_schedule = ToScheduleOptions(explain_flags);
    if (!explain_schedule) {
      err << "error: " << explain_schedule.error() << '\n';
      return kExitUsage;
    }
    if (explain_paths.empty() && explain_kubeconfig_option->count() == 0) {
      err << "error: explain needs -f PATH or --kubeconfig PATH\nRun with --help for more "
             "information.\n";
      return kExitUsage;
    }
    ExplainOptions explain_options;
    explain_options.kind = explain_kind;
    explain_options.name = explain_name;
    explain_options.schedule = std::move(*explain_schedule);
    explain_options.schedule.paths = explain_paths;
    explain_options.schedule.use_cluster = explain_kubeconfig_option->count() > 0;
    explain_options.schedule.kubeconfig = explain_kubeconfig;
    explain_options.schedule.context = explain_context;
    explain_options.schedule.insecure_skip_tls_verify = explain_insecure;
    return RunExplain(explain_options, in, out, err);
  }

  const bool is_demo = demo->parsed();
  auto options = ToScheduleOptions(is_demo ? demo_flags : schedule_flags);
  if (!options) {
    err << "error: " << options.error() << '\n';
    return kExitUsage;
  }
  if (is_demo) {
    DemoOptions demo_options;
    demo_options.examples_dir = DefaultExamplesDir();
    demo_options.schedule = std::move(*options);
    return RunDemo(demo_options, in, out, err);
  }
  if (paths.empty() && kubeconfig_option->count() == 0) {
    err << "error: schedule needs -f PATH or --kubeconfig PATH\nRun with --help for more "
           "information.\n";
    return kExitUsage;
  }
  if (schedule_summary && options->output != OutputFormat::kTable) {
    err << "error: --summary is for -o table (JSON, YAML and HTML always hold every pod)\nRun with "
           "--help for more information.\n";
    return kExitUsage;
  }
  options->summary = schedule_summary;
  options->paths = paths;
  options->use_cluster = kubeconfig_option->count() > 0;
  options->kubeconfig = schedule_kubeconfig;
  options->context = schedule_context;
  options->insecure_skip_tls_verify = schedule_insecure;
  return RunSchedule(*options, in, out, err);
}

}  // namespace

int Run(int argc, const char* const* argv, std::istream& in, std::ostream& out, std::ostream& err) {
  try {
    return RunParsed(argc, argv, in, out, err);
  } catch (const std::exception& e) {
    err << "internal error: " << e.what() << '\n';
  } catch (...) {
    err << "internal error: unknown exception\n";
  }
  return kExitInternal;
}

}  // namespace wasched::cli
