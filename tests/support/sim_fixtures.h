// File: tests/support/sim_fixtures.h
//
// Fixtures shared by the simulate tests: a trace parsed from CSV text and a generated cluster,
// each failing the calling test (not aborting) when the text or spec is refused.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "api/node.h"
#include "sim/cluster.h"
#include "sim/trace.h"

namespace wasched::test {

// PhillyTrace: `csv` (header and rows) read as a Philly trace, `gpus_per_pod` GPUs per pod.
inline sim::Trace PhillyTrace(const std::string& csv, int32_t gpus_per_pod = 1) {
  auto t = sim::ParseTraceText(csv, "t.csv", sim::TraceFormat::kPhilly, {.gpus_per_pod = gpus_per_pod});
  EXPECT_TRUE(t) << t.error();
  return t ? *t : sim::Trace{};
}

// GeneratedCluster: the nodes of a `--generate-cluster` spec.
inline std::vector<api::Node> GeneratedCluster(const std::string& spec) {
  auto n = sim::GenerateCluster(spec);
  EXPECT_TRUE(n) << n.error();
  return n ? *n : std::vector<api::Node>{};
}

}  // namespace wasched::test
