// File: cli/app_test.cc
//
// The whole CLI in-process: exit codes, stdout/stderr discipline, output formats, the demo.
#include "cli/app.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace wasched::cli {
namespace {

using ::testing::HasSubstr;
using ::testing::IsEmpty;

struct Outcome {
  int code = -1;
  std::string out;
  std::string err;
};

Outcome RunCli(std::vector<std::string> args, const std::string& stdin_text = "") {
  args.insert(args.begin(), "wasched");
  std::vector<const char*> argv;
  for (const std::string& a : args) argv.push_back(a.c_str());
  std::istringstream in(stdin_text);
  std::ostringstream out;
  std::ostringstream err;
  Outcome o;
  o.code = Run(static_cast<int>(argv.size()), argv.data(), in, out, err);
  o.out = out.str();
  o.err = err.str();
  return o;
}

constexpr const char* kCluster = R"(apiVersion: v1
kind: Node
metadata:
  name: n1
status:
  allocatable:
    cpu: "4"
    memory: 8Gi
    pods: "110"
---
apiVersion: scheduling.k8s.io/v1beta1
kind: PodGroup
metadata:
  name: pg
spec:
  schedulingPolicy:
    gang:
      minCount: 2
)";

std::string Pod(const std::string& name, const std::string& cpu, const std::string& extra = "") {
  return "---\napiVersion: v1\nkind: Pod\nmetadata:\n  name: " + name + "\nspec:\n" + extra +
         "  containers:\n  - name: c\n    image: busybox\n"
         "    resources:\n      requests:\n        cpu: \"" +
         cpu + "\"\n";
}

const std::string kGroupSpec = "  schedulingGroup:\n    podGroupName: pg\n";

TEST(AppTest, UsageErrorsExitTwo) {
  for (const auto& args : std::vector<std::vector<std::string>>{
           {},
           {"frobnicate"},
           {"schedule"},  // -f is required
           {"schedule", "-f", "-", "--bogus"},
           {"schedule", "-f", "-", "-o", "xml"},
           {"schedule", "-f", "-", "--scoring-strategy", "Random"},
           {"schedule", "-f", "-", "--gang-satisfaction", "eventually"},
       }) {
    Outcome o = RunCli(args, kCluster);
    EXPECT_EQ(o.code, 2) << ::testing::PrintToString(args);
    EXPECT_THAT(o.out, IsEmpty()) << ::testing::PrintToString(args);
    EXPECT_THAT(o.err, ::testing::StartsWith("error: ")) << ::testing::PrintToString(args);
  }
}

TEST(AppTest, KubeconfigProblemsAreOneLineErrors) {
  // A kubeconfig that cannot be used is invalid input (exit 1); a server that cannot be read is
  // exit 4; --context without --kubeconfig is a usage error. Nothing on stdout in every case.
  Outcome missing = RunCli({"schedule", "--kubeconfig", "/nonexistent/kubeconfig"});
  EXPECT_EQ(missing.code, 1);
  EXPECT_THAT(missing.out, IsEmpty());
  EXPECT_EQ(missing.err,
            "error: kubeconfig /nonexistent/kubeconfig: cannot read: No such file or directory\n");

  const std::string path = ::testing::TempDir() + "/app_test.kubeconfig";
  std::ofstream(path) << "clusters:\n- name: c\n  cluster: {server: \"https://127.0.0.1:1\"}\n"
                         "contexts:\n- name: x\n  context: {cluster: c}\ncurrent-context: x\n";
  Outcome context = RunCli({"schedule", "--kubeconfig", path, "--context", "y"});
  EXPECT_EQ(context.code, 1);
  EXPECT_EQ(context.err, "error: kubeconfig " + path + ": context \"y\" not found\n");
  Outcome down = RunCli({"schedule", "--kubeconfig", path, "-o", "json"});
  EXPECT_EQ(down.code, 4);
  EXPECT_THAT(down.out, IsEmpty());
  EXPECT_THAT(down.err, ::testing::StartsWith(
                            "error: cannot reach the API server https://127.0.0.1:1: "));
  EXPECT_EQ(std::count(down.err.begin(), down.err.end(), '\n'), 1);

  Outcome usage = RunCli({"schedule", "-f", "-", "--context", "x"}, kCluster);
  EXPECT_EQ(usage.code, 2);
}

TEST(AppTest, ExplainTellsOnePodsAndOneGroupsStory) {
  // A gang of two that does not fit (3 + 3 cpu on a 4-cpu node) and a bare pod that does.
  const std::string input = std::string(kCluster) + Pod("a", "3", kGroupSpec) +
                            Pod("b", "3", kGroupSpec) + Pod("solo", "1");
  Outcome pod = RunCli({"explain", "pod", "default/a", "-f", "-"}, input);
  ASSERT_EQ(pod.code, 0) << pod.err;
  EXPECT_THAT(pod.out, ::testing::StartsWith("Pod default/a\n  outcome:    pending (Unschedulable): "));
  EXPECT_THAT(pod.out, HasSubstr("PodGroup default/pg\n"));
  EXPECT_THAT(pod.out, HasSubstr("  condition:  PodGroupInitiallyScheduled=False"));
  Outcome group = RunCli({"explain", "podgroup", "default/pg", "-f", "-"}, input);
  ASSERT_EQ(group.code, 0) << group.err;
  EXPECT_THAT(group.out, HasSubstr("  scheduled:  0 of minCount 2\n"));
  EXPECT_THAT(group.out, HasSubstr("  pod default/a: pending (Unschedulable)"));
  EXPECT_THAT(group.out, HasSubstr("  pod default/b: pending (Unschedulable)"));
  Outcome solo = RunCli({"explain", "pod", "solo", "-f", "-"}, input);
  ASSERT_EQ(solo.code, 0) << solo.err;
  EXPECT_EQ(solo.out, "Pod default/solo\n  outcome:    bound to n1 by this run\n");
  Outcome missing = RunCli({"explain", "pod", "default/nope", "-f", "-"}, input);
  EXPECT_EQ(missing.code, 1);
  EXPECT_THAT(missing.out, IsEmpty());
  EXPECT_EQ(missing.err, "error: pod default/nope not found in the input\n");
}

// A ResourceClaim request's firstAvailable list holds at most 8 subrequests
// (FirstAvailableDeviceRequestMaxSize; the list is what the gang's alternatives search walks), and
// a claim at most 32 requests (DeviceRequestsMaxSize): TooMany, as kube-apiserver v1.37.2
// (breaker finding: 9 and 5,000 subrequests were accepted).
TEST(AppTest, FirstAvailableListsAreCappedAsUpstream) {
  const std::string input = R"(apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata: {name: gpu}
spec: {}
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: c}
spec:
  devices:
    requests:
    - name: r
      firstAvailable:
        - {name: s0, deviceClassName: gpu}
        - {name: s1, deviceClassName: gpu}
        - {name: s2, deviceClassName: gpu}
        - {name: s3, deviceClassName: gpu}
        - {name: s4, deviceClassName: gpu}
        - {name: s5, deviceClassName: gpu}
        - {name: s6, deviceClassName: gpu}
        - {name: s7, deviceClassName: gpu}
        - {name: s8, deviceClassName: gpu}
)";
  Outcome o = RunCli({"validate", "-f", "-"}, input);
  EXPECT_EQ(o.code, 1) << o.out << o.err;
  EXPECT_THAT(o.out, HasSubstr("ResourceClaim default/c: spec.devices.requests[0].firstAvailable: "
                               "Too many: 9: must have at most 8 items\n"));
}

// An evicted pod's story says why it was the victim (the eviction's reason, as in the table and
// the JSON `reason`), not only who evicted it.
TEST(AppTest, ExplainSaysWhyAnEvictedPodWasChosen) {
  const std::string input = R"(apiVersion: v1
kind: Node
metadata: {name: n1}
status: {allocatable: {cpu: "1", pods: "110"}}
---
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {name: low}
value: 10
---
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {name: high}
value: 1000
)" + Pod("victim", "1", "  priorityClassName: low\n  nodeName: n1\n") +
                            Pod("urgent", "1", "  priorityClassName: high\n");
  Outcome victim = RunCli({"explain", "pod", "default/victim", "-f", "-"}, input);
  ASSERT_EQ(victim.code, 0) << victim.err;
  EXPECT_EQ(victim.out,
            "Pod default/victim\n"
            "  outcome:    evicted from n1 in favour of Pod default/urgent\n"
            "  chosen:     priority 10 < 1000; among the least important pods whose removal "
            "makes room on the node\n");
}

// Issue 20 A.2: a gang scheduled once (condition True) with one member Failed and its
// replacement pending: upstream holds the replacement (1 running + 1 pending < minCount 3) and
// says why; --gang-satisfaction once-scheduled binds it.
TEST(AppTest, GangSatisfactionFlagReachesTheScheduler) {
  const std::string input = R"(apiVersion: v1
kind: Node
metadata: {name: n1}
status: {allocatable: {cpu: "4", pods: "110"}}
---
apiVersion: scheduling.k8s.io/v1beta1
kind: PodGroup
metadata: {name: pg}
spec:
  schedulingPolicy: {gang: {minCount: 3}}
status:
  conditions:
  - {type: PodGroupInitiallyScheduled, status: "True", reason: Scheduled, message: "", lastTransitionTime: "2026-01-01T00:00:00Z"}
)" + Pod("a", "1", "  nodeName: n1\n" + kGroupSpec) +
                            Pod("b", "1", kGroupSpec) + Pod("c", "1", kGroupSpec) +
                            "status: {phase: Failed}\n" + Pod("d", "1", kGroupSpec) +
                            "status: {phase: Failed}\n";
  Outcome up = RunCli({"schedule", "-f", "-", "-o", "json"}, input);
  ASSERT_EQ(up.code, 0) << up.err;
  EXPECT_THAT(up.out, ::testing::HasSubstr("upstream issue kubernetes#142330"));
  Outcome once =
      RunCli({"schedule", "-f", "-", "-o", "json", "--gang-satisfaction", "once-scheduled"}, input);
  ASSERT_EQ(once.code, 0) << once.err;
  EXPECT_THAT(once.out, ::testing::HasSubstr("\"pod\": \"default/b\""));
  EXPECT_THAT(once.out, ::testing::Not(::testing::HasSubstr("kubernetes#142330")));
}

// Issue 20 A.3: `--placement complete|upstream` reaches the scheduler of schedule and explain
// (demo, simulate and run parse it the same way). The README's gang: X (30 CPU) queued before
// Y (50 CPU) on nodes with 53 and 31 free binds only with the complete placement search.
TEST(AppTest, PlacementFlagReachesTheScheduler) {
  std::string input = R"(apiVersion: v1
kind: Node
metadata: {name: a}
status: {allocatable: {cpu: "53", memory: 64Gi, pods: "110"}}
---
apiVersion: v1
kind: Node
metadata: {name: b}
status: {allocatable: {cpu: "31", memory: 64Gi, pods: "110"}}
---
apiVersion: scheduling.k8s.io/v1beta1
kind: PodGroup
metadata: {name: pg}
spec:
  schedulingPolicy: {gang: {minCount: 2}}
)";
  input += Pod("x", "30", kGroupSpec) + Pod("z", "50", kGroupSpec);
  auto bindings = [](const std::string& out) {
    std::vector<std::string> pods;
    const nlohmann::json doc = nlohmann::json::parse(out);
    for (const auto& b : doc.at("bindings")) {
      pods.push_back(b.at("pod").get<std::string>() + "@" + b.at("node").get<std::string>());
    }
    return pods;
  };
  for (const std::vector<std::string>& flag :
       {std::vector<std::string>{}, std::vector<std::string>{"--placement", "complete"}}) {
    std::vector<std::string> args{"schedule", "-f", "-", "-o", "json"};
    args.insert(args.end(), flag.begin(), flag.end());
    Outcome o = RunCli(args, input);
    ASSERT_EQ(o.code, 0) << o.err;
    EXPECT_THAT(bindings(o.out), ::testing::ElementsAre("default/x@b", "default/z@a"));
  }
  Outcome up = RunCli({"schedule", "-f", "-", "-o", "json", "--placement", "upstream"}, input);
  ASSERT_EQ(up.code, 0) << up.err;
  EXPECT_THAT(bindings(up.out), IsEmpty());
  EXPECT_THAT(up.out, HasSubstr("Pod group default/pg: 1 of 2 pods fit, minCount 2"));
  Outcome explain =
      RunCli({"explain", "pod", "default/x", "-f", "-", "--placement", "upstream"}, input);
  ASSERT_EQ(explain.code, 0) << explain.err;
  EXPECT_THAT(explain.out, HasSubstr("outcome:    pending (Unschedulable)"));

  // A bad value is a usage error (exit 2, README "Exit codes") naming the flag and its values.
  const std::string want = "error: --placement \"greedy\": must be one of complete, upstream\n";
  for (const auto& args : std::vector<std::vector<std::string>>{
           {"schedule", "-f", "-", "--placement", "greedy"},
           {"explain", "pod", "default/x", "-f", "-", "--placement", "greedy"},
           {"demo", "--placement", "greedy"},
           {"simulate", "--trace", "/nonexistent.csv", "--format", "philly", "--generate-cluster",
            "nodes=2", "--placement", "greedy"},
           {"run", "--placement", "greedy"},
       }) {
    Outcome o = RunCli(args, input);
    EXPECT_EQ(o.code, 2) << ::testing::PrintToString(args);
    EXPECT_THAT(o.out, IsEmpty()) << ::testing::PrintToString(args);
    EXPECT_EQ(o.err, want) << ::testing::PrintToString(args);
  }
}

TEST(AppTest, UnknownFeatureGateIsUsageError) {
  Outcome o =
      RunCli({"schedule", "-f", "-", "--feature-gates", "GenericWorkload=true,NoSuchGate=false"},
             kCluster);
  EXPECT_EQ(o.code, 2);
  EXPECT_THAT(o.out, IsEmpty());
  EXPECT_THAT(o.err, HasSubstr("unrecognized feature gate: NoSuchGate"));
}

TEST(AppTest, HelpGoesToStdoutAndExitsZero) {
  Outcome o = RunCli({"--help"});
  EXPECT_EQ(o.code, 0);
  EXPECT_THAT(o.out, HasSubstr("schedule"));
  EXPECT_THAT(o.out, HasSubstr("demo"));
  Outcome sub = RunCli({"schedule", "--help"});
  EXPECT_EQ(sub.code, 0);
  EXPECT_THAT(sub.out, HasSubstr("--feature-gates"));
}

TEST(AppTest, MalformedYamlExitsOneWithNothingOnStdout) {
  Outcome o =
      RunCli({"schedule", "-f", "-", "-o", "json"}, "apiVersion: v1\nkind: Node\nmetadata: [\n");
  EXPECT_EQ(o.code, 1);
  EXPECT_THAT(o.out, IsEmpty());
  EXPECT_THAT(o.err, HasSubstr("error: "));
}

TEST(AppTest, NegativeQuantityExitsOne) {
  Outcome o = RunCli({"schedule", "-f", "-"}, std::string(kCluster) + Pod("p", "-1"));
  EXPECT_EQ(o.code, 1);
  EXPECT_THAT(o.out, IsEmpty());
  EXPECT_THAT(o.err, HasSubstr("Pod default/p: spec.containers[0].resources.requests[cpu]: "
                               "Invalid value: \"-1\": must be greater than or equal to 0"));
}

// The API server accepts a pod naming a PodGroup that does not exist; the scheduler holds it at
// PreEnqueue (v1.37.2 gangscheduling PreEnqueue): a warning, and the pod pending without a
// PodScheduled condition (reason and message "", as v1.37.2), what it waits for in `held`.
TEST(AppTest, MissingPodGroupIsHeldAtPreEnqueue) {
  std::string input =
      std::string(kCluster) + Pod("p", "1", "  schedulingGroup:\n    podGroupName: nope\n");
  Outcome o = RunCli({"schedule", "-f", "-", "-o", "json"}, input);
  EXPECT_EQ(o.code, 0) << o.err;
  EXPECT_THAT(o.err,
              HasSubstr("Pod default/p: spec.schedulingGroup.podGroupName: Not found: \"nope\""));
  nlohmann::json doc = nlohmann::json::parse(o.out);
  ASSERT_EQ(doc["pending"].size(), 1u) << o.out;
  EXPECT_EQ(doc["pending"][0]["reason"], "");
  EXPECT_EQ(doc["pending"][0]["message"], "");
  EXPECT_EQ(doc["pending"][0]["held"],
            "waiting for pods's pod group \"nope\" to appear in scheduling queue");
  // explain and the table say `held` where a condition's reason would be.
  Outcome explain = RunCli({"explain", "pod", "default/p", "-f", "-"}, input);
  ASSERT_EQ(explain.code, 0) << explain.err;
  EXPECT_THAT(explain.out,
              ::testing::StartsWith("Pod default/p\n  outcome:    pending (held): waiting for "
                                    "pods's pod group \"nope\" to appear in scheduling queue\n"));
  Outcome table = RunCli({"schedule", "-f", "-"}, input);
  ASSERT_EQ(table.code, 0) << table.err;
  EXPECT_THAT(table.out, HasSubstr("default/p  PENDING  held: waiting for pods's pod group"));
}

TEST(AppTest, JsonOutputParsesAndFollowsTheContract) {
  std::string input = std::string(kCluster) + Pod("a", "1", kGroupSpec) +
                      Pod("b", "1", kGroupSpec) + Pod("big", "8");
  Outcome o = RunCli({"schedule", "-f", "-", "-o", "json"}, input);
  ASSERT_EQ(o.code, 0) << o.err;
  nlohmann::json doc = nlohmann::json::parse(o.out);
  EXPECT_EQ(doc["apiVersion"], "wasched.io/v1alpha1");
  EXPECT_EQ(doc["kind"], "ScheduleResult");
  ASSERT_EQ(doc["bindings"].size(), 2u);
  EXPECT_EQ(doc["bindings"][0]["pod"], "default/a");
  EXPECT_EQ(doc["bindings"][0]["node"], "n1");
  ASSERT_EQ(doc["pending"].size(), 1u);
  EXPECT_EQ(doc["pending"][0]["pod"], "default/big");
  ASSERT_EQ(doc["groups"].size(), 1u);
  EXPECT_EQ(doc["groups"][0]["name"], "default/pg");
  EXPECT_EQ(doc["groups"][0]["scheduled"], 2);
  // Same input, same bytes.
  EXPECT_EQ(RunCli({"schedule", "-f", "-", "-o", "json"}, input).out, o.out);
}

TEST(AppTest, TableIsTheDefaultOutput) {
  std::string input = std::string(kCluster) + Pod("a", "1", kGroupSpec) + Pod("b", "1", kGroupSpec);
  Outcome o = RunCli({"schedule", "-f", "-"}, input);
  ASSERT_EQ(o.code, 0) << o.err;
  EXPECT_THAT(o.out, HasSubstr("PodGroup default/pg  scheduled 2/2 (minCount 2)"));
  EXPECT_THAT(o.out, HasSubstr("2 bound, 0 pending\n"));
}

TEST(AppTest, GenericWorkloadOffSchedulesMembersOneByOne) {
  // minCount 3 with 2 members: as a gang nothing binds; with the gate off both pods bind.
  std::string input = std::string(kCluster);
  input.replace(input.find("minCount: 2"), 11, "minCount: 3");
  input += Pod("a", "1", kGroupSpec) + Pod("b", "1", kGroupSpec);
  Outcome gang = RunCli({"schedule", "-f", "-", "-o", "json"}, input);
  ASSERT_EQ(gang.code, 0) << gang.err;
  EXPECT_THAT(nlohmann::json::parse(gang.out)["bindings"], IsEmpty());
  Outcome off = RunCli(
      {"schedule", "-f", "-", "-o", "json", "--feature-gates", "GenericWorkload=false"}, input);
  ASSERT_EQ(off.code, 0) << off.err;
  EXPECT_EQ(nlohmann::json::parse(off.out)["bindings"].size(), 2u);
  EXPECT_THAT(off.err, HasSubstr("warning: feature gate GenericWorkload is off"));
}

TEST(AppTest, ValidateReportsOnStdoutAndExitsOneOnErrors) {
  Outcome ok = RunCli({"validate", "-f", "-"}, std::string(kCluster) + Pod("a", "1", kGroupSpec));
  EXPECT_EQ(ok.code, 0) << ok.err;
  EXPECT_EQ(ok.out, "valid: 3 object(s), 0 errors\n");

  std::string input = std::string(kCluster) + Pod("p", "-1") +
                      Pod("q", "1", "  schedulingGroup:\n    podGroupName: nope\n");
  Outcome bad = RunCli({"validate", "-f", "-", "-o", "json"}, input);
  EXPECT_EQ(bad.code, 1);
  nlohmann::json doc = nlohmann::json::parse(bad.out);
  ASSERT_EQ(doc["errors"].size(), 1u);
  EXPECT_EQ(doc["errors"][0]["object"], "Pod default/p");
  EXPECT_EQ(doc["errors"][0]["type"], "Invalid");
  EXPECT_EQ(doc["errors"][0]["field"], "spec.containers[0].resources.requests[cpu]");
  EXPECT_EQ(doc["errors"][0]["detail"], "must be greater than or equal to 0");
  // A pod naming a PodGroup the input lacks is accepted (the API server resolves no reference;
  // the scheduler holds it at PreEnqueue): a warning, with upstream's NotFound.
  ASSERT_EQ(doc["warnings"].size(), 1u);
  EXPECT_THAT(doc["warnings"][0].get<std::string>(),
              HasSubstr("Pod default/q: spec.schedulingGroup.podGroupName: Not found: \"nope\""));

  Outcome malformed = RunCli({"validate", "-f", "-", "-o", "json"}, "kind: [\n");
  EXPECT_EQ(malformed.code, 1);
  EXPECT_EQ(nlohmann::json::parse(malformed.out)["errors"].size(), 1u);
}

TEST(AppTest, DemoBindsTheTrainingGangAndHoldsTheOversizedGang) {
  Outcome o = RunCli({"demo", "-o", "json"});
  ASSERT_EQ(o.code, 0) << o.err;
  nlohmann::json doc = nlohmann::json::parse(o.out);
  int training_bound = 0;
  for (const auto& b : doc["bindings"]) {
    const std::string pod = b["pod"];
    EXPECT_EQ(pod.rfind("training/pretrain-llm-", 0), std::string::npos) << pod;
    if (pod.rfind("training/training-job-", 0) == 0) ++training_bound;
  }
  EXPECT_EQ(training_bound, 8);
  int pretrain_pending = 0;
  for (const auto& p : doc["pending"]) {
    const std::string pod = p["pod"];
    EXPECT_EQ(pod.rfind("training/pretrain-llm-", 0), 0u) << pod << " should have bound";
    ++pretrain_pending;
  }
  EXPECT_EQ(pretrain_pending, 40);

  Outcome table = RunCli({"demo"});
  ASSERT_EQ(table.code, 0) << table.err;
  EXPECT_THAT(table.out, HasSubstr("wasched demo"));
  EXPECT_THAT(table.out, HasSubstr("PodGroup training/training-job-workers"));
  EXPECT_THAT(table.out, HasSubstr("18 bound, 40 pending, 1 already running\n"));
}

// Issue 20 item 12: a suspended Job creates no pods; the result says so in the table (a `note:`
// line) and in JSON (`notes`), instead of showing nothing at all.
TEST(AppTest, SuspendedJobGetsANote) {
  const std::string input = R"(apiVersion: v1
kind: Node
metadata:
  name: n1
status:
  allocatable:
    cpu: "4"
    memory: 8Gi
    pods: "110"
---
apiVersion: batch/v1
kind: Job
metadata:
  name: train
  namespace: ml
  uid: 0b9e2c1e-0000-4000-8000-000000000001
spec:
  parallelism: 2
  suspend: true
  template:
    spec:
      restartPolicy: Never
      containers:
      - name: c
        image: busybox
)";
  const std::string note =
      "Job ml/train is suspended (spec.suspend: true): the Job controller created no pods for it; "
      "nothing of it is scheduled until spec.suspend is false";
  Outcome table = RunCli({"schedule", "-f", "-"}, input);
  ASSERT_EQ(table.code, 0) << table.err;
  EXPECT_THAT(table.out, HasSubstr("\nnote: " + note + "\n\n0 bound, 0 pending\n")) << table.out;
  Outcome json = RunCli({"schedule", "-f", "-", "-o", "json"}, input);
  ASSERT_EQ(json.code, 0) << json.err;
  const nlohmann::json doc = nlohmann::json::parse(json.out);
  EXPECT_EQ(doc.at("notes"), nlohmann::json::array({note}));
  // Without a suspended Job there is no `notes` key (the contract only grows).
  Outcome plain = RunCli({"schedule", "-f", "-", "-o", "json"}, kCluster);
  ASSERT_EQ(plain.code, 0) << plain.err;
  EXPECT_FALSE(nlohmann::json::parse(plain.out).contains("notes"));
}

}  // namespace
}  // namespace wasched::cli

namespace wasched::cli {
namespace {

// Issue 20 item 12: --summary is a table view; JSON and YAML refuse it (usage error, exit 2).
TEST(AppTest, SummaryIsForTheTable) {
  Outcome table = RunCli({"schedule", "--summary", "-f", "-"}, kCluster);
  ASSERT_EQ(table.code, 0) << table.err;
  EXPECT_THAT(table.out, HasSubstr("PodGroup default/pg  scheduled 0/2 (minCount 2)  0 bound, 0 pending"));
  Outcome json = RunCli({"schedule", "--summary", "-o", "json", "-f", "-"}, kCluster);
  EXPECT_EQ(json.code, 2);
  EXPECT_EQ(json.out, "");
  EXPECT_THAT(json.err, HasSubstr("--summary is for -o table"));
}

TEST(AppTest, UnknownSubcommandIsNamed) {
  Outcome o = RunCli({"frobnicate"});
  EXPECT_EQ(o.code, 2);
  EXPECT_EQ(o.out, "");
  EXPECT_NE(o.err.find("unknown subcommand \"frobnicate\""), std::string::npos) << o.err;
}

}  // namespace
}  // namespace wasched::cli


namespace wasched::cli {
namespace {

// --scheduler-name (new-user trial): `schedule` and `explain` can take wasched run's pods (their
// schedulerName is wasched) instead of calling them NotHandled.
TEST(SchedulerNameFlag, SchedulesThePodsOfTheNamedScheduler) {
  const std::string input = R"(apiVersion: v1
kind: Node
metadata: {name: n1}
status: {allocatable: {cpu: "4", memory: 8Gi, pods: "110"}}
---
apiVersion: v1
kind: Pod
metadata: {name: p, namespace: default}
spec:
  schedulerName: wasched
  containers: [{name: c, image: i, resources: {requests: {cpu: "1"}}}]
)";
  const Outcome by_default = RunCli({"schedule", "-f", "-", "-o", "json"}, input);
  ASSERT_EQ(by_default.code, 0) << by_default.err;
  EXPECT_THAT(by_default.out, HasSubstr("NotHandled"));
  const Outcome named =
      RunCli({"schedule", "-f", "-", "-o", "json", "--scheduler-name", "wasched"}, input);
  ASSERT_EQ(named.code, 0) << named.err;
  EXPECT_THAT(named.out, HasSubstr(R"("node": "n1")"));
  const Outcome explained =
      RunCli({"explain", "pod", "default/p", "-f", "-", "--scheduler-name", "wasched"}, input);
  ASSERT_EQ(explained.code, 0) << explained.err;
  EXPECT_THAT(explained.out, HasSubstr("n1"));
}

}  // namespace
}  // namespace wasched::cli
