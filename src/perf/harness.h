// File: perf/harness.h
//
// Runs one benchmark shape (perf/shapes.h) and turns the timings into the row `wasched bench`
// prints. Equivalent of a Google Benchmark fixture, kept in-process so the CLI can report the
// contract fields: {shape, value, unit, target, meetsTarget, scanBoundRatio}.
//
// Timing: the ObjectSet is built once, outside the timed region; each repetition times one whole
// sched::Schedule call (building the cache, every cycle, the result) in CPU seconds of the
// calling thread (the targets are per core; on a shared machine wall time also counts other
// processes — it is reported beside, as `wall_seconds`); `value` comes from the median repetition.
// The scan bound and the naive baseline
// (perf/scan_bound.h) are timed in the same run on the same ObjectSet.
// kRunSeconds shapes (the simulations, perf/sim_shapes.h) time the whole prepared run instead
// (its input loaded outside the timed region); no scan bound or naive baseline; `bound` /
// `expected_bound` are then the run's completed / expected units (jobs).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include <tl/expected.hpp>

#include "perf/shapes.h"

namespace wasched::perf {

// RunOptions: `repetitions` timed Schedule runs (≥ 1; the median is reported); `scale` as in
// shapes.h; `timing` false skips the scan bound, naive baseline and the repetitions (one run,
// correctness only — CI's tiny runs).
struct RunOptions {
  Scale scale = Scale::kFull;
  int repetitions = 5;
  bool timing = true;
};

// Measurement: one row.
//   value            in shape.unit (pods/s, µs per group, MiB, …)
//   meets_target     empty when the shape has no target or the run was not timed
//   scan_bound_ratio our seconds / (pods × one plain scan's seconds); < 1 = faster than scanning
//                    every node once per pod; empty for the Memory shape
//   naive_ratio      our seconds / the naive pod-at-a-time baseline's seconds
//   bound / expected_bound  pods bound by the run vs what a correct run binds
//   seconds          median Schedule CPU seconds (wall_seconds: the same runs' wall time);
//   bytes_per_pod / bytes_per_node   Memory shape only
//   instance         the size actually run, in the style of shape names: "50Nodes_100Pods",
//                    "50Nodes_10Groups_30Pods", "50Nodes_4Pods_200Running" (pending pods, then
//                    pods already on a node), "200Jobs" (simulations); a tiny run shows it
//                    instead of the full size the shape's name states (issue 20 item 15)
//   timed            false for a correctness-only run (RunOptions::timing false): `value`,
//                    the ratios and the seconds then mean nothing and are not reported
struct Measurement {
  std::string shape;
  std::string instance;
  bool timed = true;
  double value = 0;
  std::string unit;
  std::optional<double> target;
  std::optional<bool> meets_target;
  std::optional<double> scan_bound_ratio;
  std::optional<double> naive_ratio;
  int64_t bound = 0;
  int64_t expected_bound = 0;
  double seconds = 0;       // median CPU seconds of one Schedule run
  double wall_seconds = 0;  // median wall seconds of the same runs
  std::optional<double> bytes_per_pod;
  std::optional<double> bytes_per_node;
  // Load shapes (perf/load_shapes.h): the dump's size, objects decoded per CPU second, the
  // parser alone on the same bytes (MB/s) and our seconds over its seconds, and the peak
  // resident growth of a process loading the file: MiB above the file's size, and as a
  // multiple of the file's size.
  std::optional<double> file_mb;
  std::optional<double> objects_per_second;
  std::optional<double> parser_mb_per_second;
  std::optional<double> parser_ratio;
  std::optional<double> rss_above_file_mib;
  std::optional<double> rss_file_ratio;
  bool correct() const { return bound == expected_bound; }
};

// RunShape: measures `shape`. Errors only from the Memory shape's child process.
// Cost: repetitions × one Schedule run + the naive baseline + ~1000 node scans.
[[nodiscard]] tl::expected<Measurement, std::string> RunShape(const Shape& shape, const RunOptions& options);

}  // namespace wasched::perf
