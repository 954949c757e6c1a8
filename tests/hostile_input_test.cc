// File: tests/hostile_input_test.cc
//
// The hostile-input corpus (issue 10; tests/data/hostile/, written by its generate.py): malformed
// YAML and JSON, binary garbage, wrong types, lists for maps, huge / negative / unknown-suffix
// quantities, deep nesting, alias bombs, duplicate names, dangling references. The real
// `wasched schedule -f FILE -o json` must answer each with exit 1, nothing on stdout, no crash
// and no sanitizer report, and a first `error:` line naming the file and document — exactly the
// line recorded for that file in tests/data/hostile/expected.txt (`<file>\t<line>`, the folder
// left out of the path). A few inputs the v1.37.2 API server accepts (quantities beyond int64, a
// pod naming a missing PodGroup) are recorded with their first `warning:` line instead: exit 0,
// a JSON result, and still no crash and no sanitizer report. WASCHED_UPDATE_GOLDEN=1 rewrites expected.txt from the binary; read the
// diff before committing it. See also tests/bad_input_test.cc (named cases with substrings).
#include <algorithm>
#include <cctype>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "support/process.h"

namespace wasched {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using ::testing::Not;

const std::string kHostileDir = std::string(WASCHED_TESTDATA_DIR) + "/data/hostile/";
const std::string kExpectedFile = kHostileDir + "expected.txt";

// HostileFiles: every input of the corpus (generate.py and expected.txt excepted), sorted.
std::vector<std::string> HostileFiles() {
  std::vector<std::string> files;
  for (const auto& entry : fs::directory_iterator(kHostileDir)) {
    const std::string name = entry.path().filename().string();
    if (name == "generate.py" || name == "expected.txt") continue;
    files.push_back(name);
  }
  std::sort(files.begin(), files.end());
  return files;
}

// ExpectedLines: expected.txt as file → first error line.
std::map<std::string, std::string> ExpectedLines() {
  std::map<std::string, std::string> out;
  std::istringstream in(test::ReadFile(kExpectedFile));
  std::string line;
  while (std::getline(in, line)) {
    const size_t tab = line.find('\t');
    if (tab != std::string::npos) out[line.substr(0, tab)] = line.substr(tab + 1);
  }
  return out;
}

test::CommandResult RunSchedule(const std::string& file) {
  return test::RunCommand({WASCHED_BINARY, "schedule", "-f", kHostileDir + file, "-o", "json"});
}

// FirstLine: the first stderr line starting with `prefix`, with the folder removed from
// paths so expected.txt does not depend on where the repository lives.
std::string FirstLine(const std::string& err, const std::string& prefix) {
  std::istringstream in(err);
  std::string line;
  while (std::getline(in, line)) {
    if (!line.starts_with(prefix)) continue;
    for (size_t at = line.find(kHostileDir); at != std::string::npos;
         at = line.find(kHostileDir)) {
      line.erase(at, kHostileDir.size());
    }
    return line;
  }
  return "";
}

std::string FirstErrorLine(const std::string& err) { return FirstLine(err, "error: "); }

// Recorded: what expected.txt records for a run: its first error line, or for an accepted
// input (exit 0) its first warning line.
std::string Recorded(const test::CommandResult& r) {
  return r.exit_code == 0 ? FirstLine(r.err, "warning: ") : FirstErrorLine(r.err);
}

std::string TestName(const ::testing::TestParamInfo<std::string>& info) {
  std::string name = info.param;
  for (char& c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  return name;
}

class HostileInputTest : public ::testing::TestWithParam<std::string> {};

TEST_P(HostileInputTest, ExitsOneWithLocatedErrorAndEmptyStdout) {
  const std::string& file = GetParam();
  const test::CommandResult r = RunSchedule(file);
  EXPECT_EQ(r.signal, 0) << "wasched crashed (signal " << r.signal << ")\nstderr:\n" << r.err;
  EXPECT_THAT(r.err, Not(HasSubstr("runtime error:")));  // UBSan
  EXPECT_THAT(r.err, Not(HasSubstr("Sanitizer")));       // ASan / LSan
  const auto expected = ExpectedLines();
  const auto it = expected.find(file);
  ASSERT_NE(it, expected.end()) << file << " has no line in expected.txt; run with "
                                << "WASCHED_UPDATE_GOLDEN=1 and read the diff";
  if (it->second.starts_with("warning: ")) {  // accepted, as the API server accepts it
    EXPECT_EQ(r.exit_code, 0) << "stderr:\n" << r.err;
    EXPECT_TRUE(r.out.starts_with("{")) << r.out;
    EXPECT_EQ(FirstLine(r.err, "warning: "), it->second) << "full stderr:\n" << r.err;
    return;
  }
  EXPECT_EQ(r.exit_code, 1) << "stderr:\n" << r.err;
  EXPECT_EQ(r.out, "") << "stdout must stay empty on invalid input";
  const std::string first = FirstErrorLine(r.err);
  // `error: <file>: [document <n>: ]…`: the file (and the document, unless the file is not text
  // at all), then the object and field path or the line and column of text that is not YAML.
  EXPECT_TRUE(first.starts_with("error: " + file + ": ")) << first;
  EXPECT_EQ(first, it->second) << "full stderr:\n" << r.err;
}

INSTANTIATE_TEST_SUITE_P(Corpus, HostileInputTest, ::testing::ValuesIn(HostileFiles()), TestName);

// The corpus holds at least 50 inputs (issue 10), and expected.txt exactly one line for each.
// WASCHED_UPDATE_GOLDEN=1 rewrites expected.txt from the binary instead.
TEST(HostileInputCorpus, ExpectedLinesCoverEveryInput) {
  const std::vector<std::string> files = HostileFiles();
  EXPECT_GE(files.size(), 50u);
  const char* update = std::getenv("WASCHED_UPDATE_GOLDEN");
  if (update != nullptr && std::string(update) == "1") {
    std::ofstream out(kExpectedFile, std::ios::binary | std::ios::trunc);
    for (const std::string& file : files) out << file << '\t' << Recorded(RunSchedule(file)) << '\n';
    ASSERT_TRUE(out.good()) << "cannot write " << kExpectedFile;
  }
  const auto expected = ExpectedLines();
  std::vector<std::string> listed;
  for (const auto& [file, line] : expected) listed.push_back(file);
  EXPECT_EQ(listed, files) << "expected.txt and the files of tests/data/hostile/ differ";
}

}  // namespace
}  // namespace wasched
