// File: tests/scenario_test.cc
//
// Golden scenario runner. Every folder under tests/scenarios/ holds input manifests (*.yaml,
// read in file-name order) and expected.json, the ScheduleResult the `schedule` command must
// print. For each folder:
//   MatchesGolden   library path (codec::LoadPaths → validation::ValidateForSchedule →
//                   sched::Schedule → codec::EncodeScheduleResultJson) equals expected.json
//                   byte for byte. WASCHED_UPDATE_GOLDEN=1 rewrites expected.json instead.
//   Invariants      the checks of support/result_checks.h, then the scenario's own semantic
//                   assertions (below), so a wrong golden file cannot make a wrong engine pass.
//   CliMatchesLibrary  `wasched schedule -f ... -o json` prints the same bytes, exit 0.
// tests/scenarios/README.md says what each scenario checks and where it comes from.
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "api/pod_group.h"
#include "codec/loader.h"
#include "codec/result_encoding.h"
#include "sched/scheduler.h"
#include "support/process.h"
#include "support/result_checks.h"
#include "validation/object_set_validation.h"

namespace wasched {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::StartsWith;

const fs::path kScenarioRoot = fs::path(WASCHED_TESTDATA_DIR) / "scenarios";

// Outcome: one scenario run through the library path; `error` is set when it could not run.
struct Outcome {
  std::string error;
  api::ObjectSet objects;
  sched::ScheduleResult result;
  std::string json;
};

std::vector<std::string> ScenarioNames() {
  std::vector<std::string> names;
  if (!fs::is_directory(kScenarioRoot)) return names;
  for (const auto& entry : fs::directory_iterator(kScenarioRoot)) {
    if (entry.is_directory()) names.push_back(entry.path().filename().string());
  }
  std::sort(names.begin(), names.end());
  return names;
}

std::vector<std::string> ManifestFiles(const std::string& scenario) {
  std::vector<std::string> files;
  for (const auto& entry : fs::directory_iterator(kScenarioRoot / scenario)) {
    const auto ext = entry.path().extension();
    if (entry.is_regular_file() && (ext == ".yaml" || ext == ".yml")) files.push_back(entry.path().string());
  }
  std::sort(files.begin(), files.end());
  return files;
}

std::string JoinErrors(const InputErrors& errors) {
  std::string out;
  for (const auto& e : errors) out += "  " + e.ToString() + "\n";
  return out;
}

// RunScenario: the library path, memoised (S1 is large and three tests read each outcome).
const Outcome& RunScenario(const std::string& scenario) {
  static std::map<std::string, std::unique_ptr<Outcome>> cache;
  auto& slot = cache[scenario];
  if (slot) return *slot;
  slot = std::make_unique<Outcome>();
  Outcome& out = *slot;
  const auto files = ManifestFiles(scenario);
  if (files.empty()) {
    out.error = "no *.yaml manifests in " + (kScenarioRoot / scenario).string();
    return out;
  }
  std::istringstream no_stdin;
  auto loaded = codec::LoadPaths(files, no_stdin);
  if (!loaded) {
    out.error = "codec::LoadPaths failed:\n" + JoinErrors(loaded.error());
    return out;
  }
  out.objects = std::move(loaded->objects);
  if (auto errors = validation::ValidateForSchedule(out.objects); !errors.empty()) {
    out.error = "validation::ValidateForSchedule failed:\n" + JoinErrors(errors);
    return out;
  }
  out.result = sched::Schedule(out.objects, sched::SchedulerOptions{.verify = true});
  out.json = codec::EncodeScheduleResultJson(out.result);
  return out;
}

std::vector<std::string> Lines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

// DiffMessage: where two texts first differ, with a few lines of context from each side.
std::string DiffMessage(const std::string& expected, const std::string& actual) {
  const auto want = Lines(expected);
  const auto got = Lines(actual);
  size_t first = 0;
  while (first < want.size() && first < got.size() && want[first] == got[first]) ++first;
  std::ostringstream msg;
  msg << "first difference at line " << first + 1 << " (expected " << want.size() << " lines, got "
      << got.size() << " lines)\n";
  const size_t from = first >= 3 ? first - 3 : 0;
  auto excerpt = [&](const char* label, const std::vector<std::string>& lines) {
    msg << "--- " << label << "\n";
    for (size_t i = from; i < std::min(lines.size(), first + 6); ++i) {
      msg << (i == first ? "> " : "  ") << i + 1 << ": " << lines[i] << "\n";
    }
  };
  excerpt("expected.json", want);
  excerpt("actual", got);
  if (want.size() == got.size() && first == want.size()) msg << "(texts differ only in the final newline)\n";
  return msg.str();
}

// ---------------------------------------------------------------------------------------------
// Scenario-specific semantic assertions. Keys are folder names; every folder must have one.

using Check = std::function<void(const Outcome&)>;

std::string Pod(const std::string& name) { return "default/" + name; }

int CountBound(const Outcome& o, const std::vector<std::string>& pods) {
  const auto bound = test::BindingMap(o.result);
  return static_cast<int>(std::count_if(pods.begin(), pods.end(), [&](const auto& p) { return bound.contains(p); }));
}

void ExpectAllPending(const Outcome& o, const std::vector<std::string>& pods) {
  const auto pending = test::PendingMap(o.result);
  for (const auto& p : pods) EXPECT_TRUE(pending.contains(p)) << p << " should be pending";
}

void ExpectAllBound(const Outcome& o, const std::vector<std::string>& pods, const std::string& node = {}) {
  const auto bound = test::BindingMap(o.result);
  for (const auto& p : pods) {
    auto it = bound.find(p);
    if (it == bound.end()) {
      ADD_FAILURE() << p << " should be bound";
    } else if (!node.empty()) {
      EXPECT_EQ(it->second, node) << p;
    }
  }
}

// ExpectCondition: PodGroupInitiallyScheduled of `group` has `status` and `reason`; returns it.
const api::Condition* ExpectCondition(const Outcome& o, const std::string& group, const std::string& status,
                                      const std::string& reason) {
  const sched::GroupResult* g = test::FindGroup(o.result, "PodGroup", group);
  if (g == nullptr) {
    ADD_FAILURE() << "no group result for PodGroup " << group;
    return nullptr;
  }
  const api::Condition* c = test::FindCondition(*g, api::kPodGroupInitiallyScheduled);
  if (c == nullptr) {
    ADD_FAILURE() << "PodGroup " << group << " has no " << api::kPodGroupInitiallyScheduled << " condition";
    return nullptr;
  }
  EXPECT_EQ(c->status, status) << group;
  EXPECT_EQ(c->reason, reason) << group;
  return c;
}

int Scheduled(const Outcome& o, const std::string& group) {
  const sched::GroupResult* g = test::FindGroup(o.result, "PodGroup", group);
  return g == nullptr ? -1 : g->scheduled;
}

std::vector<std::string> Names(std::initializer_list<const char*> names) {
  std::vector<std::string> out;
  for (const char* n : names) out.push_back(Pod(n));
  return out;
}

// ExpectHierarchyRefused: a tree the scheduler refuses (validatePodGroup, a cycle): every
// CompositePodGroup and PodGroup of the tree has a False *InitiallyScheduled condition with
// reason SchedulerError whose message contains `why`; its pods are pending SchedulerError;
// nothing binds.
void ExpectHierarchyRefused(const Outcome& o, std::initializer_list<const char*> composites,
                            std::initializer_list<const char*> pod_groups,
                            std::initializer_list<const char*> pods, const std::string& why) {
  EXPECT_THAT(o.result.bindings, IsEmpty());
  auto check = [&](const char* kind, const char* type, const char* name) {
    const sched::GroupResult* g = test::FindGroup(o.result, kind, Pod(name));
    if (g == nullptr) {
      ADD_FAILURE() << "no group result for " << kind << " " << name;
      return;
    }
    const api::Condition* c = test::FindCondition(*g, type);
    if (c == nullptr) {
      ADD_FAILURE() << kind << " " << name << " has no " << type << " condition";
      return;
    }
    EXPECT_EQ(c->status, "False") << name;
    EXPECT_EQ(c->reason, api::kReasonSchedulerError) << name;
    EXPECT_THAT(c->message, HasSubstr(why)) << name;
  };
  for (const char* n : composites) {
    check("CompositePodGroup", api::kCompositePodGroupInitiallyScheduled, n);
  }
  for (const char* n : pod_groups) check("PodGroup", api::kPodGroupInitiallyScheduled, n);
  const auto pending = test::PendingMap(o.result);
  for (const auto& p : Names(pods)) {
    auto it = pending.find(p);
    if (it == pending.end()) {
      ADD_FAILURE() << p << " should be pending";
      continue;
    }
    EXPECT_EQ(it->second.reason, api::kReasonSchedulerError) << p;
  }
}

// ExpectPendingWith: each pod is pending with `reason` and a message containing `message`.
void ExpectPendingWith(const Outcome& o, const std::vector<std::string>& pods, const std::string& reason,
                       const std::string& message) {
  const auto pending = test::PendingMap(o.result);
  for (const auto& p : pods) {
    auto it = pending.find(p);
    if (it == pending.end()) {
      ADD_FAILURE() << p << " should be pending";
      continue;
    }
    EXPECT_EQ(it->second.reason, reason) << p;
    EXPECT_THAT(it->second.message, HasSubstr(message)) << p;
  }
}

// ExpectHeld: each pod is pending, held at PreEnqueue: no PodScheduled condition (reason and
// message empty, as v1.37.2 writes none) and a `held` explanation containing `held`.
void ExpectHeld(const Outcome& o, const std::vector<std::string>& pods, const std::string& held) {
  const auto pending = test::PendingMap(o.result);
  for (const auto& p : pods) {
    auto it = pending.find(p);
    if (it == pending.end()) {
      ADD_FAILURE() << p << " should be pending";
      continue;
    }
    EXPECT_EQ(it->second.reason, "") << p;
    EXPECT_EQ(it->second.message, "") << p;
    EXPECT_THAT(it->second.held, HasSubstr(held)) << p;
  }
}

// Evicted: the pods `evictions` names (sorted), checking each record's preemptor is `preemptor`.
std::vector<std::string> Evicted(const Outcome& o, const std::string& preemptor) {
  std::vector<std::string> out;
  for (const auto& e : o.result.evictions) {
    EXPECT_EQ(e.preemptor, preemptor) << e.pod;
    out.push_back(e.pod);
  }
  std::sort(out.begin(), out.end());
  return out;
}

// ExpectDisrupted: `group` is reported disrupted, and, as v1.37.2 (which marks only the victim
// pods), carries no DisruptionTarget condition.
void ExpectDisrupted(const Outcome& o, const std::string& group) {
  const sched::GroupResult* g = test::FindGroup(o.result, "PodGroup", group);
  ASSERT_NE(g, nullptr) << group;
  EXPECT_TRUE(g->disrupted) << group;
  EXPECT_EQ(test::FindCondition(*g, api::kDisruptionTarget), nullptr) << group;
}

void CheckS6(const Outcome& o) {
  // The only valid assignment: X (30 CPU) on node-b (31 CPU), Y (50 CPU) on node-a (53 CPU).
  ExpectAllBound(o, {Pod("task-x")}, "node-b");
  ExpectAllBound(o, {Pod("task-y")}, "node-a");
  EXPECT_EQ(Scheduled(o, "default/job"), 2);
  ExpectCondition(o, "default/job", "True", api::kReasonScheduled);
}

// NodeLabel: the value of label `key` on node `node` ("" when absent).
std::string NodeLabel(const Outcome& o, const std::string& node, const std::string& key) {
  for (const auto& n : o.objects.nodes) {
    if (n.meta.name != node) continue;
    auto it = n.meta.labels.find(key);
    return it == n.meta.labels.end() ? "" : it->second;
  }
  return "";
}

// DomainsOf: the distinct values of label `key` on the nodes the bound `pods` went to.
std::set<std::string> DomainsOf(const Outcome& o, const std::vector<std::string>& pods, const std::string& key) {
  std::set<std::string> out;
  const auto bound = test::BindingMap(o.result);
  for (const auto& p : pods) {
    auto it = bound.find(p);
    if (it != bound.end()) out.insert(NodeLabel(o, it->second, key));
  }
  return out;
}

// PlacementText: a group's reported topology domain as "key=value", "" when none (issue 20
// item 8).
std::string PlacementText(const Outcome& o, const std::string& kind, const std::string& name) {
  const sched::GroupResult* g = test::FindGroup(o.result, kind, Pod(name));
  if (g == nullptr || !g->placement) return "";
  return g->placement->key + "=" + g->placement->value;
}

// ExpectTreeCondition: the *InitiallyScheduled condition of a PodGroup or CompositePodGroup.
void ExpectTreeCondition(const Outcome& o, const std::string& kind, const std::string& name,
                         const std::string& status, const std::string& reason) {
  if (kind == "PodGroup") {
    ExpectCondition(o, Pod(name), status, reason);
    return;
  }
  const sched::GroupResult* g = test::FindGroup(o.result, kind, Pod(name));
  ASSERT_NE(g, nullptr) << kind << " " << name;
  const api::Condition* c = test::FindCondition(*g, api::kCompositePodGroupInitiallyScheduled);
  ASSERT_NE(c, nullptr) << name;
  EXPECT_EQ(c->status, status) << name;
  EXPECT_EQ(c->reason, reason) << name;
}

std::vector<std::string> GroupPods(const std::string& group, int count) {
  std::vector<std::string> out;
  for (int i = 0; i < count; ++i) out.push_back(Pod(group + "-" + std::to_string(i)));
  return out;
}

constexpr const char* kRackKey = "topology.example.com/rack";
constexpr const char* kBlockKey = "topology.example.com/block";
constexpr const char* kZoneKey = "topology.kubernetes.io/zone";

const std::map<std::string, Check>& Checks() {
  static const std::map<std::string, Check> checks = {
      {"s1-equal-gangs",
       [](const Outcome& o) {
         // Exactly one gang gets all 100 nodes; the other none, all its pods pending.
         const auto a = test::MembersOf(o.objects, "default/gang-a");
         const auto b = test::MembersOf(o.objects, "default/gang-b");
         ASSERT_EQ(a.size(), 100u);
         ASSERT_EQ(b.size(), 100u);
         const int bound_a = CountBound(o, a);
         const int bound_b = CountBound(o, b);
         EXPECT_TRUE((bound_a == 100 && bound_b == 0) || (bound_a == 0 && bound_b == 100))
             << "gang-a bound " << bound_a << ", gang-b bound " << bound_b;
         ExpectAllPending(o, bound_a == 100 ? b : a);
         EXPECT_EQ(o.result.bindings.size(), 100u);
         const std::string winner = bound_a == 100 ? "default/gang-a" : "default/gang-b";
         const std::string loser = bound_a == 100 ? "default/gang-b" : "default/gang-a";
         ExpectCondition(o, winner, "True", api::kReasonScheduled);
         ExpectCondition(o, loser, "False", api::kReasonUnschedulable);
       }},
      {"s4-hopeless-gang",
       [](const Outcome& o) {
         // gang-9 needs a GPU no node has: the gang holds nothing (no Permit wait to time out),
         // the singletons take all 10 slots, the 2 left over wait; nothing evicted.
         const auto gang = test::MembersOf(o.objects, "default/gang");
         ASSERT_EQ(gang.size(), 10u);
         EXPECT_EQ(CountBound(o, gang), 0);
         ExpectPendingWith(o, gang, api::kReasonUnschedulable, "9 of 10 pods fit, minCount 10");
         EXPECT_EQ(Scheduled(o, "default/gang"), 0);
         ExpectCondition(o, "default/gang", "False", api::kReasonUnschedulable);
         std::vector<std::string> singles;
         for (int i = 0; i < 12; ++i) singles.push_back(Pod((i < 10 ? "single-0" : "single-") + std::to_string(i)));
         EXPECT_EQ(CountBound(o, singles), 10);
         EXPECT_EQ(o.result.bindings.size(), 10u);
         EXPECT_THAT(o.result.evictions, IsEmpty());
       }},
      {"s8-leader-first",
       [](const Outcome& o) {
         // spark-2's driver exists without its executors: it stays gated (2 CPU are free) instead
         // of holding capacity; spark-1, whose executors exist, runs whole.
         ExpectAllBound(o, test::MembersOf(o.objects, "default/spark-1"), "node-0");
         EXPECT_EQ(Scheduled(o, "default/spark-1"), 6);
         ExpectCondition(o, "default/spark-1", "True", api::kReasonScheduled);
         ExpectHeld(o, {Pod("spark-2-driver")}, "1 of minCount 6 pods exist");
         EXPECT_EQ(Scheduled(o, "default/spark-2"), 0);
         EXPECT_EQ(o.result.bindings.size(), 6u);
       }},
      {"s5-fragmentation",
       [](const Outcome& o) {
         // Only one 4-GPU instance fits anywhere: no gang pod binds; every CPU pod binds.
         const auto gang = test::MembersOf(o.objects, "default/trainer");
         ASSERT_EQ(gang.size(), 3u);
         EXPECT_EQ(CountBound(o, gang), 0);
         ExpectAllPending(o, gang);
         std::vector<std::string> web;
         for (const auto& pod : o.objects.pods) {
           if (!pod.pod_group_name) web.push_back(api::NamespacedName(pod.meta));
         }
         ASSERT_EQ(web.size(), 100u);
         ExpectAllBound(o, web);
         EXPECT_EQ(o.result.bindings.size(), 100u);
         EXPECT_EQ(Scheduled(o, "default/trainer"), 0);
         ExpectCondition(o, "default/trainer", "False", api::kReasonUnschedulable);
       }},
      {"kep6012-block-placement",
       [](const Outcome& o) {
         // KEP-6012 worked example: block-a cannot host two 5-pod racks, block-b can.
         const auto pg1 = GroupPods("pg-1", 5), pg2 = GroupPods("pg-2", 5);
         EXPECT_EQ(CountBound(o, pg1) + CountBound(o, pg2), 10);
         auto all = pg1;
         all.insert(all.end(), pg2.begin(), pg2.end());
         EXPECT_EQ(DomainsOf(o, all, kBlockKey), std::set<std::string>{"block-b"});
         EXPECT_EQ(DomainsOf(o, pg1, kRackKey).size(), 1u);
         EXPECT_EQ(DomainsOf(o, pg2, kRackKey).size(), 1u);
         EXPECT_NE(DomainsOf(o, pg1, kRackKey), DomainsOf(o, pg2, kRackKey));
         ExpectTreeCondition(o, "CompositePodGroup", "root", "True", api::kReasonScheduled);
         // Issue 20 item 8: every level shows the domain it was placed in, with its own key.
         EXPECT_EQ(PlacementText(o, "CompositePodGroup", "root"), std::string(kBlockKey) + "=block-b");
         EXPECT_EQ(PlacementText(o, "PodGroup", "pg-1"),
                   std::string(kRackKey) + "=" + *DomainsOf(o, pg1, kRackKey).begin());
         EXPECT_EQ(PlacementText(o, "PodGroup", "pg-2"),
                   std::string(kRackKey) + "=" + *DomainsOf(o, pg2, kRackKey).begin());
       }},
      {"g01-tree-partial",
       [](const Outcome& o) {
         for (const char* g : {"pg1", "pg2", "pg4", "pg5"}) {
           ExpectAllBound(o, GroupPods(g, 3));
           ExpectTreeCondition(o, "PodGroup", g, "True", api::kReasonScheduled);
         }
         for (const char* g : {"pg3", "pg6", "pg7"}) {
           ExpectAllPending(o, GroupPods(g, 3));
           ExpectTreeCondition(o, "PodGroup", g, "False", api::kReasonUnschedulable);
         }
         for (const char* c : {"root", "sub1", "sub2"}) {
           ExpectTreeCondition(o, "CompositePodGroup", c, "True", api::kReasonScheduled);
         }
         ExpectTreeCondition(o, "CompositePodGroup", "sub3", "False", api::kReasonUnschedulable);
         // pg6 fit on its own; it fails only because sub3 cannot reach minGroupCount 2.
         EXPECT_THAT(test::PendingMap(o.result).at(Pod("pg6-0")).message, HasSubstr("default/sub3"));
       }},
      {"g02-root-two-of-three",
       [](const Outcome& o) {
         ExpectAllBound(o, GroupPods("pg1", 3));
         ExpectAllBound(o, GroupPods("pg2", 3));
         ExpectAllPending(o, GroupPods("pg3", 3));
         ExpectTreeCondition(o, "CompositePodGroup", "root", "True", api::kReasonScheduled);
         ExpectTreeCondition(o, "PodGroup", "pg3", "False", api::kReasonUnschedulable);
       }},
      {"g03-basic-root",
       [](const Outcome& o) {
         ExpectAllBound(o, GroupPods("pg1", 3));
         ExpectAllPending(o, GroupPods("pg2", 3));
         ExpectTreeCondition(o, "PodGroup", "pg2", "False", api::kReasonUnschedulable);
       }},
      {"announcement-fits",
       [](const Outcome& o) {
         // All 5 start, inside one zone; workers share one rack.
         auto all = GroupPods("worker", 4);
         ExpectAllBound(o, all);
         all.push_back(Pod("driver-0"));
         ExpectAllBound(o, all);
         EXPECT_EQ(DomainsOf(o, all, kZoneKey).size(), 1u);
         EXPECT_EQ(DomainsOf(o, GroupPods("worker", 4), kRackKey).size(), 1u);
         ExpectTreeCondition(o, "CompositePodGroup", "workload-root", "True", api::kReasonScheduled);
       }},
      {"announcement-no-fit",
       [](const Outcome& o) {
         // None of the 5 starts, although the driver alone would fit.
         auto all = GroupPods("worker", 4);
         all.push_back(Pod("driver-0"));
         EXPECT_EQ(CountBound(o, all), 0);
         ExpectAllPending(o, all);
         EXPECT_THAT(test::PendingMap(o.result).at(Pod("driver-0")).message,
                     StartsWith("0/2 placements are available: 2 placement(s) (zone-a, zone-b): "));
         ExpectTreeCondition(o, "CompositePodGroup", "workload-root", "False", api::kReasonUnschedulable);
       }},
      {"s16-hard-rack",
       [](const Outcome& o) {
         // Never split: the fitting gang shares one rack; the other stays pending entirely.
         ExpectAllBound(o, GroupPods("fits", 2));
         EXPECT_EQ(DomainsOf(o, GroupPods("fits", 2), kRackKey).size(), 1u);
         EXPECT_EQ(CountBound(o, GroupPods("too-big", 2)), 0);
         EXPECT_THAT(test::PendingMap(o.result).at(Pod("too-big-0")).message,
                     StartsWith("0/3 placements are available: "));
       }},
      {"tas-pending-outside-placement",
       [](const Outcome& o) {
         // QA finding 9: 3 pods bound in rack r1; the 2 left pending get a FitError over all 5
         // nodes, the 2 free nodes of rack r0 counted as outside the group's placement.
         const std::vector<std::string> bound = Names({"p0", "p1", "p2"});
         ExpectAllBound(o, bound);
         EXPECT_EQ(DomainsOf(o, bound, "rack"), std::set<std::string>{"r1"});
         for (const char* p : {"p3", "p4"}) {
           // Retried at once after the quorum bound (issue 20 A.1): the FitError of the last
           // cycle, then the PostFilter's result and the retry note.
           EXPECT_THAT(test::PendingMap(o.result).at(Pod(p)).message,
                       StartsWith("0/5 nodes are available: 2 node(s) didn't match the pod group's "
                                  "topology placement (rack=r1), 3 Insufficient cpu. pod group "
                                  "preemption: "));
         }
         ExpectCondition(o, Pod("pg"), "True", api::kReasonScheduled);
       }},
      {"tas-placement-reasons-aggregated",
       [](const Outcome& o) {
         // QA finding 15: 11 racks fail the same way, one is pruned: one line per distinct
         // reason, most frequent first, and a separator before the PostFilter's message.
         ExpectAllPending(o, Names({"p0", "p1", "p2"}));
         const std::string m = test::PendingMap(o.result).at(Pod("p0")).message;
         EXPECT_THAT(m, StartsWith("0/12 placements are available: 11 placement(s): Pod group "
                                   "default/pg: 2 of 3 pods fit, minCount 3; for the first pod "
                                   "that did not fit (after 2 of the group's pods were placed): "
                                   "0/2 nodes are available: 2 Insufficient cpu; r11: Insufficient "
                                   "cpu (aggregate free capacity below the group's minimum). pod "
                                   "group preemption: "));
         EXPECT_LT(m.size(), 600u);
         ExpectCondition(o, Pod("pg"), "False", api::kReasonUnschedulable);
       }},
      {"s18-parent-constraint",
       [](const Outcome& o) {
         // The parent's block constraint holds across all four child gangs; each gang one rack.
         std::vector<std::string> all;
         for (int g = 0; g < 4; ++g) {
           const auto pods = GroupPods("workers-" + std::to_string(g), 3);
           ExpectAllBound(o, pods);
           EXPECT_EQ(DomainsOf(o, pods, kRackKey).size(), 1u) << g;
           all.insert(all.end(), pods.begin(), pods.end());
         }
         EXPECT_EQ(DomainsOf(o, all, kBlockKey), std::set<std::string>{"block-a"});
       }},
      {"dra-podgroup-shared-claim",
       [](const Outcome& o) {
         // dra-example-driver's PodGroup-claim example: each group's two pods share exactly one
         // claim, allocated once for the group (KEP-5729); two groups → two claims, two GPUs.
         const std::string ns = "podgroup-resourceclaimtemplate/";
         ExpectAllBound(o, {ns + "group-1-0", ns + "group-1-1", ns + "group-2-0", ns + "group-2-1"},
                        "dra-example-driver-cluster-worker");
         ASSERT_EQ(o.result.allocations.size(), 2u);
         std::set<std::string> devices;
         for (int g = 0; g < 2; ++g) {
           const sched::ClaimAllocation& a = o.result.allocations[static_cast<size_t>(g)];
           // The controller's generateName "<group>-<entry>-" plus 5 derived characters.
           const std::string base = ns + "group-" + std::to_string(g + 1) + "-gpu-";
           EXPECT_THAT(a.claim, StartsWith(base));
           EXPECT_EQ(a.claim.size(), base.size() + 5);
           EXPECT_EQ(a.owner, "PodGroup " + ns + "group-" + std::to_string(g + 1));
           ASSERT_EQ(a.devices.size(), 1u);
           devices.insert(a.devices[0].device);
         }
         EXPECT_EQ(devices.size(), 2u);
       }},
      {"dra-gang-gpu-shortage",
       [](const Outcome& o) {
         // 3 pods × 1 GPU each, 2 GPUs in the cluster: the gang binds nothing, holds no GPU.
         ExpectPendingWith(o, Names({"trainer-0", "trainer-1", "trainer-2"}), "Unschedulable",
                           "cannot allocate all claims");
         EXPECT_EQ(Scheduled(o, "default/trainer"), 0);
         EXPECT_TRUE(o.result.allocations.empty());
       }},
      {"dra-gang-first-available",
       [](const Outcome& o) {
         // Issue 20 A.3 (kubernetes/kubernetes#138765): in queue order a's first choice takes
         // big-0, which b needs; the complete placement search gives a its later choice.
         ExpectAllBound(o, Names({"a", "b", "c"}), "node-1");
         EXPECT_EQ(Scheduled(o, "default/g"), 3);
         std::map<std::string, std::string> device_of;
         for (const auto& a : o.result.allocations) {
           ASSERT_EQ(a.devices.size(), 1u) << a.claim;
           device_of[a.owner] = a.devices[0].device;
         }
         EXPECT_EQ(device_of, (std::map<std::string, std::string>{
                                  {"Pod default/a", "small-0"},
                                  {"Pod default/b", "big-0"},
                                  {"Pod default/c", "small-1"}}));
       }},
      {"cpg-minimum-first",
       [](const Outcome& o) {
         // Issue 20 A.3: every child's quorum first (pg-a 1, pg-b 2), then pg-a's extras: one
         // more fits, the third stays pending.
         ExpectAllBound(o, Names({"pg-a-0", "pg-a-1", "pg-b-0", "pg-b-1"}));
         ExpectPendingWith(o, Names({"pg-a-2"}), "Unschedulable", "0/2 nodes are available");
         EXPECT_EQ(Scheduled(o, "default/pg-a"), 2);
         EXPECT_EQ(Scheduled(o, "default/pg-b"), 2);
         ExpectCondition(o, "default/pg-b", "True", api::kReasonScheduled);
       }},
      {"dra-group-claim-pins",
       [](const Outcome& o) {
         // A group-shared node-local GPU pins all members to its node: gang-a on gpu-big (the
         // only GPU node with room for both); gang-b would need gpu-small for both → none bind.
         ExpectAllBound(o, Names({"gang-a-0", "gang-a-1"}), "gpu-big");
         ExpectPendingWith(o, Names({"gang-b-0", "gang-b-1"}), "Unschedulable",
                           "resourceclaim not available on the node");
         ASSERT_EQ(o.result.allocations.size(), 1u);
         EXPECT_THAT(o.result.allocations[0].claim, StartsWith("default/gang-a-gpu-"));
         ASSERT_EQ(o.result.allocations[0].devices.size(), 1u);
         EXPECT_EQ(o.result.allocations[0].devices[0].pool, "gpu-big");
       }},
      {"h08-topology-no-room",
       [](const Outcome& o) {
         ExpectAllPending(o, GroupPods("gang", 2));
         EXPECT_THAT(o.result.evictions, IsEmpty());
         EXPECT_THAT(test::PendingMap(o.result).at(Pod("gang-0")).message,
                     StartsWith("0/2 placements are available: 2 placement(s) (rack-0, rack-1): "));
         ExpectCondition(o, Pod("gang"), "False", api::kReasonUnschedulable);
         EXPECT_EQ(PlacementText(o, "PodGroup", "gang"), "");  // pending: no domain (item 8)
       }},
      {"s6-xy", CheckS6},
      {"s6-yx", CheckS6},
      {"h01-gang-fits",
       [](const Outcome& o) {
         ExpectAllBound(o, Names({"p1", "p2", "p3"}), "node-1");
         EXPECT_THAT(o.result.pending, IsEmpty());
         EXPECT_EQ(Scheduled(o, "default/pg"), 3);
         ExpectCondition(o, "default/pg", "True", api::kReasonScheduled);
       }},
      {"h02-gang-below-quorum",
       [](const Outcome& o) {
         // Held at PreEnqueue: never attempted, never bound, no PodScheduled condition.
         EXPECT_THAT(o.result.bindings, IsEmpty());
         ExpectHeld(o, Names({"p1", "p2"}), "(2 of minCount 3 pods exist)");
         EXPECT_EQ(Scheduled(o, "default/pg"), 0);
         const sched::GroupResult* g = test::FindGroup(o.result, "PodGroup", "default/pg");
         ASSERT_NE(g, nullptr);
         const api::Condition* c = test::FindCondition(*g, api::kPodGroupInitiallyScheduled);
         if (c != nullptr) {
           EXPECT_NE(c->status, "True");
         }
       }},
      {"h04-gang-with-blocker",
       [](const Outcome& o) {
         // 3 of 4 fit next to the running blocker; the gang is satisfied.
         const auto members = Names({"p1", "p2", "p3", "p4"});
         EXPECT_EQ(CountBound(o, members), 3);
         EXPECT_EQ(o.result.pending.size(), 1u);
         for (const auto& p : o.result.pending) {
           EXPECT_NE(std::find(members.begin(), members.end(), p.pod), members.end()) << p.pod;
           EXPECT_EQ(p.reason, api::kReasonUnschedulable);
         }
         EXPECT_EQ(Scheduled(o, "default/pg"), 3);
         ExpectCondition(o, "default/pg", "True", api::kReasonScheduled);
       }},
      {"h05-earlier-gang-wins",
       [](const Outcome& o) {
         // gang-a (created first, listed second) takes the node; gang-b gets nothing.
         ExpectAllBound(o, Names({"a1", "a2", "a3"}), "node-1");
         ExpectAllPending(o, Names({"b1", "b2", "b3"}));
         EXPECT_EQ(o.result.bindings.size(), 3u);
         ExpectCondition(o, "default/gang-a", "True", api::kReasonScheduled);
         ExpectCondition(o, "default/gang-b", "False", api::kReasonUnschedulable);
       }},
      {"f01-all-bound",
       [](const Outcome& o) {
         ExpectAllBound(o, Names({"p1", "p2", "p3"}), "node-1");
         EXPECT_THAT(o.result.pending, IsEmpty());
         const api::Condition* c = ExpectCondition(o, "default/pg", "True", api::kReasonScheduled);
         if (c != nullptr) {
           EXPECT_EQ(c->message, "");
         }
       }},
      {"f07-all-unschedulable",
       [](const Outcome& o) {
         EXPECT_THAT(o.result.bindings, IsEmpty());
         const auto pending = test::PendingMap(o.result);
         for (const auto& p : Names({"p1", "p2", "p3"})) {
           auto it = pending.find(p);
           if (it == pending.end()) {
             ADD_FAILURE() << p << " should be pending";
             continue;
           }
           EXPECT_EQ(it->second.reason, api::kReasonUnschedulable) << p;
           EXPECT_THAT(it->second.message,
                       StartsWith("Pod group default/pg: 0 of 3 pods fit, minCount 3; for the "
                                  "first pod that did not fit: 0/1 nodes are available: 1 "
                                  "Insufficient cpu"))
               << p;
         }
         const api::Condition* c = ExpectCondition(o, "default/pg", "False", api::kReasonUnschedulable);
         if (c != nullptr) {
           EXPECT_THAT(c->message, HasSubstr("for the first pod that did not fit: 0/1 nodes are "
                                             "available: 1 Insufficient cpu"));
         }
       }},
      {"f10-condition-never-regresses",
       [](const Outcome& o) {
         // Unschedulable now, but the condition was True already: it never goes back to False.
         EXPECT_THAT(o.result.bindings, IsEmpty());
         ExpectAllPending(o, Names({"p1", "p2", "p3"}));
         ExpectCondition(o, "default/pg", "True", api::kReasonScheduled);
       }},
      // Queue / hierarchy-validation scenarios.
      {"hv-g04-podgroup-depth-five",
       [](const Outcome& o) {
         // KEP-6012 would refuse this tree; v1.37.2 schedules it (differential, observed).
         ExpectAllBound(o, Names({"p1"}));
         ExpectCondition(o, "default/pg1", "True", api::kReasonScheduled);
       }},
      {"hv-g05-composite-depth-four",
       [](const Outcome& o) {
         // KEP-6012 would refuse this tree; v1.37.2 schedules it (differential, observed).
         ExpectAllBound(o, Names({"p1"}));
         ExpectCondition(o, "default/pg1", "True", api::kReasonScheduled);
       }},
      {"hv-g06-several-workloads",
       [](const Outcome& o) {
         // KEP-6012 would refuse this tree; v1.37.2 schedules it (differential, observed).
         ExpectAllBound(o, Names({"p1"}));
         ExpectCondition(o, "default/pg1", "True", api::kReasonScheduled);
       }},
      {"hv-g07-gang-composite-basic-child",
       [](const Outcome& o) {
         // KEP-6012 would refuse this tree; v1.37.2 schedules it (differential, observed).
         ExpectAllBound(o, Names({"p1"}));
         ExpectCondition(o, "default/pg1", "True", api::kReasonScheduled);
       }},
      {"hv-g08-all-parent-single-child",
       [](const Outcome& o) {
         // KEP-6012 would refuse this tree; v1.37.2 schedules it (differential, observed).
         ExpectAllBound(o, Names({"p1"}));
         ExpectCondition(o, "default/pg1", "True", api::kReasonScheduled);
       }},
      {"q1-tree-below-quorum",
       [](const Outcome& o) {
         // Never attempted: no binding, no condition decided on any level, upstream's message.
         EXPECT_THAT(o.result.bindings, IsEmpty());
         ExpectHeld(o, Names({"a-0", "a-1", "b-0"}),
                    "waiting for composite pod group \"root\" tree to meet quorum");
         for (const auto& g : o.result.groups) EXPECT_THAT(g.conditions, IsEmpty()) << g.name;
         const sched::GroupResult* leaf = test::FindGroup(o.result, "PodGroup", "default/leaf-a");
         ASSERT_NE(leaf, nullptr);
         EXPECT_EQ(leaf->parent, std::optional<std::string>("default/root"));
       }},
      {"q2-composite-spec-missing",
       [](const Outcome& o) {
         ExpectHeld(o, Names({"o-0"}), "waiting for composite pod group \"ghost\" spec to appear");
         ExpectAllBound(o, Names({"s-0"}), "node-1");
       }},
      {"q3-mincount-raised-no-room",
       [](const Outcome& o) {
         // minCount raised above what fits: the new pods stay pending, the running ones are not
         // touched (never evicted, never reported), the True condition does not regress.
         EXPECT_THAT(o.result.bindings, IsEmpty());
         EXPECT_THAT(o.result.evictions, IsEmpty());
         ExpectPendingWith(o, Names({"p4", "p5"}), "Unschedulable", "minCount 5");
         EXPECT_EQ(o.result.pending.size(), 2u);
         EXPECT_EQ(Scheduled(o, "default/pg"), 3);
         ExpectCondition(o, "default/pg", "True", api::kReasonScheduled);
       }},
      {"q4-mincount-raised-fits",
       [](const Outcome& o) {
         ExpectAllBound(o, Names({"p3", "p4"}), "node-1");
         EXPECT_EQ(o.result.bindings.size(), 2u);
         EXPECT_EQ(Scheduled(o, "default/pg"), 4);
       }},
      {"q5-mincount-lowered",
       [](const Outcome& o) {
         ExpectAllBound(o, Names({"p4"}), "node-1");
         EXPECT_EQ(o.result.bindings.size(), 1u);
         EXPECT_THAT(o.result.evictions, IsEmpty());
         EXPECT_EQ(Scheduled(o, "default/pg"), 4);
         ExpectCondition(o, "default/pg", "True", api::kReasonScheduled);
       }},
      {"s10-a-whole-gang-evicted",
       [](const Outcome& o) {
         // The whole low-priority 3-pod gang goes (not just the one pod the preemptor needs).
         EXPECT_EQ(Evicted(o, "PodGroup default/mpi-high"),
                   Names({"mpi-low-0", "mpi-low-1", "mpi-low-2"}));
         ExpectAllBound(o, Names({"mpi-high-0", "mpi-high-1", "mpi-high-2"}), "node-1");
         ExpectCondition(o, "default/mpi-high", "True", api::kReasonScheduled);
         EXPECT_EQ(Scheduled(o, "default/mpi-low"), 0);
         ExpectDisrupted(o, "default/mpi-low");
       }},
      {"s10-b-one-job-lost",
       [](const Outcome& o) {
         // One whole job (the newest, least important) is lost, not one pod of each of 10.
         std::vector<std::string> job9;
         for (int k = 0; k < 10; ++k) job9.push_back(Pod("job-9-" + std::to_string(k)));
         std::sort(job9.begin(), job9.end());
         EXPECT_EQ(Evicted(o, "PodGroup default/urgent"), job9);
         for (int j = 0; j < 9; ++j) EXPECT_EQ(Scheduled(o, "default/job-" + std::to_string(j)), 10) << j;
         EXPECT_EQ(Scheduled(o, "default/urgent"), 10);
         ExpectDisrupted(o, "default/job-9");
       }},
      {"s11-a-no-eviction-unless-gang-fits",
       [](const Outcome& o) {
         // Evicting all of job 1 frees 59 cores for a 60-pod gang: nothing is evicted.
         EXPECT_THAT(o.result.evictions, IsEmpty());
         EXPECT_THAT(o.result.bindings, IsEmpty());
         const auto job2 = test::MembersOf(o.objects, "default/job2");
         ASSERT_EQ(job2.size(), 60u);
         ExpectPendingWith(o, job2, "Unschedulable", "pod group preemption: ");
         EXPECT_EQ(Scheduled(o, "default/job1"), 59);
       }},
      {"s11-b-gang-fits-after-evictions",
       [](const Outcome& o) {
         const auto job1 = test::MembersOf(o.objects, "default/job1");
         auto sorted = job1;
         std::sort(sorted.begin(), sorted.end());
         EXPECT_EQ(Evicted(o, "PodGroup default/job2"), sorted);
         ExpectAllBound(o, test::MembersOf(o.objects, "default/job2"));
         ExpectCondition(o, "default/job2", "True", api::kReasonScheduled);
         ExpectAllPending(o, test::MembersOf(o.objects, "default/job3"));
       }},
      {"s14-placement-checked-preemption",
       [](const Outcome& o) {
         // The 8-GPU pod fits on no node even with every low pod gone: nothing evicted for it.
         ExpectPendingWith(o, {Pod("big-8gpu")}, "Unschedulable",
                           "preemption: 0/4 nodes are available: 4 Insufficient nvidia.com/gpu.");
         // The later 1-GPU pod evicts exactly one low-priority pod and runs.
         const auto evicted = Evicted(o, "Pod default/small-1gpu");
         ASSERT_EQ(evicted.size(), 1u);
         EXPECT_THAT(evicted[0], StartsWith("default/low-"));
         ExpectAllBound(o, {Pod("small-1gpu")});
       }},
      {"i01-bare-pod-before-group-pod",
       [](const Outcome& o) {
         EXPECT_EQ(Evicted(o, "PodGroup default/preemptor"), Names({"p1"}));
         ExpectAllBound(o, Names({"preemptor-0"}), "n1");
       }},
      {"i08-minimum-victims",
       [](const Outcome& o) { EXPECT_EQ(Evicted(o, "PodGroup default/preemptor"), Names({"p3", "p4"})); }},
      {"i13-single-pod-before-gang",
       [](const Outcome& o) {
         EXPECT_EQ(Evicted(o, "PodGroup default/preemptor"), Names({"p1"}));
         EXPECT_EQ(Scheduled(o, "default/g1"), 2);
       }},
      {"i14-whole-gang-victim",
       [](const Outcome& o) {
         EXPECT_EQ(Evicted(o, "PodGroup default/preemptor"), Names({"g1-1", "g1-2"}));
         ExpectDisrupted(o, "default/g1");
       }},
      {"i16-no-victims",
       [](const Outcome& o) {
         EXPECT_THAT(o.result.evictions, IsEmpty());
         ExpectPendingWith(o, Names({"preemptor-0"}), "Unschedulable",
                           "pod group preemption: No preemption victims found for incoming preemptor");
       }},
      {"i19-gang-preemptor-takes-all",
       [](const Outcome& o) {
         EXPECT_EQ(Evicted(o, "PodGroup default/preemptor"), Names({"v1", "v2", "v3"}));
         ExpectAllBound(o, Names({"preemptor-0", "preemptor-1", "preemptor-2"}));
         ExpectDisrupted(o, "default/victim-pg");
       }},
      {"p19-tree-mixed-group-policy",
       [](const Outcome& o) {
         // Child c1 says Never, the root PreemptLowerPriority: v1.37.2's validatePodGroup compares
         // pods with the root only, so the tree is scheduled and preempts v2 and v3 (observed on
         // the v1.37.2 control plane; the differential suite holds it). The two zones tie: upstream
         // evicted v2 and v3 (zone z1), wasched's deterministic tie-break takes z0's v0 and v1.
         ExpectAllBound(o, Names({"c1p", "c2p"}));
         EXPECT_EQ(Evicted(o, "CompositePodGroup default/root"), Names({"v0", "v1"}));
       }},
      {"p19-pod-policy-differs-from-group",
       [](const Outcome& o) {
         // Pod g1's class is Never, its group's PreemptLowerPriority -> SchedulerError, no eviction.
         ExpectHierarchyRefused(o, {}, {"g"}, {"g0", "g1"},
                                "all pods in a single pod group should have the same preemption "
                                "policy as the pod group's preemption policy, got Never and "
                                "PreemptLowerPriority");
         EXPECT_THAT(o.result.evictions, IsEmpty());
       }},
      {"p22-evicted-member-not-rebound",
       [](const Outcome& o) {
         // hi preempts g-0 (the only lower-priority pod on a 1-CPU node); the deleted g-0 is
         // never bound again by g's own later cycle, only the pending g-1 is placed.
         EXPECT_EQ(Evicted(o, "Pod default/hi"), Names({"g-0"}));
         ExpectAllBound(o, Names({"hi"}), "n0");
         ExpectAllBound(o, Names({"g-1"}));
         EXPECT_EQ(CountBound(o, Names({"g-0"})), 0);
         EXPECT_EQ(Scheduled(o, "default/g"), 1);
         ExpectDisrupted(o, "default/g");
       }},
      // The JobSet workload-aware-scheduling examples as the pods JobSet would create (issue
      // 19: each also runs in the reference differential).
      {"jobset-was-gang",
       [](const Outcome& o) {
         EXPECT_EQ(o.result.bindings.size(), 6u);
         EXPECT_THAT(o.result.pending, IsEmpty());
         ExpectCondition(o, "default/js-abc-workers-def", "True", api::kReasonScheduled);
       }},
      {"jobset-was-gang-no-room",
       [](const Outcome& o) {
         EXPECT_THAT(o.result.bindings, IsEmpty());
         ASSERT_EQ(o.result.pending.size(), 6u);
         for (const auto& p : o.result.pending) EXPECT_EQ(p.reason, api::kReasonUnschedulable) << p.pod;
         ExpectCondition(o, "default/js-abc-workers-def", "False", api::kReasonUnschedulable);
       }},
      {"jobset-was-tas",
       [](const Outcome& o) {
         ASSERT_EQ(o.result.bindings.size(), 4u);
         for (const auto& b : o.result.bindings) EXPECT_EQ(b.node.substr(0, 2), "b-") << b.pod;
       }},
      {"jobset-was-preemption",
       [](const Outcome& o) {
         ASSERT_EQ(o.result.evictions.size(), 4u);
         for (const auto& e : o.result.evictions) EXPECT_THAT(e.pod, StartsWith("default/lp-js-rj-"));
         ASSERT_EQ(o.result.bindings.size(), 4u);
         for (const auto& b : o.result.bindings) EXPECT_THAT(b.pod, StartsWith("default/hp-js-rj-"));
       }},
      {"p22-all-mode-victim-stays-down",
       [](const Outcome& o) {
         // g0's members left after its quorum bound are retried at once (issue 20 A.1, ahead of
         // b1 of the same priority, listed later) and preempt the whole all-mode unit g1 (3
         // running pods). The evicted pods are not bound again and the 2 remaining pending
         // members stay below minCount 3 (the group's cycle, already queued, fails minCount):
         // g1 keeps 0.
         std::vector<std::string> g1;
         for (const auto& e : o.result.evictions) {
           if (e.pod.rfind("default/g1-", 0) == 0) {
             EXPECT_EQ(e.preemptor, "PodGroup default/g0") << e.pod;
             g1.push_back(e.pod);
           }
         }
         std::sort(g1.begin(), g1.end());
         EXPECT_EQ(g1, Names({"g1-0", "g1-1", "g1-2"}));
         EXPECT_EQ(CountBound(o, Names({"g1-0", "g1-1", "g1-2", "g1-3", "g1-4"})), 0);
         EXPECT_EQ(Scheduled(o, "default/g1"), 0);
         ExpectPendingWith(o, Names({"g1-3", "g1-4"}), "Unschedulable", "of 2 pods fit, minCount 3");
         ExpectDisrupted(o, "default/g1");
       }},
  };
  return checks;
}

// ---------------------------------------------------------------------------------------------

class ScenarioTest : public ::testing::TestWithParam<std::string> {};

TEST_P(ScenarioTest, MatchesGolden) {
  const Outcome& o = RunScenario(GetParam());
  ASSERT_THAT(o.error, IsEmpty());
  const fs::path golden = kScenarioRoot / GetParam() / "expected.json";
  const char* update = std::getenv("WASCHED_UPDATE_GOLDEN");
  if (update != nullptr && std::string(update) == "1") {
    std::ofstream(golden, std::ios::binary) << o.json;
    GTEST_SKIP() << "rewrote " << golden.string();
  }
  ASSERT_TRUE(fs::exists(golden)) << golden.string() << " is missing; run with WASCHED_UPDATE_GOLDEN=1 to create it";
  const std::string expected = test::ReadFile(golden.string());
  if (expected != o.json) {
    const fs::path actual = fs::temp_directory_path() / ("wasched-scenario-" + GetParam() + ".actual.json");
    std::ofstream(actual, std::ios::binary) << o.json;
    ADD_FAILURE() << "scenario " << GetParam() << ": output differs from expected.json\n"
                  << DiffMessage(expected, o.json) << "full diff: diff -u " << golden.string() << " "
                  << actual.string() << "\n(re-generate with WASCHED_UPDATE_GOLDEN=1 only after checking it)";
  }
}

TEST_P(ScenarioTest, Invariants) {
  const Outcome& o = RunScenario(GetParam());
  ASSERT_THAT(o.error, IsEmpty());
  EXPECT_THAT(test::CheckResultInvariants(o.objects, o.result), IsEmpty());
  auto it = Checks().find(GetParam());
  ASSERT_NE(it, Checks().end()) << "scenario " << GetParam() << " has no semantic check in scenario_test.cc";
  it->second(o);
}

TEST_P(ScenarioTest, CliMatchesLibrary) {
  const Outcome& o = RunScenario(GetParam());
  ASSERT_THAT(o.error, IsEmpty());
  std::vector<std::string> argv = {WASCHED_BINARY, "schedule"};
  for (const auto& file : ManifestFiles(GetParam())) {
    argv.push_back("-f");
    argv.push_back(file);
  }
  argv.push_back("-o");
  argv.push_back("json");
  const test::CommandResult r = test::RunCommand(argv);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, o.json) << DiffMessage(o.json, r.out);
}

INSTANTIATE_TEST_SUITE_P(Scenarios, ScenarioTest, ::testing::ValuesIn(ScenarioNames()),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           std::string name = info.param;
                           std::replace(name.begin(), name.end(), '-', '_');
                           return name;
                         });

TEST(ScenarioSuite, EveryCheckHasItsScenario) {
  const auto names = ScenarioNames();
  for (const auto& [name, check] : Checks()) {
    EXPECT_NE(std::find(names.begin(), names.end(), name), names.end())
        << "semantic check for " << name << " but no folder tests/scenarios/" << name;
  }
}

}  // namespace
}  // namespace wasched
