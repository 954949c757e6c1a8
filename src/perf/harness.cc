// File: perf/harness.cc
#include "perf/harness.h"

#include <algorithm>
#include <chrono>
#include <vector>

#include <fmt/format.h>

#include "perf/memory.h"
#include "perf/cpu_time.h"
#include "perf/scan_bound.h"
#include "sched/scheduler.h"

namespace wasched::perf {
namespace {

using Clock = std::chrono::steady_clock;

double SecondsSince(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// Stopwatch: CPU seconds of this thread (what one dedicated core would take: the targets are
// per core, and on a shared machine wall time also counts other processes) and wall seconds.
struct Stopwatch {
  double cpu0 = ThreadCpuSeconds();
  Clock::time_point wall0 = Clock::now();
  double Cpu() const { return ThreadCpuSeconds() - cpu0; }
  double Wall() const { return SecondsSince(wall0); }
};

double Median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// TimeRepetitions: runs `body` once, or options.repetitions times when timing, and sets
// m->seconds / m->wall_seconds to the medians of its thread CPU and wall times.
template <typename Body>
void TimeRepetitions(const RunOptions& options, Measurement* m, Body&& body) {
  const int reps = options.timing ? std::max(1, options.repetitions) : 1;
  std::vector<double> seconds;
  std::vector<double> wall;
  for (int i = 0; i < reps; ++i) {
    const Stopwatch watch;
    body();
    seconds.push_back(watch.Cpu());
    wall.push_back(watch.Wall());
  }
  m->seconds = Median(seconds);
  m->wall_seconds = Median(wall);
}

// InstanceOf: the size of a built shape instance, "<N>Nodes[_<G>Groups]_<P>Pods[_<R>Running]"
// (groups: PodGroups and CompositePodGroups; pods: pending; running: pods already on a node).
std::string InstanceOf(const ShapeInput& in) {
  const auto groups = in.objects.pod_groups.size() + in.objects.composite_pod_groups.size();
  size_t running = 0;
  for (const api::Pod& p : in.objects.pods) running += p.node_name.empty() ? 0 : 1;
  std::string out = fmt::format("{}Nodes", in.objects.nodes.size());
  if (groups > 0) out += fmt::format("_{}Groups", groups);
  out += fmt::format("_{}Pods", in.objects.pods.size() - running);
  if (running > 0) out += fmt::format("_{}Running", running);
  return out;
}

void SetTarget(const Shape& shape, Measurement* m) {
  m->target = shape.target;
  if (!shape.target) return;
  m->meets_target = shape.direction == Direction::kHigherIsBetter ? m->value >= *shape.target
                                                                  : m->value <= *shape.target;
}

tl::expected<Measurement, std::string> RunMemory(const Shape& shape, const RunOptions& options) {
  Measurement m;
  m.shape = shape.name;
  m.unit = shape.unit;
  auto full = MeasureScheduleMemory([&] { return shape.build(options.scale).objects; });
  if (!full) return tl::unexpected(full.error());
  // Nodes only: the same nodes without pods, for bytes per node and (by difference) per pod.
  // Each child builds its own input so its memory is measured apart from the engine's.
  auto nodes_only = MeasureScheduleMemory([&] {
    api::ObjectSet objects = shape.build(options.scale).objects;
    objects.pods.clear();
    objects.pods.shrink_to_fit();
    return objects;
  });
  if (!nodes_only) return tl::unexpected(nodes_only.error());
  const ShapeInput in = shape.build(options.scale);
  m.instance = InstanceOf(in);
  const auto pod_count = static_cast<int64_t>(in.objects.pods.size());
  const auto node_count = static_cast<double>(in.objects.nodes.size());
  m.value = static_cast<double>(full->engine) / (1024.0 * 1024.0);
  m.bytes_per_node = node_count > 0 ? static_cast<double>(nodes_only->engine) / node_count : 0;
  m.bytes_per_pod = pod_count > 0 ? static_cast<double>(full->engine - nodes_only->engine) / pod_count : 0;
  m.bound = 0;
  m.expected_bound = 0;
  SetTarget(shape, &m);
  return m;
}

// RunWhole: a kRunSeconds shape: the prepared run, timed `repetitions` times (once untimed-ish
// for correctness when not timing); value = median CPU seconds per run.
tl::expected<Measurement, std::string> RunWhole(const Shape& shape, const RunOptions& options) {
  auto run = shape.prepare(options.scale);
  if (!run) return tl::unexpected(run.error());
  Measurement m;
  m.shape = shape.name;
  m.unit = shape.unit;
  m.timed = options.timing;
  TimeRepetitions(options, &m, [&] {
    const RunCount c = (*run)();
    m.bound = c.done;
    m.expected_bound = c.expected;
  });
  m.instance = fmt::format("{}Jobs", m.expected_bound);
  m.value = m.seconds;
  m.target = shape.target;
  if (options.timing) SetTarget(shape, &m);
  return m;
}

// RunLoadShape: a kLoad shape; `bound` / `expected_bound` are objects decoded / generated.
tl::expected<Measurement, std::string> RunLoadShape(const Shape& shape, const RunOptions& options) {
  auto r = shape.load(options.scale, LoadTiming{options.timing, options.repetitions});
  if (!r) return tl::unexpected(r.error());
  Measurement m;
  m.shape = shape.name;
  m.instance = r->instance;
  m.timed = options.timing;
  m.unit = shape.unit;
  m.bound = r->objects;
  m.expected_bound = r->expected_objects;
  m.seconds = r->seconds;
  m.wall_seconds = r->wall_seconds;
  const double mb = static_cast<double>(r->file_bytes) / 1e6;
  m.file_mb = mb;
  if (!options.timing) return m;
  m.value = mb / std::max(r->seconds, 1e-9);
  m.objects_per_second = static_cast<double>(r->objects) / std::max(r->seconds, 1e-9);
  m.parser_mb_per_second = mb / std::max(r->parser_seconds, 1e-9);
  m.parser_ratio = r->seconds / std::max(r->parser_seconds, 1e-9);
  if (r->peak_growth_bytes) {
    constexpr double kMiB = 1024.0 * 1024.0;
    m.rss_above_file_mib = static_cast<double>(*r->peak_growth_bytes - r->file_bytes) / kMiB;
    m.rss_file_ratio = static_cast<double>(*r->peak_growth_bytes) / static_cast<double>(r->file_bytes);
  }
  SetTarget(shape, &m);
  return m;
}

}  // namespace

tl::expected<Measurement, std::string> RunShape(const Shape& shape, const RunOptions& options) {
  if (shape.measure == Measure::kRunSeconds) return RunWhole(shape, options);
  if (shape.measure == Measure::kLoad) return RunLoadShape(shape, options);
  if (shape.measure == Measure::kResidentBytes) {
    if (!options.timing) {
      // Correctness only: the run must complete and bind nothing new.
      const ShapeInput in = shape.build(options.scale);
      const sched::ScheduleResult r = sched::Schedule(in.objects, sched::SchedulerOptions{});
      Measurement m;
      m.shape = shape.name;
      m.instance = InstanceOf(in);
      m.timed = false;
      m.unit = shape.unit;
      m.bound = static_cast<int64_t>(r.bindings.size());
      m.expected_bound = in.expected_bound;
      m.target = shape.target;
      return m;
    }
    return RunMemory(shape, options);
  }
  const ShapeInput in = shape.build(options.scale);
  Measurement m;
  m.shape = shape.name;
  m.instance = InstanceOf(in);
  m.timed = options.timing;
  m.unit = shape.unit;
  m.expected_bound = in.expected_bound;
  TimeRepetitions(options, &m, [&] {
    const sched::ScheduleResult r = sched::Schedule(in.objects, sched::SchedulerOptions{});
    m.bound = static_cast<int64_t>(r.bindings.size());
  });
  const double units = static_cast<double>(std::max<int64_t>(in.units, 1));
  m.value = shape.measure == Measure::kThroughput ? units / m.seconds : m.seconds / units * shape.unit_scale;
  m.target = shape.target;
  if (!options.timing) return m;  // tiny runs check correctness; the target is for the full size
  SetTarget(shape, &m);
  const NodeArrays arrays = ToArrays(in.objects.nodes, &in.objects.pods);
  const double scan = MeasureScanSeconds(arrays, in.scan_cpu_milli, in.scan_memory_bytes);
  m.scan_bound_ratio = m.seconds / (static_cast<double>(std::max<int64_t>(in.pods, 1)) * scan);
  std::vector<double> naive;
  for (int i = 0; i < std::min(std::max(1, options.repetitions), 3); ++i) {
    const Stopwatch watch;
    volatile int64_t placed = NaiveSchedule(in.objects);
    (void)placed;
    naive.push_back(watch.Cpu());
  }
  m.naive_ratio = m.seconds / Median(naive);
  return m;
}

}  // namespace wasched::perf
