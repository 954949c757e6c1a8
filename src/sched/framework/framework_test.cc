#include "sched/framework/framework.h"
#include "sched/framework/pod_template.h"

#include <random>

#include <fmt/format.h>

#include <gtest/gtest.h>

#include "sched/cache/snapshot.h"
#include "support/builders.h"

namespace wasched::sched {
namespace {

using test::kGi;
using test::MakeNode;
using test::MakePod;

// The per-signature ScoreIndex must choose exactly the node the full scan chooses, through any
// sequence of assumptions and reverts.
TEST(FrameworkTest, ScoreIndexAgreesWithScanUnderRandomChanges) {
  std::mt19937 rng(42);
  std::vector<api::Node> nodes;
  for (int i = 0; i < 40; ++i) {
    nodes.push_back(MakeNode()
                        .Name(fmt::format("n{:02}", i))
                        .Capacity({{"cpu", 1000 * (1 + static_cast<int64_t>(rng() % 8))},
                                   {"memory", kGi * (1 + static_cast<int64_t>(rng() % 16))},
                                   {"pods", 110}})
                        .Label("zone", i % 3 == 0 ? "a" : "b")
                        .Obj());
  }
  std::vector<const api::Node*> ptrs;
  for (const auto& n : nodes) ptrs.push_back(&n);
  ResourceTable resources;
  NodeTable table(ptrs, resources);
  Framework indexed(table, resources, ScoringStrategy::kLeastAllocated);
  Framework scan(table, resources, ScoringStrategy::kLeastAllocated);
  scan.set_use_score_index(false);

  std::vector<api::Pod> specs;
  for (int i = 0; i < 300; ++i) {
    auto b = MakePod().Name(fmt::format("p{}", i))
                 .Req({{"cpu", 100 * (1 + static_cast<int64_t>(rng() % 5))},
                       {"memory", 256LL * 1024 * 1024 * (1 + static_cast<int64_t>(rng() % 3))}});
    if (i % 4 == 0) b.NodeSelector("zone", "a");
    specs.push_back(b.Obj());
  }
  std::vector<PodInfo> pods(specs.size());
  PodTemplates templates(resources);
  for (size_t i = 0; i < specs.size(); ++i) {
    PodInfo& pi = pods[i];
    pi.pod = &specs[i];
    pi.requests = templates[templates.Intern(specs[i])].requests;
    pi.nonzero_cpu = specs[i].containers[0].requests.at("cpu");
    pi.nonzero_memory = specs[i].containers[0].requests.at("memory");
    pi.request_cpu = pi.nonzero_cpu;
    pi.request_memory = pi.nonzero_memory;
    pi.static_class = indexed.ClassOf(specs[i]);
    ASSERT_EQ(scan.ClassOf(specs[i]), pi.static_class);
    pi.signature = indexed.SignatureOf(pi);
    ASSERT_GE(pi.signature, 0);
  }
  Snapshot snapshot(table, pods);
  int placed = 0;
  // Rounds of placements, each but the last reverted whole (a reprieve loop): the change log
  // passes NodeTable::ChangeLogLimit and is reset, and the index must rebuild (QA finding 21).
  const size_t start = snapshot.Mark();
  for (int round = 0; round < 30; ++round) {
  if (round > 0) {
    snapshot.RevertTo(start);
    placed = 0;
  }
  for (size_t i = 0; i < pods.size(); ++i) {
    size_t mark = snapshot.Mark();
    NodeIndex a = indexed.FindNode(pods[i]);
    NodeIndex b = scan.FindNode(pods[i]);
    ASSERT_EQ(a, b) << "pod " << i;
    if (a != kNoNode) {
      snapshot.Assume(static_cast<PodIndex>(i), a);
      ++placed;
    }
    if (rng() % 5 == 0) snapshot.RevertTo(mark);  // a failed group cycle
    // A deletion, in the last round only (a removed pod must not be reverted again).
    if (round == 29 && rng() % 7 == 0 && i > 0 && pods[i - 1].node != kNoNode) {
      snapshot.Remove(static_cast<PodIndex>(i - 1));  // a deletion
    }
  }
  }
  EXPECT_GE(table.log_epoch(), 2u);
  EXPECT_LT(table.change_log().size(), NodeTable::ChangeLogLimit(table.size()));
  EXPECT_GT(placed, 50);
  EXPECT_EQ(table.FirstOvercommitted(), -1);
}

TEST(FrameworkTest, EquivalentPodsShareOneClassAndSignature) {
  api::Node node = MakeNode().Name("n").Capacity({{"cpu", 4000}, {"pods", 110}}).Obj();
  ResourceTable resources;
  NodeTable table({&node}, resources);
  Framework fw(table, resources, ScoringStrategy::kLeastAllocated);
  api::Pod a = MakePod().Name("a").Req({{"cpu", 100}}).Obj();
  api::Pod b = MakePod().Name("b").Req({{"cpu", 100}}).Obj();
  api::Pod c = MakePod().Name("c").Req({{"cpu", 100}}).NodeSelector("x", "y").Obj();
  EXPECT_EQ(fw.ClassOf(a), fw.ClassOf(b));
  EXPECT_NE(fw.ClassOf(a), fw.ClassOf(c));
  PodInfo pa, pb;
  const std::vector<ResourceAmount> ra{{kCpu, 100}, {kPods, 1}};
  std::vector<ResourceAmount> rb = ra;
  pa.requests = ra;
  pb.requests = rb;
  pa.static_class = pb.static_class = fw.ClassOf(a);
  EXPECT_EQ(fw.SignatureOf(pa), fw.SignatureOf(pb));
  rb[0].amount = 200;
  EXPECT_NE(fw.SignatureOf(pa), fw.SignatureOf(pb));
}

}  // namespace
}  // namespace wasched::sched
