// File: tests/simulate_policy_test.cc
//
// The simulator's event loop and metrics on small hand-made traces where the answer is known:
// pod-by-pod (basic) starts hold GPUs while a job waits for the rest (partialGpuHours > 0), a
// gang holds none; queueing delay, makespan, determinism, node-failure restarts; and the whole
// policy comparison on the first Philly rows.
#include <gtest/gtest.h>

#include <sstream>
#include <string>

#include "sim/cluster.h"
#include "sim/report.h"
#include "sim/simulator.h"
#include "sim/trace.h"
#include "support/sim_fixtures.h"

namespace wasched::sim {
namespace {

const std::string kHead = "timestamp,duration,num_gpus,gpu_time,cluster\n";

Trace Philly(const std::string& rows) { return test::PhillyTrace(kHead + rows); }

std::vector<api::Node> Cluster(const std::string& spec) { return test::GeneratedCluster(spec); }

SimResult SimRun(const Trace& t, const std::vector<api::Node>& nodes, Policy p, NodeFailures f = {}) {
  SimOptions o;
  o.policy = p;
  o.failures = f;
  return Simulate(t, nodes, o);
}

// 8 GPUs; a 1-GPU job runs 0..1000 s; an 8-GPU job arrives at 1 s. Basic binds 7 of its pods at
// once and holds them until the first job ends; a gang waits holding nothing.
const char* kPartialRows =
    "2017-10-09 00:00:00,1000,1,0,a\n"
    "2017-10-09 00:00:01,500,8,0,a\n";

TEST(SimulatePolicy, BasicHoldsPartialGpusGangDoesNot) {
  const Trace t = Philly(kPartialRows);
  const auto nodes = Cluster("nodes=2,gpus=4,zones=1,racksPerZone=1");
  const SimResult basic = SimRun(t, nodes, Policy::kBasic);
  const SimResult gang = SimRun(t, nodes, Policy::kGang);
  EXPECT_EQ(basic.completed, 2);
  EXPECT_EQ(gang.completed, 2);
  EXPECT_NEAR(basic.partial_gpu_hours, 7.0 * 999 / 3600, 1e-9);
  EXPECT_EQ(gang.partial_gpu_hours, 0.0);
  // Either way the 8-GPU job starts at 1000 s (delay 999) and the trace ends at 1500 s.
  EXPECT_EQ(basic.queue_delay.max, 999);
  EXPECT_EQ(gang.queue_delay.max, 999);
  EXPECT_EQ(gang.makespan_seconds, 1500);
  EXPECT_EQ(gang.queue_delay_by_size.at("2-8").p50, 999);
  EXPECT_EQ(gang.queue_delay_by_size.at("1").p50, 0);
  // Busy GPU-seconds: 1000 × 1 + 500 × 8 = 5000 of 8 × 1500.
  EXPECT_NEAR(gang.gpu_utilization, 5000.0 / 12000.0, 1e-9);
  EXPECT_NEAR(basic.gpu_allocation, (5000.0 + 7 * 999) / 12000.0, 1e-9);
}

TEST(SimulatePolicy, SmallJobsOvertakeAGangThatDoesNotFit) {
  // 4 GPUs: a 3-GPU job runs; a 4-GPU gang waits; a 1-GPU job behind it starts at once.
  const Trace t = Philly(
      "2017-10-09 00:00:00,100,3,0,a\n"
      "2017-10-09 00:00:01,100,4,0,a\n"
      "2017-10-09 00:00:02,10,1,0,a\n");
  const SimResult gang = SimRun(t, Cluster("nodes=1,gpus=4,zones=1,racksPerZone=1"), Policy::kGang);
  EXPECT_EQ(gang.completed, 3);
  EXPECT_EQ(gang.queue_delay_by_size.at("1").max, 0);
  EXPECT_EQ(gang.queue_delay_by_size.at("2-8").max, 99);
  EXPECT_EQ(gang.makespan_seconds, 200);
}

TEST(SimulatePolicy, JobsLargerThanTheClusterAreRejected) {
  const Trace t = Philly("2017-10-09 00:00:00,100,64,0,a\n2017-10-09 00:00:00,100,2,0,a\n");
  const SimResult r = SimRun(t, Cluster("nodes=2,gpus=8,zones=1,racksPerZone=1"), Policy::kGangTopology);
  EXPECT_EQ(r.rejected, 1);
  EXPECT_EQ(r.completed, 1);
}

TEST(SimulatePolicy, NodeFailuresRestartJobsAndEveryJobStillCompletes) {
  std::string rows;
  for (int i = 0; i < 50; ++i) rows += "2017-10-09 00:" + std::string(i < 10 ? "0" : "") + std::to_string(i) + ":00,7200,2,0,a\n";
  const Trace t = Philly(rows);
  const auto nodes = Cluster("nodes=4,gpus=8,zones=1,racksPerZone=2");
  const SimResult r = SimRun(t, nodes, Policy::kGang, NodeFailures{.per_day = 200, .repair_seconds = 600});
  EXPECT_GT(r.node_failures, 0);
  EXPECT_GT(r.restarts, 0);
  EXPECT_EQ(r.completed, 50);
  EXPECT_EQ(r.partial_gpu_hours, 0.0);
}

TEST(SimulatePolicy, PhillyPrefixComparesPoliciesDeterministically) {
  auto t = ImportTrace(std::string(WASCHED_TESTDATA_DIR) + "/data/traces/philly/philly.csv", TraceFormat::kPhilly,
                       {.gpus_per_pod = 1, .max_jobs = 3000});
  ASSERT_TRUE(t) << t.error();
  // A small cluster so that the queue builds up.
  const auto nodes = Cluster("nodes=8,gpus=8,zones=2,racksPerZone=2");
  std::vector<SimResult> runs;
  for (Policy p : {Policy::kBasic, Policy::kGang, Policy::kGangTopology}) runs.push_back(SimRun(*t, nodes, p));
  EXPECT_GT(runs[0].partial_gpu_hours, 0.0);
  EXPECT_EQ(runs[1].partial_gpu_hours, 0.0);
  EXPECT_EQ(runs[2].partial_gpu_hours, 0.0);
  for (const SimResult& r : runs) EXPECT_EQ(r.completed + r.rejected + r.unfinished, 3000) << r.policy;
  RunContext ctx{"philly.csv", "philly", 3000, 8, 64, 1};
  std::ostringstream a, b;
  WriteJson(ctx, runs, a);
  std::vector<SimResult> again;
  for (Policy p : {Policy::kBasic, Policy::kGang, Policy::kGangTopology}) again.push_back(SimRun(*t, nodes, p));
  WriteJson(ctx, again, b);
  EXPECT_EQ(a.str(), b.str());
}

}  // namespace
}  // namespace wasched::sim
