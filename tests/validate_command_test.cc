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
TEST(ValidateCommandTest, JobControllerObjectsAreCheckedAsScheduleChecksThem) {
  const std::string file = kDir + "job-missing-priority-class.yaml";
  const test::CommandResult validate = test::RunCommand({WASCHED_BINARY, "validate", "-f", file});
  const test::CommandResult schedule = test::RunCommand({WASCHED_BINARY, "schedule", "-f", file});
  EXPECT_EQ(validate.exit_code, 1);
  EXPECT_EQ(schedule.exit_code, 1);
  EXPECT_EQ(schedule.out, "");
  const std::vector<std::string> reported = Lines(validate.out, file);
  ASSERT_EQ(reported.size(), 3u) << validate.out;
  EXPECT_THAT(reported[0], HasSubstr("spec.priorityClassName: Not found: \"ghost\": (created by "
                                     "the Job controller; the API server would refuse it)"));
  EXPECT_EQ(Lines(schedule.err, "error: " + file), reported);
  const test::CommandResult json =
      test::RunCommand({WASCHED_BINARY, "validate", "-f", file, "-o", "json"});
  EXPECT_EQ(json.exit_code, 1);
  EXPECT_EQ(nlohmann::json::parse(json.out)["errors"].size(), 3u);
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

}  // namespace
}  // namespace wasched
