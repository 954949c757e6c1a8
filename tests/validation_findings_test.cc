// File: tests/validation_findings_test.cc
//
// The real `wasched` binary on the QA findings that are validation's: int64 overflow of the
// scheduler's sums (03, 04), a running pod on a Node the input does not hold (16: a warning, and
// the scheduler ignores its usage), PodGroup API rules (24), core/v1 Pod and Node rules (25) and
// Priority admission (35). Each manifest is the breaker's reproducer (trimmed).
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "api/object_set.h"
#include "sched/scheduler.h"
#include "support/builders.h"
#include "support/process.h"
#include "validation/object_set_validation.h"

namespace wasched {
namespace {

namespace fs = std::filesystem;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

class ValidationFindingsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("wasched-val-findings-" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string Write(const std::string& name, const std::string& text) {
    std::ofstream(dir_ / name, std::ios::binary) << text;
    return (dir_ / name).string();
  }
  // Lines: the report lines of `validate` (table), without the file prefix and the count.
  static std::vector<std::string> Lines(const std::string& out, const std::string& file) {
    std::vector<std::string> lines;
    std::size_t start = 0;
    while (start < out.size()) {
      std::size_t end = out.find('\n', start);
      if (end == std::string::npos) end = out.size();
      std::string line = out.substr(start, end - start);
      if (line.rfind(file + ": ", 0) == 0) lines.push_back(line.substr(file.size() + 2));
      start = end + 1;
    }
    return lines;
  }
  fs::path dir_;
};

constexpr const char* kNode = R"({"apiVersion": "v1", "kind": "Node", "metadata": {"name": "n1"}, "status": {"allocatable": {"cpu": "4", "memory": "8Gi", "pods": "110"}}})";

// 03: two running 7Ei pods on one node overflowed the node's requested memory. The API server
// accepts them (a Quantity does not overflow), so wasched warns and its sums saturate: the node
// is full, and `p` stays pending (no wrap-around making room; UBSan holds the arithmetic).
TEST_F(ValidationFindingsTest, RunningPodsBeyondInt64SaturateWithAWarning) {
  const std::string file = Write("03.json", std::string(kNode) + R"(
---
{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "r1", "namespace": "default"}, "spec": {"nodeName": "n1", "containers": [{"name": "c", "image": "registry.k8s.io/pause:3.10", "resources": {"requests": {"memory": "7Ei"}}}]}}
---
{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "r2", "namespace": "default"}, "spec": {"nodeName": "n1", "containers": [{"name": "c", "image": "registry.k8s.io/pause:3.10", "resources": {"requests": {"memory": "7Ei"}}}]}}
---
{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p", "namespace": "default"}, "spec": {"containers": [{"name": "c", "image": "registry.k8s.io/pause:3.10", "resources": {"requests": {"cpu": "1", "memory": "1"}}}]}}
)");
  const test::CommandResult r = test::RunCommand({WASCHED_BINARY, "schedule", "-f", file});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.err, HasSubstr("warning: " + file +
                               ": document 3: Pod default/r2: spec.containers[0].resources.requests["
                               "memory]: Invalid value: \"7Ei\": the input's total requests of "
                               "memory exceed what wasched can account (9.2e18); its sums "
                               "saturate at that bound\n"));
  EXPECT_THAT(r.out, HasSubstr("Insufficient memory"));
}

// 04: three 4Ei gang members overflowed the gang's aggregate need: a warning (the API server
// accepts them), and the gang stays pending on its 8Gi node.
TEST_F(ValidationFindingsTest, GangBeyondInt64IsAWarning) {
  std::string text = std::string(kNode) + R"(
---
{"apiVersion": "scheduling.k8s.io/v1beta1", "kind": "PodGroup", "metadata": {"name": "g", "namespace": "default"}, "spec": {"schedulingPolicy": {"gang": {"minCount": 3}}}})";
  for (const char* name : {"p0", "p1", "p2"}) {
    text += std::string("\n---\n{\"apiVersion\": \"v1\", \"kind\": \"Pod\", \"metadata\": {\"name\": \"") +
            name +
            R"(", "namespace": "default"}, "spec": {"containers": [{"name": "c", "image": "registry.k8s.io/pause:3.10", "resources": {"requests": {"memory": "4Ei"}}}], "schedulingGroup": {"podGroupName": "g"}}})";
  }
  const std::string file = Write("04.json", text);
  const test::CommandResult r = test::RunCommand({WASCHED_BINARY, "validate", "-f", file});
  EXPECT_EQ(r.exit_code, 0) << r.out;
  EXPECT_THAT(r.out, HasSubstr(": document 4: Pod default/p1: spec.containers[0].resources."
                               "requests[memory]: Invalid value: \"4Ei\": the input's total "
                               "requests of memory exceed what wasched can account (9.2e18); its "
                               "sums saturate at that bound\n"));
  const test::CommandResult s = test::RunCommand({WASCHED_BINARY, "schedule", "-f", file});
  EXPECT_EQ(s.exit_code, 0) << s.err;
  EXPECT_THAT(s.out, HasSubstr("Insufficient memory"));
}

// 16: a running pod on a deleted node is a warning; its usage is counted on no node, so `p`
// still fits the 1-CPU node.
constexpr const char* kOrphan = R"({"apiVersion": "v1", "kind": "Node", "metadata": {"name": "n1"}, "status": {"allocatable": {"cpu": "1", "memory": "8Gi", "pods": "110"}}}
---
{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "orphan", "namespace": "default"}, "spec": {"containers": [{"name": "c", "image": "registry.k8s.io/pause:3.10", "resources": {"requests": {"cpu": "1"}}}], "nodeName": "deleted-node"}}
---
{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p", "namespace": "default"}, "spec": {"containers": [{"name": "c", "image": "registry.k8s.io/pause:3.10", "resources": {"requests": {"cpu": "1"}}}]}}
)";
constexpr const char* kOrphanWarning =
    ": document 2: Pod default/orphan: spec.nodeName: Not found: \"deleted-node\": the pod is "
    "bound to a node that is not in the input; its requests are not counted on any node\n";

TEST_F(ValidationFindingsTest, RunningPodOnAMissingNodeIsAWarning) {
  const std::string file = Write("16.json", kOrphan);
  const test::CommandResult r =
      test::RunCommand({WASCHED_BINARY, "schedule", "-f", file, "-o", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "warning: " + file + kOrphanWarning);
  const nlohmann::json doc = nlohmann::json::parse(r.out);
  ASSERT_EQ(doc["bindings"].size(), 1u);
  EXPECT_EQ(doc["bindings"][0]["pod"], "default/p");
  EXPECT_EQ(doc["bindings"][0]["node"], "n1");
  EXPECT_THAT(doc["pending"], IsEmpty());

  const test::CommandResult v =
      test::RunCommand({WASCHED_BINARY, "validate", "-f", file, "-o", "json"});
  EXPECT_EQ(v.exit_code, 0);
  // validate's report holds the warning (issue 20 item 6), in `warnings`.
  const nlohmann::json report = nlohmann::json::parse(v.out);
  EXPECT_THAT(report["errors"], IsEmpty());
  ASSERT_EQ(report["warnings"].size(), 1u);
  EXPECT_EQ("warning: " + report["warnings"][0].get<std::string>() + "\n",
            "warning: " + file + kOrphanWarning);
  EXPECT_EQ(v.err, "");
}

// The same through the library, with the scheduler's verification mode (its node accounting is
// recomputed and checked after every cycle).
TEST(ValidationFindingsLibraryTest, SchedulerIgnoresUsageOnUnknownNodes) {
  api::ObjectSet objects;
  objects.nodes.push_back(
      test::MakeNode().Name("n1").Capacity({{"cpu", 1000}, {"memory", 8 * test::kGi}, {"pods", 110}}).Obj());
  objects.pods.push_back(test::MakePod().Name("orphan").Node("deleted-node").Req({{"cpu", 1000}}).Obj());
  objects.pods.push_back(test::MakePod().Name("p").Req({{"cpu", 1000}}).Obj());
  InputErrors warnings;
  ASSERT_THAT(validation::ValidateForSchedule(objects, FeatureGates{}, &warnings), IsEmpty());
  EXPECT_EQ(warnings.size(), 1u);
  sched::SchedulerOptions options;
  options.verify = true;
  const sched::ScheduleResult result = sched::Schedule(objects, options);
  ASSERT_EQ(result.bindings.size(), 1u);
  EXPECT_EQ(result.bindings[0].pod, "default/p");
  EXPECT_EQ(result.bindings[0].node, "n1");
  EXPECT_THAT(result.pending, IsEmpty());
}

// 24: a PodGroup priority above 1e9 is an error, so `schedule` refuses it.
TEST_F(ValidationFindingsTest, PodGroupPriorityAndConditionStatus) {
  const std::string file = Write("24.json", R"(
{"apiVersion": "scheduling.k8s.io/v1beta1", "kind": "PodGroup", "metadata": {"name": "bigprio", "namespace": "default"}, "spec": {"schedulingPolicy": {"basic": {}}, "priority": 2147483647}}
---
{"apiVersion": "scheduling.k8s.io/v1beta1", "kind": "PodGroup", "metadata": {"name": "bad-cond", "namespace": "default"}, "spec": {"schedulingPolicy": {"basic": {}}}, "status": {"conditions": [{"type": "PodGroupInitiallyScheduled", "status": "true", "reason": "Scheduled", "lastTransitionTime": "2026-01-01T00:00:00Z"}]}}
)");
  const test::CommandResult r = test::RunCommand({WASCHED_BINARY, "validate", "-f", file});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(
      Lines(r.out, file),
      ElementsAre("document 1: PodGroup default/bigprio: spec.priority: Invalid value: "
                  "2147483647: must be less than or equal to 1000000000",
                  "document 1: PodGroup default/bigprio: spec.priority: Forbidden: "
                  "priority set in the pod group (2147483647) must match "
                  "the priority computed (0) based on the priority class set in the spec"));
  // The lowercase condition status is not an error of a create: the API server resets status on
  // create (observed on v1.37.2; src/validation/pod_group_validation.h). A /status write would
  // refuse it: ValidatePodGroupStatus, src/validation/condition_validation_test.cc.
  const test::CommandResult s = test::RunCommand({WASCHED_BINARY, "schedule", "-f", file});
  EXPECT_EQ(s.exit_code, 1);
  EXPECT_EQ(s.out, "");
}

// 25: core/v1 rules of Nodes and Pods.
TEST_F(ValidationFindingsTest, CoreFieldRules) {
  const std::string file = Write("25.json", R"(
{"apiVersion": "v1", "kind": "Node", "metadata": {"name": "n1", "labels": {"k": "vvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvv"}}, "status": {"allocatable": {"cpu": "4", "memory": "8Gi", "pods": "110"}}}
---
{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "tol-exists-value", "namespace": "default"}, "spec": {"containers": [{"name": "c", "image": "x"}], "tolerations": [{"key": "a", "operator": "Exists", "value": "x"}]}}
---
{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "tol-equal-nokey", "namespace": "default"}, "spec": {"containers": [{"name": "c", "image": "x"}], "tolerations": [{"operator": "Equal", "value": "x"}, {"key": "k", "effect": "NoSchedule", "tolerationSeconds": 30}]}}
---
{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "badres", "namespace": "default"}, "spec": {"containers": [{"name": "c", "image": "x", "resources": {"requests": {"CPU": "1"}}}]}}
---
{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "fracgpu", "namespace": "default"}, "spec": {"containers": [{"name": "c", "image": "x", "resources": {"limits": {"nvidia.com/gpu": "0.5"}}}]}}
---
{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "over", "namespace": "default"}, "spec": {"containers": [{"name": "c", "image": "x", "resources": {"requests": {"cpu": "2", "memory": "0.5"}, "limits": {"cpu": "1"}}}]}}
---
{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "nocontainers", "namespace": "default"}, "spec": {"containers": []}}
---
{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "sched", "namespace": "default"}, "spec": {"containers": [{"name": "c", "image": "x"}], "schedulerName": "Not_A_DNS_Name"}}
)");
  const test::CommandResult r = test::RunCommand({WASCHED_BINARY, "validate", "-f", file});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(
      Lines(r.out, file),
      ElementsAre(
          "document 1: Node n1: metadata.labels: Invalid value: "
          "\"vvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvvv\": must be "
          "no more than 63 characters",
          "document 2: Pod default/tol-exists-value: spec.tolerations[0].operator: Invalid value: "
          "core.Toleration{Key:\"a\", Operator:\"Exists\", Value:\"x\", Effect:\"\", "
          "TolerationSeconds:(*int64)(nil)}: value must be empty when `operator` is 'Exists'",
          "document 3: Pod default/tol-equal-nokey: spec.tolerations[0].operator: Invalid value: "
          "\"Equal\": operator must be Exists when `key` is empty, which means \"match all values "
          "and all keys\"",
          "document 3: Pod default/tol-equal-nokey: spec.tolerations[1].effect: Invalid value: "
          "\"NoSchedule\": effect must be 'NoExecute' when `tolerationSeconds` is set",
          "document 4: Pod default/badres: spec.containers[0].resources.requests[CPU]: Invalid "
          "value: \"CPU\": must be a standard resource type or fully qualified",
          "document 4: Pod default/badres: spec.containers[0].resources.requests[CPU]: Invalid "
          "value: \"CPU\": must be a standard resource for containers",
          // The request defaulted from the limit is checked too, as upstream.
          "document 5: Pod default/fracgpu: spec.containers[0].resources.limits[nvidia.com/gpu]: "
          "Invalid value: \"0.5\": must be an integer",
          "document 5: Pod default/fracgpu: spec.containers[0].resources.requests[nvidia.com/"
          "gpu]: Invalid value: \"0.5\": must be an integer",
          // Fractional memory is allowed (upstream only warns); the request above its limit is not.
          "document 6: Pod default/over: spec.containers[0].resources.requests: Invalid value: "
          "\"2\": must be less than or equal to cpu limit of 1",
          "document 7: Pod default/nocontainers: spec.containers: Required value",
          ::testing::StartsWith("document 8: Pod default/sched: spec.schedulerName: Invalid "
                                "value: \"Not_A_DNS_Name\": a lowercase RFC 1123 subdomain")));
}

// 35: an explicit priority that contradicts the pod's PriorityClass (or, without one, the
// default 0) is refused, as the Priority admission plugin refuses it.
TEST_F(ValidationFindingsTest, ExplicitPriorityVsClass) {
  const std::string file = Write("35.json", std::string(kNode) + R"(
---
{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "a", "namespace": "default"}, "spec": {"containers": [{"name": "c", "image": "x"}], "priority": 5}}
---
{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "b", "namespace": "default"}, "spec": {"containers": [{"name": "c", "image": "x"}], "priority": 7, "priorityClassName": "system-node-critical"}}
---
{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "c", "namespace": "default"}, "spec": {"containers": [{"name": "c", "image": "x"}], "priority": 2000001000, "priorityClassName": "system-node-critical"}}
)");
  const test::CommandResult r =
      test::RunCommand({WASCHED_BINARY, "validate", "-f", file, "-o", "json"});
  EXPECT_EQ(r.exit_code, 1);
  const nlohmann::json doc = nlohmann::json::parse(r.out);
  ASSERT_EQ(doc["errors"].size(), 2u) << r.out;
  EXPECT_EQ(doc["errors"][0]["object"], "Pod default/a");
  EXPECT_EQ(doc["errors"][0]["type"], "Forbidden");
  EXPECT_EQ(doc["errors"][0]["field"], "spec.priority");
  EXPECT_EQ(doc["errors"][0]["detail"],
            "the integer value of priority (5) must not be provided in pod spec; priority "
            "admission controller computed 0 from the given PriorityClass name");
  EXPECT_EQ(doc["errors"][1]["object"], "Pod default/b");
  EXPECT_THAT(doc["errors"][1]["detail"].get<std::string>(),
              HasSubstr("priority (7) must not be provided in pod spec; priority admission "
                        "controller computed 2000001000"));
}

}  // namespace
}  // namespace wasched
