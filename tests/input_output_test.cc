// File: tests/input_output_test.cc
//
// The real `wasched` binary on the input and output problems the QA run found: a stray `,`
// (the YAML parser looped forever, allocating), repeated mapping keys, binary files, a file
// named twice, -o yaml strings that read back as numbers or booleans, a failed write to stdout,
// the validate -o json contract, and pod-level resources.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "support/process.h"

namespace wasched {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

constexpr const char* kTwoNodes = R"(apiVersion: v1
kind: Node
metadata: {name: "0x1f"}
status: {allocatable: {cpu: "1", pods: "1"}}
---
apiVersion: v1
kind: Node
metadata: {name: "yes"}
status: {allocatable: {cpu: "1", pods: "1"}}
---
apiVersion: v1
kind: Pod
metadata: {name: a}
spec: {containers: [{name: c, image: x}]}
---
apiVersion: v1
kind: Pod
metadata: {name: b}
spec: {containers: [{name: c, image: x}]}
)";

class InputOutputTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("wasched-io-test-" + std::to_string(::getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  std::string Write(const std::string& name, const std::string& text) {
    std::ofstream(dir_ / name, std::ios::binary) << text;
    return (dir_ / name).string();
  }
  fs::path dir_;
};

// `,` after (or instead of) a document: wasched used to grow without bound until the kernel
// killed it. Now an error in milliseconds; `timeout` turns a regression into a failure.
TEST_F(InputOutputTest, StrayCommaIsMalformedYamlNotAnEndlessLoop) {
  const struct {
    const char* text;
    const char* language;  // JSON when the text opens with `{` or `[`
    const char* column;
    const char* problem;  // libyaml's (and kubectl's go-yaml's) text
  } cases[] = {{",", "YAML", "column 1", "did not find expected node content"},
               {"'a',", "YAML", "column 4", "did not find expected <document start>"},
               {"{\"a\":1},", "JSON", "column 8", "did not find expected <document start>"},
               {"[1],", "JSON", "column 4", "did not find expected <document start>"}};
  for (const auto& c : cases) {
    SCOPED_TRACE(c.text);
    const std::string file = Write("comma.yaml", c.text);
    for (const char* command : {"schedule", "validate"}) {
      const test::CommandResult r =
          test::RunCommand({"timeout", "-s", "KILL", "20", WASCHED_BINARY, command, "-f", file});
      ASSERT_EQ(r.signal, 0) << r.err;
      EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
      const std::string& report = std::string(command) == "schedule" ? r.err : r.out;
      EXPECT_THAT(report, HasSubstr(file + ": document 1: Invalid value: malformed " +
                                    c.language + ": line 1, " + c.column + ": " + c.problem));
    }
  }
}

TEST_F(InputOutputTest, DuplicateMappingKeysAreRejected) {
  const std::string file = Write("dup.yaml", R"(apiVersion: v1
kind: Node
metadata: {name: n1, name: n2}
status: {allocatable: {cpu: "4", memory: 8Gi, pods: "110"}}
---
apiVersion: v1
kind: Pod
metadata: {name: p, namespace: default}
spec:
  containers:
  - name: c
    image: x
    resources:
      requests:
        cpu: "8"
        cpu: "100m"
)");
  const test::CommandResult r = test::RunCommand({WASCHED_BINARY, "schedule", "-f", file});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, "error: " + file +
                       ": document 1: Node n1: metadata.name: Duplicate value: mapping key "
                       "already defined\n"
                       "error: " +
                       file +
                       ": document 2: Pod default/p: spec.containers[0].resources.requests[cpu]: "
                       "Duplicate value: mapping key already defined\n");
  const test::CommandResult v =
      test::RunCommand({WASCHED_BINARY, "validate", "-f", file, "-o", "json"});
  EXPECT_EQ(v.exit_code, 1);
  const nlohmann::json doc = nlohmann::json::parse(v.out);
  ASSERT_EQ(doc["errors"].size(), 2u);
  EXPECT_EQ(doc["errors"][1]["type"], "Duplicate");
  EXPECT_EQ(doc["errors"][1]["field"], "spec.containers[0].resources.requests[cpu]");
  EXPECT_EQ(doc["errors"][1]["detail"], "mapping key already defined");
}

TEST_F(InputOutputTest, FileWithNulBytesIsAnError) {
  const std::string file = Write("binary.yaml", std::string(3, '\0'));
  const test::CommandResult r = test::RunCommand({WASCHED_BINARY, "schedule", "-f", file});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(r.err, "error: " + file +
                       ": Invalid value: file is not a text manifest (contains NUL bytes)\n");
}

// The same file twice (here also through the folder holding it) is read once, with a warning,
// instead of every object being a duplicate of itself.
TEST_F(InputOutputTest, SameFileGivenTwiceIsReadOnce) {
  const std::string file = Write("cluster.yaml", kTwoNodes);
  const test::CommandResult r =
      test::RunCommand({WASCHED_BINARY, "schedule", "-f", file, "-f", dir_.string(), "-o", "json"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "warning: file " + file + " given more than once; read once\n");
  EXPECT_EQ(nlohmann::json::parse(r.out)["bindings"].size(), 2u);
}

// Node names that plain YAML would read as an integer (0x1f) or a YAML 1.1 boolean (yes) come
// out double-quoted, like every string of -o yaml.
TEST_F(InputOutputTest, YamlOutputQuotesStrings) {
  const std::string file = Write("cluster.yaml", kTwoNodes);
  const test::CommandResult r =
      test::RunCommand({WASCHED_BINARY, "schedule", "-f", file, "-o", "yaml"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out,
            "apiVersion: \"wasched.io/v1alpha1\"\n"
            "kind: \"ScheduleResult\"\n"
            "bindings:\n"
            "  - pod: \"default/a\"\n"
            "    node: \"0x1f\"\n"
            "  - pod: \"default/b\"\n"
            "    node: \"yes\"\n"
            "pending: []\n"
            "evictions: []\n"
            "groups: []\n"
            "generated: []\n");
}

// Output that cannot be written (a full disk) is an error, exit 3, for every command, --help and
// --version included.
TEST_F(InputOutputTest, FailedWriteToStdoutExitsThree) {
  if (!fs::exists("/dev/full")) GTEST_SKIP() << "no /dev/full";
  const std::string file = Write("cluster.yaml", kTwoNodes);
  const std::string bin = WASCHED_BINARY;
  for (const std::string& args :
       std::vector<std::string>{"schedule -f '" + file + "' -o json", "schedule -f '" + file + "'",
                                "validate -f '" + file + "'", "demo",
                                "convert -f '" + file + "' --to scheduling.k8s.io/v1beta1",
                                // issue 20 item 28: --help and --version write stdout too.
                                "--help", "--version", "schedule --help", "simulate --help",
                                "convert --help"}) {
    SCOPED_TRACE(args);
    const test::CommandResult r =
        test::RunCommand({"/bin/sh", "-c", "'" + bin + "' " + args + " >/dev/full"});
    EXPECT_EQ(r.exit_code, 3) << r.err;
    EXPECT_THAT(r.err, HasSubstr("error: cannot write output: No space left on device\n"));
  }
}

// validate -o json emits only the contract's types: NotFound is Invalid, the value in the
// detail; the table keeps upstream's text.
TEST_F(InputOutputTest, ValidateJsonUsesTheContractTypes) {
  const std::string file = Write("pod.yaml", R"(apiVersion: v1
kind: Pod
metadata: {name: p, namespace: default}
spec:
  nodeName: ghost
  priority: "high"
  containers: [{name: c, image: x}]
)");
  const test::CommandResult bad_type =
      test::RunCommand({WASCHED_BINARY, "validate", "-f", file, "-o", "json"});
  EXPECT_EQ(bad_type.exit_code, 1);
  nlohmann::json doc = nlohmann::json::parse(bad_type.out);
  ASSERT_EQ(doc["errors"].size(), 1u);
  EXPECT_EQ(doc["errors"][0]["type"], "Invalid");  // was TypeInvalid
  EXPECT_EQ(doc["errors"][0]["field"], "spec.priority");
  EXPECT_EQ(doc["errors"][0]["detail"], "expected integer, got string \"high\"");

  Write("pod.yaml", R"(apiVersion: v1
kind: Pod
metadata: {name: p, namespace: default}
spec:
  priorityClassName: ghost
  containers: [{name: c, image: x}]
)");
  const test::CommandResult not_found =
      test::RunCommand({WASCHED_BINARY, "validate", "-f", file, "-o", "json"});
  doc = nlohmann::json::parse(not_found.out);
  ASSERT_EQ(doc["errors"].size(), 1u);
  EXPECT_EQ(doc["errors"][0]["type"], "Invalid");  // was NotFound
  EXPECT_EQ(doc["errors"][0]["field"], "spec.priorityClassName");
  EXPECT_EQ(doc["errors"][0]["detail"], "not found: \"ghost\"");
  const test::CommandResult table = test::RunCommand({WASCHED_BINARY, "validate", "-f", file});
  EXPECT_THAT(table.out, HasSubstr("spec.priorityClassName: Not found: \"ghost\"\n"));
}

// Pod-level requests count (upstream PodRequests): two pods of 3 CPUs at pod level do not both
// fit a 4-CPU node, although their containers request nothing.
TEST_F(InputOutputTest, PodLevelRequestsAreScheduled) {
  const std::string file = Write("pods.json", R"(
{"apiVersion": "v1", "kind": "Node", "metadata": {"name": "n1"}, "status": {"allocatable": {"cpu": "4", "memory": "8Gi", "pods": "110"}}}
---
{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "a", "namespace": "default"}, "spec": {"resources": {"requests": {"cpu": "3"}}, "containers": [{"name": "c", "image": "x"}]}}
---
{"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "b", "namespace": "default"}, "spec": {"resources": {"requests": {"cpu": "3"}}, "containers": [{"name": "c", "image": "x"}]}}
)");
  const test::CommandResult r =
      test::RunCommand({WASCHED_BINARY, "schedule", "-f", file, "-o", "json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.err, IsEmpty());
  const nlohmann::json doc = nlohmann::json::parse(r.out);
  ASSERT_EQ(doc["bindings"].size(), 1u);
  EXPECT_EQ(doc["bindings"][0]["pod"], "default/a");
  ASSERT_EQ(doc["pending"].size(), 1u);
  EXPECT_EQ(doc["pending"][0]["pod"], "default/b");
  EXPECT_THAT(doc["pending"][0]["message"].get<std::string>(), HasSubstr("Insufficient cpu"));
}

}  // namespace
}  // namespace wasched
