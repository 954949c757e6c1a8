// File: cli/run_command.cc
#include "cli/run_command.h"

#include <unistd.h>

#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdlib>
#include <ctime>
#include <fstream>
#include <iostream>
#include <memory>
#include <mutex>
#include <random>
#include <sstream>
#include <thread>

#include <fmt/format.h>

#include "cli/feature_gates.h"
#include "cli/schedule_command.h"
#include "cli/subcommand.h"
#include "kube/api_client.h"
#include "kube/curl_transport.h"
#include "kube/kubeconfig.h"
#include "kube/rate_limiter.h"
#include "kube/resource_type.h"
#include "live/http_endpoints.h"
#include "live/informers.h"
#include "live/leader_election.h"
#include "live/metrics.h"
#include "live/object_store.h"
#include "live/run_config.h"
#include "live/scheduling_loop.h"
#include "live/write_queue.h"
#include "util/feature_gates.h"
#include "util/field_value.h"

namespace wasched::cli {
namespace {

std::atomic<bool> g_stop{false};  // set by SIGTERM / SIGINT only (a signal handler's flag)

extern "C" void OnStopSignal(int) { g_stop.store(true); }

struct RunFlags {
  std::string kubeconfig;
  std::string context;
  bool insecure = false;
  std::string config;
  std::string scheduler_name;
  std::string leader_elect;
  std::string lease_namespace;
  std::string lease_name;
  std::string identity;
  std::string bind_address = "127.0.0.1:10359";
  int write_workers = 16;
  std::vector<std::string> gates;
  std::string placement = "complete";
  int verbosity = 0;
};

// Log: klog's header ("I1202 15:04:05.123456 wasched] ...") on stderr, one line at a time.
class Log {
 public:
  Log(std::ostream& err, int verbosity) : err_(err), verbosity_(verbosity) {}
  void operator()(int level, const std::string& line) {
    if (level > verbosity_) return;
    const auto now = std::chrono::system_clock::now();
    const auto micros =
        std::chrono::duration_cast<std::chrono::microseconds>(now.time_since_epoch()).count();
    const std::time_t seconds = static_cast<std::time_t>(micros / 1000000);
    std::tm tm{};
    gmtime_r(&seconds, &tm);
    const std::string text = fmt::format("I{:02}{:02} {:02}:{:02}:{:02}.{:06} wasched] {}\n",
                                         tm.tm_mon + 1, tm.tm_mday, tm.tm_hour, tm.tm_min,
                                         tm.tm_sec, micros % 1000000, EscapeForTerminal(line));
    std::lock_guard<std::mutex> lock(mu_);
    err_ << text << std::flush;
  }

 private:
  std::ostream& err_;
  int verbosity_;
  std::mutex mu_;
};

std::string DefaultIdentity() {
  char host[256] = {0};
  if (gethostname(host, sizeof host - 1) != 0) host[0] = '\0';
  std::random_device rd;
  return fmt::format("{}_{:08x}", host[0] != '\0' ? host : "wasched", rd());
}

// Probe: one list of each kind the scheduler must read (limit=1), so that a wrong server, bad
// credentials or missing RBAC rights are one clear error at start.
std::optional<kube::KubeError> Probe(const kube::RestConfig& config) {
  auto transport = kube::MakeCurlTransport(config);
  kube::ApiClient client(transport.get(), nullptr, config.server);
  for (size_t t : live::WatchedTypes()) {
    const kube::ResourceType& type = kube::SchedulingResources()[t];
    auto listed = client.Get(type.CollectionPath() + "?limit=1");
    if (listed) continue;
    if (listed.error().kind == kube::KubeErrorKind::kNotFound && !type.group.empty()) continue;
    return listed.error();
  }
  return std::nullopt;
}

int RunScheduler(const RunFlags& flags, const CLI::App& cmd, std::ostream& err) {
  live::RunConfig config;
  if (!flags.config.empty()) {
    std::ifstream file(flags.config, std::ios::binary);
    if (!file) {
      err << "error: --config " << EscapeForTerminal(flags.config) << ": cannot read the file\n";
      return kExitInvalidInput;
    }
    std::stringstream text;
    text << file.rdbuf();
    auto parsed = live::ParseRunConfig(text.str(), flags.config);
    if (!parsed) {
      for (const std::string& e : parsed.error()) err << "error: " << EscapeForTerminal(e) << '\n';
      return kExitInvalidInput;
    }
    config = std::move(*parsed);
  }
  if (!flags.scheduler_name.empty()) config.scheduler_name = flags.scheduler_name;
  if (!flags.leader_elect.empty()) config.leader_elect = flags.leader_elect == "true";
  if (!flags.lease_namespace.empty()) config.lease_namespace = flags.lease_namespace;
  if (!flags.lease_name.empty()) config.lease_name = flags.lease_name;
  std::string gate_spec;
  for (const std::string& g : flags.gates) gate_spec += g + ",";
  auto gates = ParseFeatureGates(gate_spec);
  if (!gates) {
    err << "error: " << gates.error() << '\n';
    return kExitUsage;
  }
  auto placement = ParsePlacement(flags.placement);
  if (!placement) {
    err << "error: " << placement.error() << '\n';
    return kExitUsage;
  }
  Log log(err, flags.verbosity);
  for (const std::string& note : config.notes) log(0, "config: " + note);

  kube::ConfigRequest request;
  request.kubeconfig = cmd.count("--kubeconfig") > 0 ? flags.kubeconfig : config.kubeconfig;
  request.context = flags.context;
  request.allow_insecure_skip_tls_verify = flags.insecure;
  auto rest = kube::ResolveConfig(request, kube::RealFileSystem());
  if (!rest) {
    err << "error: " << EscapeForTerminal(rest.error().message) << '\n';
    return kExitInvalidInput;
  }
  if (auto problem = Probe(*rest)) {
    err << "error: " << EscapeForTerminal(problem->message) << '\n';
    return kExitCluster;
  }

  live::Metrics metrics(config.scheduler_name);
  live::ObjectStore store(kube::SchedulingResources().size());
  std::atomic<bool> leader{!config.leader_elect};
  metrics.SetLeader(leader.load());
  // Ready once every kind is listed, leader or standby (as kube-scheduler's /readyz: a standby
  // is ready to take over; `wasched_leader` tells which one acts).
  auto endpoints = live::Endpoints::Start(flags.bind_address, &metrics,
                                          [&] { return store.AllSynced(); });
  if (!endpoints) {
    err << "error: " << EscapeForTerminal(endpoints.error()) << '\n';
    return kExitInvalidInput;
  }
  std::signal(SIGTERM, OnStopSignal);
  std::signal(SIGINT, OnStopSignal);
  const std::string identity = flags.identity.empty() ? DefaultIdentity() : flags.identity;
  log(0, fmt::format("wasched run: scheduler {} as {}, server {} ({}), endpoints on port {}",
                     config.scheduler_name, identity, rest->server, rest->origin,
                     (*endpoints)->Port()));

  live::InformerOptions informer_options;
  informer_options.qps = config.qps;
  informer_options.burst = config.burst;
  live::StartInformers(*rest, &store, informer_options,
                       [&log](const std::string& line) { log(0, line); });

  live::WriteQueueOptions write_options;
  write_options.workers = flags.write_workers;
  write_options.qps = config.qps;
  write_options.burst = config.burst;
  write_options.instance = identity;
  const kube::RestConfig rest_config = *rest;
  live::WriteQueue writes([rest_config] { return kube::MakeCurlTransport(rest_config); },
                          rest->server, live::SystemWallClock(), write_options);

  // Leader election on its own thread and client.
  std::atomic<bool> lost{false};
  std::mutex election_mu;
  std::string election_error;  // a fatal leader-election error (RBAC), under election_mu
  std::unique_ptr<kube::Transport> lease_transport;
  std::unique_ptr<kube::ApiClient> lease_client;
  std::unique_ptr<live::LeaderElector> elector;
  std::thread election;
  if (config.leader_elect) {
    lease_transport = kube::MakeCurlTransport(*rest);
    lease_client = std::make_unique<kube::ApiClient>(lease_transport.get(), nullptr, rest->server);
    live::LeaseOptions lease;
    lease.namespace_ = config.lease_namespace;
    lease.name = config.lease_name;
    lease.identity = identity;
    lease.lease_duration = config.lease_duration;
    lease.renew_deadline = config.renew_deadline;
    lease.retry_period = config.retry_period;
    elector = std::make_unique<live::LeaderElector>(lease_client.get(), kube::SteadyClock(),
                                                   live::SystemWallClock(), lease);
    election = std::thread([&, lease] {
      const kube::Clock clock = kube::SteadyClock();
      double last_renew = clock.now();
      std::string last_error;
      while (!g_stop.load() && !lost.load()) {
        auto held = elector->TryAcquireOrRenew();
        const double now = clock.now();
        if (held && *held) {
          if (!leader.load()) log(0, fmt::format("became the leader (lease {}/{})",
                                                 lease.namespace_, lease.name));
          leader = true;
          metrics.SetLeader(true);
          last_renew = now;
          last_error.clear();
        } else if (!held && (held.error().kind == kube::KubeErrorKind::kForbidden ||
                              held.error().kind == kube::KubeErrorKind::kUnauthorized)) {
          // Retrying cannot fix RBAC: stop with the server's message (exit 4).
          std::lock_guard<std::mutex> lock(election_mu);
          election_error = held.error().message;
          lost = true;
          break;
        } else {
          if (!held && held.error().message != last_error) {
            last_error = held.error().message;
            log(0, "leader election: " + last_error);
          }
          if (leader.load() && now - last_renew > lease.renew_deadline) {
            log(0, "leader election lost: the lease could not be renewed within renewDeadline");
            leader = false;
            metrics.SetLeader(false);
            lost = true;
            break;
          }
        }
        const double until = now + lease.retry_period;
        while (!g_stop.load() && clock.now() < until) clock.sleep(0.05);
      }
    });
  }

  live::LoopOptions loop_options;
  loop_options.scheduler.scheduler_name = config.scheduler_name;
  loop_options.scheduler.scoring = config.scoring;
  loop_options.scheduler.placement = *placement;
  loop_options.scheduler.pod_group_preemption_policy = gates->pod_group_preemption_policy;
  // PodGroup-level claims (KEP-5729): the engine shares them, the loop reserves them for the group.
  loop_options.scheduler.dra_workload_resource_claims = gates->dra_workload_resource_claims;
  loop_options.source = rest->server;
  const FeatureGates gate_values = *gates;
  loop_options.prepare = [gate_values, &log](api::ObjectSet* objects) {
    for (const std::string& w : ApplyFeatureGates(gate_values, objects)) log(2, "gates: " + w);
  };
  live::SchedulingLoop loop(&store, &writes, &metrics, loop_options,
                            [&log](int level, const std::string& line) { log(level, line); },
                            live::SystemWallClock());
  int code = kExitOk;
  loop.Run([&] { return g_stop.load() || lost.load() || store.Fatal().has_value(); },
           [&] { return leader.load(); });
  if (auto fatal = store.Fatal()) {
    err << "error: " << EscapeForTerminal(fatal->message) << '\n';
    code = kExitCluster;
  } else if (lost.load()) {
    std::lock_guard<std::mutex> lock(election_mu);
    if (!election_error.empty()) {
      err << "error: leader election: " << EscapeForTerminal(election_error) << '\n';
    } else {
      err << "error: the leader lease was lost; stopping so that one scheduler acts\n";
    }
    code = kExitCluster;
  }
  if (lost.load()) {
    // Another instance leads now: nothing more may be written (kube-scheduler exits at once).
    err.flush();
    std::_Exit(code);
  }
  log(0, "stopping: finishing the bindings and deletions in flight (at most 5 s)");
  if (!writes.StopWithin(5)) log(0, "stopping: writes still queued after 5 s were dropped");
  if (election.joinable()) {
    g_stop = true;
    election.join();
  }
  if (elector && code == kExitOk) elector->Release();
  err.flush();
  std::cout.flush();
  std::_Exit(code);  // the watch threads block in their requests; they end with the process
}

}  // namespace

std::optional<int> RunRunIfSelected(CLI::App& app, int argc, const char* const* argv,
                                    std::ostream& out, std::ostream& err) {
  CLI::App* cmd = app.add_subcommand(
      "run", "Run as a scheduler on a live cluster: bind the pods whose schedulerName is wasched's");
  auto flags = std::make_shared<RunFlags>();
  cmd->callback([flags] {});
  cmd->add_option("--kubeconfig", flags->kubeconfig,
                  "kubeconfig file (default: the config's clientConnection.kubeconfig, "
                  "$KUBECONFIG, in-cluster, ~/.kube/config)")
      ->type_name("PATH");
  cmd->add_option("--context", flags->context, "The kubeconfig context to use");
  cmd->add_flag("--insecure-skip-tls-verify", flags->insecure,
                "Do not verify the API server's certificate");
  cmd->add_option("--config", flags->config,
                  "KubeSchedulerConfiguration file (kubescheduler.config.k8s.io/v1; one profile)")
      ->type_name("FILE");
  cmd->add_option("--scheduler-name", flags->scheduler_name,
                  "The spec.schedulerName to schedule (default: the profile's, else wasched)");
  cmd->add_option("--leader-elect", flags->leader_elect,
                  "Elect a leader through a Lease before scheduling (true|false; default true)")
      ->check(CLI::IsMember({"true", "false"}))
      ->expected(0, 1)
      ->default_str("true");
  cmd->add_option("--lease-namespace", flags->lease_namespace, "Namespace of the Lease (kube-system)");
  cmd->add_option("--lease-name", flags->lease_name, "Name of the Lease (wasched)");
  cmd->add_option("--identity", flags->identity,
                  "This instance's holderIdentity (default: hostname_random)");
  cmd->add_option("--bind-address", flags->bind_address,
                  "HOST:PORT of /healthz, /readyz and /metrics (plain HTTP; port 0 picks one)")
      ->capture_default_str();
  cmd->add_option("--write-workers", flags->write_workers,
                  "Threads writing bindings, deletions, status and events")
      ->check(CLI::Range(1, 256))
      ->capture_default_str();
  cmd->add_option("--feature-gates", flags->gates, "Feature gates K=V,... (as schedule)")
      ->type_name("K=V,...");
  cmd->add_option("--placement", flags->placement, kPlacementHelp)->capture_default_str();
  cmd->add_option("-v", flags->verbosity, "Log verbosity: 0 decisions that matter, 2 every "
                                          "binding and status, 4 more")
      ->check(CLI::Range(0, 10));
  if (!IsSelected(argc, argv, "run")) return std::nullopt;
  if (auto code = ParseOrExitCode(app, argc, argv, out, err)) return code;
  if (cmd->count("--leader-elect") > 0 && flags->leader_elect.empty()) flags->leader_elect = "true";
  return RunScheduler(*flags, *cmd, err);
}

}  // namespace wasched::cli
