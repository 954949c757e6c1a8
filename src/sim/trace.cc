// File: sim/trace.cc
#include "sim/trace.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <tuple>
#include <unordered_map>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "sim/csv.h"
#include "util/field_value.h"
#include "util/split_mix64.h"
#include "validation/names.h"

namespace wasched::sim {
namespace {

constexpr int64_t kGiB = int64_t{1} << 30;
constexpr int64_t kMiB = int64_t{1} << 20;
constexpr int32_t kMaxPodsPerJob = 100000;

// RowError: "<file>:<line>: column <name>: <why>".
std::string RowError(const std::string& file, int line, std::string_view column, std::string_view why) {
  return EscapeForTerminal(fmt::format("{}:{}: column {}: {}", file, line, column, why));
}

// UniqueName: refuses a second row with the same job name (the Job and its pods would collide):
// `<file>:<line>: column <c>: Duplicate value "x" (also line N)`.
tl::expected<void, std::string> UniqueName(std::unordered_map<std::string, int>* seen, std::string_view value,
                                           const CsvRow& row, std::string_view column, const std::string& file) {
  const auto [it, added] = seen->try_emplace(std::string(value), row.line);
  if (added) return {};
  return tl::unexpected(
      RowError(file, row.line, column, fmt::format("Duplicate value \"{}\" (also line {})", value, it->second)));
}

// ValidName: the job name must be a DNS-1123 subdomain (it names the Job and its pods).
tl::expected<void, std::string> ValidName(const std::string& name, std::string_view value, const CsvRow& row,
                                          std::string_view column, const std::string& file) {
  const auto errors = validation::Dns1123SubdomainErrors(name);
  if (errors.empty()) return {};
  return tl::unexpected(RowError(file, row.line, column,
                                 fmt::format("invalid value \"{}\": the job name \"{}\": {}", value, name, errors.front())));
}

// DaysFromCivil: days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's algorithm).
int64_t DaysFromCivil(int64_t y, int64_t m, int64_t d) {
  y -= m <= 2 ? 1 : 0;
  const int64_t era = (y >= 0 ? y : y - 399) / 400;
  const int64_t yoe = y - era * 400;
  const int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
  const int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
  return era * 146097 + doe - 719468;
}

// DaysInMonth: 28-31 (proleptic Gregorian leap years).
int64_t DaysInMonth(int64_t y, int64_t m) {
  static constexpr int64_t kDays[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
  const bool leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
  return m == 2 && leap ? 29 : kDays[m - 1];
}

// ParseTimestamp: "YYYY-MM-DD HH:MM:SS" (UTC) → seconds since the epoch; a real date (no
// 2017-02-31) in the years 1970-9999.
std::optional<int64_t> ParseTimestamp(std::string_view s) {
  if (s.size() != 19 || s[4] != '-' || s[7] != '-' || s[10] != ' ' || s[13] != ':' || s[16] != ':') {
    return std::nullopt;
  }
  auto part = [&](size_t pos, size_t len) { return ParseInt(s.substr(pos, len)); };
  auto y = part(0, 4), mo = part(5, 2), d = part(8, 2), h = part(11, 2), mi = part(14, 2), se = part(17, 2);
  if (!y || !mo || !d || !h || !mi || !se || *y < 1970 || *y > 9999 || *mo < 1 || *mo > 12 || *d < 1 ||
      *d > DaysInMonth(*y, *mo) || *h > 23 || *mi > 59 || *se > 60) {
    return std::nullopt;
  }
  return DaysFromCivil(*y, *mo, *d) * 86400 + *h * 3600 + *mi * 60 + *se;
}

// Columns: looks up required columns; the error names the first missing one and lists the
// columns the header has (a `;` separator, a capitalised name or a stray character shows there):
// `<file>:1: header: missing column timestamp (want timestamp, duration, num_gpus; the header
// has 1 column: "timestamp;duration;num_gpus")`.
tl::expected<std::vector<int>, std::string> Columns(const CsvTable& t, const std::string& file,
                                                    std::initializer_list<const char*> names) {
  std::vector<int> out;
  for (const char* n : names) {
    const int c = t.Column(n);
    if (c < 0) {
      std::string found;
      for (size_t k = 0; k < t.header.size() && k < 20; ++k) found += fmt::format("{}\"{}\"", k == 0 ? "" : ", ", t.header[k]);
      if (t.header.size() > 20) found += ", ...";
      return tl::unexpected(EscapeForTerminal(fmt::format("{}:1: header: missing column {} (want {}; the header has {} "
                                                          "column{}: {})",
                                                          file, n, fmt::join(names, ", "), t.header.size(),
                                                          t.header.size() == 1 ? "" : "s", found)));
    }
    if (const auto again = std::find(t.header.begin() + c + 1, t.header.end(), n); again != t.header.end()) {
      return tl::unexpected(fmt::format("{}:1: header: column {} given twice (columns {} and {})", file, n, c + 1,
                                        again - t.header.begin() + 1));
    }
    out.push_back(c);
  }
  return out;
}

// Field: the row's field `col` or an error when the row is short.
tl::expected<std::string_view, std::string> Field(const CsvRow& row, int col, const CsvTable& t,
                                                  const std::string& file) {
  if (static_cast<size_t>(col) >= row.fields.size()) {
    return tl::unexpected(RowError(file, row.line, t.header[col], "missing field"));
  }
  return row.fields[col];
}

// NonNegativeNumber: a number in [0, max], rounded up to a whole number; `what` says what the
// number is ("seconds", "an iteration count").
tl::expected<int64_t, std::string> NonNegativeNumber(std::string_view s, const CsvRow& row, std::string_view column,
                                                     const std::string& file, std::string_view what, int64_t max) {
  auto v = ParseDouble(s);
  if (!v || *v < 0 || *v > static_cast<double>(max)) {
    return tl::unexpected(
        RowError(file, row.line, column, fmt::format("invalid value \"{}\": want {} in [0, {}]", s, what, max)));
  }
  return static_cast<int64_t>(std::ceil(*v));
}

tl::expected<int64_t, std::string> NonNegativeSeconds(std::string_view s, const CsvRow& row,
                                                      std::string_view column, const std::string& file) {
  return NonNegativeNumber(s, row, column, file, "seconds", kMaxSpanSeconds);
}

// IntInRange: an integer field in [min, max]; `what` says what it is.
tl::expected<int64_t, std::string> IntInRange(std::string_view s, const CsvRow& row, std::string_view column,
                                              const std::string& file, std::string_view what, int64_t min, int64_t max) {
  auto v = ParseInt(s);
  if (!v || *v < min || *v > max) {
    return tl::unexpected(
        RowError(file, row.line, column, fmt::format("invalid value \"{}\": want {} in [{}, {}]", s, what, min, max)));
  }
  return *v;
}

tl::expected<int64_t, std::string> PositiveInt(std::string_view s, const CsvRow& row, std::string_view column,
                                               const std::string& file, int64_t max) {
  auto v = ParseInt(s);
  if (!v) {
    auto d = ParseDouble(s);  // "8.0"
    if (d && *d == std::floor(*d) && std::abs(*d) < 1e15) v = static_cast<int64_t>(*d);
  }
  if (!v || *v < 1 || *v > max) {
    return tl::unexpected(
        RowError(file, row.line, column, fmt::format("invalid value \"{}\": want an integer in [1, {}]", s, max)));
  }
  return *v;
}

void SplitGpus(TraceJob* job, int64_t gpus, int64_t per_pod) {
  const int64_t pods = (gpus + per_pod - 1) / per_pod;
  job->pod_count = static_cast<int32_t>(pods);
  job->gpu_per_pod = std::min(per_pod, gpus);
  job->last_pod_gpu = gpus - per_pod * (pods - 1);
}

tl::expected<Trace, std::string> ParsePhilly(const CsvTable& t, const std::string& file, const ImportOptions& o) {
  auto cols = Columns(t, file, {"timestamp", "duration", "num_gpus"});
  if (!cols) return tl::unexpected(cols.error());
  Trace trace;
  for (const CsvRow& row : t.rows) {
    auto ts_field = Field(row, (*cols)[0], t, file);
    if (!ts_field) return tl::unexpected(ts_field.error());
    auto ts = ParseTimestamp(*ts_field);
    if (!ts) {
      return tl::unexpected(
          RowError(file, row.line, "timestamp", fmt::format("invalid value \"{}\": want a date and time YYYY-MM-DD HH:MM:SS (UTC) "
                                                         "in the years 1970-9999", *ts_field)));
    }
    auto dur_field = Field(row, (*cols)[1], t, file);
    if (!dur_field) return tl::unexpected(dur_field.error());
    auto dur = NonNegativeSeconds(*dur_field, row, "duration", file);
    if (!dur) return tl::unexpected(dur.error());
    auto gpu_field = Field(row, (*cols)[2], t, file);
    if (!gpu_field) return tl::unexpected(gpu_field.error());
    auto gpus = PositiveInt(*gpu_field, row, "num_gpus", file, 1 << 20);
    if (!gpus) return tl::unexpected(gpus.error());
    TraceJob job;
    job.name = fmt::format("philly-{}", row.line - 1);
    job.line = row.line;
    job.submit_seconds = *ts;
    job.duration_seconds = *dur;
    SplitGpus(&job, *gpus, o.gpus_per_pod);
    if (job.pod_count > kMaxPodsPerJob) {
      return tl::unexpected(RowError(file, row.line, "num_gpus", "more than 100000 pods per job"));
    }
    job.cpu_milli_per_pod = 1000 * job.gpu_per_pod;
    job.memory_bytes_per_pod = 8 * kGiB * job.gpu_per_pod;
    trace.jobs.push_back(std::move(job));
    if (o.max_jobs > 0 && static_cast<int64_t>(trace.jobs.size()) >= o.max_jobs) break;
  }
  return trace;
}

tl::expected<Trace, std::string> ParseOpenb(const CsvTable& t, const std::string& file, const ImportOptions& o) {
  auto cols = Columns(t, file,
                      {"name", "cpu_milli", "memory_mib", "num_gpu", "gpu_milli", "gpu_spec", "qos",
                       "creation_time", "deletion_time", "scheduled_time"});
  if (!cols) return tl::unexpected(cols.error());
  Trace trace;
  trace.gpu_resource = kGpuMilliResource;
  trace.units_per_gpu = 1000;
  std::unordered_map<std::string, int> names;  // name → first line
  for (const CsvRow& row : t.rows) {
    std::vector<std::string_view> f;
    for (int c : *cols) {
      auto v = Field(row, c, t, file);
      if (!v) return tl::unexpected(v.error());
      f.push_back(*v);
    }
    if (auto unique = UniqueName(&names, f[0], row, "name", file); !unique) return tl::unexpected(unique.error());
    if (auto valid = ValidName(std::string(f[0]), f[0], row, "name", file); !valid) return tl::unexpected(valid.error());
    auto cpu = IntInRange(f[1], row, "cpu_milli", file, "millicores", 0, int64_t{1} << 40);
    if (!cpu) return tl::unexpected(cpu.error());
    auto mem = IntInRange(f[2], row, "memory_mib", file, "MiB", 0, int64_t{1} << 30);
    if (!mem) return tl::unexpected(mem.error());
    auto num_gpu = IntInRange(f[3], row, "num_gpu", file, "a GPU count", 0, 1024);
    if (!num_gpu) return tl::unexpected(num_gpu.error());
    auto gpu_milli = IntInRange(f[4], row, "gpu_milli", file, "milli-GPUs", 0, 1000);
    if (!gpu_milli) return tl::unexpected(gpu_milli.error());
    auto created = IntInRange(f[7], row, "creation_time", file, "seconds", 0, int64_t{1} << 50);
    if (!created) return tl::unexpected(created.error());
    auto deleted = ParseInt(f[8]);
    if (!deleted || *deleted < *created || *deleted - *created > kMaxSpanSeconds) {
      return tl::unexpected(RowError(file, row.line, "deletion_time",
                                     fmt::format("invalid value \"{}\": want seconds in [creation_time, creation_time + {}]",
                                                 f[8], kMaxSpanSeconds)));
    }
    int64_t start = *created;
    if (!f[9].empty()) {
      auto s = ParseInt(f[9]);
      if (!s || *s < *created || *s > *deleted) {
        return tl::unexpected(RowError(file, row.line, "scheduled_time",
                                       fmt::format("invalid value \"{}\": want empty or seconds in [creation_time, deletion_time]", f[9])));
      }
      start = *s;
    }
    TraceJob job;
    job.name = std::string(f[0]);
    job.line = row.line;
    job.submit_seconds = *created;
    job.duration_seconds = std::max<int64_t>(1, *deleted - start);
    job.pod_count = 1;
    job.gpu_per_pod = job.last_pod_gpu = *num_gpu * (*num_gpu == 1 ? *gpu_milli : 1000);
    job.cpu_milli_per_pod = *cpu;
    job.memory_bytes_per_pod = *mem * kMiB;
    // qos → priority: LS (latency-sensitive) highest, then Guaranteed, Burstable, BE.
    job.priority = f[6] == "LS" ? 3 : f[6] == "Guaranteed" ? 2 : f[6] == "Burstable" ? 1 : 0;
    size_t start_pos = 0;
    while (start_pos < f[5].size()) {
      size_t bar = f[5].find('|', start_pos);
      if (bar == std::string_view::npos) bar = f[5].size();
      if (bar > start_pos) {
        const std::string_view model = f[5].substr(start_pos, bar - start_pos);
        // A model becomes a required node-affinity value on the model label: a label value.
        if (const auto errors = validation::LabelValueErrors(model); !errors.empty()) {
          return tl::unexpected(RowError(file, row.line, "gpu_spec",
                                         fmt::format("invalid value \"{}\": model \"{}\": {}", f[5], model, errors.front())));
        }
        job.gpu_models.emplace_back(model);
      }
      start_pos = bar + 1;
    }
    trace.jobs.push_back(std::move(job));
    if (o.max_jobs > 0 && static_cast<int64_t>(trace.jobs.size()) >= o.max_jobs) break;
  }
  return trace;
}

tl::expected<Trace, std::string> ParseKalos(const CsvTable& t, const std::string& file, const ImportOptions& o) {
  auto cols = Columns(t, file, {"job_id", "arrival_time", "num_iteration", "gpu_workers", "gpu_per_worker"});
  if (!cols) return tl::unexpected(cols.error());
  Trace trace;
  std::unordered_map<std::string, int> ids;  // job_id → first line
  for (const CsvRow& row : t.rows) {
    std::vector<std::string_view> f;
    for (int c : *cols) {
      auto v = Field(row, c, t, file);
      if (!v) return tl::unexpected(v.error());
      f.push_back(*v);
    }
    if (auto unique = UniqueName(&ids, f[0], row, "job_id", file); !unique) return tl::unexpected(unique.error());
    if (auto valid = ValidName(fmt::format("kalos-{}", f[0]), f[0], row, "job_id", file); !valid) {
      return tl::unexpected(valid.error());
    }
    auto arrival = NonNegativeSeconds(f[1], row, "arrival_time", file);
    if (!arrival) return tl::unexpected(arrival.error());
    // duration = num_iteration × 0.5 s ≤ kMaxSpanSeconds.
    auto iterations = NonNegativeNumber(f[2], row, "num_iteration", file, "an iteration count", 2 * kMaxSpanSeconds);
    if (!iterations) return tl::unexpected(iterations.error());
    auto workers = PositiveInt(f[3], row, "gpu_workers", file, kMaxPodsPerJob);
    if (!workers) return tl::unexpected(workers.error());
    auto per_worker = PositiveInt(f[4], row, "gpu_per_worker", file, 1024);
    if (!per_worker) return tl::unexpected(per_worker.error());
    TraceJob job;
    job.name = fmt::format("kalos-{}", f[0]);
    job.line = row.line;
    job.submit_seconds = *arrival;
    job.duration_seconds = std::max<int64_t>(1, (*iterations + 1) / 2);  // num_iteration × 0.5 s
    job.pod_count = static_cast<int32_t>(*workers);
    job.gpu_per_pod = job.last_pod_gpu = *per_worker;
    job.cpu_milli_per_pod = 1000 * *per_worker;
    job.memory_bytes_per_pod = 8 * kGiB * *per_worker;
    trace.jobs.push_back(std::move(job));
    if (o.max_jobs > 0 && static_cast<int64_t>(trace.jobs.size()) >= o.max_jobs) break;
  }
  return trace;
}

}  // namespace

tl::expected<TraceFormat, std::string> ParseTraceFormat(const std::string& name) {
  if (name == "philly") return TraceFormat::kPhilly;
  if (name == "openb") return TraceFormat::kOpenb;
  if (name == "kalos") return TraceFormat::kKalos;
  return tl::unexpected(fmt::format("--format: unknown trace format \"{}\" (want philly, openb or kalos)", name));
}

tl::expected<Trace, std::string> ParseTraceText(const std::string& text, const std::string& file,
                                                TraceFormat format, const ImportOptions& options) {
  if (options.gpus_per_pod < 1) return tl::unexpected(std::string("--gpus-per-pod: must be at least 1"));
  auto parsed = CsvTable::Parse(text, file, options.max_jobs > 0 ? static_cast<size_t>(options.max_jobs) : 0);
  if (!parsed) return tl::unexpected(EscapeForTerminal(parsed.error()));
  const CsvTable& table = *parsed;
  if (table.header.empty()) return tl::unexpected(fmt::format("{}: empty trace (no header row)", file));
  // A row shorter than the header lost fields (a missing comma shifts nothing: it is refused).
  for (const CsvRow& row : table.rows) {
    if (row.fields.size() < table.header.size()) {
      return tl::unexpected(EscapeForTerminal(fmt::format("{}:{}: want {} fields (the header's), got {}", file, row.line,
                                                          table.header.size(), row.fields.size())));
    }
  }
  tl::expected<Trace, std::string> trace;
  switch (format) {
    case TraceFormat::kPhilly: trace = ParsePhilly(table, file, options); break;
    case TraceFormat::kOpenb: trace = ParseOpenb(table, file, options); break;
    case TraceFormat::kKalos: trace = ParseKalos(table, file, options); break;
  }
  if (!trace) return trace;
  if (trace->jobs.empty()) return tl::unexpected(fmt::format("{}: the trace has no jobs", file));
  // Stable sort by submit time (ties keep file order), then make times relative to the first.
  std::stable_sort(trace->jobs.begin(), trace->jobs.end(),
                   [](const TraceJob& a, const TraceJob& b) { return a.submit_seconds < b.submit_seconds; });
  const TraceJob& first = trace->jobs.front();
  const TraceJob& last = trace->jobs.back();
  if (last.submit_seconds - first.submit_seconds > kMaxSpanSeconds) {
    const char* column = format == TraceFormat::kPhilly  ? "timestamp"
                         : format == TraceFormat::kOpenb ? "creation_time"
                                                         : "arrival_time";
    return tl::unexpected(EscapeForTerminal(fmt::format(
        "{}:{}: column {}: submitted {} s after the earliest job (line {}): want at most {} s (10 years) "
        "between the first and the last submit",
        file, last.line, column, last.submit_seconds - first.submit_seconds, first.line, kMaxSpanSeconds)));
  }
  const int64_t t0 = first.submit_seconds;
  for (TraceJob& j : trace->jobs) j.submit_seconds -= t0;
  return trace;
}

tl::expected<Trace, std::string> ImportTrace(const std::string& path, TraceFormat format,
                                             const ImportOptions& options) {
  auto text = ReadCsvFile(path, "trace file", options.max_jobs > 0 ? static_cast<size_t>(options.max_jobs) : 0);
  if (!text) return tl::unexpected(EscapeForTerminal(text.error()));
  return ParseTraceText(*text, path, format, options);
}

tl::expected<Trace, std::string> ScaleTrace(const Trace& source, const ScaleOptions& options) {
  const int64_t n = static_cast<int64_t>(source.jobs.size());
  if (options.jobs < 1 || options.jobs > kMaxScaledJobs) {
    return tl::unexpected(fmt::format("--scale-trace {}: want a job count in [1, {}]", options.jobs, kMaxScaledJobs));
  }
  if (!(options.reference_gpus > 0)) {
    return tl::unexpected(
        fmt::format("--scale-reference-gpus {}: want a GPU count of at least 1", options.reference_gpus));
  }
  if (!(options.target_gpus > 0)) {
    return tl::unexpected(fmt::format(
        "--scale-trace {}: the cluster has no GPUs; the scaled trace keeps the load per GPU, so it needs a cluster "
        "with GPUs",
        options.jobs));
  }
  if (n == 0) return tl::unexpected(fmt::format("--scale-trace {}: the trace has no jobs", options.jobs));
  const int64_t first = source.jobs.front().submit_seconds;
  const int64_t span = source.jobs.back().submit_seconds - first + 1;  // H, whole seconds
  // H' / H = (N / n) × (R / G).
  const double stretch = static_cast<double>(options.jobs) / static_cast<double>(n) *
                         (options.reference_gpus / options.target_gpus);
  const double horizon = static_cast<double>(span) * stretch;
  if (!(horizon <= static_cast<double>(kMaxSpanSeconds))) {
    return tl::unexpected(fmt::format(
        "--scale-trace {}: the scaled trace would span {:.0f} s (the trace's {} s × {} / {} jobs × {:g} / {:g} "
        "GPUs), more than {} s (10 years); give fewer jobs or a larger cluster",
        options.jobs, horizon, span, options.jobs, n, options.reference_gpus, options.target_gpus, kMaxSpanSeconds));
  }
  struct Draw {
    int64_t submit;
    int64_t k;
    int64_t source;
  };
  std::vector<Draw> draws(static_cast<size_t>(options.jobs));
  SplitMix64 rng{options.seed};
  for (int64_t k = 0; k < options.jobs; ++k) {
    const auto j = static_cast<int64_t>(rng.Below(static_cast<uint64_t>(n)));
    const double u = rng.Unit();
    const double at = (static_cast<double>(source.jobs[j].submit_seconds - first) + u) * stretch;
    draws[k] = {std::min(static_cast<int64_t>(std::floor(at)), kMaxSpanSeconds), k, j};
  }
  std::sort(draws.begin(), draws.end(),
            [](const Draw& a, const Draw& b) { return std::tie(a.submit, a.k) < std::tie(b.submit, b.k); });
  Trace out;
  out.gpu_resource = source.gpu_resource;
  out.units_per_gpu = source.units_per_gpu;
  out.jobs.reserve(draws.size());
  const int64_t t0 = draws.front().submit;
  for (const Draw& d : draws) {
    const TraceJob& from = source.jobs[d.source];
    TraceJob& job = out.jobs.emplace_back(from);  // every field of the source job, then its own name and time
    job.name = fmt::format("{}-s{}", from.name, d.k);
    job.submit_seconds = d.submit - t0;
  }
  return out;
}

}  // namespace wasched::sim
