// File: cli/compile_command.h
//
// `wasched compile`: what a batch/v1 Job becomes under the v1.37 Job controller (gate
// WorkloadWithJob; spec/was-v1.37.md §8, KEP-5547): the Workload compiled from its
// `spec.scheduling`, the PodGroup materialized from it and the Job's Pods naming that PodGroup.
//
//   wasched compile -f JOB... [-o yaml|json] [--feature-gates K=V,...]
//
// Pipeline: codec::LoadPaths → ApplyFeatureGates → validation::ValidateCreate (the Jobs and
// anything else in the input, as the API server would) → controller::job::RunJobController
// (every Job, in input order; Workloads / PodGroups / Pods already in the input are discovered,
// not recreated) → the created objects on stdout: YAML documents separated by `---` (default)
// or a `v1` `List` (JSON), Workloads first, then PodGroups, then Pods.
// stderr: `warning: …` lines (a Job without metadata.uid gets a uid derived from its namespace
// and name; controller errors) and `event: <type> <reason> Job <ns/name>: <message>` lines
// (the events the controller records: WorkloadCreated, PodGroupCreated, …).
// Exit codes (design.md): 0 compiled; 1 invalid input (`error: …` lines naming file, object and
// field path; nothing on stdout), also when the input holds no Job; 2 usage error.
#pragma once

#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "api/object_set.h"
#include "controller/job/job_controller.h"
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
};

// CheckJobCreationLimit: the input object limit (codec::kMaxObjects, codec/input_limits.h)
// applied to what the Job controller would create, before it allocates anything: the input's
// objects plus, per Job in input order, a Workload, a PodGroup and controller::job::WantActive
// pods. The first Job that crosses the limit is an Invalid error at `spec.parallelism` (or
// `spec.completions` when that bounds the pods), nullopt when all fit. Upstream has no such limit
// for a NonIndexed Job (its controller creates pods in batches, 500 per sync); an Indexed Job's
// parallelism is limited to 100000 by validation (validation/job_validation.h). O(Jobs).
[[nodiscard]] std::optional<InputError> CheckJobCreationLimit(const api::ObjectSet& objects);

// CreatedObjectErrors: the pre-scheduling checks (validation::ValidateForSchedule) of `objects`
// after controller::job::RunJobController added `run.generated` to them, keeping the errors of
// the created objects, each detail followed by what upstream does with such an object
// (`(created by the Job controller; the API server would refuse it)`, see below). O(objects).
[[nodiscard]] InputErrors CreatedObjectErrors(const api::ObjectSet& objects,
                                              const controller::job::ControllerRun& run,
                                              const FeatureGates& gates);

// RunJobControllerChecked: CheckJobCreationLimit (an `error: …` line and nullopt when crossed,
// in compile and schedule alike), then controller::job::RunJobController on `objects` (already
// validated), its warnings and events written to `err`, then the pre-scheduling checks
// (validation::ValidateForSchedule) again, keeping what concerns the created objects: what the
// API server would refuse to create (a pod naming a PriorityClass that does not exist, a name an
// input object already has). Each says what upstream does with such an object: "the API server
// would refuse it", or, for references the API server does not resolve, that the scheduler holds
// the pod at PreEnqueue (missing PodGroup) or the pods stay pending (missing
// ResourceClaimTemplate / ResourceClaim). Those are `error: …` lines and the result is nullopt when
// `refuse_invalid` (schedule), else `warning: …` lines (compile shows the objects anyway).
// The errors name the Job's file (created objects carry the Job's source).
[[nodiscard]] std::optional<controller::job::ControllerRun> RunJobControllerChecked(
    api::ObjectSet* objects, const FeatureGates& gates, bool refuse_invalid, std::ostream& err);

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
