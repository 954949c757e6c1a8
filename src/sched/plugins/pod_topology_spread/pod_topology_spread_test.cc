#include "sched/plugins/pod_topology_spread/pod_topology_spread.h"

#include <memory>

#include <gtest/gtest.h>

#include "support/builders.h"

namespace wasched::sched::plugins {
namespace {

using test::MakeNode;
using test::MakePod;

constexpr const char* kZone = "topology.kubernetes.io/zone";
constexpr const char* kHost = "kubernetes.io/hostname";

api::TopologySpreadConstraint Spread(std::string key, int32_t max_skew, std::string when,
                                     std::string label = "foo", std::string value = "bar") {
  api::TopologySpreadConstraint c;
  c.topology_key = std::move(key);
  c.max_skew = max_skew;
  c.when_unsatisfiable = std::move(when);
  c.label_selector.emplace().match_labels[std::move(label)] = std::move(value);
  return c;
}

// Cluster: n0, n1 in zone a, n2 in zone b, n3 without a zone; every node has its hostname
// label. `taint_n2` puts a NoSchedule taint on n2.
class PodTopologySpreadTest : public ::testing::Test {
 protected:
  void SetUpNodes(bool taint_n2 = false) {
    for (int i = 0; i < 4; ++i) {
      auto b = MakeNode().Name("n" + std::to_string(i)).Capacity({{"cpu", 8000}, {"pods", 110}});
      b.Label(kHost, "n" + std::to_string(i));
      if (i < 2) b.Label(kZone, "a");
      if (i == 2) b.Label(kZone, "b");
      if (i == 2 && taint_n2) b.Taint("dedicated", "x", api::TaintEffect::kNoSchedule);
      nodes_.push_back(b.Obj());
    }
    for (const auto& n : nodes_) ptrs_.push_back(&n);
    table_ = std::make_unique<NodeTable>(ptrs_, resources_);
    topology_ = std::make_unique<TopologyIndex>(*table_);
    snapshot_ = std::make_unique<Snapshot>(*table_, pods_);
    specs_.reserve(64);
    pods_.reserve(64);
  }

  PodIndex Add(api::Pod pod, NodeIndex node) {
    specs_.push_back(std::move(pod));
    PodInfo pi;
    pi.pod = &specs_.back();
    pi.requests = one_pod_;
    pods_.push_back(pi);
    const auto p = static_cast<PodIndex>(pods_.size() - 1);
    if (node != kNoNode) snapshot_->Assume(p, node);
    return p;
  }

  // Verdicts: Filter's reason per node ("" = passes; "-" = the plugin skipped).
  std::vector<std::string> Verdicts(PodIndex p) {
    PodTopologySpread plugin(objects_, *table_, *topology_);
    if (!plugin.Prepare(*pods_[p].pod, *snapshot_)) return {"-"};
    std::vector<std::string> out;
    for (NodeIndex n = 0; n < table_->size(); ++n) {
      bool hard = false;
      out.emplace_back(plugin.Filter(n, &hard));
      EXPECT_EQ(hard, out.back() == kReasonMissingLabel);
    }
    return out;
  }

  // Scores: NormalizedScore per node with every node feasible ({-1} when the plugin skips).
  std::vector<int64_t> Scores(PodIndex p) {
    PodTopologySpread plugin(objects_, *table_, *topology_);
    if (!plugin.ScoreApplies(*pods_[p].pod)) return {-1};
    plugin.BeginScore(*pods_[p].pod, *snapshot_);
    for (NodeIndex n = 0; n < table_->size(); ++n) plugin.AddFeasible(n);
    plugin.FinishScore();
    std::vector<int64_t> out;
    for (NodeIndex n = 0; n < table_->size(); ++n) out.push_back(plugin.NormalizedScore(n));
    return out;
  }

  api::ObjectSet objects_;
  std::vector<api::Node> nodes_;
  std::vector<const api::Node*> ptrs_;
  ResourceTable resources_;
  std::unique_ptr<NodeTable> table_;
  std::unique_ptr<TopologyIndex> topology_;
  std::vector<api::Pod> specs_;
  std::vector<PodInfo> pods_;
  std::unique_ptr<Snapshot> snapshot_;
  const std::vector<ResourceAmount> one_pod_{{kPods, 1}};
};

const std::string kPass;
const std::string kSkew(kReasonSkew);
const std::string kMissing(kReasonMissingLabel);

api::Pod Incoming(std::vector<api::TopologySpreadConstraint> cs) {
  api::Pod p = MakePod().Name("p").Label("foo", "bar").Obj();
  p.topology_spread_constraints = std::move(cs);
  return p;
}

TEST_F(PodTopologySpreadTest, NoExistingPodsEveryNodeWithTheKeyPasses) {
  SetUpNodes();
  const PodIndex p = Add(Incoming({Spread(kZone, 1, "DoNotSchedule")}), kNoNode);
  EXPECT_EQ(Verdicts(p), (std::vector<std::string>{kPass, kPass, kPass, kMissing}));
}

TEST_F(PodTopologySpreadTest, SkewAgainstTheLeastLoadedDomain) {
  SetUpNodes();
  Add(MakePod().Name("a1").Label("foo", "bar").Obj(), 0);
  Add(MakePod().Name("a2").Label("foo", "bar").Obj(), 1);
  Add(MakePod().Name("other").Label("foo", "baz").Obj(), 2);     // not selected
  Add(MakePod().Name("x").Namespace("ns2").Label("foo", "bar").Obj(), 2);  // other namespace
  Add(MakePod().Name("nozone").Label("foo", "bar").Obj(), 3);    // node not eligible
  const PodIndex p = Add(Incoming({Spread(kZone, 1, "DoNotSchedule")}), kNoNode);
  // zone a: 2 + 1 − 0 = 3 > 1; zone b: 0 + 1 − 0 = 1.
  EXPECT_EQ(Verdicts(p), (std::vector<std::string>{kSkew, kSkew, kPass, kMissing}));
  // maxSkew 3 admits zone a.
  const PodIndex q = Add(Incoming({Spread(kZone, 3, "DoNotSchedule")}), kNoNode);
  EXPECT_EQ(Verdicts(q), (std::vector<std::string>{kPass, kPass, kPass, kMissing}));
}

TEST_F(PodTopologySpreadTest, PodNotMatchingItsSelectorDoesNotCountItself) {
  SetUpNodes();
  Add(MakePod().Name("a1").Label("foo", "bar").Obj(), 0);
  api::Pod in = Incoming({Spread(kZone, 1, "DoNotSchedule")});
  in.meta.labels.clear();
  const PodIndex p = Add(in, kNoNode);
  EXPECT_EQ(Verdicts(p), (std::vector<std::string>{kPass, kPass, kPass, kMissing}));
}

TEST_F(PodTopologySpreadTest, MinDomainsTakesTheMinimumAsZero) {
  SetUpNodes();
  Add(MakePod().Name("a1").Label("foo", "bar").Obj(), 0);
  Add(MakePod().Name("b1").Label("foo", "bar").Obj(), 2);
  auto c = Spread(kZone, 1, "DoNotSchedule");
  EXPECT_EQ(Verdicts(Add(Incoming({c}), kNoNode)),
            (std::vector<std::string>{kPass, kPass, kPass, kMissing}));  // 1 + 1 − 1 = 1
  c.min_domains = 3;  // only 2 zones: the minimum is 0, 1 + 1 − 0 = 2 > 1
  EXPECT_EQ(Verdicts(Add(Incoming({c}), kNoNode)),
            (std::vector<std::string>{kSkew, kSkew, kSkew, kMissing}));
}

TEST_F(PodTopologySpreadTest, NodeAffinityPolicyHonorAndIgnore) {
  SetUpNodes();
  Add(MakePod().Name("a1").Label("foo", "bar").Obj(), 0);
  api::Pod in = Incoming({Spread(kZone, 1, "DoNotSchedule")});
  in.node_selector[kZone] = "a";
  // Honor (default): only zone a is eligible, so its own count is the minimum: 1 + 1 − 1 = 1.
  EXPECT_EQ(Verdicts(Add(in, kNoNode)), (std::vector<std::string>{kPass, kPass, kPass, kMissing}));
  in.topology_spread_constraints[0].node_affinity_policy = "Ignore";  // zone b (0) counts
  in.meta.name = "p2";
  EXPECT_EQ(Verdicts(Add(in, kNoNode)), (std::vector<std::string>{kSkew, kSkew, kPass, kMissing}));
}

TEST_F(PodTopologySpreadTest, NodeTaintsPolicyHonorLeavesTaintedDomainsOut) {
  SetUpNodes(/*taint_n2=*/true);
  Add(MakePod().Name("a1").Label("foo", "bar").Obj(), 0);
  auto c = Spread(kZone, 1, "DoNotSchedule");
  // Ignore (default): zone b (tainted n2) counts with 0: zone a 1 + 1 − 0 = 2 > 1.
  EXPECT_EQ(Verdicts(Add(Incoming({c}), kNoNode)),
            (std::vector<std::string>{kSkew, kSkew, kPass, kMissing}));
  c.node_taints_policy = "Honor";  // zone b is left out: the minimum is zone a's 1
  EXPECT_EQ(Verdicts(Add(Incoming({c}), kNoNode)),
            (std::vector<std::string>{kPass, kPass, kPass, kMissing}));
}

TEST_F(PodTopologySpreadTest, MatchLabelKeysNarrowTheSelector) {
  SetUpNodes();
  Add(MakePod().Name("old").Label("foo", "bar").Label("rev", "1").Obj(), 0);
  Add(MakePod().Name("old2").Label("foo", "bar").Label("rev", "1").Obj(), 1);
  auto c = Spread(kZone, 1, "DoNotSchedule");
  api::Pod in = Incoming({c});
  in.meta.labels["rev"] = "2";
  EXPECT_EQ(Verdicts(Add(in, kNoNode)), (std::vector<std::string>{kSkew, kSkew, kPass, kMissing}));
  in.topology_spread_constraints[0].match_label_keys = {"rev"};  // only rev=2 pods count
  in.meta.name = "p2";
  EXPECT_EQ(Verdicts(Add(in, kNoNode)), (std::vector<std::string>{kPass, kPass, kPass, kMissing}));
}

TEST_F(PodTopologySpreadTest, ScheduleAnywayOnlyScores) {
  SetUpNodes();
  const PodIndex p = Add(Incoming({Spread(kZone, 1, "ScheduleAnyway")}), kNoNode);
  EXPECT_EQ(Verdicts(p), std::vector<std::string>{"-"});
}

// Zone constraint: domains {a, b} among the non-ignored feasible nodes, weight ln 4; counts
// a = 2, b = 1 → raw 3, 3, 1; n3 lacks the key (ignored, 0); 100 × (3 + 1 − raw) / 3.
TEST_F(PodTopologySpreadTest, ScoreZoneConstraint) {
  SetUpNodes();
  Add(MakePod().Name("a1").Label("foo", "bar").Obj(), 0);
  Add(MakePod().Name("a2").Label("foo", "bar").Obj(), 0);
  Add(MakePod().Name("b1").Label("foo", "bar").Obj(), 2);
  const PodIndex p = Add(Incoming({Spread(kZone, 1, "ScheduleAnyway")}), kNoNode);
  EXPECT_EQ(Scores(p), (std::vector<int64_t>{33, 33, 100, 0}));
}

// Hostname constraint: weight ln 6 (4 nodes); raw round(count × 1.79) = 4, 0, 2, 0.
TEST_F(PodTopologySpreadTest, ScoreHostnameConstraint) {
  SetUpNodes();
  Add(MakePod().Name("a1").Label("foo", "bar").Obj(), 0);
  Add(MakePod().Name("a2").Label("foo", "bar").Obj(), 0);
  Add(MakePod().Name("b1").Label("foo", "bar").Obj(), 2);
  const PodIndex p = Add(Incoming({Spread(kHost, 1, "ScheduleAnyway")}), kNoNode);
  EXPECT_EQ(Scores(p), (std::vector<int64_t>{0, 100, 50, 100}));
}

// Cluster-default constraints (hostname 3, zone 5) for a pod its ReplicaSet selects; nodes
// without a zone are not ignored (system defaulting): the zone value "" is a domain of its own.
// hostname weight ln 6, zone weight ln 5 (a, b, ""); raw n0 = 1.79 + 2 + 1.61 + 4 → 9,
// n1 = 2 + 1.61 + 4 → 8, n2 = 2 + 4 = 6, n3 = 2 → 100 × (11 − raw) / 9.
TEST_F(PodTopologySpreadTest, ScoreClusterDefaultConstraints) {
  SetUpNodes();
  api::ReplicaSet rs;
  rs.meta.name = "web";
  rs.meta.namespace_ = "default";
  rs.selector.emplace().match_labels["app"] = "web";
  objects_.replica_sets.push_back(rs);
  Add(MakePod().Name("w1").Label("app", "web").Obj(), 0);
  const PodIndex p = Add(MakePod().Name("w2").Label("app", "web").Obj(), kNoNode);
  EXPECT_EQ(Scores(p), (std::vector<int64_t>{22, 33, 55, 100}));
  const PodIndex bare = Add(MakePod().Name("bare").Label("app", "db").Obj(), kNoNode);
  EXPECT_EQ(Scores(bare), std::vector<int64_t>{-1});
}

}  // namespace
}  // namespace wasched::sched::plugins
