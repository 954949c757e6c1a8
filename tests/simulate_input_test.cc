// File: tests/simulate_input_test.cc
//
// `wasched simulate` input checks added for QA2's re-check at f8e5c80: `--cluster` manifests get
// the Node checks `schedule` runs (exit 1 with its error lines) and objects other than Nodes are
// named in a warning instead of being dropped silently; `-` for --trace / --cluster, an
// out-of-range --seed are usage errors; a policy given twice runs once; impossible dates, years
// outside 1970-9999 and rows shorter than the header are refused naming the line; a header
// without the needed columns lists the columns it has.
#include <gtest/gtest.h>

#include <fstream>
#include <vector>

#include <fmt/format.h>
#include <string>

#include <nlohmann/json.hpp>

#include "sim/trace.h"
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

TEST(SimulateInput, StdinSeedAndRepeatedPolicy) {
  for (const char* flag : {"--trace", "--cluster"}) {
    std::vector<std::string> argv = {WASCHED_BINARY, "simulate", "--format", "philly"};
    if (std::string(flag) == "--trace") {
      argv.insert(argv.end(), {"--trace", "-", "--generate-cluster", "nodes=2"});
    } else {
      argv.insert(argv.end(), {"--trace", Trace(), "--cluster", "-"});
    }
    const auto r = test::RunCommand(argv);
    EXPECT_EQ(r.exit_code, 2) << flag;
    EXPECT_EQ(r.out, "");
    EXPECT_NE(r.err.find(std::string(flag) + " -: reading from stdin is not supported"), std::string::npos) << r.err;
  }
  for (const char* seed : {"-1", "18446744073709551616", "99999999999999999999999", "1x", ""}) {
    const auto r = test::RunCommand(
        {WASCHED_BINARY, "simulate", "--trace", Trace(), "--format", "philly", "--generate-cluster", "nodes=2", "--seed", seed});
    EXPECT_EQ(r.exit_code, 2) << seed;
    EXPECT_EQ(r.out, "");
    EXPECT_NE(r.err.find("want an integer in [0, 18446744073709551615]"), std::string::npos) << seed << ": " << r.err;
  }
  const auto max = test::RunCommand({WASCHED_BINARY, "simulate", "--trace", Trace(), "--format", "philly",
                                     "--generate-cluster", "nodes=2", "--seed", "18446744073709551615", "-o", "json"});
  ASSERT_EQ(max.exit_code, 0) << max.err;
  EXPECT_EQ(nlohmann::json::parse(max.out)["seed"], 18446744073709551615ULL);
  const auto twice = test::RunCommand({WASCHED_BINARY, "simulate", "--trace", Trace(), "--format", "philly",
                                       "--generate-cluster", "nodes=2", "--policy", "gang", "--policy", "basic",
                                       "--policy", "gang", "-o", "json"});
  ASSERT_EQ(twice.exit_code, 0) << twice.err;
  const auto doc = nlohmann::json::parse(twice.out);
  ASSERT_EQ(doc["runs"].size(), 2u);
  EXPECT_EQ(doc["runs"][0]["policy"], "gang");
  EXPECT_EQ(doc["runs"][1]["policy"], "basic");
}

TEST(SimulateInput, ImpossibleDatesShortRowsAndForeignHeadersAreRefused) {
  using sim::ParseTraceText;
  using sim::TraceFormat;
  auto parse = [](const std::string& text) { return ParseTraceText(text, "p.csv", TraceFormat::kPhilly, {}); };
  const std::string want = "want a date and time YYYY-MM-DD HH:MM:SS (UTC) in the years 1970-9999";
  for (const char* date : {"2017-02-31 00:00:00", "2017-04-31 00:00:00", "2017-02-29 00:00:00", "1969-12-31 23:59:59",
                           "0000-01-01 00:00:00"}) {
    auto t = parse(kTraceHead + "2017-10-09 00:00:00,1,1\n" + date + ",1,1\n");
    ASSERT_FALSE(t) << date;
    EXPECT_EQ(t.error(), fmt::format("p.csv:3: column timestamp: invalid value \"{}\": {}", date, want));
  }
  // Real dates at the edges are fine: a leap day, the first second of 1970.
  EXPECT_TRUE(parse(kTraceHead + "2016-02-29 00:00:00,1,1\n2012-02-29 00:00:00,1,1\n"));
  EXPECT_TRUE(parse(kTraceHead + "1970-01-01 00:00:00,1,1\n1975-12-31 23:59:59,1,1\n"));
  // A row shorter than the header, even when the missing fields are unused ones.
  auto short_row = parse("timestamp,duration,num_gpus,gpu_time,cluster\n2017-10-09 00:00:00,1,1\n");
  ASSERT_FALSE(short_row);
  EXPECT_EQ(short_row.error(), "p.csv:2: want 5 fields (the header's), got 3");
  // A `;`-separated header: the columns found are listed.
  auto semicolon = parse("timestamp;duration;num_gpus\n2017-10-09 00:00:00;1;1\n");
  ASSERT_FALSE(semicolon);
  EXPECT_EQ(semicolon.error(),
            "p.csv:1: header: missing column timestamp (want timestamp, duration, num_gpus; the header has 1 column: "
            "\"timestamp;duration;num_gpus\")");
}

TEST(SimulateInput, KeysAndColumnsGivenTwiceAndAnIgnoredGpusPerPod) {
  const auto cluster = test::RunCommand({WASCHED_BINARY, "simulate", "--trace", Trace(), "--format", "philly",
                                         "--generate-cluster", "nodes=4,nodes=5"});
  EXPECT_EQ(cluster.exit_code, 2);
  EXPECT_NE(cluster.err.find("--generate-cluster: nodes given twice"), std::string::npos) << cluster.err;
  const auto failures = test::RunCommand({WASCHED_BINARY, "simulate", "--trace", Trace(), "--format", "philly",
                                          "--generate-cluster", "nodes=2", "--node-failures", "perDay=2,perDay=3"});
  EXPECT_EQ(failures.exit_code, 2);
  EXPECT_NE(failures.err.find("--node-failures: perDay given twice"), std::string::npos) << failures.err;
  auto dup = sim::ParseTraceText("timestamp,duration,num_gpus,duration\n2017-10-09 00:00:00,1,1,2\n", "p.csv",
                                 sim::TraceFormat::kPhilly, {});
  ASSERT_FALSE(dup);
  EXPECT_EQ(dup.error(), "p.csv:1: header: column duration given twice (columns 2 and 4)");
  const std::string kalos = TempFile("sim_input_kalos.csv",
                                     "job_id,arrival_time,num_iteration,gpu_workers,gpu_per_worker\n0,0,10,1,1\n");
  const auto gpp = test::RunCommand({WASCHED_BINARY, "simulate", "--trace", kalos, "--format", "kalos",
                                     "--generate-cluster", "nodes=2", "--gpus-per-pod", "4", "-o", "json"});
  ASSERT_EQ(gpp.exit_code, 0) << gpp.err;
  EXPECT_NE(gpp.err.find("warning: --gpus-per-pod applies to philly traces only; ignored for --format kalos"),
            std::string::npos)
      << gpp.err;
}

// CPU-only openb pods (num_gpu 0) get their own queueing-delay bucket "0", not "1".
TEST(SimulateInput, CpuOnlyJobsGetTheirOwnDelayBucket) {
  const std::string trace = TempFile(
      "sim_input_openb.csv",
      "name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,qos,pod_phase,creation_time,deletion_time,scheduled_time\n"
      "p0,1000,1024,0,0,,LS,Running,0,100,0\n"
      "p1,1000,1024,1,1000,,LS,Running,0,100,0\n");
  const std::string nodes = TempFile("sim_input_openb_nodes.csv", "sn,cpu_milli,memory_mib,gpu,model\nn0,96000,262144,2,P100\n");
  const auto r = test::RunCommand(
      {WASCHED_BINARY, "simulate", "--trace", trace, "--format", "openb", "--cluster", nodes, "-o", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto doc = nlohmann::json::parse(r.out);
  EXPECT_EQ(doc["completed"], 2);
  EXPECT_EQ(doc["queueDelayByJobSize"]["0"]["count"], 1);
  EXPECT_EQ(doc["queueDelayByJobSize"]["1"]["count"], 1);
}

// A NUL byte in a trace (a binary file, a truncated copy) is refused naming line and column.
TEST(SimulateInput, NulByteIsRefused) {
  auto t = sim::ParseTraceText(kTraceHead + std::string("2017-10-09 00:00:00,1,1\0\n", 25), "p.csv",
                               sim::TraceFormat::kPhilly, {});
  ASSERT_FALSE(t);
  EXPECT_EQ(t.error(), "p.csv:2: column 3: a NUL byte: the trace must be text");
}

}  // namespace
}  // namespace wasched
