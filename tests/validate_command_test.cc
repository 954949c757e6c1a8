// File: tests/validate_command_test.cc
//
// `wasched validate` and `schedule` on the same input (tests/data/validate/): schedule refuses
// objects that fail API validation with the same error lines validate reports (exit 1, nothing
// on stdout); validate --old validates updates; a gate turned off is Forbidden for validate
// (objects as written) but dropped with a warning by schedule (as the API server's create
// strategy does) — see README "Choices".
#include <sstream>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "support/process.h"

namespace wasched {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

const std::string kDir = std::string(WASCHED_TESTDATA_DIR) + "/data/validate/";

std::vector<std::string> Lines(const std::string& text, const std::string& prefix) {
  std::vector<std::string> out;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind(prefix, 0) == 0) out.push_back(line.substr(prefix.size()));
  }
  return out;
}

TEST(ValidateCommandTest, ScheduleRefusesWithTheErrorsValidateReports) {
  const std::string file = kDir + "invalid-gang.yaml";
  const test::CommandResult validate = test::RunCommand({WASCHED_BINARY, "validate", "-f", file});
  const test::CommandResult schedule = test::RunCommand({WASCHED_BINARY, "schedule", "-f", file});
  ASSERT_EQ(validate.signal, 0);
  ASSERT_EQ(schedule.signal, 0);
  EXPECT_EQ(validate.exit_code, 1);
  EXPECT_EQ(schedule.exit_code, 1);
  EXPECT_EQ(schedule.out, "");
  const std::vector<std::string> reported = Lines(validate.out, file);
  ASSERT_EQ(reported.size(), 2u) << validate.out;
  EXPECT_THAT(reported[0], HasSubstr("Workload ml/training: spec.podGroupTemplates[0]."
                                     "schedulingPolicy.gang.minCount: Invalid value: -1"));
  EXPECT_THAT(reported[1], HasSubstr("PodGroup ml/workers: spec.schedulingPolicy.gang.minCount: "
                                     "Required value"));
  EXPECT_EQ(Lines(schedule.err, "error: " + file), reported);
  EXPECT_THAT(validate.out, HasSubstr("\n2 error(s)\n"));
}

// QA2 finding 16: a valid Job whose created objects `schedule` refuses (their PriorityClass does
// not exist) is not "valid" for `validate` either: the same lines, on stdout.
// What the Job controller would create is checked as `schedule` checks it; the API server accepts
// the Job itself (observed on v1.37.2: differential case corpus.validate_job-missing-priority-class),
// so for `validate` the findings are warnings (exit 0) and `schedule` refuses the input with them.
TEST(ValidateCommandTest, JobControllerObjectsAreCheckedAsScheduleChecksThem) {
  const std::string file = kDir + "job-missing-priority-class.yaml";
  const test::CommandResult validate = test::RunCommand({WASCHED_BINARY, "validate", "-f", file});
  const test::CommandResult schedule = test::RunCommand({WASCHED_BINARY, "schedule", "-f", file});
  EXPECT_EQ(validate.exit_code, 0) << validate.out;
  EXPECT_EQ(schedule.exit_code, 1);
  EXPECT_EQ(schedule.out, "");
  const std::vector<std::string> scheduled = Lines(schedule.err, "error: " + file);
  ASSERT_EQ(scheduled.size(), 3u) << schedule.err;
  EXPECT_THAT(scheduled[0], HasSubstr("spec.priorityClassName: Not found: \"ghost\": (created by "
                                      "the Job controller; the API server would refuse it)"));
  const std::vector<std::string> warned = Lines(validate.out, "warning: " + file);
  ASSERT_EQ(warned.size(), 3u) << validate.out;
  for (std::size_t i = 0; i < warned.size(); ++i) {
    EXPECT_EQ(warned[i], scheduled[i] + " (when the controllers create it; the API server "
                                        "accepts the input, `schedule` refuses it)");
  }
  const test::CommandResult json =
      test::RunCommand({WASCHED_BINARY, "validate", "-f", file, "-o", "json"});
  EXPECT_EQ(json.exit_code, 0);
  const nlohmann::json doc = nlohmann::json::parse(json.out);
  EXPECT_TRUE(doc["errors"].empty());
  EXPECT_EQ(doc["warnings"].size(), 3u);
}

TEST(ValidateCommandTest, OldPairsObjectsAndValidatesUpdates) {
  const test::CommandResult r = test::RunCommand(
      {WASCHED_BINARY, "validate", "-f", kDir + "updated-workload.yaml", "--old",
       kDir + "stored-workload.yaml", "-o", "json"});
  ASSERT_EQ(r.signal, 0);
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  const nlohmann::json doc = nlohmann::json::parse(r.out);
  ASSERT_EQ(doc["errors"].size(), 1u) << r.out;
  EXPECT_EQ(doc["errors"][0]["object"], "Workload ml/training");
  EXPECT_EQ(doc["errors"][0]["field"], "spec.podGroupTemplates[0].disruptionMode");
  EXPECT_EQ(doc["errors"][0]["origin"], "immutable");
  EXPECT_EQ(doc["errors"][0]["detail"], "field is immutable");

  // The stored objects against themselves: a valid no-op update.
  const test::CommandResult same = test::RunCommand(
      {WASCHED_BINARY, "validate", "-f", kDir + "stored-workload.yaml", "--old",
       kDir + "stored-workload.yaml"});
  EXPECT_EQ(same.exit_code, 0) << same.out;
  EXPECT_EQ(same.out, "valid: 1 object(s), 0 errors\n");
}

TEST(ValidateCommandTest, DisabledGateIsForbiddenForValidateAndDroppedBySchedule) {
  const std::string file = kDir + "topology-gang.yaml";
  const std::string gates = "TopologyAwareWorkloadScheduling=false";
  const test::CommandResult validate = test::RunCommand(
      {WASCHED_BINARY, "validate", "-f", file, "-o", "json", "--feature-gates", gates});
  EXPECT_EQ(validate.exit_code, 1);
  const nlohmann::json doc = nlohmann::json::parse(validate.out);
  ASSERT_EQ(doc["errors"].size(), 1u);
  EXPECT_EQ(doc["errors"][0]["type"], "Forbidden");
  EXPECT_EQ(doc["errors"][0]["field"], "spec.schedulingConstraints");

  const test::CommandResult schedule =
      test::RunCommand({WASCHED_BINARY, "schedule", "-f", file, "--feature-gates", gates});
  EXPECT_EQ(schedule.exit_code, 0) << schedule.err;
  EXPECT_THAT(schedule.err, HasSubstr("dropped schedulingConstraints"));
  // With every gate on both accept it.
  EXPECT_EQ(test::RunCommand({WASCHED_BINARY, "validate", "-f", file}).exit_code, 0);
}

TEST(ValidateCommandTest, MalformedOldIsReportedWithItsFile) {
  const test::CommandResult r = test::RunCommand(
      {WASCHED_BINARY, "validate", "-f", kDir + "stored-workload.yaml", "--old",
       std::string(WASCHED_TESTDATA_DIR) + "/data/malformed/workload-policy-list.yaml"});
  EXPECT_EQ(r.signal, 0);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.out, HasSubstr("workload-policy-list.yaml: document 1: Workload default/w: "
                               "spec.podGroupTemplates[0].schedulingPolicy"));
}

// Issue 20 item 5: misspelled fields are errors by default (kubectl's --validate=strict), in
// kubectl's words, for validate and schedule; warn schedules with warnings; ignore is silent.
TEST(ValidateCommandTest, UnknownFieldsFollowKubectlValidate) {
  const std::string file = kDir + "job-misspelled-fields.yaml";
  const std::vector<std::string> expected = {
      ": document 1: Job default/train: unknown field \"spec.paralellism\"",
      ": document 1: Job default/train: unknown field "
      "\"spec.template.spec.containers[0].resources.requets\"",
      ": document 1: Job default/train: unknown field "
      "\"spec.scheduling.schedulingPolicy.gang.minCout\""};
  const test::CommandResult validate = test::RunCommand({WASCHED_BINARY, "validate", "-f", file});
  EXPECT_EQ(validate.exit_code, 1);
  EXPECT_EQ(Lines(validate.out, file), expected) << validate.out;
  EXPECT_THAT(validate.out, HasSubstr("\n3 error(s)\n"));
  const test::CommandResult schedule = test::RunCommand({WASCHED_BINARY, "schedule", "-f", file});
  EXPECT_EQ(schedule.exit_code, 1);
  EXPECT_EQ(schedule.out, "");
  EXPECT_EQ(Lines(schedule.err, "error: " + file), expected) << schedule.err;

  const test::CommandResult warned = test::RunCommand(
      {WASCHED_BINARY, "validate", "-f", file, "--validate=warn", "-o", "json"});
  EXPECT_EQ(warned.exit_code, 0) << warned.out;
  const nlohmann::json doc = nlohmann::json::parse(warned.out);
  EXPECT_TRUE(doc["errors"].empty());
  ASSERT_EQ(doc["warnings"].size(), 3u);
  EXPECT_EQ(doc["warnings"][0], file + expected[0]);
  const test::CommandResult scheduled =
      test::RunCommand({WASCHED_BINARY, "schedule", "-f", file, "--validate", "warn"});
  EXPECT_EQ(scheduled.exit_code, 0) << scheduled.err;
  EXPECT_EQ(Lines(scheduled.err, "warning: " + file), expected) << scheduled.err;
  const test::CommandResult ignored =
      test::RunCommand({WASCHED_BINARY, "schedule", "-f", file, "--validate=ignore"});
  EXPECT_EQ(ignored.exit_code, 0) << ignored.err;
  EXPECT_THAT(ignored.err, Not(HasSubstr("unknown field")));
  const test::CommandResult bad =
      test::RunCommand({WASCHED_BINARY, "validate", "-f", file, "--validate=loose"});
  EXPECT_EQ(bad.exit_code, 2);
}

// Issue 20 item 6: the report holds every warning and every error of the file, warnings first:
// the mis-indented DeviceClass's unknown field explains its `cel: Required value`.
TEST(ValidateCommandTest, WarningsComeFirstAndExplainTheError) {
  const std::string file = kDir + "deviceclass-misindented.yaml";
  const test::CommandResult strict = test::RunCommand({WASCHED_BINARY, "validate", "-f", file});
  EXPECT_EQ(strict.exit_code, 1);
  // Strict (the default): the unknown field alone, as the v1.37.2 API server's strict decoding
  // reports it (observed: differential case corpus.validate_deviceclass-misindented).
  EXPECT_EQ(strict.out,
            file + ": document 1: DeviceClass example-device-class: unknown field "
                   "\"spec.selectors[0].expression\"\n\n1 error(s)\n");
  const test::CommandResult warned =
      test::RunCommand({WASCHED_BINARY, "validate", "-f", file, "--validate=warn"});
  EXPECT_EQ(warned.exit_code, 1);
  EXPECT_EQ(warned.out,
            "warning: " + file + ": document 1: DeviceClass example-device-class: unknown field "
                                 "\"spec.selectors[0].expression\"\n" +
                file + ": document 1: DeviceClass example-device-class: spec.selectors[0].cel: "
                       "Required value: exactly one selector type is required\n\n"
                       "1 error(s), 1 warning(s)\n");
  const test::CommandResult schedule =
      test::RunCommand({WASCHED_BINARY, "schedule", "-f", file, "--validate=warn"});
  EXPECT_EQ(schedule.exit_code, 1);
  EXPECT_EQ(schedule.err,
            "warning: " + file + ": document 1: DeviceClass example-device-class: unknown field "
                                 "\"spec.selectors[0].expression\"\nerror: " +
                file + ": document 1: DeviceClass example-device-class: spec.selectors[0].cel: "
                       "Required value: exactly one selector type is required\n");
}

// Issue 20 item 4: a file whose every object is of a kind or version wasched does not read is
// not "valid: 0 object(s)": each is an error naming what v1.37 serves; with --skip-unknown-kinds
// they are warnings, and nothing left to read is still an error, for validate and schedule.
TEST(ValidateCommandTest, NothingReadableIsNotValid) {
  const std::string file = kDir + "only-skipped-kinds.yaml";
  const test::CommandResult validate = test::RunCommand({WASCHED_BINARY, "validate", "-f", file});
  EXPECT_EQ(validate.exit_code, 1);
  const std::vector<std::string> lines = Lines(validate.out, file + ": document ");
  ASSERT_EQ(lines.size(), 4u) << validate.out;
  EXPECT_THAT(lines[0], HasSubstr("PodGroup pg: apiVersion: Unsupported value: "
                                  "\"scheduling.k8s.io/v1\": PodGroup is served as "
                                  "scheduling.k8s.io/v1beta1 and scheduling.k8s.io/v1alpha3"));
  EXPECT_THAT(lines[1], HasSubstr("Job j: apiVersion: Unsupported value: \"batch/v2\": Job is "
                                  "served as batch/v1"));
  EXPECT_THAT(lines[2], HasSubstr("pod p: kind: Unsupported value: \"pod\": unknown kind "
                                  "\"pod\": did you mean \"Pod\" (v1)?"));
  EXPECT_THAT(lines[3], HasSubstr("scheduling.k8s.io/v1alpha2 was removed in v1.37 (it serves "
                                  "scheduling.k8s.io/v1beta1 and scheduling.k8s.io/v1alpha3); "
                                  "run `wasched convert"));
  // The ConfigMap is only a note.
  EXPECT_THAT(validate.out, HasSubstr("warning: skipped 1 object(s) of v1 ConfigMap: not used "
                                      "for scheduling"));
  const test::CommandResult skipped =
      test::RunCommand({WASCHED_BINARY, "validate", "-f", file, "--skip-unknown-kinds"});
  EXPECT_EQ(skipped.exit_code, 1);
  EXPECT_THAT(skipped.out, HasSubstr("no object wasched reads in the input: all 5 object(s) "
                                     "were skipped"));
  EXPECT_THAT(skipped.out, Not(HasSubstr("valid:")));
  const test::CommandResult schedule =
      test::RunCommand({WASCHED_BINARY, "schedule", "-f", file, "--skip-unknown-kinds"});
  EXPECT_EQ(schedule.exit_code, 1);
  EXPECT_EQ(schedule.out, "");
  EXPECT_THAT(schedule.err, HasSubstr("error: no object wasched reads in the input: all 5 "
                                      "object(s) were skipped"));
}

// Issue 20 item 10: a basic PodGroup has no minCount: the table shows `basic` and each pod's
// result (not `scheduled 1/1 (minCount 1)`), its failure message no minCount, and its JSON group
// `"policy": "basic"`.
TEST(ValidateCommandTest, BasicPodGroupShowsBasicAndPerPodResults) {
  const std::string file = kDir + "job-basic-policy.yaml";
  const test::CommandResult table = test::RunCommand({WASCHED_BINARY, "schedule", "-f", file});
  ASSERT_EQ(table.exit_code, 0) << table.err;
  EXPECT_THAT(table.out, ::testing::MatchesRegex(
                             "PodGroup default/etl-[a-z0-9-]+  scheduled 1 \\(basic\\)  "
                             "PodGroupInitiallyScheduled=True Scheduled\n"
                             "  default/etl-[a-z0-9]+  PENDING  Unschedulable: [^\n]*0/1 "
                             "nodes are available: 1 Insufficient cpu\\.[^\n]*\n"
                             "  default/etl-[a-z0-9]+  n1\n\n1 bound, 1 pending\n"));
  EXPECT_THAT(table.out, Not(HasSubstr("minCount")));
  const test::CommandResult json =
      test::RunCommand({WASCHED_BINARY, "schedule", "-f", file, "-o", "json"});
  ASSERT_EQ(json.exit_code, 0) << json.err;
  const nlohmann::json doc = nlohmann::json::parse(json.out);
  ASSERT_EQ(doc["groups"].size(), 1u);
  EXPECT_EQ(doc["groups"][0]["policy"], "basic");
  EXPECT_EQ(doc["groups"][0]["scheduled"], 1);
}

// Issue 19: pod affinity terms and topology spread constraints are validated as the API server
// validates them (validation/pod_affinity_validation.h), in Pods and in pod templates, with
// upstream's paths and messages; `schedule` refuses the input with the same lines.
TEST(ValidateCommandTest, PodAffinityAndSpreadConstraintErrors) {
  const std::string file = kDir + "pod-affinity-spread.yaml";
  const test::CommandResult validate = test::RunCommand({WASCHED_BINARY, "validate", "-f", file});
  ASSERT_EQ(validate.signal, 0);
  EXPECT_EQ(validate.exit_code, 1) << validate.out << validate.err;
  EXPECT_THAT(validate.out,
              HasSubstr(file + ": document 2: Pod default/web: spec.affinity.podAntiAffinity."
                               "requiredDuringSchedulingIgnoredDuringExecution[0].topologyKey: "
                               "Required value: can not be empty\n"));
  EXPECT_THAT(validate.out,
              HasSubstr(file + ": document 3: Deployment default/api: spec.template.spec."
                               "topologySpreadConstraints[0].whenUnsatisfiable: Unsupported "
                               "value: \"\": supported values: \"DoNotSchedule\", "
                               "\"ScheduleAnyway\"\n"));
  const test::CommandResult schedule = test::RunCommand({WASCHED_BINARY, "schedule", "-f", file});
  EXPECT_EQ(schedule.exit_code, 1);
  EXPECT_EQ(schedule.out, "");
  EXPECT_THAT(schedule.err, HasSubstr("topologyKey: Required value: can not be empty"));
}


const std::string kBadDir = std::string(WASCHED_TESTDATA_DIR) + "/data/bad/";

// A Pod naming a PodGroup the input lacks: the v1.37.2 API server creates it (differential cases
// corpus.bad_missing-podgroup and kubernetes-website_workload-api_…_workload-podgroup-pod: 0
// errors), and its scheduler holds the pod at PreEnqueue until the PodGroup appears. `validate`
// warns (exit 0); `schedule` reports the pod pending without a condition (v1.37.2 writes none),
// upstream's message as `held`.
TEST(ValidateCommandTest, PodOfAMissingPodGroupIsAWarningAndWaits) {
  const std::string file = kBadDir + "missing-podgroup.yaml";
  const test::CommandResult validate =
      test::RunCommand({WASCHED_BINARY, "validate", "-f", file, "-o", "json"});
  ASSERT_EQ(validate.exit_code, 0) << validate.out << validate.err;
  const nlohmann::json report = nlohmann::json::parse(validate.out);
  EXPECT_TRUE(report["errors"].empty()) << validate.out;
  ASSERT_EQ(report["warnings"].size(), 1u) << validate.out;
  EXPECT_THAT(report["warnings"][0].get<std::string>(),
              HasSubstr("Pod default/orphan: spec.schedulingGroup.podGroupName: Not found: "
                        "\"trainers\": the PodGroup is not in the input; the API server accepts "
                        "the pod, and the scheduler holds it at PreEnqueue until the PodGroup "
                        "exists"));

  const test::CommandResult schedule =
      test::RunCommand({WASCHED_BINARY, "schedule", "-f", file, "-o", "json"});
  ASSERT_EQ(schedule.exit_code, 0) << schedule.err;
  EXPECT_THAT(schedule.err, HasSubstr("warning: "));
  const nlohmann::json result = nlohmann::json::parse(schedule.out);
  bool seen = false;
  for (const nlohmann::json& pod : result["pending"]) {
    if (pod["pod"] != "default/orphan") continue;
    seen = true;
    EXPECT_EQ(pod["reason"], "") << pod.dump();
    EXPECT_EQ(pod["message"], "") << pod.dump();
    EXPECT_EQ(pod["held"],
              "waiting for pods's pod group \"trainers\" to appear in scheduling queue")
        << pod.dump();
  }
  EXPECT_TRUE(seen) << schedule.out;
}

// Quantities beyond int64 (differential cases corpus.bad_overflow-quantity and
// bad_overflow-exponent: the v1.37.2 API server accepts them, 0 errors): a warning, the value
// taken as int64's maximum, and the pod pending on the 32Gi node (no overflow on the way).
TEST(ValidateCommandTest, QuantitiesBeyondInt64AreWarningsAsUpstreamAcceptsThem) {
  for (const char* name : {"overflow-quantity.yaml", "overflow-exponent.yaml"}) {
    const std::string file = kBadDir + name;
    const test::CommandResult validate = test::RunCommand({WASCHED_BINARY, "validate", "-f", file});
    EXPECT_EQ(validate.exit_code, 0) << validate.out << validate.err;
    EXPECT_THAT(validate.out,
                HasSubstr("spec.containers[0].resources.requests[memory]: quantity "));
    EXPECT_THAT(validate.out, HasSubstr("is beyond what the scheduler can represent (whole units "
                                        "in int64); it is taken as 9223372036854775807"));
    const test::CommandResult schedule = test::RunCommand({WASCHED_BINARY, "schedule", "-f", file});
    EXPECT_EQ(schedule.exit_code, 0) << schedule.err;
  }
  const test::CommandResult schedule =
      test::RunCommand({WASCHED_BINARY, "schedule", "-f", kBadDir + "overflow-quantity.yaml"});
  EXPECT_THAT(schedule.out, HasSubstr("Insufficient memory"));
}

// YAML 1.1: `name: y` is a boolean for kubectl's reader (sigs.k8s.io/yaml, go-yaml v2), so the
// v1.37.2 API server refuses the second Job of jobs-invalid/duplicate-uid.yaml ("cannot
// unmarshal bool into Go struct field ObjectMeta.metadata.name of type string"; the differential
// records `error Job default/ Invalid metadata.name`) and never sees a duplicate uid.
TEST(ValidateCommandTest, UnquotedYIsABooleanNameAsForKubectl) {
  const std::string file = std::string(WASCHED_TESTDATA_DIR) + "/data/jobs-invalid/duplicate-uid.yaml";
  const test::CommandResult validate =
      test::RunCommand({WASCHED_BINARY, "validate", "-f", file, "-o", "json"});
  EXPECT_EQ(validate.exit_code, 1);
  const nlohmann::json report = nlohmann::json::parse(validate.out);
  ASSERT_EQ(report["errors"].size(), 1u) << validate.out;
  EXPECT_EQ(report["errors"][0]["object"], "Job default/");
  EXPECT_EQ(report["errors"][0]["type"], "Invalid");
  EXPECT_EQ(report["errors"][0]["field"], "metadata.name");
  EXPECT_EQ(report["errors"][0]["detail"], "expected string, got boolean y");
}

}  // namespace
}  // namespace wasched
