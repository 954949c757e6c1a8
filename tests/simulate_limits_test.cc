// File: tests/simulate_limits_test.cc
//
// `wasched simulate` on hostile or mistaken inputs (QA2 findings against issue 8): the simulated
// span is bounded (a 1e12 s duration or a year-9999 timestamp is an input error, not gigabytes of
// hourly samples), the timeseries is sparse while simulating and bounded when written, duplicate
// job names and invalid names / label values are refused, a cluster without the trace's GPU
// resource is an error, node failures cover the whole run, output files are checked before the
// runs, a UTF-8 BOM is skipped, range errors state the range, --max-jobs reads only that far.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "sim/cluster.h"
#include "sim/csv.h"
#include "sim/simulator.h"
#include "sim/trace.h"
#include "support/process.h"
#include "support/sim_fixtures.h"

namespace wasched::sim {
namespace {

const std::string kPhillyHead = "timestamp,duration,num_gpus\n";
const std::string kOpenbHead =
    "name,cpu_milli,memory_mib,num_gpu,gpu_milli,gpu_spec,qos,pod_phase,creation_time,deletion_time,scheduled_time\n";
const std::string kKalosHead = "job_id,arrival_time,num_iteration,gpu_workers,gpu_per_worker\n";
const std::string kData = std::string(WASCHED_TESTDATA_DIR) + "/data/traces/";

std::string TempFile(const std::string& name, const std::string& text) {
  const std::string path = testing::TempDir() + "/" + name;
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

std::vector<api::Node> Cluster(const std::string& spec) { return test::GeneratedCluster(spec); }

// Finding 1: the span is bounded with an input error naming file, line and column.
TEST(SimulateLimits, DurationAndSubmitSpanAreBoundedToTenYears) {
  auto huge = ParseTraceText(kPhillyHead + "2017-10-09 00:00:00,1e12,8\n", "p.csv", TraceFormat::kPhilly, {});
  ASSERT_FALSE(huge);
  EXPECT_EQ(huge.error(), "p.csv:2: column duration: invalid value \"1e12\": want seconds in [0, 315360000]");
  auto ten_years = ParseTraceText(kPhillyHead + "2017-10-09 00:00:00,315360000,8\n", "p.csv", TraceFormat::kPhilly, {});
  ASSERT_TRUE(ten_years) << ten_years.error();
  EXPECT_EQ(ten_years->jobs[0].duration_seconds, kMaxSpanSeconds);
  auto typo = ParseTraceText(kPhillyHead + "2017-10-09 00:00:00,10,1\n2117-10-09 00:00:00,10,1\n", "p.csv",
                             TraceFormat::kPhilly, {});
  ASSERT_FALSE(typo);
  EXPECT_EQ(typo.error(),
            "p.csv:3: column timestamp: submitted 3155673600 s after the earliest job (line 2): want at most 315360000 s "
            "(10 years) between the first and the last submit");
  auto early = ParseTraceText(kPhillyHead + "2017-10-09 00:00:00,10,1\n2000-01-01 00:00:00,10,1\n", "p.csv",
                              TraceFormat::kPhilly, {});
  ASSERT_FALSE(early);
  EXPECT_NE(early.error().find("p.csv:2: column timestamp: submitted "), std::string::npos) << early.error();
  EXPECT_NE(early.error().find("after the earliest job (line 3)"), std::string::npos) << early.error();
  auto openb = ParseTraceText(kOpenbHead + "p0,1000,1024,1,1000,,LS,Running,0,400000000,0\n", "o.csv",
                              TraceFormat::kOpenb, {});
  ASSERT_FALSE(openb);
  EXPECT_EQ(openb.error(), "o.csv:2: column deletion_time: invalid value \"400000000\": want seconds in "
                           "[creation_time, creation_time + 315360000]");
}

// Finding 1: the per-bucket state is sparse; the written series equals the dense one and is
// bounded (buckets merged) whatever the span.
TEST(SimulateLimits, TimeseriesFillsGapsAndStaysBounded) {
  // 1 GPU busy 0..10000 s; 2 GPUs 20000..20100 s. Hourly buckets 0..5.
  auto t = ParseTraceText(kPhillyHead + "2017-10-09 00:00:00,10000,1\n2017-10-09 05:33:20,100,2\n", "p.csv",
                          TraceFormat::kPhilly, {});
  ASSERT_TRUE(t) << t.error();
  SimOptions o;
  const SimResult r = Simulate(*t, Cluster("nodes=1,gpus=8,zones=1,racksPerZone=1"), o);
  ASSERT_EQ(r.timeseries.size(), 6u);
  EXPECT_DOUBLE_EQ(r.timeseries[0].busy_gpus, 1.0);
  EXPECT_DOUBLE_EQ(r.timeseries[1].busy_gpus, 1.0);
  EXPECT_DOUBLE_EQ(r.timeseries[2].busy_gpus, 2800.0 / 3600.0);
  EXPECT_DOUBLE_EQ(r.timeseries[3].busy_gpus, 0.0);
  EXPECT_DOUBLE_EQ(r.timeseries[4].busy_gpus, 0.0);
  EXPECT_DOUBLE_EQ(r.timeseries[5].busy_gpus, 200.0 / 3600.0);
  EXPECT_EQ(r.timeseries[1].running_jobs, 1);  // carried through a bucket without events
  EXPECT_EQ(r.timeseries[3].running_jobs, 0);
  EXPECT_EQ(r.timeseries[4].start_seconds, 4 * 3600);
  // A 10-year job sampled every minute: 5.3 million buckets merged to at most 100,000.
  auto long_job = ParseTraceText(kPhillyHead + "2017-10-09 00:00:00,315360000,8\n", "p.csv", TraceFormat::kPhilly, {});
  ASSERT_TRUE(long_job) << long_job.error();
  o.sample_seconds = 60;
  const SimResult l = Simulate(*long_job, Cluster("nodes=1,gpus=8,zones=1,racksPerZone=1"), o);
  EXPECT_EQ(l.completed, 1);
  ASSERT_LE(l.timeseries.size(), static_cast<size_t>(kMaxTimeseriesBuckets));
  ASSERT_GT(l.timeseries.size(), 50000u);
  EXPECT_DOUBLE_EQ(l.timeseries[0].busy_gpus, 8.0);
  EXPECT_DOUBLE_EQ(l.timeseries[l.timeseries.size() / 2].busy_gpus, 8.0);
  EXPECT_EQ(l.timeseries[1].start_seconds, 53 * 60);  // 5,256,001 buckets / 100,000 → 53 per merged bucket
}

// Finding 2: duplicate job names would make the Job and its pods collide.
TEST(SimulateLimits, DuplicateAndInvalidJobNamesAreRefused) {
  auto openb = ParseTraceText(kOpenbHead + "p0,1000,1024,1,1000,,LS,Running,0,10,0\np0,1000,1024,1,1000,,LS,Running,0,10,0\n",
                              "o.csv", TraceFormat::kOpenb, {});
  ASSERT_FALSE(openb);
  EXPECT_EQ(openb.error(), "o.csv:3: column name: Duplicate value \"p0\" (also line 2)");
  auto kalos = ParseTraceText(kKalosHead + "0,0,10,1,1\n7,1,10,1,1\n0,2,10,1,1\n", "k.csv", TraceFormat::kKalos, {});
  ASSERT_FALSE(kalos);
  EXPECT_EQ(kalos.error(), "k.csv:4: column job_id: Duplicate value \"0\" (also line 2)");
  auto bad_name = ParseTraceText(kOpenbHead + "P_0!,1000,1024,1,1000,,LS,Running,0,10,0\n", "o.csv", TraceFormat::kOpenb, {});
  ASSERT_FALSE(bad_name);
  EXPECT_EQ(bad_name.error().rfind("o.csv:2: column name: invalid value \"P_0!\": the job name \"P_0!\": a lowercase RFC 1123", 0), 0u)
      << bad_name.error();
  auto ctrl_id = ParseTraceText(kKalosHead + "j\x1b[2J,0,10,1,1\n", "k.csv", TraceFormat::kKalos, {});
  ASSERT_FALSE(ctrl_id);
  EXPECT_EQ(ctrl_id.error().rfind("k.csv:2: column job_id: invalid value \"j\\x1b[2J\"", 0), 0u) << ctrl_id.error();
  auto bad_model = ParseTraceText(kOpenbHead + "p0,1000,1024,1,1000,V100/../x y,LS,Running,0,10,0\n", "o.csv",
                                  TraceFormat::kOpenb, {});
  ASSERT_FALSE(bad_model);
  EXPECT_EQ(bad_model.error().rfind("o.csv:2: column gpu_spec: invalid value \"V100/../x y\": model \"V100/../x y\": a valid label", 0), 0u)
      << bad_model.error();
}

// Finding 3: range errors state the range and what the number is.
TEST(SimulateLimits, RangeErrorsStateTheRange) {
  auto iterations = ParseTraceText(kKalosHead + "0,0,-208,1,1\n", "k.csv", TraceFormat::kKalos, {});
  ASSERT_FALSE(iterations);
  EXPECT_EQ(iterations.error(), "k.csv:2: column num_iteration: invalid value \"-208\": want an iteration count in [0, 630720000]");
  auto gpus = ParseTraceText(kOpenbHead + "p0,1000,1024,-1,1000,,LS,Running,0,10,0\n", "o.csv", TraceFormat::kOpenb, {});
  ASSERT_FALSE(gpus);
  EXPECT_EQ(gpus.error(), "o.csv:2: column num_gpu: invalid value \"-1\": want a GPU count in [0, 1024]");
  auto cpu = ParseTraceText(kOpenbHead + "p0,-5,1024,1,1000,,LS,Running,0,10,0\n", "o.csv", TraceFormat::kOpenb, {});
  ASSERT_FALSE(cpu);
  EXPECT_EQ(cpu.error(), "o.csv:2: column cpu_milli: invalid value \"-5\": want millicores in [0, 1099511627776]");
  auto per_day = ParseNodeFailures("perDay=1e9,repair=2h");
  ASSERT_FALSE(per_day);
  EXPECT_EQ(per_day.error(), "--node-failures: perDay=1e9: want a number in [0, 1000]");
  EXPECT_TRUE(ParseNodeFailures("perDay=1000,repair=2h"));
}

// Finding 4: a UTF-8 byte-order mark before the header is skipped.
TEST(SimulateLimits, Utf8BomIsSkipped) {
  const std::string bom = "\xEF\xBB\xBF";
  auto philly = ParseTraceText(bom + kPhillyHead + "2017-10-09 00:00:00,10,1\n", "p.csv", TraceFormat::kPhilly, {});
  ASSERT_TRUE(philly) << philly.error();
  auto openb = ParseTraceText(bom + kOpenbHead + "p0,1000,1024,1,1000,,LS,Running,0,10,0\n", "o.csv", TraceFormat::kOpenb, {});
  ASSERT_TRUE(openb) << openb.error();
  EXPECT_EQ(openb->jobs[0].name, "p0");
  auto kalos = ParseTraceText(bom + kKalosHead + "0,0,10,1,1\n", "k.csv", TraceFormat::kKalos, {});
  ASSERT_TRUE(kalos) << kalos.error();
}

// Finding 12 / 8: --max-jobs = the first N data rows, and the file is read only that far; line
// and column limits.
TEST(SimulateLimits, MaxJobsReadsOnlyTheFirstRowsAndLinesAreCapped) {
  const std::string path = TempFile("sim_limits_prefix.csv", kPhillyHead + "2017-10-09 00:00:05,10,1\n\n2017-10-09 00:00:00,10,1\n" +
                                                                 "this row is never read\n");
  auto two = ImportTrace(path, TraceFormat::kPhilly, {.max_jobs = 2});
  ASSERT_TRUE(two) << two.error();
  EXPECT_EQ(two->jobs.size(), 2u);
  EXPECT_EQ(two->jobs[0].line, 4);  // sorted by submit time after the prefix is taken
  auto text = ReadCsvFile(path, "trace file", 2);
  ASSERT_TRUE(text) << text.error();
  EXPECT_EQ(text->find("never"), std::string::npos);
  auto all = ImportTrace(path, TraceFormat::kPhilly, {});
  ASSERT_FALSE(all);
  EXPECT_EQ(all.error(), path + ":5: want 3 fields (the header's), got 1");
  std::remove(path.c_str());
  auto long_line = CsvTable::Parse(kPhillyHead + std::string(kMaxCsvLineBytes + 1, 'x') + "\n", "p.csv");
  ASSERT_FALSE(long_line);
  EXPECT_EQ(long_line.error(), "p.csv:2: line longer than 1048576 bytes");
  auto quoted = ParseTraceText(kPhillyHead + "\"2017-10-09 00:00:00\",10,1\n", "p.csv", TraceFormat::kPhilly, {});
  ASSERT_FALSE(quoted);
  EXPECT_EQ(quoted.error(), "p.csv:2: column 1: a double quote: the trace must be plain CSV without quoting (no field may "
                            "contain a comma or a quote)");
  auto wide = CsvTable::Parse(std::string(kMaxCsvColumns, ',') + "\n", "p.csv");
  ASSERT_FALSE(wide);
  EXPECT_EQ(wide.error(), "p.csv:1: more than 1024 columns");
  // The reader stops at the first line over the limit (it never holds a 40 MB header).
  const std::string huge = TempFile("sim_limits_huge_line.csv", kPhillyHead + "2017-10-09 00:00:00,10,1\n" +
                                                                   std::string(3 * kMaxCsvLineBytes, ',') + "\n");
  auto huge_line = ImportTrace(huge, TraceFormat::kPhilly, {});
  ASSERT_FALSE(huge_line);
  EXPECT_EQ(huge_line.error(), huge + ":3: line longer than 1048576 bytes");
  std::remove(huge.c_str());
  auto directory = ImportTrace(testing::TempDir(), TraceFormat::kPhilly, {});
  ASSERT_FALSE(directory);
  EXPECT_NE(directory.error().find("cannot read the trace file: Is a directory"), std::string::npos) << directory.error();
  auto missing = ImportTrace(testing::TempDir() + "/sim_limits_nope.csv", TraceFormat::kPhilly, {});
  ASSERT_FALSE(missing);
  EXPECT_NE(missing.error().find("cannot read the trace file: No such file or directory"), std::string::npos) << missing.error();
}

// Finding 11: the openb node list gets a Node manifest's name and label checks.
TEST(SimulateLimits, OpenbNodeListRefusesDuplicateAndInvalidNames) {
  const std::string head = "sn,cpu_milli,memory_mib,gpu,model\n";
  const std::string dup = TempFile("sim_limits_dup.csv", head + "n1,1000,1024,1,V100\nn1,1000,1024,1,V100\n");
  auto d = LoadOpenbNodes(dup);
  ASSERT_FALSE(d);
  EXPECT_EQ(d.error(), dup + ":3: column sn: Duplicate value \"n1\" (also line 2)");
  const std::string bad = TempFile("sim_limits_badname.csv", head + "N_1!,1000,1024,1,V100\n");
  auto b = LoadOpenbNodes(bad);
  ASSERT_FALSE(b);
  EXPECT_EQ(b.error().rfind(bad + ":2: column sn: invalid value \"N_1!\": a lowercase RFC 1123 subdomain", 0), 0u) << b.error();
  const std::string model = TempFile("sim_limits_badmodel.csv", head + "n1,1000,1024,1,bad model/../x\n");
  auto m = LoadOpenbNodes(model);
  ASSERT_FALSE(m);
  EXPECT_EQ(m.error().rfind(model + ":2: column model: invalid value \"bad model/../x\": a valid label", 0), 0u) << m.error();
  const std::string neg = TempFile("sim_limits_neg.csv", head + "n1,1000,1024,-1,V100\n");
  auto g = LoadOpenbNodes(neg);
  ASSERT_FALSE(g);
  EXPECT_EQ(g.error(), neg + ":2: column gpu: invalid value \"-1\": want a GPU count in [0, 1024]");
  for (const std::string& p : {dup, bad, model, neg}) std::remove(p.c_str());
}

// Finding 6: failures are drawn over the whole run, not only up to the last arrival.
TEST(SimulateLimits, NodeFailuresCoverTheWholeRun) {
  // One 8-GPU job of 10 h on one node, every job arrives at 0: 100 failures a day hit it about 42
  // times in its first 10 h (before, the failure window ended at the last arrival: none).
  auto t = ParseTraceText(kPhillyHead + "2017-10-09 00:00:00,36000,8\n", "p.csv", TraceFormat::kPhilly, {});
  ASSERT_TRUE(t) << t.error();
  SimOptions o;
  o.failures = NodeFailures{.per_day = 100, .repair_seconds = 1};
  const SimResult r = Simulate(*t, Cluster("nodes=1,gpus=8,zones=1,racksPerZone=1"), o);
  EXPECT_GE(r.node_failures, 20);
  EXPECT_LE(r.node_failures, 80);
  EXPECT_EQ(r.restarts, r.node_failures);  // every failure hits the one running job
  EXPECT_EQ(r.completed, 1);               // failures stop at last submit + total work: it ends
  o.failures.per_day = 1e-300;  // a gap far beyond the run: no failure, no overflow
  const SimResult rare = Simulate(*t, Cluster("nodes=1,gpus=8,zones=1,racksPerZone=1"), o);
  EXPECT_EQ(rare.node_failures, 0);
  EXPECT_EQ(rare.makespan_seconds, 36000);
  o.failures.per_day = 100;
  const SimResult again = Simulate(*t, Cluster("nodes=1,gpus=8,zones=1,racksPerZone=1"), o);
  EXPECT_EQ(again.node_failures, r.node_failures);
  EXPECT_EQ(again.makespan_seconds, r.makespan_seconds);
}

// Findings 10, 9i, 5 through the binary.
TEST(SimulateLimits, CliRefusesAClusterWithoutTheTracesGpuResource) {
  const auto openb = test::RunCommand({WASCHED_BINARY, "simulate", "--trace", kData + "openb/openb_pod_list_default.csv",
                                       "--format", "openb", "--generate-cluster", "nodes=4", "--max-jobs", "10"});
  EXPECT_EQ(openb.exit_code, 1);
  EXPECT_EQ(openb.out, "");
  EXPECT_NE(openb.err.find("error: --generate-cluster nodes=4: no node offers alibabacloud.com/gpu-milli, the resource the "
                           "openb trace's jobs request, so every job would be rejected: pass --cluster with an openb node list"),
            std::string::npos)
      << openb.err;
  const auto no_gpus = test::RunCommand({WASCHED_BINARY, "simulate", "--trace", kData + "philly/philly-200.csv", "--format",
                                         "philly", "--generate-cluster", "nodes=4,gpus=0"});
  EXPECT_EQ(no_gpus.exit_code, 1);
  EXPECT_NE(no_gpus.err.find("no node offers nvidia.com/gpu"), std::string::npos) << no_gpus.err;
  EXPECT_NE(no_gpus.err.find("pass --generate-cluster with gpus=N (N ≥ 1)"), std::string::npos) << no_gpus.err;
}

TEST(SimulateLimits, CliTableShowsRejectedRestartsAndNodeFailures) {
  const std::string trace = TempFile("sim_limits_big.csv", kPhillyHead + "2017-10-09 00:00:00,100,1000\n2017-10-09 00:00:00,36000,8\n");
  const std::string html = testing::TempDir() + "/sim_limits_report.html";
  const auto r = test::RunCommand({WASCHED_BINARY, "simulate", "--trace", trace, "--format", "philly", "--generate-cluster",
                                   "nodes=1,gpus=8", "--node-failures", "perDay=100,repair=1s", "--report", html});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("COMPLETED REJECTED  UNFINISH"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("EVICTIONS RESTARTS NODE-FAIL\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("gang               off         1        1         0"), std::string::npos) << r.out;
  EXPECT_NE(r.err.find("warning: 1 of 2 jobs can never fit the cluster (larger than any node or the whole cluster, or no "
                       "node has their GPU model) and are "
                       "counted as rejected: philly-1 (line 2, 1000 × 1 nvidia.com/gpu)\n"),
            std::string::npos)
      << r.err;
  const std::string page = test::ReadFile(html);
  EXPECT_NE(page.find("<th>rejected</th>"), std::string::npos);
  EXPECT_NE(page.find("<th>restarts</th><th>node failures</th>"), std::string::npos);
  std::remove(trace.c_str());
  std::remove(html.c_str());
}

// Issue 20 item 25: outputs are written to a temporary file beside them and renamed at the end;
// a run that fails (here: stdout on a full disk) leaves the previous report and timeseries as
// they were and no temporary file behind.
TEST(SimulateLimits, FailedRunKeepsThePreviousOutputs) {
  if (!std::filesystem::exists("/dev/full")) GTEST_SKIP() << "no /dev/full";
  const std::string trace = TempFile("sim_limits_atomic.csv", kPhillyHead + "2017-10-09 00:00:00,10,1\n");
  const std::string dir = testing::TempDir() + "/sim_atomic";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const std::string html = dir + "/report.html";
  const std::string ts = dir + "/ts.csv";
  {
    std::ofstream(html) << "previous report";
    std::ofstream(ts) << "previous timeseries";
  }
  const std::string command = "'" + std::string(WASCHED_BINARY) + "' simulate --trace '" + trace +
                              "' --format philly --generate-cluster nodes=1 --report '" + html +
                              "' --timeseries '" + ts + "' >/dev/full";
  const auto failed = test::RunCommand({"/bin/sh", "-c", command});
  EXPECT_EQ(failed.exit_code, 3) << failed.err;
  EXPECT_EQ(test::ReadFile(html), "previous report");
  EXPECT_EQ(test::ReadFile(ts), "previous timeseries");
  std::vector<std::string> left;
  for (const auto& e : std::filesystem::directory_iterator(dir)) left.push_back(e.path().filename());
  std::sort(left.begin(), left.end());
  EXPECT_EQ(left, (std::vector<std::string>{"report.html", "ts.csv"}));
  // The same run with a writable stdout replaces both.
  const auto ok = test::RunCommand({WASCHED_BINARY, "simulate", "--trace", trace, "--format", "philly",
                                    "--generate-cluster", "nodes=1", "--report", html, "--timeseries", ts});
  ASSERT_EQ(ok.exit_code, 0) << ok.err;
  EXPECT_NE(test::ReadFile(html).find("<html"), std::string::npos);
  EXPECT_NE(test::ReadFile(ts).find("policy"), std::string::npos) << test::ReadFile(ts);
  std::filesystem::remove_all(dir);
  std::remove(trace.c_str());
}

TEST(SimulateLimits, CliChecksOutputPathsBeforeTheRuns) {
  const std::string trace = TempFile("sim_limits_ok.csv", kPhillyHead + "2017-10-09 00:00:00,10,1\n");
  const std::string ts = testing::TempDir() + "/sim_limits_ts.csv";
  std::remove(ts.c_str());
  const auto missing_dir = test::RunCommand({WASCHED_BINARY, "simulate", "--trace", trace, "--format", "philly",
                                             "--generate-cluster", "nodes=1", "--timeseries", ts, "--report",
                                             "/nonexistent-dir/r.html"});
  EXPECT_EQ(missing_dir.exit_code, 3);
  EXPECT_EQ(missing_dir.out, "");
  EXPECT_NE(missing_dir.err.find("error: cannot write output: /nonexistent-dir/r.html: No such file or directory"),
            std::string::npos)
      << missing_dir.err;
  EXPECT_EQ(test::ReadFile(ts), "");  // the timeseries opened first was never created
  EXPECT_FALSE(std::ifstream(ts).good());
  const auto dir = test::RunCommand({WASCHED_BINARY, "simulate", "--trace", trace, "--format", "philly",
                                     "--generate-cluster", "nodes=1", "--report", testing::TempDir()});
  EXPECT_EQ(dir.exit_code, 3);
  EXPECT_NE(dir.err.find("Is a directory"), std::string::npos) << dir.err;
  const auto same = test::RunCommand({WASCHED_BINARY, "simulate", "--trace", trace, "--format", "philly",
                                      "--generate-cluster", "nodes=1", "--timeseries", ts, "--report",
                                      testing::TempDir() + "/./sim_limits_ts.csv"});
  EXPECT_EQ(same.exit_code, 2);
  EXPECT_NE(same.err.find("--timeseries and --report name the same file"), std::string::npos) << same.err;
  const auto input = test::RunCommand({WASCHED_BINARY, "simulate", "--trace", trace, "--format", "philly",
                                       "--generate-cluster", "nodes=1", "--report", trace});
  EXPECT_EQ(input.exit_code, 2);
  EXPECT_NE(input.err.find("is an input file"), std::string::npos) << input.err;
  EXPECT_EQ(test::ReadFile(trace), kPhillyHead + "2017-10-09 00:00:00,10,1\n");  // not overwritten
  const auto empty = test::RunCommand({WASCHED_BINARY, "simulate", "--trace", trace, "--format", "philly",
                                       "--generate-cluster", "nodes=1", "--report", ""});
  EXPECT_EQ(empty.exit_code, 2);
  EXPECT_NE(empty.err.find("error: --report: empty file name"), std::string::npos) << empty.err;
  const auto dash = test::RunCommand({WASCHED_BINARY, "simulate", "--trace", trace, "--format", "philly",
                                      "--generate-cluster", "nodes=1", "--timeseries", "-"});
  EXPECT_EQ(dash.exit_code, 2);
  EXPECT_NE(dash.err.find("error: --timeseries -: stdout holds the summary"), std::string::npos) << dash.err;
  std::remove(trace.c_str());
}

}  // namespace
}  // namespace wasched::sim
