// File: cli/compile_command.cc
#include "cli/compile_command.h"

#include <CLI/CLI.hpp>
#include <istream>
#include <memory>
#include <ostream>
#include <map>
#include <set>
#include <string_view>

#include "cli/subcommand.h"
#include "cli/feature_gates.h"
#include "cli/schedule_command.h"
#include <fmt/format.h>

#include "codec/generated_encoding.h"
#include "codec/input_limits.h"
#include "controller/job/job_pods.h"
#include "util/saturating.h"
#include "codec/loader.h"
#include "controller/job/job_controller.h"
#include "controller/manager/controller_manager.h"
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
std::string CreatedObjectNote(const InputError& e, const std::string& who) {
  const FieldError& f = e.error;
  if (f.type == FieldErrorType::kNotFound && f.field == "spec.schedulingGroup.podGroupName") {
    return fmt::format(
        "created by the {}; the API server accepts it and the scheduler holds it at "
        "PreEnqueue until PodGroup {} exists",
        who, f.bad_value);
  }
  if (f.type == FieldErrorType::kNotFound && f.field.ends_with(".resourceClaimTemplateName")) {
    return fmt::format(
        "created by the {}; the API server accepts it, but the ResourceClaim "
        "controller cannot create the claim from ResourceClaimTemplate {}, so the pods stay "
        "pending",
        who, f.bad_value);
  }
  if (f.type == FieldErrorType::kNotFound && f.field.ends_with(".resourceClaimName")) {
    return fmt::format(
        "created by the {}; the API server accepts it, and the pods stay pending "
        "until ResourceClaim {} exists",
        who, f.bad_value);
  }
  return fmt::format("created by the {}; the API server would refuse it", who);
}

}  // namespace

int64_t StringMapBytes(const std::map<std::string, std::string>& m) {
  int64_t n = 0;
  for (const auto& [k, v] : m) n += static_cast<int64_t>(k.size() + v.size()) + 96;
  return n;
}

int64_t EstimatedPodBytes(const api::Pod& t) {
  // What a copy of the template adds beyond the fixed footprint: strings and entries that every
  // created pod copies (labels, annotations, containers and their resources, selectors).
  int64_t n = kCreatedPodBaseBytes;
  n += StringMapBytes(t.meta.labels) + StringMapBytes(t.meta.annotations) +
       StringMapBytes(t.node_selector);
  for (const auto* list : {&t.containers, &t.init_containers}) {
    for (const api::Container& c : *list) {
      n += 256 + static_cast<int64_t>(c.name.size()) +
           96 * static_cast<int64_t>(c.requests.size() + c.limits.size() + c.ports.size() +
                                     c.claims.size()) +
           StringMapBytes(c.non_integer_requests) + StringMapBytes(c.non_integer_limits);
    }
  }
  n += 160 * static_cast<int64_t>(t.tolerations.size() + t.resource_claims.size() +
                                  t.scheduling_gates.size());
  n += 512 * static_cast<int64_t>(t.topology_spread_constraints.size() +
                                  (t.node_affinity ? 1 : 0) + (t.pod_affinity ? 1 : 0) +
                                  (t.pod_anti_affinity ? 1 : 0));
  // The scheduler keeps a pod's strings in several places (pod, result, output): count twice.
  return 2 * n;
}

std::optional<InputError> CheckCreationLimit(const api::ObjectSet& objects) {
  // Bytes: what the created pods would hold (issue 20 item 23: one 600-byte Job with
  // parallelism 999990 took 15.6 GB), checked with the count below.
  int64_t bytes = 0;
  auto over_bytes = [&](int64_t pods, const api::Pod& pod_template, const api::ObjectMeta& meta,
                        const char* kind, const char* field,
                        int64_t value) -> std::optional<InputError> {
    const int64_t per_pod = EstimatedPodBytes(pod_template);
    const int64_t before = bytes;
    bytes = SaturatingAdd(bytes, SaturatingMul(pods, per_pod));
    if (bytes <= kMaxCreatedPodBytes) return std::nullopt;
    return InputError{
        meta.source, std::string(kind) + " " + api::NamespacedName(meta),
        FieldError{FieldErrorType::kInvalid, field, std::to_string(value),
                   fmt::format("the controllers would create {} pods of about {} KiB each in "
                               "memory; with the {} MiB of pods created before them that "
                               "exceeds wasched's limit of {} MiB for created pods (see README "
                               "\"Input limits\")",
                               pods, per_pod / 1024, before >> 20, kMaxCreatedPodBytes >> 20),
                   ""}};
  };
  int64_t count = 0;
  api::ForEachKind(objects, [&](const char*, bool, const auto& list) {
    count += static_cast<int64_t>(list.size());
  });
  auto over = [&](int64_t created, const api::ObjectMeta& meta, const char* kind,
                  const char* field, int64_t value, const std::string& what) -> std::optional<InputError> {
    count = SaturatingAdd(count, created);
    if (count <= codec::kMaxObjects) return std::nullopt;
    return InputError{
        meta.source, std::string(kind) + " " + api::NamespacedName(meta),
        FieldError{FieldErrorType::kInvalid, field, std::to_string(value),
                   fmt::format("{}; with the {} objects before them that exceeds the input limit "
                               "of {} objects",
                               what, SaturatingAdd(count, -created), codec::kMaxObjects),
                   ""}};
  };
  for (const api::Job& job : objects.jobs) {
    // At most a Workload, a PodGroup and WantActive pods per Job.
    const int64_t pods = controller::job::WantActive(job);
    const bool by_completions = job.completions && *job.completions < api::EffectiveParallelism(job);
    if (auto e = over(2 + pods, job.meta, "Job", by_completions ? "spec.completions" : "spec.parallelism",
                      by_completions ? *job.completions : api::EffectiveParallelism(job),
                      fmt::format("the Job controller would create {} pods", pods))) {
      return e;
    }
    if (auto e = over_bytes(pods, job.pod_template, job.meta, "Job",
                            by_completions ? "spec.completions" : "spec.parallelism",
                            by_completions ? *job.completions : api::EffectiveParallelism(job))) {
      return e;
    }
  }
  for (const api::Deployment& d : objects.deployments) {
    const int64_t r = std::max<int64_t>(0, api::EffectiveReplicas(d.replicas));
    if (auto e = over(1 + r, d.meta, "Deployment", "spec.replicas", r,
                      fmt::format("its ReplicaSet would create {} pods", r))) {
      return e;
    }
    if (auto e = over_bytes(r, d.pod_template, d.meta, "Deployment", "spec.replicas", r)) return e;
  }
  for (const api::ReplicaSet& rs : objects.replica_sets) {
    const int64_t r = std::max<int64_t>(0, api::EffectiveReplicas(rs.replicas));
    if (auto e = over(r, rs.meta, "ReplicaSet", "spec.replicas", r,
                      fmt::format("the ReplicaSet controller would create {} pods", r))) {
      return e;
    }
    if (auto e = over_bytes(r, rs.pod_template, rs.meta, "ReplicaSet", "spec.replicas", r)) {
      return e;
    }
  }
  for (const api::StatefulSet& s : objects.stateful_sets) {
    const int64_t r = std::max<int64_t>(0, api::EffectiveReplicas(s.replicas));
    if (auto e = over(r, s.meta, "StatefulSet", "spec.replicas", r,
                      fmt::format("the StatefulSet controller would create {} pods", r))) {
      return e;
    }
    if (auto e = over_bytes(r, s.pod_template, s.meta, "StatefulSet", "spec.replicas", r)) {
      return e;
    }
  }
  for (const api::JobSet& js : objects.job_sets) {
    int64_t created = 2;  // a Workload and a CompositePodGroup at most
    for (const api::ReplicatedJob& rj : js.replicated_jobs) {
      const int64_t replicas = std::max<int32_t>(0, rj.replicas);
      const int64_t per_job = 2 + std::max<int32_t>(0, controller::job::WantActive(rj.job_template));
      created = SaturatingAdd(created, replicas * per_job);
      if (auto e = over_bytes(SaturatingMul(replicas, per_job - 2), rj.job_template.pod_template,
                              js.meta, "JobSet", "spec.replicatedJobs",
                              static_cast<int64_t>(js.replicated_jobs.size()))) {
        return e;
      }
    }
    if (auto e = over(created, js.meta, "JobSet", "spec.replicatedJobs",
                      static_cast<int64_t>(js.replicated_jobs.size()),
                      fmt::format("its Jobs, their pods and groups would be {} objects", created))) {
      return e;
    }
  }
  for (const api::LeaderWorkerSet& l : objects.leader_worker_sets) {
    const int64_t replicas = std::max<int32_t>(0, l.replicas);
    const int64_t size = std::max<int32_t>(0, l.size);
    const int64_t created = SaturatingAdd(2, replicas * (size + 4));
    if (auto e = over(created, l.meta, "LeaderWorkerSet", "spec.leaderWorkerTemplate.size", size,
                      fmt::format("its StatefulSets, {} × {} pods and groups would be {} objects",
                                  replicas, size, created))) {
      return e;
    }
    if (auto e = over_bytes(SaturatingMul(replicas, size), l.worker_template, l.meta,
                            "LeaderWorkerSet", "spec.leaderWorkerTemplate.size", size)) {
      return e;
    }
  }
  return std::nullopt;
}

namespace {

// CheckCreated: CreatedObjectErrors, and into `warnings` (when given) the created objects'
// warnings, noted the same way (a created pod naming a PodGroup that does not exist: the API
// server accepts it and the scheduler holds it at PreEnqueue).
InputErrors CheckCreated(const api::ObjectSet& objects, const api::ObjectSet& generated,
                         const FeatureGates& gates, InputErrors* warnings) {
  // Created objects by label, with the controller that created them (upstream's names: the
  // kind of the object's controller owner; a LeaderWorkerSet's worker StatefulSet is its pod
  // controller's).
  std::map<std::string, std::string> created;
  api::ForEachKind(generated, [&](const char* kind, bool, const auto& list) {
    for (const auto& o : list) {
      std::string who = "controllers";
      for (const api::OwnerReference& ref : o.meta.owner_references) {
        if (!ref.controller) continue;
        who = ref.kind == "Pod" ? "LeaderWorkerSet controller" : ref.kind + " controller";
      }
      created.emplace(std::string(kind) + " " + api::NamespacedName(o.meta), who);
    }
  });
  InputErrors out;
  if (created.empty()) return out;
  InputErrors all_warnings;
  const auto noted = [&](InputErrors found, InputErrors* into) {
    for (InputError& e : found) {
      auto it = created.find(e.object);
      if (it == created.end()) continue;
      const std::string note = CreatedObjectNote(e, it->second);
      e.error.detail =
          e.error.detail.empty() ? "(" + note + ")" : e.error.detail + " (" + note + ")";
      into->push_back(std::move(e));
    }
  };
  noted(validation::ValidateForSchedule(objects, gates, &all_warnings), &out);
  if (warnings == nullptr) return out;
  InputErrors missing_groups;  // the one warning about a created object that the note explains
  for (InputError& w : all_warnings) {
    if (w.error.type != FieldErrorType::kNotFound ||
        w.error.field != "spec.schedulingGroup.podGroupName") {
      continue;
    }
    w.error.detail.clear();
    missing_groups.push_back(std::move(w));
  }
  noted(std::move(missing_groups), warnings);
  return out;
}

}  // namespace

InputErrors CreatedObjectErrors(const api::ObjectSet& objects, const api::ObjectSet& generated,
                                const FeatureGates& gates) {
  return CheckCreated(objects, generated, gates, nullptr);
}

std::optional<controller::ManagerRun> RunControllersChecked(
    api::ObjectSet* objects, const controller::ManagerOptions& options, bool refuse_invalid,
    std::ostream& err) {
  if (auto limit = CheckCreationLimit(*objects)) {
    err << "error: " << limit->ToString() << '\n';
    return std::nullopt;
  }
  const controller::ControllerManager manager(options);
  controller::ManagerRun run = manager.Run(objects);
  for (const std::string& w : run.warnings) err << "warning: " << EscapeForTerminal(w) << '\n';
  for (const std::string& e : run.events) err << "event: " << EscapeForTerminal(e) << '\n';
  // What JobSet's / LeaderWorkerSet's webhook refuses: the object itself is invalid.
  for (const InputError& e : run.errors) {
    err << (refuse_invalid ? "error: " : "warning: ") << e.ToString() << '\n';
  }
  InputErrors created_warnings;
  const InputErrors created_errors =
      CheckCreated(*objects, run.generated, options.gates, &created_warnings);
  for (const InputError& w : created_warnings) err << "warning: " << w.ToString() << '\n';
  for (const InputError& e : created_errors) {
    err << (refuse_invalid ? "error: " : "warning: ") << e.ToString() << '\n';
  }
  if ((!created_errors.empty() || !run.errors.empty()) && refuse_invalid) return std::nullopt;
  return run;
}

bool CheckReleased(const api::ObjectSet& objects, size_t first, const FeatureGates& gates,
                   bool refuse_invalid, std::ostream& err) {
  api::ObjectSet released;
  for (size_t i = first; i < objects.pods.size(); ++i) released.pods.push_back(objects.pods[i]);
  InputErrors warnings;
  const InputErrors errors = CheckCreated(objects, released, gates, &warnings);
  for (const InputError& w : warnings) err << "warning: " << w.ToString() << '\n';
  for (const InputError& e : errors) {
    err << (refuse_invalid ? "error: " : "warning: ") << e.ToString() << '\n';
  }
  return errors.empty() || !refuse_invalid;
}

void AddControllerFlags(CLI::App* cmd, controller::ManagerOptions* options) {
  cmd->add_flag("--jobset-gang-of-gangs", options->jobset_gang_of_gangs,
                "JobSets become a CompositePodGroup tree (a root over one PodGroup per "
                "ReplicatedJob or per Job): JobSet KEP-969's gang-of-gangs design, not published "
                "by JobSet yet");
  cmd->add_flag("--lws-composite-groups", options->lws_composite_groups,
                "Every LeaderWorkerSet group becomes a CompositePodGroup (leader + workers, "
                "minGroupCount 2): not published by LeaderWorkerSet yet (its KEP-666 makes one "
                "flat PodGroup per group, which spec.scheduling gives)");
}

void AddLoadFlags(CLI::App* cmd, LoadFlags* flags) {
  cmd->add_option("--validate", flags->validate,
                  "Unknown and duplicate fields: strict (or true) makes them errors, warn warns, "
                  "ignore (or false) drops them silently (kubectl's --validate)")
      ->check(CLI::IsMember({"strict", "true", "warn", "ignore", "false"}))
      ->capture_default_str();
  cmd->add_flag("--skip-unknown-kinds", flags->skip_unknown_kinds,
                "Skip objects of kinds and versions wasched does not read (with a warning) "
                "instead of refusing them");
}

tl::expected<codec::LoadOptions, std::string> ToLoadOptions(const LoadFlags& flags) {
  auto mode = codec::ParseFieldValidation(flags.validate);
  if (!mode) return tl::unexpected(mode.error());
  return codec::LoadOptions{.field_validation = *mode,
                            .skip_unknown_kinds = flags.skip_unknown_kinds};
}

std::string FormatLoadFailure(const codec::LoadErrors& failure) {
  std::string out;
  for (const std::string& w : failure.warnings) out += "warning: " + EscapeForTerminal(w) + '\n';
  return out + FormatErrorLines(failure, "error: ");
}

int RunCompile(const CompileOptions& options, std::istream& in, std::ostream& out,
               std::ostream& err) {
  auto loaded = codec::LoadPaths(options.paths, in, options.load);
  if (!loaded) {
    err << FormatLoadFailure(loaded.error());
    return kExitInvalidInput;
  }
  for (const std::string& w : loaded->warnings) err << "warning: " << EscapeForTerminal(w) << '\n';
  api::ObjectSet objects = std::move(loaded->objects);
  for (const std::string& w : ApplyFeatureGates(options.gates, &objects)) {
    err << "warning: " << EscapeForTerminal(w) << '\n';
  }
  const InputErrors errors = validation::ValidateCreate(objects, options.gates);
  if (!errors.empty()) {
    err << FormatErrorLines(errors, "error: ");
    return kExitInvalidInput;
  }
  if (objects.jobs.empty() && objects.job_sets.empty() && objects.leader_worker_sets.empty() &&
      objects.deployments.empty() && objects.replica_sets.empty() && objects.stateful_sets.empty()) {
    err << "error: no Job, JobSet, LeaderWorkerSet, Deployment, ReplicaSet or StatefulSet in the "
           "input: compile shows what their controllers make of them\n";
    return kExitInvalidInput;
  }
  controller::ManagerOptions controllers = options.controllers;
  controllers.gates = options.gates;
  const auto run = RunControllersChecked(&objects, controllers, /*refuse_invalid=*/false, err);
  if (!run) return kExitInvalidInput;
  for (const std::string& w : controller::ControllerManager::DeferredWarnings(*run)) {
    err << "warning: " << EscapeForTerminal(w) << '\n';
  }
  const std::string text = options.json ? codec::EncodeObjectsJsonList(run->generated)
                                        : codec::EncodeObjectsYaml(run->generated);
  return WriteOutput(out, err, text, kExitOk);
}

std::optional<int> RunCompileIfSelected(CLI::App& app, int argc, const char* const* argv,
                                        std::istream& in, std::ostream& out, std::ostream& err) {
  CLI::App* compile = app.add_subcommand(
      "compile",
      "Show what the workload controllers make of the input: the v1.37 Job controller's "
      "Workload, PodGroup and Pods, and the Deployment, ReplicaSet, StatefulSet, JobSet and "
      "LeaderWorkerSet controllers' objects");
  struct Flags {
    std::vector<std::string> paths;
    std::string output = "yaml";
    std::vector<std::string> gates;
    controller::ManagerOptions controllers;
    LoadFlags load;
  };
  // The flags are bound to `flags`; the no-op callback keeps them alive as long as `app`.
  auto flags = std::make_shared<Flags>();
  compile->callback([flags] {});
  compile
      ->add_option("-f,--filename", flags->paths,
                   "Manifests: files, folders (every *.yaml, *.yml, *.json, sorted) or - for "
                   "stdin")
      ->required()
      ->type_name("PATH");
  compile->add_option("-o,--output", flags->output, "Output format: yaml or json (a v1 List)")
      ->check(CLI::IsMember({"yaml", "json"}))
      ->capture_default_str();
  compile->add_option("--feature-gates", flags->gates, "Comma-separated Name=true|false pairs")
      ->allow_extra_args(false)
      ->type_name("K=V,...");
  AddControllerFlags(compile, &flags->controllers);
  AddLoadFlags(compile, &flags->load);

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
  options.controllers = flags->controllers;
  auto load = ToLoadOptions(flags->load);
  if (!load) {
    err << "error: " << load.error() << '\n';
    return kExitUsage;
  }
  options.load = *load;
  return RunCompile(options, in, out, err);
}

}  // namespace wasched::cli
