// File: perf/upstream.h
//
// `wasched bench --against-upstream`: kube-scheduler's own scheduler_perf workloads
// (k8s.io/kubernetes v1.37.2 test/integration/scheduler_perf, run by scripts/bench-upstream.sh
// through reference/schedperf) beside the same shapes through wasched's engine.
//
// Each upstream workload wasched knows is an UpstreamWorkload: its name as upstream spells it
// (suite = the harness's sub-benchmark, upstream's topic name; test case; workload), the pods its
// measured createPods op creates (what upstream's SchedulingThroughput counts), and a builder of
// the same cluster for sched::Schedule: the same node and pod counts, node and pod templates
// (resources, priorities, host ports, labels, affinity), with the pods upstream schedules before
// the measured op placed as running pods (upstream schedules them first, untimed). A workload
// wasched cannot express has no builder and says why.
//
// The two numbers are not the same measurement: upstream's is its whole scheduler (informers,
// queue, the binding API calls) against an in-process kube-apiserver and etcd, in pods/s of wall
// time averaged over 1-second samples; ours is sched::Schedule alone, pods / CPU seconds of the
// scheduling thread, from an in-memory ObjectSet.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <tl/expected.hpp>

#include "perf/shapes.h"

namespace wasched::perf {

// UpstreamWorkload: one scheduler_perf workload and its wasched counterpart.
//   suite / test_case / workload   upstream's names ("gangscheduling", "GangScheduling",
//                                  "5000Nodes_1000Gangs_3000Pods")
//   measured_pods                  pods of the measured createPods op
//   build                          the same shape for the engine; empty when wasched cannot express it
//   wasched_shape                  the `wasched bench` shape it corresponds to, "" if none
//   note                           what differs, or why it cannot be expressed
struct UpstreamWorkload {
  std::string suite;
  std::string test_case;
  std::string workload;
  int64_t measured_pods = 0;
  std::function<ShapeInput()> build;
  std::string wasched_shape;
  std::string note;
  [[nodiscard]] std::string Name() const { return test_case + "/" + workload; }
};

// UpstreamWorkloads: every workload wasched maps (the set scripts/bench-upstream.sh runs by
// default is a subset), plus the rows wasched has and upstream v1.37.2 does not.
[[nodiscard]] const std::vector<UpstreamWorkload>& UpstreamWorkloads();

// UpstreamResult: one row of scripts/bench-upstream.sh's JSON (reference/cmd/schedperf-summary).
struct UpstreamResult {
  std::string suite;
  std::string test_case;
  std::string workload;
  std::string status;  // "ok", "below-threshold" (values recorded), "failed", "timeout", "no-result"
  std::optional<double> throughput_average;  // SchedulingThroughput Average, pods/s
  std::optional<double> threshold;           // the workload's minimum in upstream's config
  std::optional<double> scheduling_seconds;  // SchedulingDuration
  double wall_seconds = 0;                   // the whole upstream run (etcd, apiserver, setup)
  std::string log;
  std::string error;
};

// ParseUpstreamResults: the JSON list the script prints. Errors name what is malformed.
[[nodiscard]] tl::expected<std::vector<UpstreamResult>, std::string> ParseUpstreamResults(const std::string& json);

// EngineReading: the engine on one UpstreamWorkload's shape.
struct EngineReading {
  double pods_per_second = 0;  // measured pods / median thread CPU seconds of one Schedule
  double seconds = 0;          // that median
  double wall_seconds = 0;
  int64_t bound = 0;
  int64_t expected_bound = 0;
};

// MeasureEngine: builds the shape once and times `repetitions` Schedule runs.
[[nodiscard]] EngineReading MeasureEngine(const UpstreamWorkload& w, int repetitions);

// UpstreamScriptPath: scripts/bench-upstream.sh of the source tree the binary was built from.
[[nodiscard]] std::string UpstreamScriptPath();

// Shape builders for the upstream workloads (also usable from bench/):
// TAS nodes as upstream's podgroup/tas node template: rack and zone = index / 100.
[[nodiscard]] ShapeInput BasicPodGroupShape(int nodes, int groups, int per_group);
// GangPreemptionBasic: `init_pods` running pods (40m, priority 0, init_pods / nodes per node,
// host ports 8000 + i mod that) and `gangs` × `per_gang` preemptor pods of `gang_cpu_milli`.
[[nodiscard]] ShapeInput GangPreemptionBasicShape(int nodes, int init_pods, int gangs, int per_gang,
                                                  int64_t gang_cpu_milli);
// GangPreemptionPodGroups: `low_groups` running gangs (one pod per node each, host port
// 8000 + group) preempted by `high_groups` gangs (host port 9000 + group).
[[nodiscard]] ShapeInput GangPreemptionPodGroupsShape(int nodes, int low_groups, int high_groups, int per_group,
                                                      int64_t low_cpu_milli, int64_t high_cpu_milli);
// GangPreemptionAffinity: one high-priority anchor pod per node, `init_pods` low-priority pods,
// and gangs whose pods need (podAffinity, hostname) a node with an anchor.
[[nodiscard]] ShapeInput GangPreemptionAffinityShape(int nodes, int init_pods, int gangs, int per_gang);

}  // namespace wasched::perf
