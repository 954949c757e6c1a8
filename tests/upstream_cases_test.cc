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

#include "sched/scheduler.h"
#include "support/builders.h"
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

// ---------------------------------------------------------------------------------------------
// Section G, runtime hierarchy validation (G04–G08, from KEP-6012's integration test): node with
// 10 CPU, one 1-CPU pod in pg1, CompositePodGroups linked as the case says, the Workload "wl" not
// in the input. KEP-6012 refuses these trees, but the v1.37.2 control plane schedules each of them
// (observed: tests/differential scenarios hv-g04 … hv-g08; docs/upstream.md), so the pod binds and
// pg1 is PodGroupInitiallyScheduled=True.

struct HierarchyCase {
  const char* id;
  std::vector<api::CompositePodGroup> composites;
  std::vector<api::PodGroup> pod_groups;
};

api::CompositePodGroup Cpg(const std::string& name, const std::string& parent = "") {
  auto b = test::MakeCompositePodGroup().Name(name).WorkloadRef("wl", name);
  if (!parent.empty()) b.Parent(parent);
  return b.Obj();
}

api::PodGroup Pg1(const std::string& parent) {
  return test::MakePodGroup().Name("pg1").MinCount(1).Parent(parent).WorkloadRef("wl", "pg1").Obj();
}

std::vector<HierarchyCase> HierarchyCases() {
  std::vector<HierarchyCase> cases;
  const std::vector<api::CompositePodGroup> chain = {Cpg("cpg-root"), Cpg("cpg1", "cpg-root"),
                                                     Cpg("cpg2", "cpg1"), Cpg("cpg3", "cpg2")};
  cases.push_back({"G04", chain, {Pg1("cpg3")}});       // pg1 at depth 5
  cases.push_back({"G05", chain, {Pg1("cpg-root")}});   // empty cpg3 at depth 4
  {
    api::CompositePodGroup root = Cpg("cpg-root");
    root.workload_ref = api::WorkloadReference{"wl-1", "cpg-root"};
    api::PodGroup pg = Pg1("cpg-root");
    pg.workload_ref = api::WorkloadReference{"wl-2", "pg1"};
    cases.push_back({"G06", {root}, {pg}});
  }
  {
    api::CompositePodGroup root = Cpg("cpg-root");
    root.scheduling_policy.basic.reset();
    root.scheduling_policy.gang = api::CompositeGangSchedulingPolicy{1};
    api::PodGroup pg = Pg1("cpg-root");
    pg.scheduling_policy.gang.reset();
    pg.scheduling_policy.basic = api::BasicSchedulingPolicy{};
    cases.push_back({"G07", {root}, {pg}});
  }
  {
    api::CompositePodGroup root = Cpg("cpg-root");
    root.disruption_mode = api::DisruptionMode{.single = false, .all = true};
    api::PodGroup pg = Pg1("cpg-root");
    pg.disruption_mode = api::DisruptionMode{.single = true, .all = false};
    cases.push_back({"G08", {root}, {pg}});
  }
  return cases;
}

class UpstreamHierarchyValidationTest : public ::testing::TestWithParam<HierarchyCase> {};

TEST_P(UpstreamHierarchyValidationTest, TreeIsScheduledAsV1372Does) {
  api::ObjectSet in;
  in.nodes.push_back(test::MakeNode().Name("node-1").Capacity({{"cpu", 10000}, {"pods", 110}}).Obj());
  in.composite_pod_groups = GetParam().composites;
  in.pod_groups = GetParam().pod_groups;
  in.pods.push_back(test::MakePod().Name("p1").Group("pg1").Req({{"cpu", 1000}}).Obj());
  sched::SchedulerOptions options;
  options.verify = true;
  const sched::ScheduleResult r = sched::Schedule(in, options);
  ASSERT_EQ(r.bindings.size(), 1u);
  EXPECT_EQ(r.bindings[0].node, "node-1");
  EXPECT_TRUE(r.pending.empty());
  for (const sched::GroupResult& g : r.groups) {
    if (g.kind != "PodGroup") continue;
    ASSERT_EQ(g.conditions.size(), 1u) << g.name;
    EXPECT_EQ(g.conditions[0].type, api::kPodGroupInitiallyScheduled) << g.name;
    EXPECT_EQ(g.conditions[0].status, "True") << g.name;
  }
}

INSTANTIATE_TEST_SUITE_P(SectionG, UpstreamHierarchyValidationTest,
                         ::testing::ValuesIn(HierarchyCases()),
                         [](const ::testing::TestParamInfo<HierarchyCase>& info) {
                           return std::string(info.param.id);
                         });

}  // namespace
}  // namespace wasched
