// File: tests/malformed_values_test.cc
//
// Malformed values in Workload, PodGroup, CompositePodGroup and Job manifests (wrong types,
// lists where maps belong, out-of-range numbers, nesting beyond the decoder's bound) through the
// real binary (tests/data/malformed/): `validate` exits 1 with a JSON report naming the field
// path; `schedule` exits 1 with nothing on stdout and the path on stderr; never a crash.
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "support/process.h"

namespace wasched {
namespace {

using ::testing::HasSubstr;

const std::string kDir = std::string(WASCHED_TESTDATA_DIR) + "/data/malformed/";

struct MalformedCase {
  std::string file;
  std::string field;  // the path of the (first) error
};

void PrintTo(const MalformedCase& c, std::ostream* os) { *os << c.file; }

class MalformedValuesTest : public ::testing::TestWithParam<MalformedCase> {};

TEST_P(MalformedValuesTest, ValidateReportsTheFieldPath) {
  const MalformedCase& c = GetParam();
  const test::CommandResult r =
      test::RunCommand({WASCHED_BINARY, "validate", "-f", kDir + c.file, "-o", "json"});
  ASSERT_EQ(r.signal, 0) << "crashed\n" << r.err;
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  const nlohmann::json doc = nlohmann::json::parse(r.out);
  ASSERT_FALSE(doc.at("errors").empty());
  EXPECT_EQ(doc["errors"][0].at("field"), c.field) << r.out;
}

TEST_P(MalformedValuesTest, ScheduleRefusesWithThePathOnStderr) {
  const MalformedCase& c = GetParam();
  const test::CommandResult r =
      test::RunCommand({WASCHED_BINARY, "schedule", "-f", kDir + c.file, "-o", "json"});
  ASSERT_EQ(r.signal, 0) << "crashed\n" << r.err;
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_EQ(r.out, "");
  EXPECT_THAT(r.err, HasSubstr(c.file));
  EXPECT_THAT(r.err, HasSubstr(c.field));
}

// 40 nested templates: read whole, refused by the depth rule at the top-level template, as the
// v1.37.2 API server does ("maximum template hierarchy depth is 4"; differential, observed).
const std::string kDeep = "spec.compositePodGroupTemplates[0]";

INSTANTIATE_TEST_SUITE_P(
    Manifests, MalformedValuesTest,
    ::testing::Values(
        MalformedCase{"workload-templates-map.yaml", "spec.podGroupTemplates"},
        MalformedCase{"workload-policy-list.yaml", "spec.podGroupTemplates[0].schedulingPolicy"},
        MalformedCase{"workload-mincount-string.yaml",
                      "spec.podGroupTemplates[0].schedulingPolicy.gang.minCount"},
        MalformedCase{"workload-mincount-overflow.yaml",
                      "spec.podGroupTemplates[0].schedulingPolicy.gang.minCount"},
        MalformedCase{"workload-topology-key-list.yaml",
                      "spec.podGroupTemplates[0].schedulingConstraints.topology[0].key"},
        MalformedCase{"workload-nested-children-number.yaml",
                      "spec.compositePodGroupTemplates[0].podGroupTemplates"},
        MalformedCase{"workload-nested-too-deep.yaml", kDeep},
        MalformedCase{"podgroup-spec-list.yaml", "spec"},
        MalformedCase{"podgroup-workloadref-string.yaml", "spec.workloadRef"},
        MalformedCase{"podgroup-conditions-map.yaml", "status.conditions"},
        MalformedCase{"compositepodgroup-disruption-string.yaml", "spec.disruptionMode"},
        MalformedCase{"job-scheduling-list.yaml", "spec.scheduling"},
        MalformedCase{"job-gang-string.yaml", "spec.scheduling.schedulingPolicy.gang"},
        MalformedCase{"job-parallelism-fraction.yaml", "spec.parallelism"},
        MalformedCase{"job-template-spec-string.yaml", "spec.template.spec"}),
    [](const ::testing::TestParamInfo<MalformedCase>& info) {
      std::string name = info.param.file.substr(0, info.param.file.find('.'));
      for (char& ch : name) {
        if (ch == '-') ch = '_';
      }
      return name;
    });

}  // namespace
}  // namespace wasched
