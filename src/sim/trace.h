// File: sim/trace.h
//
// Trace importers for `wasched simulate` (issue 8): real GPU-cluster job traces turned into
// TraceJobs, the simulator's unit of arrival. A job is `pod_count` pods of one shape arriving at
// `submit_seconds` and running `duration_seconds` once every pod is bound.
//
//   auto jobs = sim::ImportTrace("philly.csv", sim::TraceFormat::kPhilly, {.gpus_per_pod = 1});
//   if (!jobs) { std::cerr << jobs.error() << "\n"; return 1; }
//
// Formats (data in /work/shared/data/traces, see tests/data/traces/ORIGIN.md):
// - Philly (Jeon et al., ATC'19; Pollux's processed philly.csv): timestamp,duration,num_gpus,…;
//   a job of G GPUs becomes ceil(G / gpus_per_pod) pods of gpus_per_pod GPUs (the last one gets
//   the remainder). CPU and memory are not in the trace: each pod requests 1 CPU + 8 GiB per GPU.
// - Alibaba openb (cluster-trace-gpu-v2023): one row = one single-pod job; GPUs are counted in
//   milli-GPUs (gpu_milli × num_gpu) so GPU sharing is visible; gpu_spec becomes allowed models.
// - Acme Kalos (converted): gpu_workers pods of gpu_per_worker GPUs; duration = num_iteration × 0.5 s.
// Submit times are made relative to the earliest job (the first job arrives at 0). Jobs are
// returned sorted by (submit, row) so replay is deterministic.
// Limits (so that a typo cannot make a run take the machine): a job's duration is at most
// kMaxSpanSeconds (10 years), and no job is submitted more than kMaxSpanSeconds after the
// earliest one; job names (openb `name`, Kalos `job_id`) are unique, because they name the Job
// and its pods; names and GPU models must be valid object names / label values; plain CSV
// limits in csv.h. `max_jobs` keeps the first N data rows of the file (not the N earliest jobs)
// and reads the file only that far.
// Errors: "<file>:<line>: column <name>: <why>" for the first bad row; never a partial result.
// Also "<file>:<line>: want N fields (the header's), got M" for a short row, and
// "<file>:1: header: missing column <c> (want ...; the header has K columns: "a", "b")". Philly
// timestamps must be real dates (no 2017-02-31) in the years 1970-9999.
// Complexity: O(rows · log rows).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <tl/expected.hpp>

namespace wasched::sim {

enum class TraceFormat { kPhilly, kOpenb, kKalos };

// ParseTraceFormat: "philly" | "openb" | "kalos"; error names the accepted values.
[[nodiscard]] tl::expected<TraceFormat, std::string> ParseTraceFormat(const std::string& name);

// GPU resource names: whole GPUs (Philly, Kalos, generated clusters) and milli-GPUs (openb).
inline constexpr const char* kGpuResource = "nvidia.com/gpu";
inline constexpr const char* kGpuMilliResource = "alibabacloud.com/gpu-milli";
// kGpuModelLabel: node label holding the GPU model (openb `model`); pods with gpu_spec require it.
inline constexpr const char* kGpuModelLabel = "alibabacloud.com/gpu-card-model";

// kMaxSpanSeconds: the longest job duration and the largest submit offset from the earliest job
// a trace may hold (10 × 365 days).
inline constexpr int64_t kMaxSpanSeconds = int64_t{10} * 365 * 86400;

// TraceJob: one job of a trace. `gpu_per_pod` is in units of `gpu_resource` (GPUs or milli-GPUs);
// `last_pod_gpu` is the last pod's amount (differs when the job's GPUs do not divide evenly).
struct TraceJob {
  std::string name;  // "philly-<row>", openb `name`, "kalos-<job_id>"; DNS-1123 subdomain
  int32_t line = 0;  // 1-based line of the row in the trace file (for errors)
  int64_t submit_seconds = 0;
  int64_t duration_seconds = 0;
  int32_t pod_count = 1;
  int64_t gpu_per_pod = 0;
  int64_t last_pod_gpu = 0;
  int64_t cpu_milli_per_pod = 0;
  int64_t memory_bytes_per_pod = 0;
  int32_t priority = 0;
  std::vector<std::string> gpu_models;  // allowed node models; empty = any
  // TotalGpu: the job's GPU demand in units of its resource.
  [[nodiscard]] int64_t TotalGpu() const { return gpu_per_pod * (pod_count - 1) + last_pod_gpu; }
};

// Trace: the jobs plus the resource their GPUs are counted in and its units per GPU.
struct Trace {
  std::vector<TraceJob> jobs;
  std::string gpu_resource = kGpuResource;
  int64_t units_per_gpu = 1;  // 1000 for milli-GPUs
};

struct ImportOptions {
  int32_t gpus_per_pod = 1;  // Philly: GPUs per pod (≥ 1)
  int64_t max_jobs = 0;      // 0 = all; else keep only the first N data rows of the file
};

// ImportTrace: reads `path` in `format`. Errors as in the file comment.
[[nodiscard]] tl::expected<Trace, std::string> ImportTrace(const std::string& path, TraceFormat format,
                                                           const ImportOptions& options);

// ParseTraceText: the same on in-memory text; `file` names it in errors.
[[nodiscard]] tl::expected<Trace, std::string> ParseTraceText(const std::string& text, const std::string& file,
                                                              TraceFormat format, const ImportOptions& options);

// kMaxScaledJobs: the largest --scale-trace (memory is about 250 B a job before simulating).
inline constexpr int64_t kMaxScaledJobs = 10'000'000;
// kDefaultReferenceGpus: the default R, the default generated cluster (64 nodes × 8 GPUs), on
// which the whole Philly trace offers about 73% of the GPU-seconds (374 GPUs busy on average).
inline constexpr double kDefaultReferenceGpus = 512;

// ScaleOptions: how ScaleTrace resamples a trace (`wasched simulate --scale-trace`).
struct ScaleOptions {
  int64_t jobs = 0;             // N: jobs in the scaled trace, in [1, kMaxScaledJobs]
  double target_gpus = 0;       // G: GPUs of the simulated cluster (> 0; milli-GPUs / 1000 for openb)
  double reference_gpus = kDefaultReferenceGpus;  // R: GPUs the source trace is taken to load
  uint64_t seed = 1;
};

// ScaleTrace: a trace of `options.jobs` jobs resampled from `source` (its jobs sorted by submit,
// the first at 0, as ImportTrace returns them) with a seed, so that the offered load per GPU on a
// cluster of G GPUs stays what the source offers R GPUs. The model:
// - job k (k = 0…N-1) is a copy of source job j drawn uniformly with replacement (duration, pods,
//   requests, priority, GPU models kept), named "<source name>-s<k>", `line` = the source row's
//   line;
// - submit times keep the source's arrival-rate curve (bursts, days, weeks) stretched over the
//   horizon H' = H × (N / n) × (R / G), where H is the source's span in whole seconds (last
//   submit - first + 1) and n its job count: the copy of a job submitted at s_j lands at
//   floor((s_j + u) × H' / H) with u uniform in (0, 1) (spread over its source second's
//   stretched span). Arrivals per second per GPU, and so the offered
//   GPU-seconds per GPU-second, then equal the source's on R GPUs in expectation: a 1,000,000-job
//   Philly trace on 10,000 × 8 GPUs spans H' = 108.9 days × 12.16 × 0.0064 ≈ 8.5 days.
// Jobs are returned sorted by (submit, k), the first submit made 0. Deterministic: the same source,
// options and seed give the same jobs on every platform (SplitMix64, integer draws, IEEE doubles).
// Errors (the option in the message): N outside [1, kMaxScaledJobs]; G or R not positive; H'
// longer than kMaxSpanSeconds. Complexity: O(N log N) time, O(N) memory.
[[nodiscard]] tl::expected<Trace, std::string> ScaleTrace(const Trace& source, const ScaleOptions& options);

}  // namespace wasched::sim
