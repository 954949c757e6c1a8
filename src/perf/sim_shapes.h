// File: perf/sim_shapes.h
//
// The simulation shapes of `wasched bench` (issue 8's acceptance: "the whole Philly trace (82,247
// jobs) on the generated 64 × 8-GPU cluster: under 10 s per policy on one core (benchmark)"):
// one whole `wasched simulate` run (sim::Simulate, trace import and cluster generation excluded)
// per policy, value = CPU seconds per run, target 10 s.
//   Simulate/PhillyBasic          --policy basic
//   Simulate/PhillyGang           --policy gang
//   Simulate/PhillyGangTopology   --policy gang-topology
// Full scale: tests/data/traces/philly/philly.csv (82,247 jobs); tiny: philly-200.csv (200 jobs,
// correctness only). Cluster: nodes=64,gpus=8,cpus=96,memory=768Gi,zones=2,racksPerZone=4.
// A correct run completes every job of the trace (`done` = completed jobs).
#pragma once

#include <string>
#include <vector>

#include "perf/shapes.h"

namespace wasched::perf {

inline constexpr const char* kPhillyCluster = "nodes=64,gpus=8,cpus=96,memory=768Gi,zones=2,racksPerZone=4";

// PerfDataPath: `relative` (a path inside the repository, e.g. "tests/data/traces/philly/philly.csv")
// relative to the working directory when it exists there (CI runs the binary from the repository
// root), else under the source tree this binary was built from. O(1) file-system checks.
[[nodiscard]] std::string PerfDataPath(const std::string& relative);

// SimulationShapes: the three shapes above, in that order.
[[nodiscard]] std::vector<Shape> SimulationShapes();

}  // namespace wasched::perf
