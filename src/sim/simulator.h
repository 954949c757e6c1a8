// File: sim/simulator.h
//
// The discrete-event cluster simulator behind `wasched simulate` (issue 8). Jobs of a trace
// arrive at their submit time; at every simulated instant where something changed (arrivals,
// completions, node failures and repairs) the pending work and the cluster are handed to the
// unchanged scheduler core, sched::Schedule, with a FakeClock at the simulated time; its
// bindings (and, with preemption, evictions) are applied; a job runs for its trace duration
// once every one of its pods is bound and then frees its resources.
//
//   sim::SimOptions o; o.policy = sim::Policy::kGang;
//   sim::SimResult r = sim::Simulate(trace, nodes, o);
//
// Every arriving job becomes a batch/v1 Job, and the Job controller (src/controller/job, KEP-5547)
// creates its Workload, PodGroup and pods with the upstream names, once per job, when the job is
// first offered to the scheduler (job_objects.h; the objects depend only on the job); they are
// dropped when it completes.
// Policies: kBasic = a cluster without the workload-aware gates (WorkloadWithJob off): the Job
// has no .spec.scheduling, its pods are bare and bind one by one (partial starts hold GPUs:
// `partial_gpu_hours`); kGang = a multi-pod job's Job has .spec.scheduling gang.minCount = its
// pod count (KEP-4671), a single-pod job's Job none (the controller still creates a basic
// Workload and PodGroup, gate on); kGangTopology = kGang plus schedulingConstraints.topology for
// multi-pod jobs: the rack label when the job fits in the smallest rack, else the zone label when
// it fits the smallest zone, else none (KEP-5732).
//
// Engine fidelity (see docs/known-gaps.md "simulate"): running pods are handed to Schedule as one
// aggregate bound pod per node (same NodeResourcesFit and scoring inputs, far fewer objects);
// with preemption on every running pod is passed individually so victims can be chosen. Each
// call sees a window of the pending queue (queue order, units whose GPU demand fits the free
// GPUs, up to kWindowPods pods); kube-scheduler would try every unit, but a unit larger than the
// free capacity cannot bind, so only the cap can differ from upstream. The created pods and
// PodGroups are moved into each call and back (never rebuilt); pending jobs are grouped by shape
// so that an instant skips a failed or too-large shape at once instead of job by job.
// Deterministic: the same trace, nodes and options give the same result (seeded failures).
// Complexity: O(events × (pending classes × log + Schedule(nodes + window))) + one controller
// sync per job.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include <tl/expected.hpp>

#include "api/node.h"
#include "sched/schedule_result.h"
#include "sched/scheduler.h"
#include "sim/trace.h"

namespace wasched::sim {

enum class Policy { kBasic, kGang, kGangTopology };

// ParsePolicy: "basic" | "gang" | "gang-topology".
[[nodiscard]] tl::expected<Policy, std::string> ParsePolicy(const std::string& name);
[[nodiscard]] const char* PolicyName(Policy policy);

// NodeFailures: `per_day` failures per simulated day cluster-wide, a Poisson process (exponential
// gaps and the node drawn from the seed) over the whole run: failures go on while a job is still
// to arrive or running. Each lasts `repair_seconds`; a failed node is unschedulable and every job
// with a pod on it is restarted (requeued with its original submit time). per_day 0 = none.
struct NodeFailures {
  double per_day = 0;
  int64_t repair_seconds = 3600;
};

// ParseNodeFailures: "perDay=2,repair=3600" (repair in seconds, or with suffix s/m/h); perDay in
// [0, kMaxFailuresPerDay], repair in [1 s, 10 years]. Errors name the key and the range.
inline constexpr double kMaxFailuresPerDay = 1000;
[[nodiscard]] tl::expected<NodeFailures, std::string> ParseNodeFailures(const std::string& spec);

inline constexpr int kWindowPods = 2048;
// kMaxTimeseriesBuckets: the longest timeseries; a longer run merges consecutive buckets.
inline constexpr int64_t kMaxTimeseriesBuckets = 100000;
// kDeadlockSeconds: the shortest stall counted in SimResult::deadlock_episodes.
inline constexpr int64_t kDeadlockSeconds = 3600;

struct SimOptions {
  Policy policy = Policy::kGang;
  bool preemption = false;
  uint64_t seed = 1;
  // placement: the scheduler's placement search (`--placement`, sched::PlacementSearch).
  sched::PlacementSearch placement = sched::PlacementSearch::kComplete;
  NodeFailures failures;
  int64_t sample_seconds = 3600;  // timeseries bucket (wider when the run spans > kMaxTimeseriesBuckets)
  // progress: called with the fraction of jobs arrived (0..1), at most every 1%; may be empty.
  std::function<void(double)> progress;
  // on_binding: called for every binding the scheduler reports (pod "sim/<name>", node name) with
  // the simulated time in seconds, before it is applied; may be empty (tests, tracing).
  std::function<void(const sched::Binding&, int64_t)> on_binding;
};

// Percentiles: nearest-rank percentiles of a sample in seconds (0 when count is 0).
struct Percentiles {
  int64_t count = 0;
  int64_t p50 = 0, p90 = 0, p99 = 0, max = 0;
  double mean = 0;
};

// Sample: averages over one timeseries bucket starting at `start_seconds` (GPUs, not units).
struct Sample {
  int64_t start_seconds = 0;
  double busy_gpus = 0;     // held by pods of running jobs
  double partial_gpus = 0;  // held by pods of jobs below their minCount (all pods bound = running)
  int64_t pending_jobs = 0; // at the bucket's end
  int64_t running_jobs = 0;
};

struct SimResult {
  std::string policy;
  bool preemption = false;
  int64_t jobs = 0;
  int64_t completed = 0;
  int64_t rejected = 0;    // can never fit the cluster (bigger than any node / the cluster)
  std::vector<int32_t> rejected_jobs;  // their indices in trace.jobs, in arrival order
  int64_t unfinished = 0;  // still pending or partially bound when no event is left
  double total_gpus = 0;
  double gpu_utilization = 0;  // busy GPU-seconds / (total GPUs × makespan)
  double gpu_allocation = 0;   // (busy + partial) GPU-seconds / (total GPUs × makespan)
  double busy_gpu_hours = 0;
  double partial_gpu_hours = 0;
  Percentiles queue_delay;                        // start - submit of started jobs
  std::map<std::string, Percentiles> queue_delay_by_size;  // "0" (CPU-only), "1", "2-8", "9-32", "33+" GPUs
  Percentiles completion_time;                    // completion - submit
  int64_t makespan_seconds = 0;                   // last completion (first arrival = 0)
  // Deadlocks (stalls): a stall span is work pending with some GPU free (on an up node) or held by
  // a partially bound job, from the first event instant where that holds after the last progress
  // (a job starting or finishing) until the next progress or the first instant it no longer
  // holds; a span of at least kDeadlockSeconds is one episode of its length. Spans are closed
  // when progress resumes, so a stall with no event inside counts. A stall still on when no event
  // is left (the pending work can never start: a permanent deadlock) is counted up to the run's
  // end, defined as the last event + kDeadlockSeconds.
  int64_t deadlock_episodes = 0;
  int64_t deadlock_seconds = 0;
  int64_t evictions = 0;
  int64_t restarts = 0;
  int64_t node_failures = 0;
  int64_t scheduler_calls = 0;
  int64_t events = 0;
  // Hourly buckets from 0 to the last event; when that is more than kMaxTimeseriesBuckets, k
  // consecutive buckets are merged (k = ceil(buckets / kMaxTimeseriesBuckets)). While simulating
  // only buckets with an event are stored (memory O(events), not O(simulated hours)).
  std::vector<Sample> timeseries;
};

// Simulate: replays `trace` on `nodes` (at least one). Never throws on trace content; jobs that
// cannot fit are counted in `rejected`.
[[nodiscard]] SimResult Simulate(const Trace& trace, const std::vector<api::Node>& nodes, const SimOptions& options);

}  // namespace wasched::sim
