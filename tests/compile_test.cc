// File: tests/compile_test.cc
//
// `wasched compile` and the Job controller inside `schedule`, through the real binary (issue 7):
// - the release announcement's Job (tests/data/jobs/distributed-training-job.yaml) compiles to
//   the Workload, PodGroup and 8 Pods upstream's Job controller would create (names from
//   controller/job/names.h, whose values are checked against independent computations in
//   names_test.cc), as YAML and as a `v1` `List`; the output validates and round-trips;
// - spec/upstream-cases.md section C through compile: every create case of
//   tests/data/upstream-cases/C/ (folders without old.yaml; update cases need `validate --old`)
//   compiles (no expected error) or exits 1 with the expected field paths on stderr and nothing
//   on stdout; C02 (gate WorkloadWithJob off) shows J17: the disabled field is dropped (warning)
//   and the Job gets plain pods;
// - bad input, a Job without metadata.uid, an input without a Job;
// - `schedule`: the announcement's Job on two zones of 6 and 8 one-slot nodes lands whole in
//   the 8-node zone, and `generated` lists what the controller created.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "controller/job/names.h"
#include "support/process.h"

namespace wasched {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using Json = nlohmann::json;

const std::string kJobs = std::string(WASCHED_TESTDATA_DIR) + "/data/jobs/";
const std::string kAnnouncementJob = kJobs + "distributed-training-job.yaml";
const std::string kTwoZones = kJobs + "two-zones-6-and-8-nodes.yaml";
const std::string kUid = "6f1c2a4e-8b3d-4e5f-9a7b-1c2d3e4f5a6b";

std::string WorkloadName() {
  return "distributed-training-job-" + controller::job::UidHash(kUid);
}
std::string PodGroupName() {
  return controller::job::ComputePodGroupName(WorkloadName(), "distributed-training-job-pgt-0");
}

std::string WriteTemp(const std::string& name, const std::string& text) {
  const fs::path p = fs::temp_directory_path() / ("wasched-compile-" + std::to_string(::getpid()) + "-" + name);
  std::ofstream(p) << text;
  return p.string();
}

TEST(CompileTest, AnnouncementJobAsJsonList) {
  const auto r = test::RunCommand({WASCHED_BINARY, "compile", "-f", kAnnouncementJob, "-o", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const Json list = Json::parse(r.out);
  EXPECT_EQ(list["apiVersion"], "v1");
  EXPECT_EQ(list["kind"], "List");
  const Json& items = list["items"];
  ASSERT_EQ(items.size(), 10u);  // Workload, PodGroup, 8 Pods

  const Json& wl = items[0];
  EXPECT_EQ(wl["kind"], "Workload");
  EXPECT_EQ(wl["apiVersion"], "scheduling.k8s.io/v1beta1");
  EXPECT_EQ(wl["metadata"]["name"], WorkloadName());
  EXPECT_THAT(wl["metadata"]["name"].get<std::string>(), ::testing::StartsWith("distributed-training-job-"));
  EXPECT_EQ(wl["metadata"]["ownerReferences"][0]["kind"], "Job");
  EXPECT_EQ(wl["metadata"]["ownerReferences"][0]["uid"], kUid);
  EXPECT_EQ(wl["metadata"]["ownerReferences"][0]["controller"], true);
  EXPECT_EQ(wl["spec"]["controllerRef"], (Json{{"apiGroup", "batch"}, {"kind", "Job"}, {"name", "distributed-training-job"}}));
  ASSERT_EQ(wl["spec"]["podGroupTemplates"].size(), 1u);
  const Json& t = wl["spec"]["podGroupTemplates"][0];
  EXPECT_EQ(t["name"], "distributed-training-job-pgt-0");
  EXPECT_EQ(t["schedulingPolicy"], (Json{{"gang", {{"minCount", 8}}}}));
  EXPECT_EQ(t["schedulingConstraints"]["topology"][0]["key"], "topology.kubernetes.io/zone");
  EXPECT_EQ(t["disruptionMode"], (Json{{"all", Json::object()}}));

  const Json& pg = items[1];
  EXPECT_EQ(pg["kind"], "PodGroup");
  EXPECT_EQ(pg["metadata"]["name"], PodGroupName());
  EXPECT_EQ(pg["spec"]["workloadRef"], (Json{{"workloadName", WorkloadName()}, {"templateName", "distributed-training-job-pgt-0"}}));
  EXPECT_EQ(pg["spec"]["schedulingPolicy"], t["schedulingPolicy"]);
  EXPECT_EQ(pg["spec"]["schedulingConstraints"], t["schedulingConstraints"]);
  EXPECT_EQ(pg["spec"]["disruptionMode"], t["disruptionMode"]);
  ASSERT_EQ(pg["metadata"]["ownerReferences"].size(), 2u);
  EXPECT_EQ(pg["metadata"]["ownerReferences"][1]["kind"], "Workload");
  EXPECT_FALSE(pg["metadata"]["ownerReferences"][1].contains("controller"));

  std::set<std::string> indexes;
  for (size_t i = 2; i < items.size(); ++i) {
    const Json& pod = items[i];
    EXPECT_EQ(pod["kind"], "Pod");
    EXPECT_EQ(pod["spec"]["schedulingGroup"]["podGroupName"], PodGroupName());
    EXPECT_EQ(pod["metadata"]["labels"]["batch.kubernetes.io/job-name"], "distributed-training-job");
    EXPECT_EQ(pod["metadata"]["labels"]["batch.kubernetes.io/controller-uid"], kUid);
    indexes.insert(pod["metadata"]["annotations"]["batch.kubernetes.io/job-completion-index"].get<std::string>());
    EXPECT_EQ(pod["spec"]["containers"][0]["resources"]["requests"]["cpu"], "1");
  }
  EXPECT_EQ(indexes, (std::set<std::string>{"0", "1", "2", "3", "4", "5", "6", "7"}));
  EXPECT_THAT(r.err, HasSubstr("event: Normal WorkloadCreated Job default/distributed-training-job"));
  EXPECT_THAT(r.err, HasSubstr("event: Normal PodGroupCreated"));
}

TEST(CompileTest, YamlOutputValidatesAndMatchesJson) {
  const auto yaml = test::RunCommand({WASCHED_BINARY, "compile", "-f", kAnnouncementJob});
  ASSERT_EQ(yaml.exit_code, 0) << yaml.err;
  EXPECT_EQ(std::count(yaml.out.begin(), yaml.out.end(), '\n') > 100, true);
  const std::string path = WriteTemp("out.yaml", yaml.out);
  const auto v = test::RunCommand({WASCHED_BINARY, "validate", "-f", path});
  EXPECT_EQ(v.exit_code, 0) << v.out << v.err;
  // Compiling again with the generated objects present discovers them: nothing new.
  const auto again = test::RunCommand({WASCHED_BINARY, "compile", "-f", kAnnouncementJob, "-f", path, "-o", "json"});
  ASSERT_EQ(again.exit_code, 0) << again.err;
  EXPECT_TRUE(Json::parse(again.out)["items"].empty()) << again.out;
  fs::remove(path);
}

TEST(CompileTest, DeterministicOutput) {
  const auto a = test::RunCommand({WASCHED_BINARY, "compile", "-f", kAnnouncementJob});
  const auto b = test::RunCommand({WASCHED_BINARY, "compile", "-f", kAnnouncementJob});
  EXPECT_EQ(a.out, b.out);
}

// Section C through compile (create cases only).
std::vector<fs::path> CreateCases() {
  std::vector<fs::path> dirs;
  for (const auto& e : fs::directory_iterator(fs::path(WASCHED_TESTDATA_DIR) / "data/upstream-cases/C")) {
    if (e.is_directory() && !fs::exists(e.path() / "old.yaml")) dirs.push_back(e.path());
  }
  std::sort(dirs.begin(), dirs.end());
  return dirs;
}

class CompileUpstreamCaseTest : public ::testing::TestWithParam<fs::path> {};

TEST_P(CompileUpstreamCaseTest, Cli) {
  const fs::path dir = GetParam();
  std::vector<std::string> argv = {WASCHED_BINARY, "compile", "-f", (dir / "new.yaml").string(), "-o", "json"};
  std::string gates = test::ReadFile((dir / "gates.txt").string());
  while (!gates.empty() && (gates.back() == '\n' || gates.back() == ' ')) gates.pop_back();
  if (!gates.empty()) {
    argv.push_back("--feature-gates");
    argv.push_back(gates);
  }
  std::vector<std::pair<std::string, std::string>> expected;  // object, field
  std::istringstream lines(test::ReadFile((dir / "expected.txt").string()));
  for (std::string line; std::getline(lines, line);) {
    if (line.empty() || line[0] == '#') continue;
    std::vector<std::string> parts;
    std::istringstream cells(line);
    for (std::string cell; std::getline(cells, cell, '|');) {
      cell.erase(0, cell.find_first_not_of(' '));
      cell.erase(cell.find_last_not_of(' ') + 1);
      parts.push_back(cell);
    }
    expected.emplace_back(parts.at(0), parts.at(2));
  }
  const auto r = test::RunCommand(argv);
  ASSERT_EQ(r.signal, 0);
  // C02: with the gate off the API server drops spec.scheduling before validating (J17).
  const bool dropped = gates.find("WorkloadWithJob=false") != std::string::npos;
  if (expected.empty() || dropped) {
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const Json items = Json::parse(r.out)["items"];
    size_t workloads = 0;
    for (const Json& o : items) workloads += o["kind"] == "Workload";
    if (dropped) {
      EXPECT_EQ(workloads, 0u);
      EXPECT_THAT(r.err, HasSubstr("WorkloadWithJob is off"));
      EXPECT_FALSE(items.empty());  // the Job's pods, without a PodGroup
    } else {
      EXPECT_GE(workloads, 1u);
    }
    return;
  }
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.out, "");
  for (const auto& [object, field] : expected) {
    // A field error reads "<object>: <field>: …"; an unknown field "<object>: unknown field "…"".
    EXPECT_THAT(r.err, ::testing::AnyOf(HasSubstr(object + ": " + field + ":"),
                                        HasSubstr(object + ": unknown field \"" + field + "\"")))
        << r.err;
  }
}

INSTANTIATE_TEST_SUITE_P(UpstreamCasesC, CompileUpstreamCaseTest, ::testing::ValuesIn(CreateCases()),
                         [](const ::testing::TestParamInfo<fs::path>& info) {
                           return info.param.filename().string();
                         });

TEST(CompileTest, C01_TemplatesAsWritten) {
  const auto r = test::RunCommand({WASCHED_BINARY, "compile", "-f",
                                   std::string(WASCHED_TESTDATA_DIR) + "/data/upstream-cases/C/C01/new.yaml", "-o", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::vector<Json> policies;
  const Json list = Json::parse(r.out);
  for (const Json& o : list["items"]) {
    if (o["kind"] == "Workload") policies.push_back(o["spec"]["podGroupTemplates"][0]["schedulingPolicy"]);
  }
  ASSERT_EQ(policies.size(), 2u);
  EXPECT_EQ(policies[0], (Json{{"basic", Json::object()}}));
  EXPECT_EQ(policies[1], (Json{{"gang", {{"minCount", 4}}}}));
}

TEST(CompileTest, BadInputIsAFieldPathErrorAndNoOutput) {
  const std::string path = WriteTemp("bad.yaml", R"(apiVersion: batch/v1
kind: Job
metadata: {name: bad, namespace: ml}
spec:
  parallelism: 2
  template: {spec: {restartPolicy: Never, containers: [{name: c, image: registry.k8s.io/pause:3.10}]}}
  scheduling: {schedulingPolicy: {gang: {minCount: 3}}, disruptionMode: {}}
)");
  const auto r = test::RunCommand({WASCHED_BINARY, "compile", "-f", path});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.out, "");
  EXPECT_THAT(r.err, HasSubstr(path));
  EXPECT_THAT(r.err, HasSubstr("Job ml/bad: spec.scheduling.disruptionMode: Invalid value"));
  EXPECT_THAT(r.err, HasSubstr("Job ml/bad: spec.scheduling.schedulingPolicy.gang.minCount: Invalid value: 3"));
  fs::remove(path);
}

TEST(CompileTest, JobWithoutUidGetsADerivedOneAndSaysSo) {
  const std::string path = WriteTemp("nouid.yaml", R"(apiVersion: batch/v1
kind: Job
metadata: {name: train, namespace: ml}
spec:
  parallelism: 2
  template: {spec: {restartPolicy: Never, containers: [{name: c, image: registry.k8s.io/pause:3.10}]}}
  scheduling: {schedulingPolicy: {gang: {}}}
)");
  const auto r = test::RunCommand({WASCHED_BINARY, "compile", "-f", path, "-o", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string uid = controller::job::DerivedUid("Job", "ml", "train");
  EXPECT_THAT(r.err, HasSubstr("warning: Job ml/train has no metadata.uid: using the uid " + uid));
  const Json items = Json::parse(r.out)["items"];
  ASSERT_EQ(items.size(), 4u);
  EXPECT_EQ(items[0]["metadata"]["name"], "train-" + controller::job::UidHash(uid));
  for (const Json& o : items) {
    EXPECT_EQ(o["metadata"]["annotations"]["wasched.io/derived-job-uid"], uid) << o.dump();
  }
  EXPECT_EQ(items[1]["spec"]["schedulingPolicy"]["gang"]["minCount"], 2);
  fs::remove(path);
}

TEST(CompileTest, InputWithoutJobIsAnError) {
  const auto r = test::RunCommand({WASCHED_BINARY, "compile", "-f", kTwoZones});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.out, "");
  EXPECT_THAT(r.err, HasSubstr("no Job, JobSet, LeaderWorkerSet, Deployment, ReplicaSet or StatefulSet in the input"));
}

TEST(CompileTest, UsageErrors) {
  EXPECT_EQ(test::RunCommand({WASCHED_BINARY, "compile", "-f", kAnnouncementJob, "-o", "table"}).exit_code, 2);
  EXPECT_EQ(test::RunCommand({WASCHED_BINARY, "compile"}).exit_code, 2);
  EXPECT_EQ(test::RunCommand({WASCHED_BINARY, "compile", "-f", kAnnouncementJob, "--feature-gates", "Nope=true"}).exit_code, 2);
  const auto help = test::RunCommand({WASCHED_BINARY, "--help"});
  EXPECT_THAT(help.out, HasSubstr("compile"));
}

// The acceptance scenario: all 8 pods land in zone-b (8 one-slot nodes); zone-a has only 6.
TEST(CompileTest, ScheduleAnnouncementJobLandsInTheEightNodeZone) {
  const auto r = test::RunCommand({WASCHED_BINARY, "schedule", "-f", kAnnouncementJob, "-f", kTwoZones, "-o", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const Json result = Json::parse(r.out);
  ASSERT_EQ(result["bindings"].size(), 8u) << r.out;
  for (const Json& b : result["bindings"]) {
    EXPECT_THAT(b["node"].get<std::string>(), ::testing::StartsWith("zone-b-")) << b.dump();
  }
  EXPECT_TRUE(result["pending"].empty());
  ASSERT_EQ(result["groups"].size(), 1u);
  EXPECT_EQ(result["groups"][0]["name"], "default/" + PodGroupName());
  EXPECT_EQ(result["groups"][0]["scheduled"], 8);
}

TEST(CompileTest, ScheduleListsGeneratedObjects) {
  const auto r = test::RunCommand({WASCHED_BINARY, "schedule", "-f", kAnnouncementJob, "-f", kTwoZones, "-o", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const Json generated = Json::parse(r.out)["generated"];
  ASSERT_EQ(generated.size(), 10u);
  EXPECT_EQ(generated[0]["kind"], "Workload");
  EXPECT_EQ(generated[0]["metadata"]["name"], WorkloadName());
  EXPECT_EQ(generated[1]["kind"], "PodGroup");
  EXPECT_EQ(generated[1]["metadata"]["name"], PodGroupName());
  EXPECT_EQ(generated[9]["kind"], "Pod");
  const auto yaml = test::RunCommand({WASCHED_BINARY, "schedule", "-f", kAnnouncementJob, "-f", kTwoZones, "-o", "yaml"});
  ASSERT_EQ(yaml.exit_code, 0) << yaml.err;
  EXPECT_THAT(yaml.out, HasSubstr("generated:\n  - apiVersion: \"scheduling.k8s.io/v1beta1\""));
  EXPECT_THAT(yaml.out, HasSubstr("batch.kubernetes.io/job-completion-index: \"7\""));
}

// A created pod the API server would refuse (its PriorityClass does not exist): schedule refuses
// the input naming the Job's file; compile shows the objects with a warning.
TEST(CompileTest, CreatedObjectsTheApiServerWouldRefuse) {
  const std::string path = WriteTemp("prio.yaml", R"(apiVersion: batch/v1
kind: Job
metadata: {name: prio, namespace: ml, uid: u1}
spec:
  parallelism: 1
  template: {spec: {restartPolicy: Never, priorityClassName: nope, containers: [{name: c, image: registry.k8s.io/pause:3.10}]}}
)");
  const auto s = test::RunCommand({WASCHED_BINARY, "schedule", "-f", path, "-f", kTwoZones});
  EXPECT_EQ(s.exit_code, 1);
  EXPECT_EQ(s.out, "");
  EXPECT_THAT(s.err, HasSubstr("error: " + path));
  EXPECT_THAT(s.err, HasSubstr("Pod ml/prio-"));
  EXPECT_THAT(s.err, HasSubstr("created by the Job controller"));
  const auto c = test::RunCommand({WASCHED_BINARY, "compile", "-f", path});
  EXPECT_EQ(c.exit_code, 0);
  EXPECT_THAT(c.err, HasSubstr("warning: " + path));
  EXPECT_THAT(c.out, HasSubstr("priorityClassName: nope"));
  fs::remove(path);
}

TEST(CompileTest, ScheduleWithoutJobsHasEmptyGenerated) {
  const auto r = test::RunCommand({WASCHED_BINARY, "schedule", "-f", kTwoZones, "-o", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(Json::parse(r.out)["generated"].empty());
}

}  // namespace
}  // namespace wasched
