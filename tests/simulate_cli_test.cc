// File: tests/simulate_cli_test.cc
//
// `wasched simulate` through the binary: JSON summary fields, byte-identical reruns, the openb
// pods replayed on the openb nodes, the CSV timeseries and HTML report files, usage and
// input errors (exit 2 / 1, nothing on stdout).
#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include <nlohmann/json.hpp>

#include "support/process.h"

namespace wasched {
namespace {

const std::string kData = std::string(WASCHED_TESTDATA_DIR) + "/data/traces/";

TEST(SimulateCli, JsonSummaryIsCompleteAndByteIdentical) {
  const std::vector<std::string> argv = {WASCHED_BINARY, "simulate", "--trace", kData + "philly/philly-200.csv",
                                         "--format", "philly", "--generate-cluster", "nodes=4,gpus=8,zones=1,racksPerZone=2",
                                         "--policy", "basic", "--policy", "gang", "--policy", "gang-topology",
                                         "--seed", "7", "-o", "json"};
  const auto a = test::RunCommand(argv);
  const auto b = test::RunCommand(argv);
  ASSERT_EQ(a.exit_code, 0) << a.err;
  EXPECT_EQ(a.out, b.out);
  const auto doc = nlohmann::json::parse(a.out);
  ASSERT_EQ(doc["runs"].size(), 3u);
  for (const auto& r : doc["runs"]) {
    for (const char* key : {"jobs", "completed", "gpuUtilization", "partialGpuHours", "queueDelaySeconds",
                            "makespanSeconds", "deadlocks", "evictions"}) {
      EXPECT_TRUE(r.contains(key)) << key;
    }
    EXPECT_EQ(r["jobs"], 200);
    EXPECT_TRUE(r["queueDelaySeconds"].contains("p99"));
  }
  EXPECT_EQ(doc["runs"][1]["partialGpuHours"], 0.0);
  EXPECT_EQ(doc["seed"], 7);
}

TEST(SimulateCli, OpenbPodsReplayOnOpenbNodes) {
  const auto r = test::RunCommand({WASCHED_BINARY, "simulate", "--trace", kData + "openb/openb_pod_list_default.csv",
                                   "--format", "openb", "--cluster", kData + "openb/openb_node_list_all_node.csv",
                                   "--policy", "gang", "--max-jobs", "400", "-o", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto doc = nlohmann::json::parse(r.out);
  EXPECT_EQ(doc["jobs"], 400);
  EXPECT_EQ(doc["completed"], 400);
  EXPECT_EQ(doc["cluster"]["nodes"], 1523);
}

TEST(SimulateCli, TimeseriesAndReportFiles) {
  const std::string csv = testing::TempDir() + "/sim_ts.csv";
  const std::string html = testing::TempDir() + "/sim_report.html";
  const auto r = test::RunCommand({WASCHED_BINARY, "simulate", "--trace", kData + "philly/philly-200.csv", "--format",
                                   "philly", "--generate-cluster", "nodes=4", "--policy", "basic", "--policy", "gang",
                                   "--timeseries", csv, "--report", html});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("POLICY"), std::string::npos);
  const std::string ts = test::ReadFile(csv);
  EXPECT_EQ(ts.rfind("policy,startSeconds,busyGpus,partialGpus,pendingJobs,runningJobs\nbasic,0,", 0), 0u) << ts.substr(0, 200);
  EXPECT_NE(ts.find("\ngang,0,"), std::string::npos);
  const std::string page = test::ReadFile(html);
  EXPECT_EQ(page.rfind("<!DOCTYPE html>", 0), 0u);
  EXPECT_NE(page.find("<svg class=\"plot\" id=\"utilization\""), std::string::npos);
  EXPECT_NE(page.find("<polyline"), std::string::npos);
  EXPECT_EQ(page.find("<script"), std::string::npos);  // self-contained, no scripts
  std::remove(csv.c_str());
  std::remove(html.c_str());
}

TEST(SimulateCli, BadInputAndUsage) {
  const std::string bad = testing::TempDir() + "/sim_bad.csv";
  {
    FILE* f = std::fopen(bad.c_str(), "w");
    std::fputs("timestamp,duration,num_gpus\n2017-10-09 07:01:55,10,1\n2017-10-09 07:01:56,ten,1\n", f);
    std::fclose(f);
  }
  const auto r = test::RunCommand({WASCHED_BINARY, "simulate", "--trace", bad, "--format", "philly",
                                   "--generate-cluster", "nodes=2"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.out, "");
  EXPECT_NE(r.err.find(bad + ":3: column duration: invalid value \"ten\""), std::string::npos) << r.err;
  std::remove(bad.c_str());
  const auto both = test::RunCommand({WASCHED_BINARY, "simulate", "--trace", kData + "philly/philly-200.csv", "--format",
                                      "philly", "--generate-cluster", "nodes=2", "--cluster", "x.yaml"});
  EXPECT_EQ(both.exit_code, 2);
  EXPECT_NE(both.err.find("exactly one of --cluster"), std::string::npos) << both.err;
  const auto policy = test::RunCommand({WASCHED_BINARY, "simulate", "--trace", kData + "philly/philly-200.csv",
                                        "--format", "philly", "--generate-cluster", "nodes=2", "--policy", "fifo"});
  EXPECT_EQ(policy.exit_code, 2);
  EXPECT_NE(policy.err.find("unknown policy \"fifo\""), std::string::npos) << policy.err;
  const auto missing = test::RunCommand({WASCHED_BINARY, "simulate", "--trace", kData + "nope.csv", "--format",
                                         "philly", "--generate-cluster", "nodes=2"});
  EXPECT_EQ(missing.exit_code, 1);
  EXPECT_EQ(missing.out, "");
}

// --scale-trace: a seeded resample of the trace (sim::ScaleTrace) replayed instead of it.
TEST(SimulateCli, ScaleTraceIsSeededAndCounted) {
  auto run = [](const char* seed) {
    return test::RunCommand({WASCHED_BINARY, "simulate", "--trace", kData + "philly/philly-200.csv", "--format",
                             "philly", "--generate-cluster", "nodes=8,gpus=8", "--scale-trace", "600", "--seed",
                             seed, "--policy", "gang", "-o", "json"});
  };
  const auto a = run("5");
  const auto b = run("5");
  const auto c = run("6");
  ASSERT_EQ(a.exit_code, 0) << a.err;
  ASSERT_EQ(c.exit_code, 0) << c.err;
  EXPECT_EQ(a.out, b.out);
  EXPECT_NE(a.out, c.out);
  const auto doc = nlohmann::json::parse(a.out);
  EXPECT_EQ(doc["jobs"], 600);
  EXPECT_EQ(doc["runs"][0]["jobs"], 600);
  EXPECT_EQ(doc["runs"][0]["completed"], 600);
  // The stretched horizon: 600 of the slice's 200 jobs (a 860,603 s span) on 64 GPUs against
  // R = 512 span 24 × as long, about 20.7M s (unscaled, the run's makespan is 860,669 s).
  EXPECT_GT(doc["runs"][0]["makespanSeconds"].get<int64_t>(), 15'000'000);
}

TEST(SimulateCli, ScaleTraceBadValuesNameTheOption) {
  for (const char* value : {"0", "-1", "abc", "10000001", "1e6", ""}) {
    const auto r = test::RunCommand({WASCHED_BINARY, "simulate", "--trace", kData + "philly/philly-200.csv", "--format",
                                     "philly", "--generate-cluster", "nodes=2", "--scale-trace", value});
    EXPECT_EQ(r.exit_code, 2) << value;
    EXPECT_EQ(r.out, "") << value;
    EXPECT_EQ(r.err, std::string("error: --scale-trace ") + value + ": want an integer in [1, 10000000]\n") << value;
  }
  const auto reference = test::RunCommand({WASCHED_BINARY, "simulate", "--trace", kData + "philly/philly-200.csv",
                                           "--format", "philly", "--generate-cluster", "nodes=2", "--scale-trace", "10",
                                           "--scale-reference-gpus", "0"});
  EXPECT_EQ(reference.exit_code, 2);
  EXPECT_EQ(reference.err, "error: --scale-reference-gpus 0: want an integer in [1, 10000000]\n");
  // 10M jobs from 200 on 2 GPUs against R = 512 would span centuries.
  const auto too_long = test::RunCommand({WASCHED_BINARY, "simulate", "--trace", kData + "philly/philly-200.csv",
                                          "--format", "philly", "--generate-cluster", "nodes=1,gpus=2",
                                          "--scale-trace", "10000000"});
  EXPECT_EQ(too_long.exit_code, 2);
  EXPECT_EQ(too_long.out, "");
  EXPECT_EQ(too_long.err.rfind("error: --scale-trace 10000000: the scaled trace would span ", 0), 0u) << too_long.err;
  const auto unused = test::RunCommand({WASCHED_BINARY, "simulate", "--trace", kData + "philly/philly-200.csv",
                                        "--format", "philly", "--generate-cluster", "nodes=2", "--scale-reference-gpus",
                                        "64", "--max-jobs", "5", "-o", "json"});
  EXPECT_EQ(unused.exit_code, 0) << unused.err;
  EXPECT_EQ(unused.err, "warning: --scale-reference-gpus applies to --scale-trace only; ignored\n");
}

}  // namespace
}  // namespace wasched
