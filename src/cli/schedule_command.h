// File: cli/schedule_command.h
//
// `wasched schedule`: read manifests, validate them, run the scheduler, print the result.
//
//   wasched schedule -f PATH... [-o table|json|yaml|html] [--feature-gates K=V,...]
//                    [--scoring-strategy LeastAllocated|MostAllocated]
//                    [--gang-satisfaction upstream|once-scheduled] [--placement complete|upstream]
//
// Pipeline: codec::LoadPaths → warnings ("warning: ...") on stderr → cli::ApplyFeatureGates (drop
// disabled fields) → validation::ValidateForSchedule (API create validation + pre-scheduling
// checks, the same errors `validate` reports) → the workload controllers
// (controller/manager/controller_manager.h) → sched::Schedule, in rounds when pods wait for
// others to run (cli/schedule_rounds.h) → the output on stdout. Exit codes are the
// fixed contract of design.md: 0 done (pending pods are a result, not an error), 1 invalid input
// (one "error: ..." line per problem on stderr and nothing at all on stdout).
#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>
#include <string_view>
#include <tl/expected.hpp>
#include <vector>

#include "codec/load_options.h"
#include "controller/manager/controller_manager.h"
#include "util/feature_gates.h"
#include "util/field_error.h"
#include "api/object_set.h"
#include "sched/schedule_result.h"
#include "sched/scheduler.h"

namespace wasched::cli {

// Exit codes (design.md "Command line"). kExitInternal is wasched-only: a bug (an exception that
// escaped) or output that could not be written, reported on stderr.
inline constexpr int kExitOk = 0;
inline constexpr int kExitInvalidInput = 1;
inline constexpr int kExitUsage = 2;
inline constexpr int kExitInternal = 3;
// kExitCluster: `--kubeconfig` runs only: the API server could not be read (unreachable, TLS
// failure, credentials refused, RBAC forbidden, a server error); one "error: ..." line on stderr.
// A kubeconfig that cannot be used is invalid input (kExitInvalidInput).
inline constexpr int kExitCluster = 4;

// OutputFormat: `-o table|json|yaml|html` (html: one self-contained page on stdout,
// cli/schedule_html.h).
enum class OutputFormat { kTable, kJson, kYaml, kHtml };

// ParseOutputFormat: "table" | "json" | "yaml" | "html"; anything else is an error naming the
// choices.
[[nodiscard]] tl::expected<OutputFormat, std::string> ParseOutputFormat(std::string_view text);

// ParseScoringStrategy: "LeastAllocated" | "MostAllocated" (upstream ScoringStrategyType names).
[[nodiscard]] tl::expected<sched::ScoringStrategy, std::string> ParseScoringStrategy(
    std::string_view text);

// ParseGangSatisfaction: "upstream" | "once-scheduled" (`--gang-satisfaction`, issue 20 A.2;
// sched::GangSatisfaction).
[[nodiscard]] tl::expected<sched::GangSatisfaction, std::string> ParseGangSatisfaction(
    std::string_view text);

// kPlacementHelp: the `--placement` help text every scheduling command shows.
inline constexpr const char* kPlacementHelp =
    "How hard a gang's placement is searched: complete (upstream's order, then wasched's bounded "
    "fallbacks: largest-first and a depth-first search for a PodGroup, DRA firstAvailable "
    "alternatives, minimum-first for CompositePodGroup children) or upstream (kube-scheduler "
    "v1.37.2's greedy order only: what it leaves pending stays pending)";

// ParsePlacement: "complete" | "upstream" (`--placement`, issue 20 A.3; sched::PlacementSearch);
// anything else is an error naming the flag and both values.
[[nodiscard]] tl::expected<sched::PlacementSearch, std::string> ParsePlacement(
    std::string_view text);

// WriteOutput: writes `text` to `out` and flushes it. When that fails (a full disk, a closed
// file) it reports `error: cannot write output: <reason>` on `err` and returns kExitInternal;
// otherwise `code`. Every command writes its stdout through it.
[[nodiscard]] int WriteOutput(std::ostream& out, std::ostream& err, std::string_view text,
                              int code);

// FormatErrorLines: `<prefix><error>\n` per error, at most codec::kMaxKeptErrors of them, then one
// line `<prefix>N more not shown` (issue 20 item 24: millions of error lines for one
// hostile input). A list of kMaxKeptErrors + 1 is printed whole (the loader's own last line
// already counts what it dropped). O(printed bytes).
[[nodiscard]] std::string FormatErrorLines(const InputErrors& errors, std::string_view prefix);

// NothingReadMessage: the error when the input holds no object wasched reads: `skipped` objects
// were skipped (their kinds have warnings), or the input held none.
[[nodiscard]] std::string NothingReadMessage(int64_t skipped);

// InputNotes: the ScheduleResult::notes of `objects` (input plus what the controllers
// created): one per suspended Job ("Job ns/j is suspended (spec.suspend: true): the Job
// controller created no pods for it; …") and per suspended JobSet (whose Jobs get no line of
// their own); JobSets first, then Jobs, each in input order. O(Jobs + JobSets).
[[nodiscard]] std::vector<std::string> InputNotes(const api::ObjectSet& objects);

// ScheduleOptions: everything `schedule` needs, already parsed.
struct ScheduleOptions {
  std::vector<std::string> paths;  // files, folders or "-" (stdin), in order
  // Live cluster input (`--kubeconfig`): when `use_cluster`, the cluster's objects are listed
  // first and `paths` are read on top. `kubeconfig` empty: KUBECONFIG / in-cluster /
  // ~/.kube/config (kube/kubeconfig.h).
  bool use_cluster = false;
  std::string kubeconfig;
  std::string context;
  bool insecure_skip_tls_verify = false;
  OutputFormat output = OutputFormat::kTable;
  // summary: `--summary`, one line per group instead of per pod (table output only;
  // FormatScheduleSummary in cli/table_output.h).
  bool summary = false;
  FeatureGates gates;
  sched::SchedulerOptions scheduler;
  controller::ManagerOptions controllers;  // the controllers' options (their gates: `gates`)
  codec::LoadOptions load;                 // --validate, --skip-unknown-kinds
};

// ScheduledInput: the objects scheduled (input plus what the Job controller created) and the result.
struct ScheduledInput {
  api::ObjectSet objects;
  sched::ScheduleResult result;
};

// LoadAndSchedule: the pipeline above up to the result (no output): errors and warnings go to
// `err`; on failure the exit code (kExitInvalidInput, kExitCluster). Input where nothing wasched
// reads remains (every object skipped, or none at all) is invalid: `error: no object wasched
// reads in the input …`. Shared by `schedule` and `explain`.
[[nodiscard]] tl::expected<ScheduledInput, int> LoadAndSchedule(const ScheduleOptions& options,
                                                                std::istream& in,
                                                                std::ostream& err);

// RunSchedule: runs the pipeline above; `in` serves "-". The whole output is built first and
// written to `out` only on success, so a failing run never leaves partial output.
// Returns kExitOk, kExitInvalidInput, kExitCluster (live input could not be read), or
// kExitInternal when stdout cannot be written.
// O(input size + scheduler).
[[nodiscard]] int RunSchedule(const ScheduleOptions& options, std::istream& in, std::ostream& out,
                              std::ostream& err);

}  // namespace wasched::cli
