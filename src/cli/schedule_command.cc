// File: cli/schedule_command.cc
#include "cli/schedule_command.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>
#include <cerrno>
#include <cstring>
#include <istream>
#include <ostream>
#include <utility>

#include "cli/compile_command.h"
#include "cli/feature_gates.h"
#include "cli/schedule_html.h"
#include "cli/schedule_rounds.h"
#include "cli/table_output.h"
#include "codec/input_limits.h"
#include "codec/loader.h"
#include "kube/api_client.h"
#include "kube/cluster_snapshot.h"
#include "kube/curl_transport.h"
#include "kube/kubeconfig.h"
#include "kube/rate_limiter.h"
#include "codec/result_encoding.h"
#include "validation/dra_validation.h"
#include "validation/object_set_validation.h"
#include "util/field_value.h"

namespace wasched::cli {

tl::expected<OutputFormat, std::string> ParseOutputFormat(std::string_view text) {
  if (text == "table") return OutputFormat::kTable;
  if (text == "json") return OutputFormat::kJson;
  if (text == "yaml") return OutputFormat::kYaml;
  if (text == "html") return OutputFormat::kHtml;
  return tl::unexpected(
      fmt::format("unsupported output format \"{}\": must be one of table, json, yaml, html", text));
}

tl::expected<sched::ScoringStrategy, std::string> ParseScoringStrategy(std::string_view text) {
  if (text == "LeastAllocated") return sched::ScoringStrategy::kLeastAllocated;
  if (text == "MostAllocated") return sched::ScoringStrategy::kMostAllocated;
  return tl::unexpected(fmt::format(
      "unsupported scoring strategy \"{}\": must be one of LeastAllocated, MostAllocated", text));
}

tl::expected<sched::GangSatisfaction, std::string> ParseGangSatisfaction(std::string_view text) {
  if (text == "upstream") return sched::GangSatisfaction::kUpstream;
  if (text == "once-scheduled") return sched::GangSatisfaction::kOnceScheduled;
  return tl::unexpected(fmt::format(
      "unsupported gang satisfaction \"{}\": must be one of upstream, once-scheduled", text));
}

tl::expected<sched::PlacementSearch, std::string> ParsePlacement(std::string_view text) {
  if (text == "complete") return sched::PlacementSearch::kComplete;
  if (text == "upstream") return sched::PlacementSearch::kUpstream;
  return tl::unexpected(
      fmt::format("--placement \"{}\": must be one of complete, upstream", EscapeForTerminal(text)));
}

int WriteOutput(std::ostream& out, std::ostream& err, std::string_view text, int code) {
  errno = 0;
  out << text;
  out.flush();
  if (out) return code;
  const int error = errno;
  err << "error: cannot write output: " << (error != 0 ? std::strerror(error) : "I/O error")
      << '\n';
  return kExitInternal;
}

std::string FormatErrorLines(const InputErrors& errors, std::string_view prefix) {
  const size_t kept = static_cast<size_t>(codec::kMaxKeptErrors);
  const size_t shown = errors.size() <= kept + 1 ? errors.size() : kept;
  std::string out;
  for (size_t i = 0; i < shown; ++i) {
    out.append(prefix).append(errors[i].ToString()).push_back('\n');
  }
  if (shown < errors.size()) {
    out += fmt::format("{}{} more not shown (only the first {} are printed)\n", prefix,
                       errors.size() - shown, kept);
  }
  return out;
}

std::string NothingReadMessage(int64_t skipped) {
  if (skipped > 0) {
    return fmt::format("no object wasched reads in the input: all {} object(s) were skipped (see "
                       "the warnings above)",
                       skipped);
  }
  return "no object wasched reads in the input: it holds no objects";
}

std::vector<std::string> InputNotes(const api::ObjectSet& objects) {
  std::vector<std::string> notes;
  std::vector<std::string> suspended_sets;  // "ns/name" of suspended JobSets
  for (const api::JobSet& js : objects.job_sets) {
    if (!js.suspend) continue;
    suspended_sets.push_back(api::NamespacedName(js.meta));
    notes.push_back(fmt::format(
        "JobSet {} is suspended (spec.suspend: true): its Jobs are suspended and created no pods; "
        "nothing of it is scheduled until spec.suspend is false",
        api::NamespacedName(js.meta)));
  }
  for (const api::Job& job : objects.jobs) {
    if (!job.suspend) continue;
    const bool of_suspended_set = std::any_of(
        job.meta.owner_references.begin(), job.meta.owner_references.end(),
        [&](const api::OwnerReference& o) {
          return o.kind == "JobSet" &&
                 std::find(suspended_sets.begin(), suspended_sets.end(),
                           job.meta.namespace_ + "/" + o.name) != suspended_sets.end();
        });
    if (of_suspended_set) continue;
    notes.push_back(fmt::format(
        "Job {} is suspended (spec.suspend: true): the Job controller created no pods for it; "
        "nothing of it is scheduled until spec.suspend is false",
        api::NamespacedName(job.meta)));
  }
  return notes;
}

namespace {

// kClientQps / kClientBurst: kube-scheduler's clientConnection defaults (v1.37.2
// pkg/scheduler/apis/config/v1/defaults.go: qps 50, burst 100).
constexpr double kClientQps = 50;
constexpr int kClientBurst = 100;

// ReadClusterTexts: the live cluster's objects as list texts; on failure prints one error line
// and returns the exit code.
tl::expected<std::vector<codec::NamedText>, int> ReadClusterTexts(const ScheduleOptions& options,
                                                                  std::ostream& err) {
  kube::ConfigRequest request;
  request.kubeconfig = options.kubeconfig;
  request.context = options.context;
  request.allow_insecure_skip_tls_verify = options.insecure_skip_tls_verify;
  auto config = kube::ResolveConfig(request, kube::RealFileSystem());
  if (!config) {
    err << "error: " << EscapeForTerminal(config.error().message) << '\n';
    return tl::unexpected(kExitInvalidInput);
  }
  auto transport = kube::MakeCurlTransport(*config);
  kube::RateLimiter limiter(kClientQps, kClientBurst, kube::SteadyClock());
  kube::ApiClient client(transport.get(), &limiter, config->server);
  auto snapshot = kube::ReadCluster(client);
  if (!snapshot) {
    err << "error: " << EscapeForTerminal(snapshot.error().message) << '\n';
    return tl::unexpected(kExitCluster);
  }
  for (const std::string& w : snapshot->warnings) {
    err << "warning: " << EscapeForTerminal(w) << '\n';
  }
  return std::move(snapshot->texts);
}

}  // namespace

tl::expected<ScheduledInput, int> LoadAndSchedule(const ScheduleOptions& options,
                                                  std::istream& in, std::ostream& err) {
  std::vector<codec::NamedText> cluster_texts;
  if (options.use_cluster) {
    auto texts = ReadClusterTexts(options, err);
    if (!texts) return tl::unexpected(texts.error());
    cluster_texts = std::move(*texts);
  }
  auto loaded = codec::LoadTextsAndPaths(cluster_texts, options.paths, in, options.load);
  if (!loaded) {
    err << FormatLoadFailure(loaded.error());
    return tl::unexpected(kExitInvalidInput);
  }
  for (const std::string& w : loaded->warnings) err << "warning: " << EscapeForTerminal(w) << '\n';
  if (api::CountObjects(loaded->objects) == 0) {
    err << "error: " << NothingReadMessage(loaded->skipped) << '\n';
    return tl::unexpected(kExitInvalidInput);
  }

  api::ObjectSet objects = std::move(loaded->objects);
  for (const std::string& w : ApplyFeatureGates(options.gates, &objects)) {
    err << "warning: " << EscapeForTerminal(w) << '\n';
  }

  // The API server's create strategy drops disabled fields first (ApplyFeatureGates above), then
  // validates: the same create validation as `validate`, plus the pre-scheduling checks.
  InputErrors warnings;
  InputErrors errors = validation::ValidateForSchedule(objects, options.gates, &warnings);
  if (options.use_cluster) {
    // The cluster's objects were admitted by its API server: one that wasched's checks refuse
    // (a pod naming a PodGroup not created yet, …) is left out with a warning instead of
    // refusing the whole cluster; errors in the -f files stay errors.
    std::set<std::string> cluster_files;
    for (const codec::NamedText& t : cluster_texts) cluster_files.insert(t.name);
    std::set<std::string> left_out;
    InputErrors file_errors;
    for (InputError& e : errors) {
      if (cluster_files.count(e.source.file) > 0 && !e.object.empty()) {
        left_out.insert(e.object);
        e.error.detail += e.error.detail.empty() ? "" : "; ";
        e.error.detail += "left out (the cluster's object; wasched cannot schedule it)";
        warnings.push_back(std::move(e));
      } else {
        file_errors.push_back(std::move(e));
      }
    }
    errors = std::move(file_errors);
    api::RemoveObjectsNamed(&objects, left_out);
  }
  err << FormatErrorLines(warnings, "warning: ");
  if (!errors.empty()) {
    err << FormatErrorLines(errors, "error: ");
    return tl::unexpected(kExitInvalidInput);
  }

  // The controllers run first (controller/manager/controller_manager.h): the Jobs,
  // ReplicaSets, StatefulSets, Workloads, PodGroups and Pods they create join the input and are
  // scheduled; `generated` lists them.
  controller::ManagerOptions controllers = options.controllers;
  controllers.gates = options.gates;
  auto run = RunControllersChecked(&objects, controllers, /*refuse_invalid=*/true, err);
  if (!run) return tl::unexpected(kExitInvalidInput);
  // Pods whose claims depend on CEL outside wasched's subset wait as Unsupported (warned above).
  (void)validation::MarkPodsWithUnsupportedSelectors(&objects);
  sched::SchedulerOptions scheduler = options.scheduler;
  scheduler.pod_group_preemption_policy = options.gates.pod_group_preemption_policy;
  sched::ScheduleResult result = sched::Schedule(objects, scheduler);
  // Rounds (cli/schedule_rounds.h): pods that exist only once others run.
  const controller::ControllerManager manager(controllers);
  while (!run->deferred.empty()) {
    ApplyRound(result, &objects);
    const size_t first = objects.pods.size();
    if (manager.ReleaseDeferred(&objects, &*run) == 0) break;
    if (!CheckReleased(objects, first, options.gates, /*refuse_invalid=*/true, err)) {
      return tl::unexpected(kExitInvalidInput);
    }
    (void)validation::MarkPodsWithUnsupportedSelectors(&objects);
    result = MergeRounds(std::move(result), sched::Schedule(objects, scheduler));
  }
  for (const std::string& w : controller::ControllerManager::DeferredWarnings(*run)) {
    err << "warning: " << EscapeForTerminal(w) << '\n';
  }
  result.generated = std::move(run->generated);
  result.notes = InputNotes(objects);
  return ScheduledInput{std::move(objects), std::move(result)};
}

int RunSchedule(const ScheduleOptions& options, std::istream& in, std::ostream& out,
                std::ostream& err) {
  auto scheduled = LoadAndSchedule(options, in, err);
  if (!scheduled) return scheduled.error();
  const api::ObjectSet& objects = scheduled->objects;
  const sched::ScheduleResult& result = scheduled->result;
  std::string text;
  switch (options.output) {
    case OutputFormat::kTable:
      text = options.summary ? FormatScheduleSummary(objects, result)
                             : FormatScheduleTable(objects, result);
      break;
    case OutputFormat::kJson:
      text = codec::EncodeScheduleResultJson(result);
      break;
    case OutputFormat::kYaml:
      text = codec::EncodeScheduleResultYaml(result);
      break;
    case OutputFormat::kHtml:
      text = FormatScheduleHtml(objects, result);
      break;
  }
  return WriteOutput(out, err, text, kExitOk);
}

}  // namespace wasched::cli
