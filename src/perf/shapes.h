// File: perf/shapes.h
//
// The scheduler_perf shapes (kubernetes/kubernetes test/integration/scheduler_perf; numbers in
// spec/perf-anchors.md §1) as in-memory ObjectSets, for `wasched bench` and bench/. Node and pod
// shapes are scheduler_perf's templates:
//   node-default        4 CPU / 32 Gi / 110 pods
//   pod-default         100m CPU / 500 Mi              (misc/performance-config.yaml)
//   gang-pod            100m CPU / 100 Mi, spec.schedulingGroup.podGroupName
//   TAS node            node-default + topology.kubernetes.io/zone = zone-(i/100),
//                       topology.kubernetes.io/rack = rack-(i/kNodesPerRack)   (podgroup/tas)
//   preemption          low-priority pods 900m / 500 Mi (priority 1) fill 4 per node; preemptors
//                       3000m / 500 Mi at priority 100 (PreemptionAsync's pod-low/high-priority)
// Every shape has a full size (the design.md target row) and a tiny size (CI correctness runs).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <tl/expected.hpp>

#include "api/object_set.h"

namespace wasched::perf {

// Scale: kFull is the size the target in design.md is stated for; kTiny is ~100× smaller, for
// correctness runs in CI (no timing there).
enum class Scale { kFull, kTiny };

// Direction: whether a larger value is better (throughput) or worse (latency, bytes).
enum class Direction { kHigherIsBetter, kLowerIsBetter };

// ShapeInput: one built instance of a shape.
//   objects        the cluster and workload, validated-shape (no codec involved)
//   units          what `value` is counted per (pods for throughput, groups for per-group time)
//   pods           pending pods the scheduler has to place (the scan bound's multiplier)
//   expected_bound pods a correct run binds (checked by every run; a mismatch is a failure)
//   scan_cpu_milli / scan_memory_bytes   the request the plain scan bound uses
struct ShapeInput {
  api::ObjectSet objects;
  int64_t units = 0;
  int64_t pods = 0;
  int64_t expected_bound = 0;
  int64_t scan_cpu_milli = 100;
  int64_t scan_memory_bytes = 0;
};

// Kind of measurement a shape makes.
enum class Measure {
  kThroughput,    // value = units / second
  kTimePerUnit,   // value = seconds per unit, reported in `unit` (µs or ms)
  kResidentBytes, // value = resident MiB of one Schedule run (see perf/memory.h)
  kRunSeconds,    // value = CPU seconds of one whole run of Shape::prepare's program (simulations)
  kLoad,          // value = MB/s of loading a generated dump (perf/load_shapes.h)
};

// LoadTiming: how a kLoad shape runs: `timing` false = one untimed load, counts only.
struct LoadTiming {
  bool timing = true;
  int repetitions = 5;
};

// LoadReading: one kLoad measurement.
//   file_bytes                 size of the generated dump
//   objects / expected_objects Nodes + Pods + PodGroups decoded by the last load / generated
//   seconds, wall_seconds      median thread CPU / wall seconds of one load (read + parse + decode)
//   parser_seconds             median thread CPU seconds of the parser alone on the same bytes
//                              (codec/raw_parse.h); 0 when not timed
//   peak_growth_bytes          peak resident growth of a child process loading the file
//   instance                   the generated dump's size, "<N>Nodes_<P>Pods"
struct LoadReading {
  int64_t file_bytes = 0;
  int64_t objects = 0;
  int64_t expected_objects = 0;
  double seconds = 0;
  double wall_seconds = 0;
  double parser_seconds = 0;
  std::optional<int64_t> peak_growth_bytes;
  std::string instance;
};

// RunCount: what one kRunSeconds run completed (`done`) and what a correct run completes.
struct RunCount {
  int64_t done = 0;
  int64_t expected = 0;
};

// PreparedRun: the timed part of a kRunSeconds shape; each call is one complete run.
using PreparedRun = std::function<RunCount()>;

// Shape: a named benchmark shape.
//   name      stable identifier (`--shape NAME`), e.g. "GangScheduling/5000Nodes_1000Gangs_3Pods"
//   unit      "pods/s", "µs/PodGroup", "ms/PodGroup", "µs/gang", "µs/CompositePodGroup",
//             "µs/preemptor", "MiB"
//   scale     multiplier from seconds to `unit` for kTimePerUnit (1e6 for µs, 1e3 for ms)
//   target    design.md's target in `unit`, if the row has one
//   build     builds the instance at a scale; deterministic (not used by kRunSeconds)
//   prepare   kRunSeconds only: loads the input at a scale (untimed) and returns the timed run;
//             errors name what could not be loaded (e.g. a trace file)
//   load      kLoad only: generates the dump at a scale and measures loading it
struct Shape {
  std::string name;
  std::string description;
  Measure measure = Measure::kThroughput;
  std::string unit;
  double unit_scale = 1.0;
  Direction direction = Direction::kLowerIsBetter;
  std::optional<double> target;
  std::function<ShapeInput(Scale)> build;
  std::function<tl::expected<PreparedRun, std::string>(Scale)> prepare;
  std::function<tl::expected<LoadReading, std::string>(Scale, const LoadTiming&)> load;
};

// Shapes: every shape, in a fixed order (the order of design.md's target table, then scaling).
[[nodiscard]] const std::vector<Shape>& Shapes();

// FindShape: the shape named `name` (exact match), or nullptr.
[[nodiscard]] const Shape* FindShape(const std::string& name);

// Node/pod template builders, exposed for bench/ and tests.
[[nodiscard]] api::Node DefaultNode(int index);
// TasNode: DefaultNode plus zone (index / 100) and rack (index / nodes_per_rack) labels.
[[nodiscard]] api::Node TasNode(int index, int nodes_per_rack);
inline constexpr int kNodesPerRack = 10;
inline constexpr const char* kZoneKey = "topology.kubernetes.io/zone";
inline constexpr const char* kRackKey = "topology.kubernetes.io/rack";

// Shape builders (also used by bench/): see the file comment for the templates.
[[nodiscard]] ShapeInput SchedulingBasicShape(int nodes, int existing, int pods);
[[nodiscard]] ShapeInput GangShape(int nodes, int gangs, int per_gang);
// RackGangShape: gangs constrained to one rack of `nodes_per_rack` nodes (upstream's podgroup/tas
// node template has 100 per rack; the TopologyAware target row uses 10).
[[nodiscard]] ShapeInput RackGangShape(int nodes, int gangs, int per_gang, int nodes_per_rack = kNodesPerRack);
[[nodiscard]] ShapeInput CompositeShape(int nodes, int cpgs, int groups_per_cpg, int per_group);
[[nodiscard]] ShapeInput PreemptionShape(int nodes, int running, int preemptors);

}  // namespace wasched::perf
