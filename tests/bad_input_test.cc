// File: tests/bad_input_test.cc
//
// The real `wasched` binary on bad input (tests/data/bad/): design.md "Errors for bad input"
// says exit 1, nothing on stdout, and a message on stderr naming the file and the field path;
// never a crash, never partial output.
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "support/process.h"

namespace wasched {
namespace {

using ::testing::HasSubstr;

const std::string kBadDir = std::string(WASCHED_TESTDATA_DIR) + "/data/bad/";

// BadInputCase: files given to `schedule -f`, and the texts stderr must hold.
struct BadInputCase {
  std::string name;
  std::vector<std::string> files;
  std::vector<std::string> stderr_holds;
};

void PrintTo(const BadInputCase& c, std::ostream* os) { *os << c.name; }

class BadInputTest : public ::testing::TestWithParam<BadInputCase> {};

TEST_P(BadInputTest, ScheduleExitsOneWithFieldPathOnStderr) {
  const BadInputCase& c = GetParam();
  std::vector<std::string> argv = {WASCHED_BINARY, "schedule"};
  for (const auto& file : c.files) {
    argv.push_back("-f");
    argv.push_back(kBadDir + file);
  }
  argv.push_back("-o");
  argv.push_back("json");
  const test::CommandResult r = test::RunCommand(argv);
  EXPECT_EQ(r.signal, 0) << "wasched crashed (signal " << r.signal << ")\nstderr:\n" << r.err;
  EXPECT_EQ(r.exit_code, 1) << "stderr:\n" << r.err;
  EXPECT_EQ(r.out, "") << "stdout must stay empty on invalid input";
  for (const auto& text : c.stderr_holds) EXPECT_THAT(r.err, HasSubstr(text));
}

// The same inputs through `validate`: exit 1 as well (its report goes to stdout by contract).
TEST_P(BadInputTest, ValidateExitsOne) {
  const BadInputCase& c = GetParam();
  std::vector<std::string> argv = {WASCHED_BINARY, "validate"};
  for (const auto& file : c.files) {
    argv.push_back("-f");
    argv.push_back(kBadDir + file);
  }
  const test::CommandResult r = test::RunCommand(argv);
  EXPECT_EQ(r.signal, 0) << "wasched crashed (signal " << r.signal << ")\nstderr:\n" << r.err;
  EXPECT_EQ(r.exit_code, 1) << "stdout:\n" << r.out << "stderr:\n" << r.err;
}

INSTANTIATE_TEST_SUITE_P(
    BadInputs, BadInputTest,
    ::testing::Values(
        BadInputCase{"MalformedYaml", {"malformed.yaml"}, {"malformed.yaml"}},
        BadInputCase{"NegativeQuantity",
                     {"negative-quantity.yaml"},
                     {"negative-quantity.yaml", "spec.containers[0].resources.requests[cpu]"}},
        // overflow-quantity.yaml, overflow-exponent.yaml and missing-podgroup.yaml are accepted
        // with a warning, as the API server accepts them (ValidateCommandTest).
        BadInputCase{"MissingImage", {"missing-image.yaml"},
                     {"missing-image.yaml", "Pod default/no-image", "spec.containers[0].image: Required value"}},
        BadInputCase{"NodeWithoutName", {"node-without-name.yaml"}, {"node-without-name.yaml", "metadata.name"}},
        BadInputCase{"DuplicateNode",
                     {"duplicate-node/node-a.yaml", "duplicate-node/node-b.yaml"},
                     {"node-b.yaml", "metadata.name", "node-1"}}),
    [](const ::testing::TestParamInfo<BadInputCase>& info) { return info.param.name; });

}  // namespace
}  // namespace wasched
