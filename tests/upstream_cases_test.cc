// File: tests/upstream_cases_test.cc
//
// Every case of sections A (Workload create), B (Workload update) and C (Job spec.scheduling) of
// spec/upstream-cases.md, through the real binary's JSON report. Each case is a folder
// tests/data/upstream-cases/<section>/<ID>/ holding
//   new.yaml      the objects to validate (one object per variant of the case, named after it)
//   old.yaml      the stored objects, for update cases (`validate --old`)
//   gates.txt     the --feature-gates value mirroring the gates upstream's test enabled
//                 (absent: wasched's defaults, every gate on)
//   expected.txt  one line per expected error: `object | type | field | origin [| detail]`
//                 (`-` = no origin; the detail is a substring to find), `#` comments
// The test is named by the case ID (`UpstreamCases/UpstreamCaseTest.Cli/A01`). It runs
// `wasched validate -f new.yaml [--old old.yaml] [--feature-gates ...] -o json` and checks:
// no crash, exit 1 exactly when errors are expected, and the (object, type, field, origin)
// multiset equals expected.txt — no error missing, none extra. `C04_policy_spelling` is an extra
// case: the older alpha field names (`policy`, `constraints`) give errors at the paths written.
// Section Q holds QA issue 3's findings (Q<finding number>), each folder's new.yaml header saying
// what upstream reports.
#include <algorithm>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "support/process.h"

namespace wasched {
namespace {

namespace fs = std::filesystem;

const fs::path kCasesRoot = fs::path(WASCHED_TESTDATA_DIR) / "data" / "upstream-cases";

// ExpectedError: one line of expected.txt.
struct ExpectedError {
  std::string key;     // "object | type | field | origin"
  std::string detail;  // substring the detail must contain ("" = not checked)
};

std::string Trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t\r");
  if (b == std::string::npos) return "";
  return s.substr(b, s.find_last_not_of(" \t\r") - b + 1);
}

std::vector<std::string> SplitBar(const std::string& line) {
  std::vector<std::string> parts;
  std::size_t start = 0;
  while (true) {
    const std::size_t bar = line.find(" | ", start);
    parts.push_back(Trim(line.substr(start, bar == std::string::npos ? bar : bar - start)));
    if (bar == std::string::npos) return parts;
    start = bar + 3;
  }
}

std::string Key(const std::string& object, const std::string& type, const std::string& field,
                const std::string& origin) {
  return object + " | " + type + " | " + field + " | " + (origin.empty() ? "-" : origin);
}

std::vector<ExpectedError> ReadExpected(const fs::path& file) {
  std::vector<ExpectedError> out;
  std::istringstream in(test::ReadFile(file.string()));
  std::string line;
  while (std::getline(in, line)) {
    line = Trim(line);
    if (line.empty() || line[0] == '#') continue;
    const std::vector<std::string> p = SplitBar(line);
    if (p.size() < 4) {
      ADD_FAILURE() << file << ": malformed line: " << line;
      continue;
    }
    out.push_back({Key(p[0], p[1], p[2], p[3] == "-" ? "" : p[3]), p.size() > 4 ? p[4] : ""});
  }
  return out;
}

// CaseDirs: every <section>/<ID> folder, sorted by ID.
std::vector<fs::path> CaseDirs() {
  std::vector<fs::path> dirs;
  for (const char* section : {"A", "B", "C", "Q"}) {
    const fs::path root = kCasesRoot / section;
    if (!fs::is_directory(root)) continue;
    for (const auto& entry : fs::directory_iterator(root)) {
      if (entry.is_directory()) dirs.push_back(entry.path());
    }
  }
  std::sort(dirs.begin(), dirs.end(),
            [](const fs::path& a, const fs::path& b) { return a.filename() < b.filename(); });
  return dirs;
}

class UpstreamCaseTest : public ::testing::TestWithParam<fs::path> {};

TEST_P(UpstreamCaseTest, Cli) {
  const fs::path dir = GetParam();
  std::vector<std::string> argv = {WASCHED_BINARY, "validate", "-f", (dir / "new.yaml").string(),
                                   "-o", "json"};
  if (fs::exists(dir / "old.yaml")) {
    argv.push_back("--old");
    argv.push_back((dir / "old.yaml").string());
  }
  if (fs::exists(dir / "gates.txt")) {
    argv.push_back("--feature-gates");
    argv.push_back(Trim(test::ReadFile((dir / "gates.txt").string())));
    argv.back().erase(std::remove(argv.back().begin(), argv.back().end(), '\n'),
                      argv.back().end());
  }
  const std::vector<ExpectedError> expected = ReadExpected(dir / "expected.txt");
  const test::CommandResult r = test::RunCommand(argv);
  ASSERT_EQ(r.signal, 0) << "wasched crashed (signal " << r.signal << ")\n" << r.err;
  EXPECT_EQ(r.exit_code, expected.empty() ? 0 : 1) << r.out << r.err;

  nlohmann::json doc;
  try {
    doc = nlohmann::json::parse(r.out);
  } catch (const std::exception& e) {
    FAIL() << "stdout is not JSON (" << e.what() << "):\n" << r.out << "\nstderr:\n" << r.err;
  }
  std::vector<std::string> got;
  std::vector<std::pair<std::string, std::string>> got_details;
  for (const auto& e : doc.at("errors")) {
    const std::string key = Key(e.at("object"), e.at("type"), e.at("field"), e.at("origin"));
    got.push_back(key);
    got_details.emplace_back(key, e.at("detail").get<std::string>());
  }
  std::vector<std::string> want;
  for (const ExpectedError& e : expected) want.push_back(e.key);
  std::sort(got.begin(), got.end());
  std::sort(want.begin(), want.end());
  EXPECT_EQ(got, want) << "full report:\n" << r.out;

  for (const ExpectedError& e : expected) {
    if (e.detail.empty()) continue;
    const bool found = std::any_of(got_details.begin(), got_details.end(), [&](const auto& g) {
      return g.first == e.key && g.second.find(e.detail) != std::string::npos;
    });
    EXPECT_TRUE(found) << e.key << ": no detail containing \"" << e.detail << "\"\n" << r.out;
  }
}

INSTANTIATE_TEST_SUITE_P(UpstreamCases, UpstreamCaseTest, ::testing::ValuesIn(CaseDirs()),
                         [](const ::testing::TestParamInfo<fs::path>& info) {
                           return info.param.filename().string();
                         });

// The case folders exist: without them the suite above would silently run nothing.
TEST(UpstreamCasesTest, EverySectionHasCases) {
  const std::vector<fs::path> dirs = CaseDirs();
  EXPECT_GE(std::count_if(dirs.begin(), dirs.end(),
                          [](const fs::path& d) { return d.filename().string()[0] == 'A'; }),
            42);
  EXPECT_GE(std::count_if(dirs.begin(), dirs.end(),
                          [](const fs::path& d) { return d.filename().string()[0] == 'B'; }),
            18);
  EXPECT_GE(std::count_if(dirs.begin(), dirs.end(),
                          [](const fs::path& d) { return d.filename().string()[0] == 'C'; }),
            13);
}

}  // namespace
}  // namespace wasched
