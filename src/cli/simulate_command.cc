// File: cli/simulate_command.cc
#include "cli/simulate_command.h"

#include <unistd.h>

#include <algorithm>
#include <charconv>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>
#include <ostream>
#include <sstream>
#include <tuple>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "cli/subcommand.h"
#include "cli/schedule_command.h"
#include "sim/cluster.h"
#include "sim/html_report.h"
#include "sim/report.h"
#include "sim/simulator.h"
#include "sim/trace.h"
#include "util/atomic_file.h"
#include "util/field_value.h"
#include "util/saturating.h"

namespace wasched::cli {
namespace {

std::string OsReason() { return errno != 0 ? std::strerror(errno) : "unknown error"; }

// OpenOutput: creates the temporary file of a --timeseries / --report output beside it (before
// the runs, so an unwritable folder fails at once); the target itself is replaced only at the
// end, when everything was written (AtomicFile). False with `error: cannot write output: <path>:
// <reason>`.
bool OpenOutput(AtomicFile* f, const std::string& path, std::ostream& err) {
  std::string error;
  if (f->Open(path, &error)) return true;
  err << "error: cannot write output: " << EscapeForTerminal(error) << "\n";
  return false;
}

// CommitOutput: renames a written output into place; false with the reason (e.g. "No space left
// on device").
bool CommitOutput(AtomicFile* f, std::ostream& err) {
  std::string error;
  if (f->Commit(&error)) return true;
  err << "error: cannot write output: " << EscapeForTerminal(error) << "\n";
  return false;
}

// SamePath: whether two paths name the same file (existing or not).
bool SamePath(const std::string& a, const std::string& b) {
  std::error_code ec1, ec2;
  if (std::filesystem::equivalent(a, b, ec1)) return true;
  const auto ca = std::filesystem::weakly_canonical(std::filesystem::absolute(a, ec1), ec1);
  const auto cb = std::filesystem::weakly_canonical(std::filesystem::absolute(b, ec2), ec2);
  return !ec1 && !ec2 && ca == cb;
}

// ResourceHint: what to pass so that the cluster offers the trace's GPU resource.
std::string ResourceHint(const sim::Trace& trace) {
  if (trace.gpu_resource == sim::kGpuMilliResource) {
    return fmt::format("pass --cluster with an openb node list (e.g. tests/data/traces/openb/openb_node_list_gpu_node.csv) "
                       "or Nodes whose allocatable has {} (generated clusters offer {} only)",
                       trace.gpu_resource, sim::kGpuResource);
  }
  return fmt::format("pass --generate-cluster with gpus=N (N ≥ 1), or --cluster with Nodes whose allocatable has {}",
                     trace.gpu_resource);
}

}  // namespace

int RunSimulate(const SimulateOptions& o, std::ostream& out, std::ostream& err) {
  auto format = sim::ParseTraceFormat(o.format);
  if (!format) {
    err << "error: " << format.error() << "\n";
    return kExitUsage;
  }
  if (o.cluster.empty() == o.generate_cluster.empty()) {
    err << "error: give exactly one of --cluster PATH and --generate-cluster SPEC\n";
    return kExitUsage;
  }
  for (const auto& [flag, path] : {std::pair{"--trace", &o.trace}, std::pair{"--cluster", &o.cluster}}) {
    if (*path == "-") {
      err << "error: " << flag << " -: reading from stdin is not supported; give a file name\n";
      return kExitUsage;
    }
  }
  auto placement = ParsePlacement(o.placement);
  if (!placement) {
    err << "error: " << placement.error() << "\n";
    return kExitUsage;
  }
  // A policy given twice runs once (first occurrence order).
  std::vector<sim::Policy> policies;
  for (const std::string& p : o.policies.empty() ? std::vector<std::string>{"gang"} : o.policies) {
    auto policy = sim::ParsePolicy(p);
    if (!policy) {
      err << "error: " << policy.error() << "\n";
      return kExitUsage;
    }
    if (std::find(policies.begin(), policies.end(), *policy) == policies.end()) policies.push_back(*policy);
  }
  sim::NodeFailures failures;
  if (!o.node_failures.empty()) {
    auto f = sim::ParseNodeFailures(o.node_failures);
    if (!f) {
      err << "error: " << f.error() << "\n";
      return kExitUsage;
    }
    failures = *f;
  }
  std::vector<std::string> cluster_warnings;
  auto nodes = o.cluster.empty() ? sim::GenerateCluster(o.generate_cluster)
                                 : sim::LoadClusterNodes(o.cluster, &cluster_warnings);
  if (!nodes) {
    std::istringstream lines(nodes.error());
    for (std::string line; std::getline(lines, line);) err << "error: " << line << "\n";
    return o.cluster.empty() ? kExitUsage : kExitInvalidInput;
  }
  for (const std::string& w : cluster_warnings) err << "warning: " << w << "\n";
  auto trace = sim::ImportTrace(o.trace, *format, {.gpus_per_pod = o.gpus_per_pod, .max_jobs = o.max_jobs});
  if (!trace) {
    err << "error: " << trace.error() << "\n";
    return kExitInvalidInput;
  }
  // A cluster without the trace's GPU resource would reject every GPU job (finding: silently).
  const bool wants_gpu = std::any_of(trace->jobs.begin(), trace->jobs.end(),
                                     [](const sim::TraceJob& j) { return j.TotalGpu() > 0; });
  const bool offers_gpu = std::any_of(nodes->begin(), nodes->end(), [&](const api::Node& n) {
    auto it = n.allocatable.find(trace->gpu_resource);
    return it != n.allocatable.end() && it->second > 0;
  });
  if (wants_gpu && !offers_gpu) {
    err << "error: " << EscapeForTerminal(o.cluster.empty() ? "--generate-cluster " + o.generate_cluster : o.cluster)
        << ": no node offers " << trace->gpu_resource << ", the resource the " << o.format
        << " trace's jobs request, so every job would be rejected: " << ResourceHint(*trace) << "\n";
    return kExitInvalidInput;
  }
  if (o.scale_jobs > 0) {
    // The load per GPU is kept relative to the cluster's GPUs (milli-GPUs count as 1/1000).
    int64_t units = 0;
    for (const api::Node& n : *nodes) {
      if (auto it = n.allocatable.find(trace->gpu_resource); it != n.allocatable.end() && it->second > 0) {
        units = SaturatingAdd(units, it->second);
      }
    }
    const double gpus = static_cast<double>(units) / static_cast<double>(trace->units_per_gpu);
    auto scaled = sim::ScaleTrace(*trace, {.jobs = o.scale_jobs,
                                           .target_gpus = gpus,
                                           .reference_gpus = static_cast<double>(o.scale_reference_gpus),
                                           .seed = o.seed});
    if (!scaled) {
      err << "error: " << EscapeForTerminal(scaled.error()) << "\n";
      return kExitUsage;
    }
    *trace = std::move(*scaled);
  }
  // Output files: named, not stdout, distinct, not the trace, and writable before the runs start.
  for (const auto& [flag, path] : {std::pair{"--timeseries", &o.timeseries}, std::pair{"--report", &o.report}}) {
    if (*path == "-") {
      err << "error: " << flag << " -: stdout holds the summary; give a file name\n";
      return kExitUsage;
    }
  }
  if (!o.timeseries.empty() && !o.report.empty() && SamePath(o.timeseries, o.report)) {
    err << "error: --timeseries and --report name the same file " << EscapeForTerminal(o.report) << "\n";
    return kExitUsage;
  }
  for (const std::string* p : {&o.timeseries, &o.report}) {
    if (!p->empty() && (SamePath(*p, o.trace) || (!o.cluster.empty() && SamePath(*p, o.cluster)))) {
      err << "error: " << (p == &o.report ? "--report" : "--timeseries") << " " << EscapeForTerminal(*p)
          << " is an input file (--trace or --cluster); it would be overwritten\n";
      return kExitUsage;
    }
  }
  // Both outputs are written to temporary files and renamed into place after stdout was
  // written; on any failure (or an interrupted run) the previous files stay as they were.
  AtomicFile timeseries_file, report_file;
  if (!o.timeseries.empty() && !OpenOutput(&timeseries_file, o.timeseries, err)) return kExitInternal;
  if (!o.report.empty() && !OpenOutput(&report_file, o.report, err)) return kExitInternal;
  const bool tty = isatty(STDERR_FILENO) == 1;
  std::vector<sim::SimResult> runs;
  for (sim::Policy policy : policies) {
    sim::SimOptions so;
    so.policy = policy;
    so.preemption = o.preemption == "on";
    so.seed = o.seed;
    so.placement = *placement;
    so.failures = failures;
    if (tty) {
      so.progress = [&err, policy](double f) {
        const int width = 40;
        const int filled = static_cast<int>(f * width);
        err << fmt::format("\r{:<14} [{}{}] {:3.0f}%", sim::PolicyName(policy), std::string(filled, '#'),
                           std::string(width - filled, ' '), 100 * f)
            << std::flush;
      };
    }
    runs.push_back(sim::Simulate(*trace, *nodes, so));
    if (tty) err << "\n";
  }
  sim::RunContext ctx;
  ctx.trace_file = o.trace;
  ctx.format = o.format;
  ctx.jobs = static_cast<int64_t>(trace->jobs.size());
  ctx.nodes = static_cast<int64_t>(nodes->size());
  ctx.gpus = runs.empty() ? 0 : runs[0].total_gpus;
  ctx.seed = o.seed;
  if (!o.timeseries.empty()) {
    sim::WriteTimeseriesCsv(runs, timeseries_file.stream());
  }
  if (!o.report.empty()) {
    sim::WriteHtmlReport(ctx, runs, report_file.stream());
  }
  if (!runs.empty() && runs[0].rejected > 0) {
    // Rejection depends on the job and the cluster only: the same jobs in every run.
    std::string examples;
    for (size_t k = 0; k < runs[0].rejected_jobs.size() && k < 3; ++k) {
      const sim::TraceJob& j = trace->jobs[runs[0].rejected_jobs[k]];
      examples += fmt::format("{}{} (line {}, {} × {} {})", k == 0 ? "" : ", ", j.name, j.line, j.pod_count,
                              std::max(j.gpu_per_pod, j.last_pod_gpu), trace->gpu_resource);
    }
    err << EscapeForTerminal(fmt::format(
               "warning: {} of {} jobs can never fit the cluster (larger than any node or the whole cluster, or no node has "
               "their GPU model) and are "
               "counted as rejected: {}{}",
               runs[0].rejected, runs[0].jobs, examples, runs[0].rejected > 3 ? ", ..." : ""))
        << "\n";
  }
  std::ostringstream text;
  if (o.output == "json") {
    sim::WriteJson(ctx, runs, text);
  } else {
    sim::WriteTable(ctx, runs, text);
  }
  errno = 0;
  out << text.str() << std::flush;
  if (!out) {
    err << "error: cannot write output: " << OsReason() << "\n";
    return kExitInternal;  // the temporary files go with their AtomicFile
  }
  if (!o.timeseries.empty() && !CommitOutput(&timeseries_file, err)) return kExitInternal;
  if (!o.report.empty() && !CommitOutput(&report_file, err)) return kExitInternal;
  return kExitOk;
}

std::optional<int> RunSimulateIfSelected(CLI::App& app, int argc, const char* const* argv, std::ostream& out,
                                         std::ostream& err) {
  CLI::App* cmd = app.add_subcommand(
      "simulate", "Replay a GPU-cluster trace through the scheduler under basic, gang and gang-topology policies");
  auto o = std::make_shared<SimulateOptions>();
  cmd->callback([o] {});
  cmd->add_option("--trace", o->trace,
                  "Trace file: plain CSV with a header row (no quoting; a UTF-8 BOM is skipped; lines up to 1 MiB, "
                  "1024 columns, 1 GiB); job durations and submit offsets up to 10 years")
      ->required()
      ->type_name("FILE");
  cmd->add_option("--format", o->format, "Trace format: philly, openb or kalos")
      ->required()
      ->check(CLI::IsMember({"philly", "openb", "kalos"}));
  cmd->add_option("--gpus-per-pod", o->gpus_per_pod, "Philly: GPUs per pod (a job of G GPUs becomes ceil(G/N) pods)")
      ->check(CLI::Range(1, 1024))
      ->capture_default_str();
  cmd->add_option("--cluster", o->cluster,
                  "Node manifests (file or folder), or an openb node list .csv (give exactly one of --cluster and "
                  "--generate-cluster)")
      ->type_name("PATH");
  cmd->add_option("--generate-cluster", o->generate_cluster,
                  "Generated cluster, keys (defaults) nodes=64 [1-100000], gpus=8 [0-1024] (nvidia.com/gpu), "
                  "cpus=96 [1-100000], memory=768Gi, zones=2 [1-nodes], racksPerZone=4 [1-nodes]")
      ->type_name("SPEC");
  cmd->add_option("--policy", o->policies, "basic, gang or gang-topology (repeatable; default gang)")
      ->type_name("POLICY");
  cmd->add_option("--preemption", o->preemption, "on or off")->check(CLI::IsMember({"on", "off"}))->capture_default_str();
  auto seed_text = std::make_shared<std::string>("1");
  cmd->add_option("--seed", *seed_text,
                  "Seed for node failures and --scale-trace's draws, an integer in [0, 18446744073709551615] "
                  "(same inputs and seed, same output bytes)")
      ->type_name("N")
      ->capture_default_str();
  cmd->add_option("--node-failures", o->node_failures,
                  "perDay=N,repair=DURATION: N in [0, 1000] failures per simulated day cluster-wide over the whole run, "
                  "each repaired after DURATION (3600, 30m or 2h; one unit)")
      ->type_name("SPEC");
  cmd->add_option("-o,--output", o->output, "table or json")->check(CLI::IsMember({"table", "json"}))->capture_default_str();
  cmd->add_option("--timeseries", o->timeseries,
                  "Write GPU use over time as CSV (hourly buckets; wider when a run spans over 100000 hours)")
      ->type_name("FILE.csv");
  cmd->add_option("--report", o->report, "Write a self-contained HTML page with plots comparing the policies")
      ->type_name("FILE.html");
  cmd->add_option("--placement", o->placement, kPlacementHelp)->capture_default_str();
  cmd->add_option("--max-jobs", o->max_jobs,
                  "Replay only the first N data rows of the trace file (file order, not the N earliest jobs; the "
                  "file is read only that far; 0 = all)")
      ->check(CLI::Range(int64_t{0}, int64_t{1} << 40));
  auto scale_text = std::make_shared<std::string>();
  cmd->add_option("--scale-trace", *scale_text,
                  "Replay N jobs (1-10000000) resampled from the trace instead of the trace itself: jobs drawn with "
                  "replacement (--seed), their submit times keeping the trace's arrival curve stretched over the "
                  "horizon H x (N / trace jobs) x (R / cluster GPUs), so each GPU sees the load the whole trace offers "
                  "R GPUs (R = --scale-reference-gpus); e.g. 1000000 Philly jobs on 10000 x 8 GPUs span 8.5 days")
      ->type_name("N");
  auto reference_text = std::make_shared<std::string>("512");
  cmd->add_option("--scale-reference-gpus", *reference_text,
                  "R for --scale-trace: the GPUs the trace is taken to load, 1-10000000 (512 = 64 x 8, on which the "
                  "whole Philly trace offers 73% of the GPU time)")
      ->type_name("R")
      ->capture_default_str();
  if (!IsSelected(argc, argv, "simulate")) return std::nullopt;
  if (auto code = ParseOrExitCode(app, argc, argv, out, err)) return code;
  if (cmd->count("--gpus-per-pod") > 0 && o->format != "philly") {
    err << "warning: --gpus-per-pod applies to philly traces only; ignored for --format " << o->format << "\n";
  }
  {
    // Parsed here, not by CLI11, so that -1 or 2^64 is an error instead of wrapping.
    const std::string& text = *seed_text;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), o->seed);
    if (text.empty() || ec != std::errc() || end != text.data() + text.size()) {
      err << "error: --seed " << EscapeForTerminal(text) << ": want an integer in [0, 18446744073709551615]\n";
      return kExitUsage;
    }
  }
  // --scale-trace / --scale-reference-gpus: parsed here so that the error names the range.
  for (const auto& [flag, text, value] :
       {std::tuple{"--scale-trace", scale_text.get(), &o->scale_jobs},
        std::tuple{"--scale-reference-gpus", reference_text.get(), &o->scale_reference_gpus}}) {
    if (cmd->count(flag) == 0) continue;
    const auto [end, ec] = std::from_chars(text->data(), text->data() + text->size(), *value);
    if (text->empty() || ec != std::errc() || end != text->data() + text->size() || *value < 1 ||
        *value > sim::kMaxScaledJobs) {
      err << "error: " << flag << " " << EscapeForTerminal(*text) << ": want an integer in [1, " << sim::kMaxScaledJobs
          << "]\n";
      return kExitUsage;
    }
  }
  if (cmd->count("--scale-reference-gpus") > 0 && cmd->count("--scale-trace") == 0) {
    err << "warning: --scale-reference-gpus applies to --scale-trace only; ignored\n";
  }
  for (const char* flag : {"--timeseries", "--report"}) {
    if (cmd->count(flag) > 0 && (flag[2] == 't' ? o->timeseries : o->report).empty()) {
      err << "error: " << flag << ": empty file name\n";
      return kExitUsage;
    }
  }
  return RunSimulate(*o, out, err);
}

}  // namespace wasched::cli
