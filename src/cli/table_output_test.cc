// File: cli/table_output_test.cc
#include "cli/table_output.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>

#include "support/builders.h"

namespace wasched::cli {
namespace {

sched::GroupResult Group(std::string name, int32_t scheduled, int32_t min, std::string status,
                         std::string reason, std::string message = "") {
  sched::GroupResult g;
  g.kind = "PodGroup";
  g.name = std::move(name);
  g.scheduled = scheduled;
  g.min_count = min;
  g.conditions.push_back(api::Condition{api::kPodGroupInitiallyScheduled, std::move(status),
                                        std::move(reason), std::move(message), 0, 0});
  return g;
}

TEST(TableOutputTest, SectionsPerGroupThenBarePodsThenSummary) {
  api::ObjectSet objects;
  objects.nodes.push_back(test::MakeNode().Name("n1").Obj());
  objects.pod_groups.push_back(test::MakePodGroup().Name("big").MinCount(3).Obj());
  objects.pod_groups.push_back(test::MakePodGroup().Name("small").MinCount(2).Obj());
  for (const char* name : {"big-0", "big-1", "big-2"}) {
    objects.pods.push_back(test::MakePod().Name(name).Group("big").Obj());
  }
  objects.pods.push_back(test::MakePod().Name("small-1").Group("small").Obj());
  objects.pods.push_back(test::MakePod().Name("small-0").Group("small").Obj());
  objects.pods.push_back(test::MakePod().Name("web").Obj());
  objects.pods.push_back(test::MakePod().Name("agent").Node("n1").Obj());

  sched::ScheduleResult result;
  result.bindings = {{"default/small-0", "n1"}, {"default/small-1", "n1"}, {"default/web", "n1"}};
  const std::string why = "0/1 nodes are available: 1 Insufficient cpu.";
  result.pending = {{"default/big-0", "Unschedulable", why},
                    {"default/big-1", "Unschedulable", why},
                    {"default/big-2", "Unschedulable", "other reason"}};
  result.groups = {Group("default/big", 0, 3, "False", "Unschedulable", why),
                   Group("default/small", 2, 2, "True", "Scheduled")};

  EXPECT_EQ(FormatScheduleTable(objects, result),
            "PodGroup default/big    scheduled 0/3 (minCount 3)  PodGroupInitiallyScheduled=False "
            "Unschedulable\n"
            "  message: 0/1 nodes are available: 1 Insufficient cpu.\n"
            "  default/big-0    PENDING  Unschedulable\n"
            "  default/big-1    PENDING  Unschedulable\n"
            "  default/big-2    PENDING  Unschedulable: other reason\n"
            "\n"
            "PodGroup default/small  scheduled 2/2 (minCount 2)  PodGroupInitiallyScheduled=True "
            "Scheduled\n"
            "  default/small-0  n1\n"
            "  default/small-1  n1\n"
            "\n"
            "Pods without a PodGroup\n"
            "  default/agent    n1       running\n"
            "  default/web      n1\n"
            "\n"
            "3 bound, 3 pending, 1 already running\n");
}

TEST(TableOutputTest, SharedPendingMessageOnceAndNaturalOrder) {
  api::ObjectSet objects;
  objects.pod_groups.push_back(test::MakePodGroup().Name("g").MinCount(11).Obj());
  sched::ScheduleResult result;
  for (const char* name : {"w-10", "w-2", "w-1"}) {
    objects.pods.push_back(test::MakePod().Name(name).Group("g").Obj());
    result.pending.push_back({std::string("default/") + name, "Unschedulable",
                              name == std::string("w-1") ? "first failure" : "group failed"});
  }
  std::sort(result.pending.begin(), result.pending.end(),
            [](const auto& a, const auto& b) { return a.pod < b.pod; });
  result.groups = {Group("default/g", 0, 11, "False", "Unschedulable", "3 of 11 pods")};
  EXPECT_EQ(FormatScheduleTable(objects, result),
            "PodGroup default/g  scheduled 0/11 (minCount 11)  PodGroupInitiallyScheduled=False "
            "Unschedulable\n"
            "  message: 3 of 11 pods\n"
            "  pending pods: group failed\n"
            "  default/w-1   PENDING  Unschedulable: first failure\n"
            "  default/w-2   PENDING  Unschedulable\n"
            "  default/w-10  PENDING  Unschedulable\n"
            "\n"
            "0 bound, 3 pending\n");
}

TEST(TableOutputTest, PendingMessageExtendingTheConditionIsNotRepeated) {
  // QA finding 15: the pods' message is the condition's plus the PostFilter's; the long part is
  // printed once.
  api::ObjectSet objects;
  objects.pod_groups.push_back(test::MakePodGroup().Name("g").MinCount(2).Obj());
  sched::ScheduleResult result;
  for (const char* name : {"g-0", "g-1"}) {
    objects.pods.push_back(test::MakePod().Name(name).Group("g").Obj());
    result.pending.push_back({std::string("default/") + name, "Unschedulable",
                              "0/3 placements are available: 3 placement(s): why. pod group "
                              "preemption: none"});
  }
  result.groups = {Group("default/g", 0, 2, "False", "Unschedulable",
                         "0/3 placements are available: 3 placement(s): why.")};
  EXPECT_EQ(FormatScheduleTable(objects, result),
            "PodGroup default/g  scheduled 0/2 (minCount 2)  PodGroupInitiallyScheduled=False "
            "Unschedulable\n"
            "  message: 0/3 placements are available: 3 placement(s): why.\n"
            "  pending pods: (message above) pod group preemption: none\n"
            "  default/g-0  PENDING  Unschedulable\n"
            "  default/g-1  PENDING  Unschedulable\n"
            "\n"
            "0 bound, 2 pending\n");
}

// Issue 20 item 10: a basic PodGroup shows `basic`, not a minCount it does not have.
TEST(TableOutputTest, BasicGroupShowsBasicNotMinCount) {
  api::ObjectSet objects;
  objects.pods.push_back(test::MakePod().Name("a").Group("etl").Obj());
  objects.pods.push_back(test::MakePod().Name("b").Group("etl").Obj());
  sched::ScheduleResult result;
  result.bindings = {{"default/a", "n1"}};
  result.pending = {{"default/b", "Unschedulable", "0/1 nodes are available: 1 Insufficient cpu."}};
  sched::GroupResult g = Group("default/etl", 1, 1, "True", "Scheduled");
  g.policy = "basic";
  result.groups = {g};
  EXPECT_EQ(FormatScheduleTable(objects, result),
            "PodGroup default/etl  scheduled 1 (basic)  PodGroupInitiallyScheduled=True Scheduled\n"
            "  default/a  n1\n"
            "  default/b  PENDING  Unschedulable: 0/1 nodes are available: 1 Insufficient cpu.\n"
            "\n"
            "1 bound, 1 pending\n");
}

// Issue 20 item 8: a group placed in a topology domain ends its header with the domain; the
// other sections keep their columns.
TEST(TableOutputTest, PlacedGroupShowsItsTopologyDomain) {
  api::ObjectSet objects;
  objects.pods.push_back(test::MakePod().Name("w-0").Group("workers").Obj());
  objects.pods.push_back(test::MakePod().Name("x-0").Group("waiting").Obj());
  sched::ScheduleResult result;
  result.bindings = {{"default/w-0", "n1"}};
  result.pending = {{"default/x-0", "Unschedulable", ""}};
  sched::GroupResult placed = Group("default/workers", 1, 1, "True", "Scheduled");
  placed.placement = sched::TopologyDomain{"topology.kubernetes.io/zone", "zone-a"};
  result.groups = {Group("default/waiting", 0, 1, "False", "Unschedulable"), placed};
  EXPECT_EQ(FormatScheduleTable(objects, result),
            "PodGroup default/waiting  scheduled 0/1 (minCount 1)  "
            "PodGroupInitiallyScheduled=False Unschedulable\n"
            "  default/x-0  PENDING  Unschedulable\n"
            "\n"
            "PodGroup default/workers  scheduled 1/1 (minCount 1)  "
            "PodGroupInitiallyScheduled=True Scheduled  placement topology.kubernetes.io/zone=zone-a\n"
            "  default/w-0  n1\n"
            "\n"
            "1 bound, 1 pending\n");
}

// Issue 20 item 12: `schedule --summary` prints one line per group — scheduled count, how its
// pods fared, domain, condition and message — and no per-pod line; tree levels are indented.
TEST(TableOutputTest, SummaryHasOneLinePerGroupAndNoPodLines) {
  api::ObjectSet objects;
  for (int i = 0; i < 3; ++i) {
    objects.pods.push_back(test::MakePod().Name("w-" + std::to_string(i)).Group("workers").Obj());
  }
  objects.pods.push_back(test::MakePod().Name("big-0").Group("big").Obj());
  objects.pods.push_back(test::MakePod().Name("web").Obj());
  objects.pods.push_back(test::MakePod().Name("db").Node("n2").Obj());
  sched::ScheduleResult result;
  result.bindings = {{"default/w-0", "n1"}, {"default/w-1", "n1"}, {"default/web", "n2"}};
  result.pending = {{"default/big-0", "Unschedulable", "Pod group default/big: 0 of 1 pods fit."},
                    {"default/w-2", "Unschedulable", "0/2 nodes are available: 2 Insufficient cpu."}};
  sched::GroupResult root;
  root.kind = "CompositePodGroup";
  root.name = "default/root";
  root.scheduled = 1;
  root.min_group_count = 1;
  root.placement = sched::TopologyDomain{"zone", "z1"};
  root.outcome = api::Condition{api::kCompositePodGroupInitiallyScheduled, "True", "Scheduled", "", 0, 0};
  sched::GroupResult workers = Group("default/workers", 2, 2, "True", "Scheduled");
  workers.parent = "default/root";
  workers.placement = sched::TopologyDomain{"rack", "r1"};
  result.groups = {root, Group("default/big", 0, 1, "False", "Unschedulable",
                               "Pod group default/big: 0 of 1 pods fit."),
                   workers};
  result.notes = {"Job default/j is suspended"};
  EXPECT_EQ(FormatScheduleSummary(objects, result),
            "CompositePodGroup default/root  scheduled 1/1 (minGroupCount 1)  -                              "
            "placement zone=z1  outcome=True Scheduled\n"
            "  PodGroup default/workers      scheduled 2/2 (minCount 2)       2 bound, 1 pending             "
            "placement rack=r1  PodGroupInitiallyScheduled=True Scheduled\n"
            "PodGroup default/big            scheduled 0/1 (minCount 1)       0 bound, 1 pending             "
            "-                  PodGroupInitiallyScheduled=False Unschedulable: Pod group default/big: 0 "
            "of 1 pods fit.\n"
            "Pods without a PodGroup         -                                1 bound, 0 pending, 1 running  "
            "-\n"
            "\n"
            "note: Job default/j is suspended\n"
            "\n"
            "3 bound, 2 pending, 1 already running\n");
}

TEST(TableOutputTest, EmptyResult) {
  EXPECT_EQ(FormatScheduleTable(api::ObjectSet{}, sched::ScheduleResult{}), "0 bound, 0 pending\n");
}

TEST(TableOutputTest, EvictionsAndCompositeGroups) {
  api::ObjectSet objects;
  objects.pods.push_back(test::MakePod().Name("victim").Node("n1").Obj());
  sched::ScheduleResult result;
  result.evictions = {{"default/victim", "n1", "PodGroup default/pg", ""}};
  sched::GroupResult cpg;
  cpg.kind = "CompositePodGroup";
  cpg.name = "default/root";
  cpg.scheduled = 1;
  cpg.min_group_count = 2;
  result.groups = {cpg};
  EXPECT_EQ(FormatScheduleTable(objects, result),
            "CompositePodGroup default/root  scheduled 1/2 (minGroupCount 2)  no condition\n"
            "\n"
            "Pods without a PodGroup\n"
            "  default/victim  EVICTED  preempted by PodGroup default/pg (was on n1)\n"
            "\n"
            "0 bound, 0 pending, 1 evicted\n");
}

// A victim group shows every condition in its header: the scheduling one, then
// DisruptionTarget (before, only one condition per group was printed).
TEST(TableOutputTest, EveryConditionOfAGroupIsShown) {
  api::ObjectSet objects;
  objects.pod_groups.push_back(test::MakePodGroup().Name("low").MinCount(1).Obj());
  objects.pods.push_back(test::MakePod().Name("low-0").Group("low").Node("n1").Obj());
  sched::ScheduleResult result;
  result.evictions = {{"default/low-0", "n1", "PodGroup default/high", ""}};
  sched::GroupResult low = Group("default/low", 1, 1, "True", "Scheduled");
  low.conditions.push_back(api::Condition{api::kDisruptionTarget, "True", "PreemptionByScheduler",
                                          "preempted by PodGroup default/high", 0, 0});
  result.groups = {low};
  EXPECT_EQ(FormatScheduleTable(objects, result),
            "PodGroup default/low  scheduled 1/1 (minCount 1)  PodGroupInitiallyScheduled=True "
            "Scheduled  DisruptionTarget=True PreemptionByScheduler\n"
            "  default/low-0  EVICTED  preempted by PodGroup default/high (was on n1)\n"
            "\n"
            "0 bound, 0 pending, 1 evicted\n");
}

// A group that lost pods to preemption says so, without a DisruptionTarget condition (v1.37.2
// marks only the victim pods).
TEST(TableOutputTest, DisruptedGroupIsMarked) {
  api::ObjectSet objects;
  objects.pod_groups.push_back(test::MakePodGroup().Name("low").MinCount(1).Obj());
  objects.pods.push_back(test::MakePod().Name("low-0").Group("low").Node("n1").Obj());
  sched::ScheduleResult result;
  result.evictions = {{"default/low-0", "n1", "PodGroup default/high", ""}};
  sched::GroupResult low = Group("default/low", 0, 1, "True", "Scheduled");
  low.disrupted = true;
  result.groups = {low};
  EXPECT_EQ(FormatScheduleTable(objects, result),
            "PodGroup default/low  scheduled 0/1 (minCount 1)  PodGroupInitiallyScheduled=True "
            "Scheduled  disrupted by preemption\n"
            "  default/low-0  EVICTED  preempted by PodGroup default/high (was on n1)\n"
            "\n"
            "0 bound, 0 pending, 1 evicted\n");
}

// Pods held at PreEnqueue have no condition (v1.37.2 writes none): their row says `held`, and
// what they wait for is printed once for the section when shared, inline otherwise. A pod with
// spec.schedulingGates keeps its SchedulingGated reason.
TEST(TableOutputTest, HeldPodsSayHeldAndWhatTheyWaitFor) {
  api::ObjectSet objects;
  objects.pod_groups.push_back(test::MakePodGroup().Name("g").MinCount(3).Obj());
  sched::ScheduleResult result;
  const std::string why =
      "waiting for minCount pods from a gang to appear in scheduling queue (2 of minCount 3 pods "
      "exist)";
  for (const char* name : {"g-0", "g-1"}) {
    objects.pods.push_back(test::MakePod().Name(name).Group("g").Obj());
    result.pending.push_back({std::string("default/") + name, "", "", why});
  }
  objects.pods.push_back(test::MakePod().Name("lone").Group("nope").Obj());
  objects.pods.push_back(test::MakePod().Name("wait").Obj());
  result.pending.push_back({"default/lone", "", "",
                            "waiting for pods's pod group \"nope\" to appear in scheduling queue"});
  result.pending.push_back({"default/wait", "SchedulingGated",
                            "Scheduling is blocked due to non-empty scheduling gates: [x]"});
  sched::GroupResult g = Group("default/g", 0, 3, "", "");
  g.conditions.clear();
  result.groups = {g};
  EXPECT_EQ(FormatScheduleTable(objects, result),
            "PodGroup default/g  scheduled 0/3 (minCount 3)  no condition\n"
            "  pending pods: " + why + "\n"
            "  default/g-0   PENDING  held\n"
            "  default/g-1   PENDING  held\n"
            "\n"
            "Pods without a PodGroup\n"
            "  default/lone  PENDING  held: waiting for pods's pod group \"nope\" to appear in "
            "scheduling queue\n"
            "  default/wait  PENDING  SchedulingGated: Scheduling is blocked due to non-empty "
            "scheduling gates: [x]\n"
            "\n"
            "0 bound, 4 pending\n");
}

// QA2 finding 15: names and node names from the input reach the table escaped.
TEST(TableOutputTest, ControlCharactersInNamesAreEscaped) {
  api::ObjectSet objects;
  objects.pods.push_back(test::MakePod().Name("a\x1b[2J").Node("n\x1b[1m").Obj());
  const std::string table = FormatScheduleTable(objects, sched::ScheduleResult{});
  EXPECT_EQ(table.find('\x1b'), std::string::npos) << table;
  EXPECT_NE(table.find("default/a\\x1b[2J  n\\x1b[1m  running"), std::string::npos) << table;
}

// A CompositePodGroup tree: children follow their parent, indented per level (their pods and
// messages too); siblings by kind then name; a standalone group stays a root.
TEST(TableOutputTest, CompositeTreeIsIndented) {
  api::ObjectSet objects;
  objects.pods.push_back(test::MakePod().Name("w-0").Group("workers").Obj());
  objects.pods.push_back(test::MakePod().Name("d-0").Group("driver").Obj());
  objects.pods.push_back(test::MakePod().Name("solo-0").Group("solo").Obj());
  sched::ScheduleResult result;
  result.bindings = {{"default/d-0", "n1"}, {"default/solo-0", "n1"}};
  result.pending = {{"default/w-0", "Unschedulable", "no room"}};
  sched::GroupResult root;
  root.kind = "CompositePodGroup";
  root.name = "default/root";
  root.scheduled = 1;
  root.min_group_count = 2;
  root.outcome = api::Condition{api::kCompositePodGroupInitiallyScheduled, "False", "Unschedulable",
                                "no room", 0, 0};
  sched::GroupResult mid = root;
  mid.name = "default/mid";
  mid.min_group_count = 1;
  mid.parent = "default/root";
  mid.outcome.reset();
  sched::GroupResult driver = Group("default/driver", 1, 1, "True", "Scheduled");
  driver.parent = "default/root";
  sched::GroupResult workers = Group("default/workers", 0, 1, "False", "Unschedulable", "no room");
  workers.parent = "default/mid";
  result.groups = {mid, root, driver, Group("default/solo", 1, 1, "True", "Scheduled"), workers};
  std::sort(result.groups.begin(), result.groups.end(), [](const auto& a, const auto& b) {
    return std::tie(a.kind, a.name) < std::tie(b.kind, b.name);
  });
  EXPECT_EQ(FormatScheduleTable(objects, result),
            "CompositePodGroup default/root   scheduled 1/2 (minGroupCount 2)  "
            "outcome=False Unschedulable\n"
            "  message: no room\n"
            "\n"
            "  CompositePodGroup default/mid  scheduled 1/1 (minGroupCount 1)  no condition\n"
            "\n"
            "    PodGroup default/workers     scheduled 0/1 (minCount 1)       "
            "PodGroupInitiallyScheduled=False Unschedulable\n"
            "      message: no room\n"
            "      default/w-0     PENDING  Unschedulable\n"
            "\n"
            "  PodGroup default/driver        scheduled 1/1 (minCount 1)       "
            "PodGroupInitiallyScheduled=True Scheduled\n"
            "    default/d-0     n1\n"
            "\n"
            "PodGroup default/solo            scheduled 1/1 (minCount 1)       "
            "PodGroupInitiallyScheduled=True Scheduled\n"
            "  default/solo-0  n1\n"
            "\n"
            "2 bound, 1 pending\n");
}

// Issue 20 item 27: every field is escaped on its own, so a newline in a pod, node, message or
// device name is `\n` inside its cell and never starts a line.
TEST(TableOutputTest, NewlinesInFieldsNeverBreakLines) {
  api::ObjectSet objects;
  objects.pods.push_back(test::MakePod().Name("a\nb").Group("g\nh").Obj());
  sched::ScheduleResult result;
  result.pending = {{"default/a\nb", "Unschedulable", "line1\nline2"}};
  result.groups = {Group("default/g\nh", 0, 1, "False", "Unschedulable", "why\nnot")};
  sched::ClaimAllocation a;
  a.claim = "default/c\nd";
  a.devices.push_back({"req", "drv", "pool\n1", "gpu\n0"});
  result.allocations.push_back(a);
  const std::string table = FormatScheduleTable(objects, result);
  EXPECT_EQ(table,
            "PodGroup default/g\\nh  scheduled 0/1 (minCount 1)  PodGroupInitiallyScheduled=False "
            "Unschedulable\n"
            "  message: why\\nnot\n"
            "  default/a\\nb  PENDING  Unschedulable: line1\\nline2\n"
            "\n"
            "ResourceClaims allocated\n"
            "  default/c\\nd\n"
            "    req → drv/pool\\n1/gpu\\n0\n"
            "\n"
            "0 bound, 1 pending\n");
}

// Issue 20 item 22: a CompositePodGroup chain deeper than any valid tree keeps a bounded
// indentation (the table stays O(levels), not O(levels²)) and names the depth.
TEST(TableOutputTest, DeepChainIndentationIsBounded) {
  api::ObjectSet objects;
  sched::ScheduleResult result;
  constexpr int kLevels = 2000;
  for (int i = 0; i < kLevels; ++i) {
    sched::GroupResult g;
    g.kind = "CompositePodGroup";
    g.name = "default/c" + std::to_string(i);
    g.min_group_count = 1;
    if (i > 0) g.parent = "default/c" + std::to_string(i - 1);
    result.groups.push_back(g);
  }
  const std::string table = FormatScheduleTable(objects, result);
  EXPECT_LT(table.size(), static_cast<size_t>(kLevels) * 120);
  EXPECT_NE(table.find("\n            CompositePodGroup default/c1999 (depth 1999)  "),
            std::string::npos);
  EXPECT_NE(table.find("\n            CompositePodGroup default/c6  "), std::string::npos);
}

}  // namespace
}  // namespace wasched::cli
