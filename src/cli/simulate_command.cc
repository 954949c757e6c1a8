// File: cli/simulate_command.cc
#include "cli/simulate_command.h"

#include <unistd.h>

#include <fstream>
#include <memory>
#include <ostream>
#include <sstream>

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include "cli/subcommand.h"
#include "cli/schedule_command.h"
#include "sim/cluster.h"
#include "sim/html_report.h"
#include "sim/report.h"
#include "sim/simulator.h"
#include "sim/trace.h"

namespace wasched::cli {
namespace {

bool WriteFile(const std::string& path, const std::string& text, std::ostream& err) {
  std::ofstream f(path, std::ios::binary);
  f << text;
  f.close();
  if (!f) {
    err << "error: " << path << ": cannot write the file\n";
    return false;
  }
  return true;
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
  std::vector<sim::Policy> policies;
  for (const std::string& p : o.policies.empty() ? std::vector<std::string>{"gang"} : o.policies) {
    auto policy = sim::ParsePolicy(p);
    if (!policy) {
      err << "error: " << policy.error() << "\n";
      return kExitUsage;
    }
    policies.push_back(*policy);
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
  auto nodes = o.cluster.empty() ? sim::GenerateCluster(o.generate_cluster) : sim::LoadClusterNodes(o.cluster);
  if (!nodes) {
    err << "error: " << nodes.error() << "\n";
    return o.cluster.empty() ? kExitUsage : kExitInvalidInput;
  }
  auto trace = sim::ImportTrace(o.trace, *format, {.gpus_per_pod = o.gpus_per_pod, .max_jobs = o.max_jobs});
  if (!trace) {
    err << "error: " << trace.error() << "\n";
    return kExitInvalidInput;
  }
  const bool tty = isatty(STDERR_FILENO) == 1;
  std::vector<sim::SimResult> runs;
  for (sim::Policy policy : policies) {
    sim::SimOptions so;
    so.policy = policy;
    so.preemption = o.preemption == "on";
    so.seed = o.seed;
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
    std::ostringstream csv;
    sim::WriteTimeseriesCsv(runs, csv);
    if (!WriteFile(o.timeseries, csv.str(), err)) return kExitInternal;
  }
  if (!o.report.empty()) {
    std::ostringstream html;
    sim::WriteHtmlReport(ctx, runs, html);
    if (!WriteFile(o.report, html.str(), err)) return kExitInternal;
  }
  std::ostringstream text;
  if (o.output == "json") {
    sim::WriteJson(ctx, runs, text);
  } else {
    sim::WriteTable(ctx, runs, text);
  }
  out << text.str() << std::flush;
  if (!out) {
    err << "error: cannot write output\n";
    return kExitInternal;
  }
  return kExitOk;
}

std::optional<int> RunSimulateIfSelected(CLI::App& app, int argc, const char* const* argv, std::ostream& out,
                                         std::ostream& err) {
  CLI::App* cmd = app.add_subcommand(
      "simulate", "Replay a GPU-cluster trace through the scheduler under basic, gang and gang-topology policies");
  auto o = std::make_shared<SimulateOptions>();
  cmd->callback([o] {});
  cmd->add_option("--trace", o->trace, "Trace file (CSV)")->required()->type_name("FILE");
  cmd->add_option("--format", o->format, "Trace format: philly, openb or kalos")
      ->required()
      ->check(CLI::IsMember({"philly", "openb", "kalos"}));
  cmd->add_option("--gpus-per-pod", o->gpus_per_pod, "Philly: GPUs per pod (a job of G GPUs becomes ceil(G/N) pods)")
      ->check(CLI::Range(1, 1024))
      ->capture_default_str();
  cmd->add_option("--cluster", o->cluster, "Node manifests (file or folder), or an openb node list .csv")
      ->type_name("PATH");
  cmd->add_option("--generate-cluster", o->generate_cluster,
                  "Generated cluster: nodes=64,gpus=8,cpus=96,memory=768Gi,zones=2,racksPerZone=4")
      ->type_name("SPEC");
  cmd->add_option("--policy", o->policies, "basic, gang or gang-topology (repeatable; default gang)")
      ->type_name("POLICY");
  cmd->add_option("--preemption", o->preemption, "on or off")->check(CLI::IsMember({"on", "off"}))->capture_default_str();
  cmd->add_option("--seed", o->seed, "Seed for node failures")->capture_default_str();
  cmd->add_option("--node-failures", o->node_failures, "perDay=N,repair=DURATION (e.g. perDay=2,repair=2h)")
      ->type_name("SPEC");
  cmd->add_option("-o,--output", o->output, "table or json")->check(CLI::IsMember({"table", "json"}))->capture_default_str();
  cmd->add_option("--timeseries", o->timeseries, "Write GPU use over time (hourly) as CSV")->type_name("FILE.csv");
  cmd->add_option("--report", o->report, "Write a self-contained HTML page with plots comparing the policies")
      ->type_name("FILE.html");
  cmd->add_option("--max-jobs", o->max_jobs, "Replay only the first N jobs of the trace (0 = all)")
      ->check(CLI::Range(int64_t{0}, int64_t{1} << 40));
  if (!IsSelected(argc, argv, "simulate")) return std::nullopt;
  if (auto code = ParseOrExitCode(app, argc, argv, out, err)) return code;
  return RunSimulate(*o, out, err);
}

}  // namespace wasched::cli
