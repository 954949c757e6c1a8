// File: tests/simulate_trace_test.cc
//
// `wasched simulate` inputs: the trace importers (Philly, openb, Kalos) and the cluster generator,
// on slices of the real traces in tests/data/traces/ and on hand-written rows.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

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

// ScaleTrace (--scale-trace): a seeded resample with replacement whose arrival curve is
// stretched over H × (N / n) × (R / G).

// SameJobs: every field of two traces' jobs equal (the bytes the simulator sees).
bool SameJobs(const Trace& a, const Trace& b) {
  if (a.jobs.size() != b.jobs.size() || a.gpu_resource != b.gpu_resource || a.units_per_gpu != b.units_per_gpu) {
    return false;
  }
  for (size_t i = 0; i < a.jobs.size(); ++i) {
    const TraceJob& x = a.jobs[i];
    const TraceJob& y = b.jobs[i];
    if (x.name != y.name || x.line != y.line || x.submit_seconds != y.submit_seconds ||
        x.duration_seconds != y.duration_seconds || x.pod_count != y.pod_count || x.gpu_per_pod != y.gpu_per_pod ||
        x.last_pod_gpu != y.last_pod_gpu || x.cpu_milli_per_pod != y.cpu_milli_per_pod ||
        x.memory_bytes_per_pod != y.memory_bytes_per_pod || x.priority != y.priority || x.gpu_models != y.gpu_models) {
      return false;
    }
  }
  return true;
}

TEST(SimulateScaleTrace, SameSeedSameJobsOtherSeedOtherJobs) {
  auto source = ImportTrace(kData + "philly/philly-200.csv", TraceFormat::kPhilly, {.gpus_per_pod = 1});
  ASSERT_TRUE(source) << source.error();
  const ScaleOptions o{.jobs = 5000, .target_gpus = 80000, .reference_gpus = 512, .seed = 7};
  auto a = ScaleTrace(*source, o);
  auto b = ScaleTrace(*source, o);
  ScaleOptions other = o;
  other.seed = 8;
  auto c = ScaleTrace(*source, other);
  ASSERT_TRUE(a && b && c);
  EXPECT_TRUE(SameJobs(*a, *b));
  EXPECT_FALSE(SameJobs(*a, *c));
  // Pinned draws: the sequence is SplitMix64's on every platform, so these stay fixed.
  EXPECT_EQ(a->jobs.front().name, "philly-3-s136");
  EXPECT_EQ(a->jobs.back().name, "philly-1-s4981");
  // H' = 860,604 s × (5000 / 200) × (512 / 80,000) = 137,696.6 s.
  EXPECT_EQ(a->jobs.back().submit_seconds, 137696);
}

TEST(SimulateScaleTrace, EveryJobIsACopyOfASourceJobUnderItsOwnName) {
  auto source = ImportTrace(kData + "philly/philly-200.csv", TraceFormat::kPhilly, {.gpus_per_pod = 4});
  ASSERT_TRUE(source) << source.error();
  std::map<std::string, const TraceJob*> by_name;
  for (const TraceJob& j : source->jobs) by_name[j.name] = &j;
  auto scaled = ScaleTrace(*source, {.jobs = 3000, .target_gpus = 512, .reference_gpus = 512, .seed = 1});
  ASSERT_TRUE(scaled) << scaled.error();
  ASSERT_EQ(scaled->jobs.size(), 3000u);
  EXPECT_EQ(scaled->gpu_resource, source->gpu_resource);
  EXPECT_EQ(scaled->jobs.front().submit_seconds, 0);
  std::vector<int> seen(3000, 0);
  for (size_t i = 0; i < scaled->jobs.size(); ++i) {
    const TraceJob& j = scaled->jobs[i];
    if (i > 0) {
      EXPECT_LE(scaled->jobs[i - 1].submit_seconds, j.submit_seconds);
    }
    const size_t dash = j.name.rfind("-s");
    ASSERT_NE(dash, std::string::npos) << j.name;
    const int k = std::stoi(j.name.substr(dash + 2));
    ASSERT_TRUE(k >= 0 && k < 3000) << j.name;
    ++seen[k];
    const auto from = by_name.find(j.name.substr(0, dash));
    ASSERT_NE(from, by_name.end()) << j.name;
    EXPECT_EQ(j.line, from->second->line);
    EXPECT_EQ(j.duration_seconds, from->second->duration_seconds);
    EXPECT_EQ(j.pod_count, from->second->pod_count);
    EXPECT_EQ(j.gpu_per_pod, from->second->gpu_per_pod);
    EXPECT_EQ(j.last_pod_gpu, from->second->last_pod_gpu);
    EXPECT_EQ(j.cpu_milli_per_pod, from->second->cpu_milli_per_pod);
    EXPECT_EQ(j.memory_bytes_per_pod, from->second->memory_bytes_per_pod);
  }
  EXPECT_EQ(std::count(seen.begin(), seen.end(), 1), 3000);  // k = 0…N-1, each once
}

TEST(SimulateScaleTrace, DrawsAreUniformWithReplacement) {
  const std::string text =
      "timestamp,duration,num_gpus,gpu_time,cluster\n"
      "2017-10-09 07:00:00,10,1,0,a\n"
      "2017-10-09 07:00:00,20,2,0,a\n"
      "2017-10-09 07:00:00,30,4,0,a\n";
  auto source = ParseTraceText(text, "three.csv", TraceFormat::kPhilly, {});
  ASSERT_TRUE(source) << source.error();
  auto scaled = ScaleTrace(*source, {.jobs = 30000, .target_gpus = 8, .reference_gpus = 8, .seed = 3});
  ASSERT_TRUE(scaled) << scaled.error();
  std::map<int64_t, int> by_duration;
  for (const TraceJob& j : scaled->jobs) ++by_duration[j.duration_seconds];
  ASSERT_EQ(by_duration.size(), 3u);
  for (const auto& [duration, count] : by_duration) {
    EXPECT_GT(count, 9500) << duration;  // 10000 expected, σ ≈ 82
    EXPECT_LT(count, 10500) << duration;
  }
  // One source second (H = 1 s) stretched × 10000: every copy lands in [0, 10000).
  EXPECT_LT(scaled->jobs.back().submit_seconds, 10000);
  EXPECT_GT(scaled->jobs.back().submit_seconds, 9900);
}

TEST(SimulateScaleTrace, HorizonKeepsTheLoadPerGpuAndTheArrivalCurve) {
  // Two bursts 99 s apart: H = 100 s, n = 4.
  const std::string text =
      "timestamp,duration,num_gpus,gpu_time,cluster\n"
      "2017-10-09 07:00:00,10,1,0,a\n"
      "2017-10-09 07:00:00,10,1,0,a\n"
      "2017-10-09 07:01:39,10,1,0,a\n"
      "2017-10-09 07:01:39,10,1,0,a\n";
  auto source = ParseTraceText(text, "bursts.csv", TraceFormat::kPhilly, {});
  ASSERT_TRUE(source) << source.error();
  // N = 1000 on G = R: H' = 100 × 250 = 25000 s; each burst second becomes a 250 s span.
  auto same = ScaleTrace(*source, {.jobs = 1000, .target_gpus = 64, .reference_gpus = 64, .seed = 1});
  ASSERT_TRUE(same) << same.error();
  int early = 0, late = 0;
  for (const TraceJob& j : same->jobs) {
    if (j.submit_seconds < 250) {
      ++early;
    } else {
      EXPECT_GE(j.submit_seconds, 24500) << j.name;  // 24750 minus the first copy's offset (< 250)
      EXPECT_LT(j.submit_seconds, 25000) << j.name;
      ++late;
    }
  }
  EXPECT_EQ(early + late, 1000);
  EXPECT_GT(early, 430);
  EXPECT_GT(late, 430);
  // Twice the GPUs: half the horizon (the same jobs per second per GPU).
  auto twice = ScaleTrace(*source, {.jobs = 1000, .target_gpus = 128, .reference_gpus = 64, .seed = 1});
  ASSERT_TRUE(twice) << twice.error();
  EXPECT_GE(twice->jobs.back().submit_seconds, 12250);
  EXPECT_LT(twice->jobs.back().submit_seconds, 12500);
}

TEST(SimulateScaleTrace, PhillyAtOneMillionJobsOnTenThousandNodesSpansEightAndAHalfDays) {
  auto source = ImportTrace(kData + "philly/philly.csv", TraceFormat::kPhilly, {.gpus_per_pod = 1});
  ASSERT_TRUE(source) << source.error();
  ASSERT_EQ(source->jobs.size(), 82247u);
  auto scaled = ScaleTrace(*source, {.jobs = 1'000'000, .target_gpus = 80000, .reference_gpus = 512, .seed = 1});
  ASSERT_TRUE(scaled) << scaled.error();
  ASSERT_EQ(scaled->jobs.size(), 1'000'000u);
  // H' = 9,408,898 s × (1,000,000 / 82,247) × (512 / 80,000) ≈ 732,160 s ≈ 8.47 days.
  const int64_t last = scaled->jobs.back().submit_seconds;
  EXPECT_GT(last, 725'000);
  EXPECT_LE(last, 732'200);
  // Offered load per GPU: the trace's on 512 GPUs (0.73) within 3% (sampling noise of durations).
  double source_work = 0, scaled_work = 0;
  for (const TraceJob& j : source->jobs) source_work += static_cast<double>(j.TotalGpu() * j.duration_seconds);
  for (const TraceJob& j : scaled->jobs) scaled_work += static_cast<double>(j.TotalGpu() * j.duration_seconds);
  const double source_load = source_work / (static_cast<double>(source->jobs.back().submit_seconds + 1) * 512);
  const double scaled_load = scaled_work / (732'160.0 * 80000);
  EXPECT_NEAR(source_load, 0.73, 0.01);
  EXPECT_NEAR(scaled_load / source_load, 1.0, 0.03);
}

TEST(SimulateScaleTrace, BadOptionsNameTheOption) {
  auto source = ImportTrace(kData + "philly/philly-200.csv", TraceFormat::kPhilly, {.gpus_per_pod = 1});
  ASSERT_TRUE(source) << source.error();
  auto zero = ScaleTrace(*source, {.jobs = 0, .target_gpus = 8});
  ASSERT_FALSE(zero);
  EXPECT_EQ(zero.error(), "--scale-trace 0: want a job count in [1, 10000000]");
  auto many = ScaleTrace(*source, {.jobs = kMaxScaledJobs + 1, .target_gpus = 8});
  ASSERT_FALSE(many);
  EXPECT_EQ(many.error(), "--scale-trace 10000001: want a job count in [1, 10000000]");
  auto no_gpus = ScaleTrace(*source, {.jobs = 10, .target_gpus = 0});
  ASSERT_FALSE(no_gpus);
  EXPECT_EQ(no_gpus.error(),
            "--scale-trace 10: the cluster has no GPUs; the scaled trace keeps the load per GPU, so it needs a cluster "
            "with GPUs");
  auto no_reference = ScaleTrace(*source, {.jobs = 10, .target_gpus = 8, .reference_gpus = 0});
  ASSERT_FALSE(no_reference);
  EXPECT_EQ(no_reference.error(), "--scale-reference-gpus 0: want a GPU count of at least 1");
  // 10M jobs from 200 on 1 GPU against R = 512: far more than 10 years.
  auto too_long = ScaleTrace(*source, {.jobs = 10'000'000, .target_gpus = 1, .reference_gpus = 512});
  ASSERT_FALSE(too_long);
  EXPECT_NE(too_long.error().find("--scale-trace 10000000: the scaled trace would span "), std::string::npos)
      << too_long.error();
  EXPECT_NE(too_long.error().find("more than 315360000 s (10 years); give fewer jobs or a larger cluster"),
            std::string::npos)
      << too_long.error();
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

TEST(SimulateCluster, TenThousandNodesOfEightGpus) {
  // The issue 16 scale: 80,000 GPUs in 2 zones of 4 racks of 1250 nodes, unique names.
  auto nodes = GenerateCluster("nodes=10000,gpus=8");
  ASSERT_TRUE(nodes) << nodes.error();
  ASSERT_EQ(nodes->size(), 10000u);
  int64_t gpus = 0;
  std::map<std::string, int> racks;
  std::set<std::string> names;
  for (const api::Node& n : *nodes) {
    gpus += n.allocatable.at("nvidia.com/gpu");
    ++racks[n.meta.labels.at(kRackLabel)];
    names.insert(n.meta.name);
  }
  EXPECT_EQ(gpus, 80000);
  EXPECT_EQ(names.size(), 10000u);
  ASSERT_EQ(racks.size(), 8u);
  for (const auto& [rack, count] : racks) EXPECT_EQ(count, 1250) << rack;
  EXPECT_EQ(nodes->back().meta.name, "node-9999");
  EXPECT_EQ(nodes->back().meta.labels.at(kRackLabel), "zone-1-rack-3");
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
