// File: cli/compile_command.h
//
// `wasched compile`: what the workload controllers make of the input (spec/was-v1.37.md §8,
// KEP-5547; controller/manager/controller_manager.h): the v1.37 Job controller's Workload,
// PodGroup and Pods for batch/v1 Jobs, and the Deployment, ReplicaSet, StatefulSet, JobSet and
// LeaderWorkerSet controllers' ReplicaSets, StatefulSets, Jobs, Workloads, CompositePodGroups,
// PodGroups and Pods.
//
//   wasched compile -f PATH... [-o yaml|json] [--feature-gates K=V,...]
//                   [--jobset-gang-of-gangs] [--lws-composite-groups]
//
// Pipeline: codec::LoadPaths → ApplyFeatureGates → validation::ValidateCreate (as the API server
// would) → controller::ControllerManager::Run (every controller, in input order; objects already
// in the input are discovered, not recreated) → the created objects on stdout: YAML documents
// separated by `---` (default) or a `v1` `List` (JSON): Workloads, CompositePodGroups,
// PodGroups, Jobs, ReplicaSets, StatefulSets, then Pods. Pods that exist only once another pod
// runs (exclusive placement's followers, StatefulSet OrderedReady, …) are not in the output; a
// `warning:` line names them.
// stderr: `warning: …` lines (derived uids, controller errors) and `event: <type> <reason>
// <Kind ns/name>: <message>` lines (WorkloadCreated, PodGroupCreated, …).
// Exit codes (design.md): 0 compiled; 1 invalid input (`error: …` lines naming file, object and
// field path; nothing on stdout), also when the input holds nothing a controller acts on;
// 2 usage error.
#pragma once

#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include <tl/expected.hpp>

#include "api/object_set.h"
#include "codec/load_options.h"
#include "codec/loader.h"
#include "controller/manager/controller_manager.h"
#include "util/feature_gates.h"
#include "util/field_error.h"

namespace CLI {
class App;
}  // namespace CLI

namespace wasched::cli {

// CompileOptions: the flags, parsed.
struct CompileOptions {
  std::vector<std::string> paths;
  bool json = false;
  FeatureGates gates;
  // controllers: the options of ControllerManager (`gates` are copied in by the commands).
  controller::ManagerOptions controllers;
  codec::LoadOptions load;  // --validate, --skip-unknown-kinds
};

// CheckCreationLimit: the input object limit (codec::kMaxObjects, codec/input_limits.h) applied
// to what the controllers would create, before they allocate anything: the input's objects plus,
// per Job, a Workload, a PodGroup and controller::job::WantActive pods; per Deployment a
// ReplicaSet and its replicas; per ReplicaSet and StatefulSet its replicas; per JobSet its Jobs,
// their pods and scheduling objects; per LeaderWorkerSet its StatefulSets, replicas × size pods
// and a group per replica. The first object that crosses the limit is an Invalid error at the
// field that makes the count (`spec.parallelism` / `spec.completions` for a Job, `spec.replicas`,
// `spec.replicatedJobs`, `spec.leaderWorkerTemplate.size`), nullopt when all fit. Upstream has no
// such limit (controllers create pods in batches). O(objects).
//
// Bytes as well as objects (issue 20 item 23): the pods the controllers would create may take at
// most kMaxCreatedPodBytes of memory, estimated per pod as kCreatedPodBaseBytes (measured: what
// `schedule` holds per created pod of a minimal template, scheduler state and output included)
// plus what the template's labels, annotations, containers and constraints add, twice. Past it
// the error names the field, the pod count, the estimate per pod and the limit.
[[nodiscard]] std::optional<InputError> CheckCreationLimit(const api::ObjectSet& objects);

// kCreatedPodBaseBytes: the measured peak memory of `schedule` per created pod of a minimal Job
// template (RSS / pods for parallelism 100,000), rounded up.
inline constexpr int64_t kCreatedPodBaseBytes = 16 << 10;
// kMaxCreatedPodBytes: 6 GiB of created pods (about 190,000 minimal pods, above Kubernetes'
// documented 150,000 pods per cluster), so that a run stays well inside a 24 GiB machine.
inline constexpr int64_t kMaxCreatedPodBytes = int64_t{6} << 30;

// CreatedObjectErrors: the pre-scheduling checks (validation::ValidateForSchedule) of `objects`
// after the controllers added `generated` to them, keeping the errors of the created objects,
// each detail followed by what upstream does with such an object (`(created by the Job
// controller; the API server would refuse it)`, see below). O(objects).
[[nodiscard]] InputErrors CreatedObjectErrors(const api::ObjectSet& objects,
                                              const api::ObjectSet& generated,
                                              const FeatureGates& gates);

// RunControllersChecked: CheckCreationLimit (an `error: …` line and nullopt when crossed, in
// compile and schedule alike), then the controllers on `objects` (already validated), their
// warnings and events written to `err`, then the pre-scheduling checks again, keeping what
// concerns the created objects: what the API server would refuse to create (a pod naming a
// PriorityClass that does not exist, a name an input object already has), and what JobSet's or
// LeaderWorkerSet's webhook refuses (spec.scheduling). Each says what upstream does with such an
// object: "the API server would refuse it", or, for references the API server does not resolve,
// that the scheduler holds the pod at PreEnqueue (missing PodGroup) or the pods stay pending
// (missing ResourceClaimTemplate / ResourceClaim). Those are `error: …` lines and the result is
// nullopt when `refuse_invalid` (schedule), else `warning: …` lines (compile shows the objects
// anyway). The errors name the creating object's file (created objects carry its source).
[[nodiscard]] std::optional<controller::ManagerRun> RunControllersChecked(
    api::ObjectSet* objects, const controller::ManagerOptions& options, bool refuse_invalid,
    std::ostream& err);

// CheckReleased: CreatedObjectErrors for the pods ReleaseDeferred created after a scheduling
// round (`first` = their index in objects->pods), written to `err` like RunControllersChecked's;
// false when some must refuse the run (`refuse_invalid`).
[[nodiscard]] bool CheckReleased(const api::ObjectSet& objects, size_t first,
                                 const FeatureGates& gates, bool refuse_invalid, std::ostream& err);

// AddControllerFlags: --jobset-gang-of-gangs and --lws-composite-groups on `cmd`, bound to
// `options`.
void AddControllerFlags(CLI::App* cmd, controller::ManagerOptions* options);

// LoadFlags: the loader's flags (codec/load_options.h) as given on the command line:
// `--validate strict|warn|ignore` (kubectl's, also true / false; default strict) and
// `--skip-unknown-kinds`. Every command that reads manifests takes them (AddLoadFlags).
struct LoadFlags {
  std::string validate = "strict";
  bool skip_unknown_kinds = false;
};

// AddLoadFlags: --validate and --skip-unknown-kinds on `cmd`, bound to `flags`.
void AddLoadFlags(CLI::App* cmd, LoadFlags* flags);

// ToLoadOptions: the parsed flags, or a usage error message.
[[nodiscard]] tl::expected<codec::LoadOptions, std::string> ToLoadOptions(const LoadFlags& flags);

// FormatLoadFailure: a failed load as stderr lines: its warnings first (`warning: …`, often the
// cause of an error), then its errors (`error: …`).
[[nodiscard]] std::string FormatLoadFailure(const codec::LoadErrors& failure);

// RunCompile: the pipeline above; `in` serves "-". Output is written only on success.
// O(input size + generated objects).
[[nodiscard]] int RunCompile(const CompileOptions& options, std::istream& in, std::ostream& out,
                             std::ostream& err);

// RunCompileIfSelected: registers `compile` on `app` (so `wasched --help` lists it) and, when
// argv selects it, parses argv, runs it and returns the exit code; nullopt otherwise (as
// RunConvertIfSelected).
[[nodiscard]] std::optional<int> RunCompileIfSelected(CLI::App& app, int argc,
                                                      const char* const* argv, std::istream& in,
                                                      std::ostream& out, std::ostream& err);

}  // namespace wasched::cli
