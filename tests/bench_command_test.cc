// File: tests/bench_command_test.cc
//
// `wasched bench` through the real binary (issue 9): every shape at tiny scale (correctness only,
// no timing — the CI run of the benchmark shapes), the JSON contract fields, and usage errors.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "support/process.h"

namespace wasched {
namespace {

using ::testing::HasSubstr;

TEST(BenchCommandTest, EveryShapeAtTinyScaleBindsWhatACorrectRunBinds) {
  const auto r = test::RunCommand({WASCHED_BINARY, "bench", "--scale", "tiny", "-o", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json rows = nlohmann::json::parse(r.out);
  ASSERT_TRUE(rows.is_array());
  ASSERT_GE(rows.size(), 9u);
  for (const auto& row : rows) {
    SCOPED_TRACE(row.dump());
    for (const char* field : {"shape", "value", "unit", "target", "meetsTarget", "scanBoundRatio"}) {
      EXPECT_TRUE(row.contains(field)) << field;
    }
    EXPECT_EQ(row["bound"], row["expectedBound"]);
    // Issue 20 item 15: a tiny run says so, names the size that ran and reports no value.
    EXPECT_EQ(row["scale"], "tiny");
    EXPECT_TRUE(row["value"].is_null());
    // Nor a unit, a target or timings (new-user trial: the JSON still carried them).
    EXPECT_TRUE(row["unit"].is_null());
    EXPECT_TRUE(row["target"].is_null());
    EXPECT_TRUE(row["seconds"].is_null());
    EXPECT_FALSE(row["instance"].get<std::string>().empty());
  }
  EXPECT_EQ(rows[0]["instance"], "50Nodes_100Pods_10Running");
  EXPECT_EQ(rows[0]["shape"], "SchedulingBasic/5000Nodes_10000Pods");
  // The Load shapes (issue 18): both forms at the three sizes, every generated object decoded.
  int load_rows = 0;
  for (const auto& row : rows) {
    if (!row["shape"].get<std::string>().starts_with("Load/")) continue;
    ++load_rows;
    EXPECT_GT(row["expectedBound"].get<int64_t>(), 0) << row.dump();
    EXPECT_GT(row["fileMB"].get<double>(), 0) << row.dump();
  }
  EXPECT_EQ(load_rows, 6);
}

TEST(BenchCommandTest, ShapePrefixSelectsAndTableExplainsColumns) {
  const auto r = test::RunCommand({WASCHED_BINARY, "bench", "--scale", "tiny", "--shape", "GangScheduling"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("GangScheduling/5000Nodes_1000Gangs_3000Pods"));
  EXPECT_THAT(r.out, HasSubstr("GangScheduling/5000Nodes_10Gangs_50000Pods_5000PerGroup"));
  EXPECT_THAT(r.out, ::testing::Not(HasSubstr("SchedulingBasic")));
  // A tiny run's table explains what it checked (the full table's SCANBOUND legend is for timed
  // runs only).
  EXPECT_THAT(r.out, HasSubstr("checks counts only"));
}

// Issue 20 item 15: `--scale tiny` says it checks counts only, shows the tiny size in each
// shape's name and prints no value, unit or target (no "0 MiB" row).
TEST(BenchCommandTest, TinyTableChecksCountsOnly) {
  const auto r = test::RunCommand({WASCHED_BINARY, "bench", "--scale", "tiny", "--shape", "Memory",
                                   "--shape", "SchedulingBasic", "--shape", "Simulate/PhillyBasic",
                                   "--shape", "Load/JsonList_50Nodes"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, ::testing::StartsWith("--scale tiny checks counts only: "));
  EXPECT_THAT(r.out, HasSubstr("SchedulingBasic/5000Nodes_10000Pods [tiny: 50Nodes_100Pods_10Running]"
                               "  bound 100 of 100 pods"));
  EXPECT_THAT(r.out, HasSubstr("Memory/5000Nodes_150000Pods [tiny: 50Nodes_0Pods_1500Running]"));
  EXPECT_THAT(r.out, HasSubstr("Simulate/PhillyBasic [tiny: 200Jobs]"));
  EXPECT_THAT(r.out, HasSubstr("Load/JsonList_50Nodes_1500Pods [tiny: 1Nodes_15Pods]"));
  EXPECT_THAT(r.out, HasSubstr("decoded 16 of 16 objects"));
  for (const char* absent : {"MiB", "MB/s", "pods/s", "TARGET", "SCANBOUND"}) {
    EXPECT_THAT(r.out, ::testing::Not(HasSubstr(absent))) << absent;
  }
}

TEST(BenchCommandTest, UnknownShapeIsAUsageError) {
  const auto r = test::RunCommand({WASCHED_BINARY, "bench", "--shape", "NoSuchShape"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.out, "");
  EXPECT_THAT(r.err, HasSubstr("no benchmark shape matches \"NoSuchShape\""));
}

TEST(BenchCommandTest, ListNamesEveryShape) {
  const auto r = test::RunCommand({WASCHED_BINARY, "bench", "--list"});
  ASSERT_EQ(r.exit_code, 0);
  for (const char* name : {"SchedulingBasic/", "GangScheduling/", "TopologyAware/", "CompositePodGroup/", "Preemption/",
                           "Memory/", "Scaling/500Nodes", "Scaling/5000Nodes", "Scaling/50000Nodes",
                           "Load/JsonList_5000Nodes_150000Pods", "Load/YamlDocuments_50Nodes_1500Pods"}) {
    EXPECT_THAT(r.out, HasSubstr(name));
  }
}

}  // namespace
}  // namespace wasched
