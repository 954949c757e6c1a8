// File: tests/simulate_input_test.cc
//
// `wasched simulate` input checks added for QA2's re-check at f8e5c80: `--cluster` manifests get
// the Node checks `schedule` runs (exit 1 with its error lines) and objects other than Nodes are
// named in a warning instead of being dropped silently.
#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "support/process.h"

namespace wasched {
namespace {

const std::string kTraceHead = "timestamp,duration,num_gpus\n";

std::string TempFile(const std::string& name, const std::string& text) {
  const std::string path = testing::TempDir() + "/" + name;
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

std::string Trace() { return TempFile("sim_input_trace.csv", kTraceHead + "2017-10-09 00:00:00,100,4\n"); }

const std::string kNode =
    "apiVersion: v1\nkind: Node\nmetadata: {name: n0}\n"
    "status:\n  allocatable: {cpu: \"96\", memory: 768Gi, nvidia.com/gpu: \"8\", pods: \"110\"}\n";

TEST(SimulateInput, ClusterNodesGetTheScheduleValidation) {
  const std::string cluster = TempFile("sim_input_neg.yaml",
                                       "apiVersion: v1\nkind: Node\nmetadata: {name: n0}\n"
                                       "status:\n  allocatable: {cpu: \"-4\", memory: 16Gi, nvidia.com/gpu: \"8\"}\n");
  const auto r = test::RunCommand(
      {WASCHED_BINARY, "simulate", "--trace", Trace(), "--format", "philly", "--cluster", cluster});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.out, "");
  EXPECT_NE(r.err.find("error: " + cluster +
                       ": document 1: Node n0: status.allocatable[cpu]: Invalid value: \"-4\": must be greater than or "
                       "equal to 0"),
            std::string::npos)
      << r.err;
  // Every error gets its own `error:` line.
  const std::string two = TempFile("sim_input_two_bad.yaml",
                                   "apiVersion: v1\nkind: Node\nmetadata: {name: Bad_Name}\n"
                                   "status:\n  allocatable: {cpu: \"-4\", nvidia.com/gpu: \"8\"}\n");
  const auto t = test::RunCommand({WASCHED_BINARY, "simulate", "--trace", Trace(), "--format", "philly", "--cluster", two});
  EXPECT_EQ(t.exit_code, 1);
  size_t lines = 0;
  for (size_t at = t.err.find("error: "); at != std::string::npos; at = t.err.find("error: ", at + 1)) ++lines;
  EXPECT_GE(lines, 2u) << t.err;
  EXPECT_EQ(t.err.find("\n\n"), std::string::npos) << t.err;
}

TEST(SimulateInput, ObjectsOtherThanNodesAreNamedInAWarning) {
  const std::string cluster = TempFile(
      "sim_input_pods.yaml",
      kNode +
          "---\napiVersion: v1\nkind: Pod\nmetadata: {name: hog, namespace: default}\nspec:\n  nodeName: n0\n"
          "  containers: [{name: c, image: x, resources: {requests: {nvidia.com/gpu: \"8\"}, limits: "
          "{nvidia.com/gpu: \"8\"}}}]\n"
          "---\napiVersion: scheduling.k8s.io/v1\nkind: PriorityClass\nmetadata: {name: high}\nvalue: 1000\n");
  const auto r = test::RunCommand(
      {WASCHED_BINARY, "simulate", "--trace", Trace(), "--format", "philly", "--cluster", cluster, "-o", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("warning: --cluster: ignored 1 Pod(s), 1 PriorityClass(s) in " + cluster +
                       "; only Nodes are read"),
            std::string::npos)
      << r.err;
  // Nodes only: no warning.
  const std::string nodes = TempFile("sim_input_nodes.yaml", kNode);
  const auto q = test::RunCommand(
      {WASCHED_BINARY, "simulate", "--trace", Trace(), "--format", "philly", "--cluster", nodes, "-o", "json"});
  ASSERT_EQ(q.exit_code, 0) << q.err;
  EXPECT_EQ(q.err, "");
}

}  // namespace
}  // namespace wasched
