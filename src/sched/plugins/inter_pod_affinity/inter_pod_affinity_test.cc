#include "sched/plugins/inter_pod_affinity/inter_pod_affinity.h"

#include <memory>

#include <gtest/gtest.h>

#include "support/builders.h"

namespace wasched::sched::plugins {
namespace {

using test::MakeNode;
using test::MakePod;

constexpr const char* kZone = "zone";
constexpr const char* kHost = "kubernetes.io/hostname";

// Cluster: nodes n0, n1 (zone a), n2 (zone b), n3 (no zone label); every node has its hostname
// label. Pods are added with Place (assumed on a node) or Pending.
class InterPodAffinityTest : public ::testing::Test {
 protected:
  InterPodAffinityTest() {
    for (int i = 0; i < 4; ++i) {
      auto b = MakeNode().Name("n" + std::to_string(i)).Capacity({{"cpu", 8000}, {"pods", 110}});
      b.Label(kHost, "n" + std::to_string(i));
      if (i < 2) b.Label(kZone, "a");
      if (i == 2) b.Label(kZone, "b");
      nodes_.push_back(b.Obj());
    }
    for (const auto& n : nodes_) ptrs_.push_back(&n);
    table_ = std::make_unique<NodeTable>(ptrs_, resources_);
    topology_ = std::make_unique<TopologyIndex>(*table_);
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
    if (node != kNoNode) snapshot().Assume(p, node);
    return p;
  }

  Snapshot& snapshot() {
    if (!snapshot_) snapshot_ = std::make_unique<Snapshot>(*table_, pods_);
    return *snapshot_;
  }

  // Verdicts: Filter's reason per node for pod p ("" = passes; "-" = the plugin skipped).
  std::vector<std::string> Verdicts(PodIndex p, std::vector<bool>* unresolvable = nullptr) {
    InterPodAffinity plugin(*topology_);
    std::vector<std::string> out;
    if (!plugin.Prepare(*pods_[p].pod, snapshot())) return {"-"};
    for (NodeIndex n = 0; n < table_->size(); ++n) {
      bool hard = false;
      out.emplace_back(plugin.Filter(n, &hard));
      if (unresolvable) unresolvable->push_back(hard);
    }
    return out;
  }

  // Verdicts of an existing plugin (its counts carried over from earlier Prepare calls).
  std::vector<std::string> Verdicts(InterPodAffinity& plugin, PodIndex p,
                                    std::vector<bool>* unresolvable) {
    std::vector<std::string> out;
    if (!plugin.Prepare(*pods_[p].pod, snapshot())) return {"-"};
    for (NodeIndex n = 0; n < table_->size(); ++n) {
      bool hard = false;
      out.emplace_back(plugin.Filter(n, &hard));
      unresolvable->push_back(hard);
    }
    return out;
  }

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
const std::string kAff(kReasonAffinity);
const std::string kAnti(kReasonAntiAffinity);
const std::string kExisting(kReasonExistingAntiAffinity);

TEST_F(InterPodAffinityTest, NoTermsAndNoAntiAffinityPodsSkips) {
  Add(MakePod().Name("db").Label("app", "db").Obj(), 0);
  const PodIndex p = Add(MakePod().Name("p").Obj(), kNoNode);
  EXPECT_EQ(Verdicts(p), std::vector<std::string>{"-"});
}

// Upstream filtering_test.go "satisfies with requiredDuringSchedulingIgnoredDuringExecution in
// PodAffinity using In operator that matches the existing pod", per zone.
TEST_F(InterPodAffinityTest, AffinityNeedsAMatchingPodInTheNodesDomain) {
  Add(MakePod().Name("db").Label("app", "db").Obj(), 0);
  const PodIndex p = Add(MakePod().Name("p").PodAffinity("app", "db", kZone).Obj(), kNoNode);
  std::vector<bool> hard;
  EXPECT_EQ(Verdicts(p, &hard), (std::vector<std::string>{kPass, kPass, kAff, kAff}));
  EXPECT_EQ(hard, (std::vector<bool>{false, false, true, true}));  // UnschedulableAndUnresolvable
}

TEST_F(InterPodAffinityTest, FirstPodOfASeriesMatchingItsOwnTermsGoesWhereTheKeyExists) {
  // Upstream "verify that PodAffinity is satisfied if the pod matches its own terms and no pod
  // in the cluster does".
  const PodIndex p =
      Add(MakePod().Name("p").Label("app", "web").PodAffinity("app", "web", kZone).Obj(), kNoNode);
  EXPECT_EQ(Verdicts(p), (std::vector<std::string>{kPass, kPass, kPass, kAff}));
  const PodIndex q = Add(MakePod().Name("q").PodAffinity("app", "web", kZone).Obj(), kNoNode);
  EXPECT_EQ(Verdicts(q), (std::vector<std::string>{kAff, kAff, kAff, kAff}));
}

TEST_F(InterPodAffinityTest, SelfMatchDoesNotHelpOnceAMatchingPodExistsElsewhere) {
  Add(MakePod().Name("web").Label("app", "web").Obj(), 2);
  const PodIndex p =
      Add(MakePod().Name("p").Label("app", "web").PodAffinity("app", "web", kZone).Obj(), kNoNode);
  EXPECT_EQ(Verdicts(p), (std::vector<std::string>{kAff, kAff, kPass, kAff}));
}

TEST_F(InterPodAffinityTest, AntiAffinityPerHostnameAndZone) {
  Add(MakePod().Name("web").Label("app", "web").Obj(), 0);
  const PodIndex host =
      Add(MakePod().Name("h").PodAntiAffinity("app", "web", kHost).Obj(), kNoNode);
  std::vector<bool> hard;
  EXPECT_EQ(Verdicts(host, &hard), (std::vector<std::string>{kAnti, kPass, kPass, kPass}));
  EXPECT_EQ(hard[0], false);  // Unschedulable: preemption may help
  const PodIndex zone = Add(MakePod().Name("z").PodAntiAffinity("app", "web", kZone).Obj(), kNoNode);
  EXPECT_EQ(Verdicts(zone), (std::vector<std::string>{kAnti, kAnti, kPass, kPass}));
}

// Symmetry: upstream "verify that PodAntiAffinity from existing pod is respected when pod has no
// AntiAffinity constraints".
TEST_F(InterPodAffinityTest, ExistingPodsAntiAffinityIsRespected) {
  Add(MakePod().Name("guard").PodAntiAffinity("security", "S1", kZone).Obj(), 1);
  const PodIndex match = Add(MakePod().Name("p").Label("security", "S1").Obj(), kNoNode);
  EXPECT_EQ(Verdicts(match), (std::vector<std::string>{kExisting, kExisting, kPass, kPass}));
  const PodIndex other = Add(MakePod().Name("q").Label("security", "S2").Obj(), kNoNode);
  EXPECT_EQ(Verdicts(other), std::vector<std::string>{"-"});
}

TEST_F(InterPodAffinityTest, GroupMembersAssumedEarlierCount) {
  // A gang whose members repel each other per host: each assumed member blocks its node.
  const PodIndex a = Add(MakePod().Name("a").Label("g", "1").PodAntiAffinity("g", "1", kHost).Obj(),
                         kNoNode);
  const PodIndex b = Add(MakePod().Name("b").Label("g", "1").PodAntiAffinity("g", "1", kHost).Obj(),
                         kNoNode);
  EXPECT_EQ(Verdicts(b), (std::vector<std::string>{kPass, kPass, kPass, kPass}));
  const size_t mark = snapshot().Mark();
  snapshot().Assume(a, 2);
  EXPECT_EQ(Verdicts(b), (std::vector<std::string>{kPass, kPass, kAnti, kPass}));
  snapshot().RevertTo(mark);
  EXPECT_EQ(Verdicts(b), (std::vector<std::string>{kPass, kPass, kPass, kPass}));
}

// Prepare after placements changed updates the counts for the changed pods only (the pod
// itself or an equivalent one prepared within Snapshot::kChangeWindow changes); every verdict
// must equal a fresh plugin's full PreFilter. Removes, restores, assumes and reverts in a
// deterministic pseudo-random order, preparing gang members (equivalent: same labels and
// terms), a self-matching pod, an anti-affinity pod and a pod without terms in turn.
TEST_F(InterPodAffinityTest, IncrementalCountsEqualAFullPreFilter) {
  std::vector<PodIndex> placed;
  for (int i = 0; i < 12; ++i) {
    auto b = MakePod().Name("r" + std::to_string(i)).Label("app", i % 3 == 0 ? "db" : "web");
    if (i % 4 == 1) b.PodAntiAffinity("role", "gang", i % 8 == 1 ? kHost : kZone);
    placed.push_back(Add(b.Obj(), static_cast<NodeIndex>(i % 4)));
  }
  std::vector<PodIndex> probes;
  for (int i = 0; i < 3; ++i) {  // gang members: equivalent, none matches its own terms
    probes.push_back(Add(MakePod()
                             .Name("g" + std::to_string(i))
                             .Label("role", "gang")
                             .PodAffinity("app", "db", kHost)
                             .PodAntiAffinity("app", "cache", kZone)
                             .Obj(),
                         kNoNode));
  }
  probes.push_back(Add(MakePod().Name("self").Label("app", "web").PodAffinity("app", "web", kZone).Obj(),
                       kNoNode));
  probes.push_back(Add(MakePod().Name("anti").Label("app", "web").PodAntiAffinity("role", "gang", kHost).Obj(),
                       kNoNode));
  probes.push_back(Add(MakePod().Name("plain").Label("role", "gang").Obj(), kNoNode));
  InterPodAffinity kept(*topology_);
  uint64_t rng = 12345;
  auto next = [&](uint64_t mod) {
    rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
    return (rng >> 33) % mod;
  };
  for (int step = 0; step < 400; ++step) {
    const uint64_t op = next(10);
    if (op < 4) {  // remove or restore a running pod
      const PodIndex q = placed[next(placed.size())];
      if (pods_[q].node != kNoNode) {
        snapshot().Remove(q);
      } else {
        snapshot().Restore(q, static_cast<NodeIndex>(next(4)));
      }
    } else if (op < 7) {  // assume some probes and check a probe with them placed
      const size_t mark = snapshot().Mark();
      for (PodIndex g : probes) {
        if (next(2) == 0) snapshot().Assume(g, static_cast<NodeIndex>(next(4)));
      }
      for (PodIndex g : probes) {
        if (pods_[g].node != kNoNode) continue;
        std::vector<bool> hard_kept, hard_fresh;
        EXPECT_EQ(Verdicts(kept, g, &hard_kept), Verdicts(g, &hard_fresh)) << "step " << step;
        EXPECT_EQ(hard_kept, hard_fresh) << "step " << step;
      }
      snapshot().RevertTo(mark);
    } else if (op == 7) {  // many changes at once: past the window, a full recount
      for (int k = 0; k < 300; ++k) {
        const PodIndex q = placed[next(placed.size())];
        if (pods_[q].node != kNoNode) {
          snapshot().Remove(q);
        } else {
          snapshot().Restore(q, static_cast<NodeIndex>(next(4)));
        }
      }
    }
    const PodIndex g = probes[next(probes.size())];
    std::vector<bool> hard_kept, hard_fresh;
    EXPECT_EQ(Verdicts(kept, g, &hard_kept), Verdicts(g, &hard_fresh)) << "step " << step;
    EXPECT_EQ(hard_kept, hard_fresh) << "step " << step;
  }
}

TEST_F(InterPodAffinityTest, NamespacesAndNamespaceSelector) {
  Add(MakePod().Name("db").Namespace("ns2").Label("app", "db").Obj(), 0);
  api::Pod own_ns = MakePod().Name("p").PodAffinity("app", "db", kZone).Obj();
  EXPECT_EQ(Verdicts(Add(own_ns, kNoNode)), (std::vector<std::string>{kAff, kAff, kAff, kAff}));
  api::Pod listed = own_ns;
  listed.meta.name = "listed";
  listed.pod_affinity->required[0].namespaces = {"ns2"};
  EXPECT_EQ(Verdicts(Add(listed, kNoNode)), (std::vector<std::string>{kPass, kPass, kAff, kAff}));
  api::Pod all = own_ns;
  all.meta.name = "all";
  all.pod_affinity->required[0].namespace_selector.emplace();  // {} = every namespace
  EXPECT_EQ(Verdicts(Add(all, kNoNode)), (std::vector<std::string>{kPass, kPass, kAff, kAff}));
  api::Pod by_name = own_ns;
  by_name.meta.name = "by-name";
  by_name.pod_affinity->required[0].namespace_selector.emplace().match_labels
      ["kubernetes.io/metadata.name"] = "ns2";
  EXPECT_EQ(Verdicts(Add(by_name, kNoNode)), (std::vector<std::string>{kPass, kPass, kAff, kAff}));
  by_name.pod_affinity->required[0].namespace_selector->match_labels
      ["kubernetes.io/metadata.name"] = "ns3";
  by_name.meta.name = "by-other-name";
  EXPECT_EQ(Verdicts(Add(by_name, kNoNode)), (std::vector<std::string>{kAff, kAff, kAff, kAff}));
}

TEST_F(InterPodAffinityTest, MatchLabelKeysAndMismatchLabelKeys) {
  Add(MakePod().Name("a1").Label("app", "x").Label("rev", "1").Obj(), 0);
  Add(MakePod().Name("a2").Label("app", "x").Label("rev", "2").Obj(), 2);
  // Affinity to app=x pods of the same revision (matchLabelKeys: [rev]).
  api::Pod p = MakePod().Name("p").Label("rev", "2").PodAffinity("app", "x", kZone).Obj();
  p.pod_affinity->required[0].match_label_keys = {"rev"};
  EXPECT_EQ(Verdicts(Add(p, kNoNode)), (std::vector<std::string>{kAff, kAff, kPass, kAff}));
  // Anti-affinity to app=x pods of another revision (mismatchLabelKeys: [rev]).
  api::Pod q = MakePod().Name("q").Label("rev", "2").PodAntiAffinity("app", "x", kZone).Obj();
  q.pod_anti_affinity->required[0].mismatch_label_keys = {"rev"};
  EXPECT_EQ(Verdicts(Add(q, kNoNode)), (std::vector<std::string>{kAnti, kAnti, kPass, kPass}));
}

TEST_F(InterPodAffinityTest, NullLabelSelectorSelectsNothing) {
  Add(MakePod().Name("db").Label("app", "db").Obj(), 0);
  api::Pod p = MakePod().Name("p").PodAntiAffinity("app", "db", kZone).Obj();
  p.pod_anti_affinity->required[0].label_selector.reset();
  EXPECT_EQ(Verdicts(Add(p, kNoNode)), (std::vector<std::string>{kPass, kPass, kPass, kPass}));
}

}  // namespace
}  // namespace wasched::sched::plugins
