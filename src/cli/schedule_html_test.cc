// File: cli/schedule_html_test.cc
//
// `schedule -o html` (cli/schedule_html.h) on a small hand-made result: the page names every
// group and node, escapes input text, groups nodes by zone and rack, draws evictions crossed out
// with the preemptor in the tooltip, lists pending groups with their reason, loads nothing from
// outside and is the same bytes twice.
#include "cli/schedule_html.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "cli/app.h"
#include "support/builders.h"

namespace wasched::cli {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

constexpr const char* kRack = "topology.example.com/rack";

sched::GroupResult Group(std::string name, int32_t scheduled, int32_t min, std::string status,
                         std::string reason, std::string message = "") {
  sched::GroupResult g;
  g.kind = "PodGroup";
  g.name = std::move(name);
  g.scheduled = scheduled;
  g.min_count = min;
  g.policy = "gang";
  g.conditions.push_back(api::Condition{api::kPodGroupInitiallyScheduled, std::move(status),
                                        std::move(reason), std::move(message), 0, 0});
  return g;
}

// Small: zone-a with racks r2 and r10 (n1, n2 / n10), one node without labels (edge), groups
// `train` (bound), `big<x>` (pending, a message with markup) and `low` (its pod evicted).
struct Small {
  api::ObjectSet objects;
  sched::ScheduleResult result;
};

Small MakeSmall() {
  Small s;
  s.objects.nodes.push_back(test::MakeNode().Name("n10").Label(kZoneLabel, "zone-a").Label(kRack, "r10").Obj());
  s.objects.nodes.push_back(test::MakeNode().Name("n2").Label(kZoneLabel, "zone-a").Label(kRack, "r2").Obj());
  s.objects.nodes.push_back(test::MakeNode().Name("n1").Label(kZoneLabel, "zone-a").Label(kRack, "r2").Obj());
  s.objects.nodes.push_back(test::MakeNode().Name("edge").Obj());
  s.objects.pod_groups.push_back(test::MakePodGroup().Name("train").MinCount(2).TopologyKey(kRack).Obj());
  s.objects.pod_groups.push_back(test::MakePodGroup().Name("big<x>").MinCount(4).Obj());
  s.objects.pod_groups.push_back(test::MakePodGroup().Name("low").MinCount(1).Obj());
  s.objects.pods.push_back(test::MakePod().Name("train-0").Group("train").Obj());
  s.objects.pods.push_back(test::MakePod().Name("train-1").Group("train").Obj());
  s.objects.pods.push_back(test::MakePod().Name("big-0").Group("big<x>").Obj());
  s.objects.pods.push_back(test::MakePod().Name("low-0").Group("low").Node("n2").Obj());
  s.objects.pods.push_back(test::MakePod().Name("agent").Node("edge").Obj());
  s.objects.pods.push_back(test::MakePod().Name("web").Obj());
  s.result.bindings = {{"default/train-0", "n1"}, {"default/train-1", "n2"}};
  s.result.pending = {{"default/big-0", "Unschedulable", "0/4 nodes <b>fit</b> & 'so'"},
                      {"default/web", "Unschedulable", "0/4 nodes are available: 4 Insufficient cpu."}};
  s.result.evictions = {{"default/low-0", "n2", "PodGroup default/train", "priority 0 < 100"}};
  s.result.groups = {Group("default/big<x>", 0, 4, "False", "Unschedulable", "0/4 nodes <b>fit</b> & 'so'"),
                     Group("default/low", 0, 1, "True", "Scheduled"),
                     Group("default/train", 2, 2, "True", "Scheduled")};
  s.result.groups[1].conditions.push_back(
      api::Condition{api::kDisruptionTarget, "True", api::kReasonPreemptionByScheduler, "", 0, 0});
  return s;
}

TEST(ScheduleHtmlTest, NamesGroupsAndNodesAndEscapesText) {
  const Small s = MakeSmall();
  const std::string page = FormatScheduleHtml(s.objects, s.result);
  EXPECT_EQ(page.rfind("<!DOCTYPE html>\n<html lang=\"en\">", 0), 0u);
  EXPECT_TRUE(page.ends_with("</body></html>\n"));
  EXPECT_EQ(page, FormatScheduleHtml(s.objects, s.result)) << "not deterministic";
  // Groups in the legend, escaped.
  for (const char* name : {"<b>default/train</b>", "<b>default/low</b>", "<b>default/big&lt;x&gt;</b>"}) {
    EXPECT_THAT(page, HasSubstr(name));
  }
  EXPECT_THAT(page, Not(HasSubstr("big<x>")));
  // Every node is drawn.
  for (const char* node : {">n1</div>", ">n2</div>", ">n10</div>", ">edge</div>"}) EXPECT_THAT(page, HasSubstr(node));
  // The pending group's reason and message, escaped; the pending bare pod too.
  EXPECT_THAT(page, HasSubstr("<tr><td>PodGroup default/big&lt;x&gt;</td><td>0/4</td><td>Unschedulable</td>"
                              "<td class=\"msg\">0/4 nodes &lt;b&gt;fit&lt;/b&gt; &amp; &#39;so&#39;</td></tr>"));
  EXPECT_THAT(page, HasSubstr("<tr><td>Pod default/web</td><td>-</td><td>Unschedulable</td>"));
  EXPECT_THAT(page, Not(HasSubstr("<b>fit</b>")));
  // Nothing from outside, no script.
  for (const char* external : {"<script", "src=", "href=", "url(", "@import", "<link"}) {
    EXPECT_THAT(page, Not(HasSubstr(external))) << external;
  }
}

TEST(ScheduleHtmlTest, MapGroupsByZoneThenRackWithUnlabelledLast) {
  const Small s = MakeSmall();
  const std::string page = FormatScheduleHtml(s.objects, s.result);
  EXPECT_THAT(page, HasSubstr("Grouped by zone (topology.kubernetes.io/zone) and rack (topology.example.com/rack)."));
  const size_t zone = page.find("<h3>zone zone-a</h3>");
  const size_t r2 = page.find("<h4>rack r2</h4>");
  const size_t r10 = page.find("<h4>rack r10</h4>");
  const size_t n1 = page.find(">n1</div>");
  const size_t n2 = page.find(">n2</div>");
  const size_t n10 = page.find(">n10</div>");
  const size_t unlabelled = page.find("<h3>unlabelled</h3>");
  const size_t edge = page.find(">edge</div>");
  ASSERT_NE(zone, std::string::npos);
  ASSERT_NE(unlabelled, std::string::npos);
  // Natural order: r2 before r10, n1 before n2; the node without labels in the unlabelled block.
  EXPECT_LT(zone, r2);
  EXPECT_LT(r2, n1);
  EXPECT_LT(n1, n2);
  EXPECT_LT(n2, r10);
  EXPECT_LT(r10, n10);
  EXPECT_LT(n10, unlabelled);
  EXPECT_LT(unlabelled, edge);
}

TEST(ScheduleHtmlTest, PodsInTheirGroupColourAndEvictionsCrossed) {
  const Small s = MakeSmall();
  const std::string page = FormatScheduleHtml(s.objects, s.result);
  // Colours by the result's PodGroup order: big<x> 0, low 1, train 2.
  const std::string train = GroupColour(2), low = GroupColour(1);
  EXPECT_THAT(page, HasSubstr("<span class=\"pod\" style=\"background:" + train +
                              "\" title=\"default/train-0 on n1: bound by this run, PodGroup default/train\">"));
  EXPECT_THAT(page, HasSubstr("<span class=\"pod evicted\" style=\"background:" + low +
                              "\" title=\"default/low-0 evicted from n2: preempted by PodGroup default/train: "
                              "priority 0 &lt; 100\"><svg"));
  // The running pod without a group: pale grey on its node.
  EXPECT_THAT(page, HasSubstr("<span class=\"pod running\" style=\"background:#888888\" "
                              "title=\"default/agent on edge: already running\">"));
  // The legend names each PodGroup with its colour.
  EXPECT_THAT(page, HasSubstr("<span class=\"sw\" style=\"background:" + train + "\"></span><span>PodGroup "
                              "<b>default/train</b> 2/2</span>"));
  // The evictions table names the preemptor.
  EXPECT_THAT(page, HasSubstr("<tr><td>default/low-0</td><td>n2</td><td>PodGroup default/train</td>"));
}

TEST(ScheduleHtmlTest, ControlCharactersAreVisible) {
  Small s = MakeSmall();
  s.result.pending[1].message = "bad\x1b[31m\nline";
  const std::string page = FormatScheduleHtml(s.objects, s.result);
  EXPECT_THAT(page, HasSubstr("bad\\x1b[31m\\nline"));
  EXPECT_EQ(page.find('\x1b'), std::string::npos);
}

// Pods held at PreEnqueue have no condition (v1.37.2 writes none): their group's row, and a held
// pod without a known group, read `held` with what they wait for.
TEST(ScheduleHtmlTest, HeldPodsAndTheirGroupSayHeld) {
  Small s = MakeSmall();
  s.objects.pod_groups.push_back(test::MakePodGroup().Name("short").MinCount(3).Obj());
  s.objects.pods.push_back(test::MakePod().Name("short-0").Group("short").Obj());
  s.objects.pods.push_back(test::MakePod().Name("orphan").Group("nope").Obj());
  s.result.pending.push_back({"default/orphan", "", "", "waiting for pod group nope"});
  s.result.pending.push_back({"default/short-0", "", "", "waiting for 2 more pods"});
  sched::GroupResult g = Group("default/short", 0, 3, "", "");
  g.conditions.clear();
  s.result.groups.push_back(g);
  const std::string page = FormatScheduleHtml(s.objects, s.result);
  EXPECT_THAT(page, HasSubstr("<tr><td>PodGroup default/short</td><td>0/3</td><td>held</td>"
                              "<td class=\"msg\">waiting for 2 more pods</td></tr>"));
  EXPECT_THAT(page, HasSubstr("<tr><td>Pod default/orphan</td><td>-</td><td>held</td>"
                              "<td class=\"msg\">waiting for pod group nope</td></tr>"));
}

TEST(ScheduleHtmlTest, TopologyKeys) {
  Small s = MakeSmall();
  EXPECT_EQ(ChooseTopologyKeys(s.objects, s.result).rack, kRack);
  // Without a constraint: the label whose key names a rack.
  s.objects.pod_groups[0].scheduling_constraints.reset();
  s.objects.nodes[0].meta.labels.erase(kRack);
  s.objects.nodes[0].meta.labels["topology.kubernetes.io/rack"] = "r10";
  const TopologyKeys keys = ChooseTopologyKeys(s.objects, s.result);
  EXPECT_EQ(keys.zone, kZoneLabel);
  EXPECT_EQ(keys.rack, kRack);  // on two nodes, the other key on one
  api::ObjectSet bare;
  bare.nodes.push_back(test::MakeNode().Name("a").Obj());
  const TopologyKeys none = ChooseTopologyKeys(bare, {});
  EXPECT_EQ(none.zone, "");
  EXPECT_EQ(none.rack, "");
}

TEST(ScheduleHtmlTest, ColoursDifferForNeighbours) {
  std::set<std::string> seen;
  for (size_t i = 0; i < 24; ++i) seen.insert(GroupColour(i));
  EXPECT_EQ(seen.size(), 24u);
}

// The CLI: `-o html` prints the page on stdout; --summary refuses it.
TEST(ScheduleHtmlTest, CommandLine) {
  const std::string input =
      "apiVersion: v1\nkind: Node\nmetadata:\n  name: n1\n  labels:\n    topology.kubernetes.io/zone: z1\n"
      "status:\n  allocatable:\n    cpu: \"4\"\n    memory: 8Gi\n    pods: \"10\"\n"
      "---\napiVersion: scheduling.k8s.io/v1beta1\nkind: PodGroup\nmetadata:\n  name: pg\n  namespace: default\n"
      "spec:\n  schedulingPolicy:\n    gang:\n      minCount: 1\n"
      "---\napiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n  namespace: default\nspec:\n"
      "  schedulingGroup:\n    podGroupName: pg\n  containers:\n  - name: c\n    image: x\n";
  auto run = [&](std::vector<std::string> args) {
    args.insert(args.begin(), "wasched");
    std::vector<const char*> argv;
    for (const std::string& a : args) argv.push_back(a.c_str());
    std::istringstream in(input);
    std::ostringstream out, err;
    const int code = cli::Run(static_cast<int>(argv.size()), argv.data(), in, out, err);
    return std::tuple{code, out.str(), err.str()};
  };
  auto [code, out, err] = run({"schedule", "-f", "-", "-o", "html"});
  ASSERT_EQ(code, 0) << err;
  EXPECT_EQ(out.rfind("<!DOCTYPE html>", 0), 0u);
  EXPECT_THAT(out, HasSubstr("<b>default/pg</b> 1/1"));
  EXPECT_THAT(out, HasSubstr("<h3>zone z1</h3>"));
  EXPECT_THAT(out, HasSubstr("title=\"default/p on n1: bound by this run, PodGroup default/pg\""));
  auto [summary_code, summary_out, summary_err] = run({"schedule", "--summary", "-f", "-", "-o", "html"});
  EXPECT_EQ(summary_code, 2);
  EXPECT_EQ(summary_out, "");
}

}  // namespace
}  // namespace wasched::cli
