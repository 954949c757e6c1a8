// File: tests/simulate_trace_test.cc
//
// `wasched simulate` inputs: the trace importers (Philly, openb, Kalos) and the cluster generator,
// on slices of the real traces in tests/data/traces/ and on hand-written rows.
#include <gtest/gtest.h>

#include <string>

#include "sim/cluster.h"
#include "sim/trace.h"

namespace wasched::sim {
namespace {

const std::string kData = std::string(WASCHED_TESTDATA_DIR) + "/data/traces/";

TEST(SimulateTrace, PhillySliceIsSortedRelativeAndSplitIntoPods) {
  auto t = ImportTrace(kData + "philly/philly-200.csv", TraceFormat::kPhilly, {.gpus_per_pod = 1});
  ASSERT_TRUE(t) << t.error();
  ASSERT_EQ(t->jobs.size(), 200u);
  EXPECT_EQ(t->jobs.front().submit_seconds, 0);
  for (size_t i = 1; i < t->jobs.size(); ++i) EXPECT_LE(t->jobs[i - 1].submit_seconds, t->jobs[i].submit_seconds);
  EXPECT_EQ(t->gpu_resource, "nvidia.com/gpu");
  for (const TraceJob& j : t->jobs) {
    EXPECT_EQ(j.gpu_per_pod, 1);
    EXPECT_EQ(j.pod_count, j.TotalGpu());
  }
}

TEST(SimulateTrace, PhillyGpusPerPodSplitsWithRemainder) {
  const std::string text =
      "timestamp,duration,num_gpus,gpu_time,cluster\n"
      "2017-10-09 07:01:55,66.5,12,0,a\n"
      "2017-10-09 07:00:00,10,1,0,a\n";
  auto t = ParseTraceText(text, "x.csv", TraceFormat::kPhilly, {.gpus_per_pod = 8});
  ASSERT_TRUE(t) << t.error();
  ASSERT_EQ(t->jobs.size(), 2u);
  EXPECT_EQ(t->jobs[0].name, "philly-2");  // the earlier submit comes first
  EXPECT_EQ(t->jobs[1].submit_seconds, 115);
  EXPECT_EQ(t->jobs[1].duration_seconds, 67);
  EXPECT_EQ(t->jobs[1].pod_count, 2);
  EXPECT_EQ(t->jobs[1].gpu_per_pod, 8);
  EXPECT_EQ(t->jobs[1].last_pod_gpu, 4);
  EXPECT_EQ(t->jobs[1].TotalGpu(), 12);
}

TEST(SimulateTrace, BadRowsNameFileLineAndColumn) {
  const std::string head = "timestamp,duration,num_gpus,gpu_time,cluster\n";
  auto bad_time = ParseTraceText(head + "2017-13-09 07:01:55,1,1,0,a\n", "p.csv", TraceFormat::kPhilly, {});
  ASSERT_FALSE(bad_time);
  EXPECT_EQ(bad_time.error(), "p.csv:2: column timestamp: invalid value \"2017-13-09 07:01:55\": want a date and time "
            "YYYY-MM-DD HH:MM:SS (UTC) in the years 1970-9999");
  auto bad_gpus = ParseTraceText(head + "2017-10-09 07:01:55,1,0,0,a\n", "p.csv", TraceFormat::kPhilly, {});
  ASSERT_FALSE(bad_gpus);
  EXPECT_EQ(bad_gpus.error(), "p.csv:2: column num_gpus: invalid value \"0\": want an integer in [1, 1048576]");
  auto short_row = ParseTraceText(head + "2017-10-09 07:01:55,1\n", "p.csv", TraceFormat::kPhilly, {});
  ASSERT_FALSE(short_row);
  EXPECT_EQ(short_row.error(), "p.csv:2: want 5 fields (the header's), got 2");
  auto missing_column = ParseTraceText("timestamp,duration\n", "p.csv", TraceFormat::kPhilly, {});
  ASSERT_FALSE(missing_column);
  EXPECT_EQ(missing_column.error(),
            "p.csv:1: header: missing column num_gpus (want timestamp, duration, num_gpus; the header has 2 columns: "
            "\"timestamp\", \"duration\")");
  auto negative = ParseTraceText(head + "2017-10-09 07:01:55,-5,1,0,a\n", "p.csv", TraceFormat::kPhilly, {});
  ASSERT_FALSE(negative);
  EXPECT_EQ(negative.error(), "p.csv:2: column duration: invalid value \"-5\": want seconds in [0, 315360000]");
  EXPECT_FALSE(ParseTraceFormat("alibaba"));
}

TEST(SimulateTrace, OpenbPodsUseMilliGpusModelsAndQos) {
  auto t = ImportTrace(kData + "openb/openb_pod_list_default.csv", TraceFormat::kOpenb, {});
  ASSERT_TRUE(t) << t.error();
  EXPECT_EQ(t->jobs.size(), 8152u);
  EXPECT_EQ(t->gpu_resource, "alibabacloud.com/gpu-milli");
  EXPECT_EQ(t->units_per_gpu, 1000);
  const std::string text =
      "name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,qos,pod_phase,creation_time,deletion_time,scheduled_time\n"
      "p0,6000,12288,1,460,V100M16|V100M32,LS,Running,100,400,150\n"
      "p1,6000,12288,2,1000,,BE,Pending,50,80,\n";
  auto s = ParseTraceText(text, "o.csv", TraceFormat::kOpenb, {});
  ASSERT_TRUE(s) << s.error();
  ASSERT_EQ(s->jobs.size(), 2u);
  EXPECT_EQ(s->jobs[0].name, "p1");
  EXPECT_EQ(s->jobs[0].gpu_per_pod, 2000);
  EXPECT_EQ(s->jobs[0].duration_seconds, 30);
  EXPECT_EQ(s->jobs[1].gpu_per_pod, 460);
  EXPECT_EQ(s->jobs[1].submit_seconds, 50);
  EXPECT_EQ(s->jobs[1].duration_seconds, 250);  // deletion - scheduled
  EXPECT_EQ(s->jobs[1].priority, 3);
  EXPECT_EQ(s->jobs[1].gpu_models, (std::vector<std::string>{"V100M16", "V100M32"}));
  EXPECT_EQ(s->jobs[1].memory_bytes_per_pod, 12288LL << 20);
}

TEST(SimulateTrace, KalosWorkersBecomePods) {
  auto t = ImportTrace(kData + "kalos/converted_kalos_trace.csv", TraceFormat::kKalos, {});
  ASSERT_TRUE(t) << t.error();
  EXPECT_EQ(t->jobs.size(), 319u);
  // Row job 3: 16 workers of 8 GPUs, 136 iterations → 68 s.
  bool found = false;
  for (const TraceJob& j : t->jobs) {
    if (j.name != "kalos-3") continue;
    found = true;
    EXPECT_EQ(j.pod_count, 16);
    EXPECT_EQ(j.gpu_per_pod, 8);
    EXPECT_EQ(j.duration_seconds, 68);
    EXPECT_EQ(j.submit_seconds, 58324);
  }
  EXPECT_TRUE(found);
}

TEST(SimulateCluster, GeneratedNodesHaveZonesAndRacks) {
  auto nodes = GenerateCluster("nodes=64,gpus=8,cpus=96,memory=768Gi,zones=2,racksPerZone=4");
  ASSERT_TRUE(nodes) << nodes.error();
  ASSERT_EQ(nodes->size(), 64u);
  EXPECT_EQ((*nodes)[0].meta.name, "node-000");
  EXPECT_EQ((*nodes)[0].allocatable.at("nvidia.com/gpu"), 8);
  EXPECT_EQ((*nodes)[0].allocatable.at("cpu"), 96000);
  EXPECT_EQ((*nodes)[0].allocatable.at("memory"), 768LL << 30);
  EXPECT_EQ((*nodes)[0].meta.labels.at(kRackLabel), "zone-0-rack-0");
  EXPECT_EQ((*nodes)[8].meta.labels.at(kRackLabel), "zone-0-rack-1");
  EXPECT_EQ((*nodes)[32].meta.labels.at(kZoneLabel), "zone-1");
  EXPECT_EQ((*nodes)[63].meta.labels.at(kRackLabel), "zone-1-rack-3");
  auto bad = GenerateCluster("nodes=64,gpu=8");
  ASSERT_FALSE(bad);
  EXPECT_NE(bad.error().find("\"gpu=8\""), std::string::npos) << bad.error();
  EXPECT_FALSE(GenerateCluster("nodes=0"));
  EXPECT_FALSE(GenerateCluster("memory=lots"));
}

TEST(SimulateCluster, OpenbNodeListCsvAndYaml) {
  auto csv = LoadClusterNodes(kData + "openb/openb_node_list_gpu_node.csv");
  ASSERT_TRUE(csv) << csv.error();
  EXPECT_EQ(csv->size(), 1213u);
  EXPECT_EQ((*csv)[0].allocatable.at("alibabacloud.com/gpu-milli"), 2000);
  EXPECT_EQ((*csv)[0].meta.labels.at(kGpuModelLabel), "P100");
  auto yaml = LoadClusterNodes(std::string(WASCHED_TESTDATA_DIR) + "/data/alibaba-openb/openb_node_list_gpu_node.yaml");
  ASSERT_TRUE(yaml) << yaml.error();
  EXPECT_EQ(yaml->size(), 1213u);
  EXPECT_FALSE(LoadClusterNodes(kData + "nope.csv"));
}

}  // namespace
}  // namespace wasched::sim
