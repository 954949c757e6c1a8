// File: perf/sim_shapes.cc
#include "perf/sim_shapes.h"

#include <filesystem>
#include <memory>
#include <utility>

#include "sim/cluster.h"
#include "sim/simulator.h"
#include "sim/trace.h"

#ifndef WASCHED_SOURCE_DIR
#define WASCHED_SOURCE_DIR "."
#endif

namespace wasched::perf {
namespace {

Shape SimulationShape(const std::string& name, sim::Policy policy) {
  Shape s;
  s.name = name;
  s.description = std::string("simulate the whole Philly trace (82,247 jobs) on 64 × 8 GPUs, policy ") +
                  sim::PolicyName(policy);
  s.measure = Measure::kRunSeconds;
  s.unit = "s/run";
  s.direction = Direction::kLowerIsBetter;
  s.target = 10.0;
  s.prepare = [policy](Scale scale) -> tl::expected<PreparedRun, std::string> {
    const std::string file = scale == Scale::kFull ? "philly.csv" : "philly-200.csv";
    const std::string path = PerfDataPath("tests/data/traces/philly/" + file);
    auto trace = sim::ImportTrace(path, sim::TraceFormat::kPhilly, {});
    if (!trace) return tl::unexpected(trace.error());
    auto nodes = sim::GenerateCluster(kPhillyCluster);
    if (!nodes) return tl::unexpected(nodes.error());
    auto input = std::make_shared<std::pair<sim::Trace, std::vector<api::Node>>>(std::move(*trace), std::move(*nodes));
    return PreparedRun([input, policy] {
      sim::SimOptions o;
      o.policy = policy;
      const sim::SimResult r = sim::Simulate(input->first, input->second, o);
      return RunCount{r.completed, static_cast<int64_t>(input->first.jobs.size())};
    });
  };
  return s;
}

}  // namespace

std::string PerfDataPath(const std::string& relative) {
  std::error_code ec;
  if (std::filesystem::exists(relative, ec)) return relative;
  return (std::filesystem::path(WASCHED_SOURCE_DIR) / relative).string();
}

std::vector<Shape> SimulationShapes() {
  return {SimulationShape("Simulate/PhillyBasic", sim::Policy::kBasic),
          SimulationShape("Simulate/PhillyGang", sim::Policy::kGang),
          SimulationShape("Simulate/PhillyGangTopology", sim::Policy::kGangTopology)};
}

}  // namespace wasched::perf
