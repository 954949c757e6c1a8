// File: live/run_config.h
//
// `wasched run --config FILE`: the subset of kube-scheduler's KubeSchedulerConfiguration
// (apiVersion kubescheduler.config.k8s.io/v1, k8s.io/kube-scheduler/config/v1 types.go,
// v0.37.2) that wasched's live scheduler reads, with upstream's defaults
// (pkg/scheduler/apis/config/v1/defaults.go):
//   clientConnection.{kubeconfig, qps (50), burst (100)}
//   leaderElection.{leaderElect (true), leaseDuration (15s), renewDeadline (10s),
//                   retryPeriod (2s), resourceNamespace (kube-system), resourceName (wasched)}
//   profiles: exactly one, {schedulerName (wasched), pluginConfig: NodeResourcesFit
//             args.scoringStrategy.type LeastAllocated | MostAllocated}
//   percentageOfNodesToScore, parallelism, podInitialBackoffSeconds, podMaxBackoffSeconds,
//   healthzBindAddress, metricsBindAddress: accepted (wasched scores every node and keeps its
//   own backoff; each gives a note)
// Any other field is an error naming the file and the field path, as every input of wasched
// (`<file>: KubeSchedulerConfiguration: profiles[0].plugins: unknown field ...`).
#pragma once

#include <string>
#include <vector>

#include <tl/expected.hpp>

#include "sched/scheduler.h"

namespace wasched::live {

struct RunConfig {
  std::string kubeconfig;
  double qps = 50;
  int burst = 100;
  bool leader_elect = true;
  double lease_duration = 15;
  double renew_deadline = 10;
  double retry_period = 2;
  std::string lease_namespace = "kube-system";
  std::string lease_name = "wasched";
  std::string scheduler_name = "wasched";
  sched::ScoringStrategy scoring = sched::ScoringStrategy::kLeastAllocated;
  std::vector<std::string> notes;  // accepted fields wasched does not act on
};

// ParseRunConfig: `text` of `file`. Errors: one line per problem (file, field path, what).
[[nodiscard]] tl::expected<RunConfig, std::vector<std::string>> ParseRunConfig(
    const std::string& text, const std::string& file);

// ParseDuration: Go's time.ParseDuration subset "1h2m3.5s", "500ms", "15s" → seconds.
[[nodiscard]] tl::expected<double, std::string> ParseDuration(const std::string& text);

}  // namespace wasched::live
