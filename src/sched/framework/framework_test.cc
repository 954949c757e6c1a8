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

// A restricted scan (a placement's nodes) answers pods with a signature from the allowed nodes'
// scores kept since its last call (FindNodeAllowedMemo): through random restrictions, members of
// several signatures, assumptions inside and outside the allowed nodes, reverts and change-log
// resets, it must choose exactly the node the plain restricted scan (no signature) chooses.
TEST(FrameworkTest, RestrictedScoreMemoAgreesWithTheScan) {
  std::mt19937 rng(7);
  std::vector<api::Node> nodes;
  for (int i = 0; i < 30; ++i) {
    nodes.push_back(MakeNode()
                        .Name(fmt::format("n{:02}", i))
                        .Capacity({{"cpu", 1000 * (1 + static_cast<int64_t>(rng() % 4))},
                                   {"memory", kGi * (1 + static_cast<int64_t>(rng() % 8))},
                                   {"pods", 110}})
                        .Obj());
  }
  std::vector<const api::Node*> ptrs;
  for (const auto& n : nodes) ptrs.push_back(&n);
  ResourceTable resources;
  NodeTable table(ptrs, resources);
  Framework memo(table, resources, ScoringStrategy::kLeastAllocated);
  Framework scan(table, resources, ScoringStrategy::kLeastAllocated);
  std::vector<api::Pod> specs;
  for (int i = 0; i < 400; ++i) {
    specs.push_back(MakePod()
                        .Name(fmt::format("p{}", i))
                        .Req({{"cpu", 250 * (1 + static_cast<int64_t>(rng() % 3))},
                              {"memory", 512LL * 1024 * 1024 *
                                             (1 + static_cast<int64_t>(rng() % 2))}})
                        .Obj());
  }
  std::vector<PodInfo> pods(specs.size());
  PodTemplates templates(resources);
  for (size_t i = 0; i < specs.size(); ++i) {
    PodInfo& pi = pods[i];
    pi.pod = &specs[i];
    pi.requests = templates[templates.Intern(specs[i])].requests;
    pi.request_cpu = pi.nonzero_cpu = specs[i].containers[0].requests.at("cpu");
    pi.request_memory = pi.nonzero_memory = specs[i].containers[0].requests.at("memory");
    pi.static_class = memo.ClassOf(specs[i]);
    ASSERT_EQ(scan.ClassOf(specs[i]), pi.static_class);
    pi.signature = memo.SignatureOf(pi);
    ASSERT_GE(pi.signature, 0);
  }
  Snapshot snapshot(table, pods);
  const size_t start = snapshot.Mark();
  int answered = 0, memo_reused = 0;
  for (int round = 0; round < 60; ++round) {
    if (round % 10 == 9) snapshot.RevertTo(start);  // a big revert (the log may reset)
    std::vector<NodeIndex> allowed;
    for (NodeIndex n = 0; n < table.size(); ++n) {
      if (rng() % 3 == 0) allowed.push_back(n);
    }
    memo.Restrict(allowed);
    scan.Restrict(allowed);
    for (int k = 0; k < 12; ++k) {
      const auto i = static_cast<size_t>(rng() % pods.size());
      if (pods[i].node != kNoNode) continue;
      PodInfo plain = pods[i];
      plain.signature = -1;  // the plain restricted scan
      const NodeIndex a = memo.FindNode(pods[i]);
      const NodeIndex b = scan.FindNode(plain);
      ASSERT_EQ(a, b) << "round " << round << " pod " << i;
      ++answered;
      memo_reused += k > 0;
      if (a != kNoNode && rng() % 4 != 0) snapshot.Assume(static_cast<PodIndex>(i), a);
      // A change outside the restriction (another placement's pod) or a revert.
      const auto j = static_cast<size_t>(rng() % pods.size());
      if (rng() % 3 == 0 && pods[j].node == kNoNode) {
        snapshot.Assume(static_cast<PodIndex>(j), static_cast<NodeIndex>(rng() % table.size()));
      }
    }
    memo.Unrestrict();
    scan.Unrestrict();
    if (round % 2 == 1) snapshot.RevertTo(start);
  }
  EXPECT_GT(answered, 300);
  EXPECT_GT(memo_reused, 300);
}

// RandomTerm: a required (anti-)affinity term drawn from the shapes the fast path must get
// right and those it must leave to the scan: matchLabels on `group` or `app`, a matchExpressions
// selector (not indexable), a null selector, namespaces, namespaceSelector, matchLabelKeys; per
// hostname (some nodes share a hostname value, one lacks it) or per zone.
api::PodAffinityTerm RandomTerm(std::mt19937& rng) {
  api::PodAffinityTerm t;
  t.topology_key = rng() % 4 == 0 ? "zone" : "kubernetes.io/hostname";
  switch (rng() % 8) {
    case 0:
      t.label_selector.emplace().match_labels["app"] = rng() % 2 == 0 ? "a" : "b";
      break;
    case 1: {
      api::LabelSelectorRequirement r;
      r.key = "group";
      r.op = api::LabelSelectorOperator::kIn;
      r.values = {fmt::format("g{}", rng() % 4)};
      t.label_selector.emplace().match_expressions.push_back(r);
      break;
    }
    case 2:
      break;  // null selector: selects nothing
    default:
      t.label_selector.emplace().match_labels["group"] = fmt::format("g{}", rng() % 4);
      if (rng() % 3 == 0) t.label_selector->match_labels["app"] = "a";
      break;
  }
  if (rng() % 6 == 0) t.namespaces = {rng() % 2 == 0 ? "ns1" : "ns2"};
  if (rng() % 8 == 0) t.namespace_selector.emplace();
  if (rng() % 8 == 0) t.match_label_keys = {"app"};
  return t;
}

// The affinity fast path (issue 19: pods with required anti-affinity, or selected by placed
// pods' anti-affinity, stay on the score index with InterPodAffinity's rejections as node
// exclusions) must choose exactly the node the scan path chooses (PodFits on every node), over
// seeded random small clusters, through gang-like trial placements, reverts and deletions.
TEST(FrameworkTest, AffinityFastPathAgreesWithScanOnRandomClusters) {
  int64_t fast_queries = 0, placed_total = 0;
  for (uint32_t seed = 1; seed <= 150; ++seed) {
    std::mt19937 rng(seed);
    const int node_count = 3 + static_cast<int>(rng() % 10);
    std::vector<api::Node> nodes;
    for (int i = 0; i < node_count; ++i) {
      auto b = MakeNode()
                   .Name(fmt::format("n{:02}", i))
                   .Capacity({{"cpu", 1000 * (1 + static_cast<int64_t>(rng() % 4))},
                              {"memory", kGi * (1 + static_cast<int64_t>(rng() % 8))},
                              {"pods", 110}});
      if (rng() % 12 != 0) {  // one in twelve lacks the hostname label; some share a value
        b.Label("kubernetes.io/hostname",
                rng() % 10 == 0 ? std::string("shared") : fmt::format("n{:02}", i));
      }
      if (rng() % 8 != 0) b.Label("zone", fmt::format("z{}", rng() % 3));
      nodes.push_back(b.Obj());
    }
    std::vector<const api::Node*> ptrs;
    for (const auto& n : nodes) ptrs.push_back(&n);
    ResourceTable resources;
    NodeTable table(ptrs, resources);
    Framework indexed(table, resources, ScoringStrategy::kLeastAllocated);
    Framework scan(table, resources, ScoringStrategy::kLeastAllocated);
    scan.set_use_score_index(false);

    const int pod_count = 20 + static_cast<int>(rng() % 40);
    std::vector<api::Pod> specs;
    specs.reserve(static_cast<size_t>(pod_count));
    for (int i = 0; i < pod_count; ++i) {
      // Pods come in gangs of 1-4 equivalent members (same labels and terms).
      const bool same_as_previous = i > 0 && rng() % 3 != 0;
      if (same_as_previous) {
        api::Pod p = specs.back();
        p.meta.name = fmt::format("p{}", i);
        specs.push_back(std::move(p));
        continue;
      }
      auto b = MakePod()
                   .Name(fmt::format("p{}", i))
                   .Namespace(rng() % 5 == 0 ? "ns2" : "ns1")
                   .Req({{"cpu", 100 * (1 + static_cast<int64_t>(rng() % 6))},
                         {"memory", 256LL * 1024 * 1024 * (1 + static_cast<int64_t>(rng() % 3))}});
      if (rng() % 4 != 0) b.Label("group", fmt::format("g{}", rng() % 4));
      if (rng() % 2 == 0) b.Label("app", rng() % 2 == 0 ? "a" : "b");
      if (rng() % 10 == 0) b.NodeSelector("zone", "z1");
      api::Pod p = b.Obj();
      const uint32_t shape = rng() % 10;
      if (shape < 5) {  // required anti-affinity: the fast path's case
        const int terms = 1 + static_cast<int>(rng() % 2);
        for (int t = 0; t < terms; ++t) {
          if (!p.pod_anti_affinity) p.pod_anti_affinity.emplace();
          p.pod_anti_affinity->required.push_back(RandomTerm(rng));
        }
      } else if (shape == 5) {  // required affinity: scan path
        p.pod_affinity.emplace().required.push_back(RandomTerm(rng));
      } else if (shape == 6) {  // preferred terms: scored, scan path
        api::WeightedPodAffinityTerm w;
        w.weight = 1 + static_cast<int32_t>(rng() % 50);
        w.term = RandomTerm(rng);
        if (rng() % 2 == 0) {
          p.pod_anti_affinity.emplace().preferred.push_back(w);
        } else {
          p.pod_affinity.emplace().preferred.push_back(w);
        }
      }  // else: no terms (selected or not by placed pods' anti-affinity)
      specs.push_back(std::move(p));
    }
    std::vector<PodInfo> pods(specs.size());
    PodTemplates templates(resources);
    for (size_t i = 0; i < specs.size(); ++i) {
      PodInfo& pi = pods[i];
      pi.pod = &specs[i];
      const PodTemplate& t = templates[templates.Intern(specs[i])];
      pi.requests = t.requests;
      pi.nonzero_cpu = t.nonzero_cpu;
      pi.nonzero_memory = t.nonzero_memory;
      pi.request_cpu = t.request_cpu;
      pi.request_memory = t.request_memory;
      pi.pod_filters = t.pod_filters;
      pi.static_class = indexed.ClassOf(specs[i]);
      ASSERT_EQ(scan.ClassOf(specs[i]), pi.static_class);
      pi.signature = indexed.SignatureOf(pi);
      pi.affinity_signature = indexed.AffinitySignatureOf(pi);
      ASSERT_EQ(scan.SignatureOf(pi), pi.signature);
      ASSERT_EQ(scan.AffinitySignatureOf(pi), pi.affinity_signature);
    }
    Snapshot snapshot(table, pods);
    indexed.set_snapshot(&snapshot);
    scan.set_snapshot(&snapshot);
    // The first pods run already (placed by the scan's choice, committed).
    const int running = static_cast<int>(rng() % 8);
    size_t i = 0;
    for (; i < static_cast<size_t>(running) && i < pods.size(); ++i) {
      const NodeIndex n = scan.FindNode(pods[i]);
      if (n != kNoNode) snapshot.Assume(static_cast<PodIndex>(i), n);
    }
    snapshot.Commit();
    // Then gangs: members placed one by one; some gangs fail and are reverted whole.
    while (i < pods.size()) {
      const size_t gang = 1 + rng() % 4;
      const size_t mark = snapshot.Mark();
      for (size_t m = 0; m < gang && i < pods.size(); ++m, ++i) {
        const bool fast = pods[i].signature >= 0 || pods[i].affinity_signature >= 0;
        const NodeIndex a = indexed.FindNode(pods[i]);
        const NodeIndex b = scan.FindNode(pods[i]);
        ASSERT_EQ(a, b) << "seed " << seed << " pod " << i;
        if (fast && (pods[i].pod_filters & kPodAffinity) != 0) ++fast_queries;
        if (a != kNoNode) {
          snapshot.Assume(static_cast<PodIndex>(i), a);
          ++placed_total;
        }
      }
      if (rng() % 4 == 0) {
        snapshot.RevertTo(mark);
      } else {
        snapshot.Commit();
      }
      if (rng() % 9 == 0 && i > 0 && pods[i - 1].node != kNoNode) {
        snapshot.Remove(static_cast<PodIndex>(i - 1));  // a deletion
      }
    }
  }
  EXPECT_GT(fast_queries, 500);
  EXPECT_GT(placed_total, 1000);
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

// PlacementMayAffect's claim, checked against PodFits: when it says pod `other` on node m cannot
// change the verdict for pod P on node n ≠ m (P not reading the whole cluster), P's verdict on
// n is the same with `other` placed and removed. Random clusters as above (hostname and zone
// labels, some missing or shared), pods with random required terms, labels and namespaces.
TEST(FrameworkTest, PlacementMayAffectIsConservative) {
  int64_t claimed_unaffected = 0, checked = 0;
  for (uint32_t seed = 1; seed <= 120; ++seed) {
    std::mt19937 rng(seed);
    const int node_count = 3 + static_cast<int>(rng() % 8);
    std::vector<api::Node> nodes;
    for (int i = 0; i < node_count; ++i) {
      auto b = MakeNode().Name(fmt::format("n{:02}", i)).Capacity({{"cpu", 64000}, {"pods", 110}});
      if (rng() % 12 != 0) {
        b.Label("kubernetes.io/hostname",
                rng() % 10 == 0 ? std::string("shared") : fmt::format("n{:02}", i));
      }
      if (rng() % 8 != 0) b.Label("zone", fmt::format("z{}", rng() % 3));
      nodes.push_back(b.Obj());
    }
    std::vector<const api::Node*> ptrs;
    for (const auto& n : nodes) ptrs.push_back(&n);
    ResourceTable resources;
    NodeTable table(ptrs, resources);
    Framework fw(table, resources, ScoringStrategy::kLeastAllocated);
    const int pod_count = 8 + static_cast<int>(rng() % 12);
    std::vector<api::Pod> specs;
    specs.reserve(static_cast<size_t>(pod_count));
    for (int i = 0; i < pod_count; ++i) {
      auto b = MakePod()
                   .Name(fmt::format("p{}", i))
                   .Namespace(rng() % 5 == 0 ? "ns2" : "ns1")
                   .Req({{"cpu", 100}});
      if (rng() % 4 != 0) b.Label("group", fmt::format("g{}", rng() % 4));
      if (rng() % 2 == 0) b.Label("app", rng() % 2 == 0 ? "a" : "b");
      api::Pod p = b.Obj();
      const uint32_t shape = rng() % 6;
      if (shape < 2) {
        p.pod_affinity.emplace().required.push_back(RandomTerm(rng));
      } else if (shape < 4) {
        p.pod_anti_affinity.emplace().required.push_back(RandomTerm(rng));
      } else if (shape == 4 && rng() % 2 == 0) {
        p.pod_affinity.emplace().required.push_back(RandomTerm(rng));
        p.pod_anti_affinity.emplace().required.push_back(RandomTerm(rng));
      }
      specs.push_back(std::move(p));
    }
    std::vector<PodInfo> pods(specs.size());
    PodTemplates templates(resources);
    for (size_t i = 0; i < specs.size(); ++i) {
      const PodTemplate& t = templates[templates.Intern(specs[i])];
      pods[i].pod = &specs[i];
      pods[i].requests = t.requests;
      pods[i].pod_filters = t.pod_filters;
      pods[i].static_class = fw.ClassOf(specs[i]);
    }
    Snapshot snapshot(table, pods);
    fw.set_snapshot(&snapshot);
    // The first half runs on random nodes; the rest are the pods P asked about.
    const size_t running = specs.size() / 2;
    for (size_t i = 0; i < running; ++i) {
      snapshot.Assume(static_cast<PodIndex>(i), static_cast<NodeIndex>(rng() % node_count));
    }
    snapshot.Commit();
    for (size_t q = running; q < specs.size(); ++q) {
      if (fw.FitReadsWholeCluster(pods[q])) continue;
      for (size_t o = 0; o < running; ++o) {
        const NodeIndex m = pods[o].node;
        for (NodeIndex n = 0; n < node_count; ++n) {
          if (n == m || fw.PlacementMayAffect(pods[q], n, pods[o], m)) continue;
          ++claimed_unaffected;
          const bool with = fw.PodFits(pods[q], n);
          snapshot.Remove(static_cast<PodIndex>(o));
          const bool without = fw.PodFits(pods[q], n);
          snapshot.Restore(static_cast<PodIndex>(o), m);
          ASSERT_EQ(with, without) << "seed " << seed << " pod " << q << " other " << o
                                   << " on " << m << ", node " << n;
          ++checked;
        }
      }
    }
  }
  EXPECT_GT(claimed_unaffected, 1000);
  EXPECT_EQ(checked, claimed_unaffected);
}

}  // namespace
}  // namespace wasched::sched
