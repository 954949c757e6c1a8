// Verification-mode checks on hand-built states: a consistent state passes every check, and each
// check reports a deliberately broken one (so each can fail).
#include "sched/verify/invariants.h"

#include <deque>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "codec/loader.h"
#include "sched/scheduler.h"
#include "support/builders.h"

namespace wasched::sched::verify {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using test::MakeCompositePodGroup;
using test::MakeNode;
using test::MakePod;
using test::MakePodGroup;

// State: a run's state built by hand. Nodes n0..n{k-1} with 4 cpus and labels; pods with a cpu
// request and a PodGroup; Place() accounts a pod on a node the way Snapshot::Assume does.
struct State {
  api::ObjectSet objects;
  ResourceTable resources;
  std::unique_ptr<NodeTable> nodes;
  std::deque<std::vector<ResourceAmount>> request_storage;  // PodInfo::requests views
  std::vector<PodInfo> pods;
  std::unique_ptr<GroupTree> tree;
  std::vector<bool> bound_now, evicted;
  std::vector<uint8_t> bind_count;
  std::vector<NodeIndex> overcommitted;

  void AddNode(const std::string& name, std::map<std::string, std::string> labels = {}) {
    auto b = MakeNode().Name(name).Capacity({{"cpu", 4000}, {"memory", 16 * test::kGi}, {"pods", 110}});
    for (auto& [k, v] : labels) b.Label(k, v);
    objects.nodes.push_back(b.Obj());
  }
  void AddPods(const std::string& group, int count, int64_t cpu = 1000) {
    for (int i = 0; i < count; ++i) {
      auto b = MakePod().Name(group + "-" + std::to_string(i)).Req({{"cpu", cpu}});
      if (!group.empty()) b.Group(group);
      objects.pods.push_back(b.Obj());
    }
  }
  // Build: after every object is added. Nodes keep input order (names sort the same).
  void Build() {
    std::vector<const api::Node*> sorted;
    for (const auto& n : objects.nodes) sorted.push_back(&n);
    nodes = std::make_unique<NodeTable>(std::move(sorted), resources);
    tree = std::make_unique<GroupTree>(objects);
    for (size_t i = 0; i < objects.pods.size(); ++i) {
      const api::Pod& pod = objects.pods[i];
      PodInfo pi;
      pi.pod = &pod;
      pi.requests = request_storage.emplace_back(std::vector<ResourceAmount>{
          {kCpu, pod.containers.front().requests.at("cpu")}, {kPods, 1}});
      pi.request_cpu = pi.nonzero_cpu = pod.containers.front().requests.at("cpu");
      pi.nonzero_memory = kDefaultMemoryRequest;
      if (pod.pod_group_name) {
        pi.group = tree->FindPodGroup(pod.meta.namespace_, *pod.pod_group_name);
        tree->AddMember(pi.group, static_cast<PodIndex>(i));
      }
      pods.push_back(std::move(pi));
    }
    bound_now.assign(pods.size(), false);
    evicted.assign(pods.size(), false);
    bind_count.assign(pods.size(), 0);
  }
  PodIndex Pod(const std::string& name) const {
    for (size_t i = 0; i < pods.size(); ++i) {
      if (pods[i].pod->meta.name == name) return static_cast<PodIndex>(i);
    }
    ADD_FAILURE() << "no pod " << name;
    return 0;
  }
  // Place: the pod is on node n (bound by this run unless `running`).
  void Place(const std::string& pod, NodeIndex n, bool running = false) {
    const PodIndex p = Pod(pod);
    pods[p].node = n;
    nodes->Add(n, pods[p].requests, pods[p].nonzero_cpu, pods[p].nonzero_memory, 1);
    if (running) {
      pods[p].running_at_input = true;
    } else {
      bound_now[p] = true;
      bind_count[p] = 1;
    }
  }
  // Evict: preemption deleted the pod.
  void Evict(const std::string& pod) {
    const PodIndex p = Pod(pod);
    nodes->Add(pods[p].node, pods[p].requests, pods[p].nonzero_cpu, pods[p].nonzero_memory, -1);
    pods[p].node = kNoNode;
    bound_now[p] = false;
    evicted[p] = true;
  }
  RunView View() const {
    return RunView{*nodes, resources, pods, *tree, bound_now, evicted, bind_count, overcommitted};
  }
  std::vector<std::string> Run() const {
    std::vector<std::string> out;
    CheckRun(View(), out);
    return out;
  }
};

TEST(VerifyInvariants, ConsistentStatePassesEveryCheck) {
  State s;
  s.AddNode("n0", {{"rack", "r0"}});
  s.AddNode("n1", {{"rack", "r0"}});
  s.objects.pod_groups.push_back(MakePodGroup().Name("g").MinCount(2).TopologyKey("rack").Obj());
  s.AddPods("g", 3);
  s.AddPods("", 1);
  s.Build();
  s.Place("g-0", 0);
  s.Place("g-1", 1);
  s.Place("-0", 1, /*running=*/true);
  EXPECT_THAT(s.Run(), IsEmpty());
}

TEST(VerifyInvariants, UsageDiffersFromRecomputation) {
  State s;
  s.AddNode("n0");
  s.AddPods("", 1);
  s.Build();
  s.Place("-0", 0);
  const ResourceAmount stray[] = {{kCpu, 500}};
  s.nodes->Add(0, stray, 0, 0, 1);  // accounted without a pod
  std::vector<std::string> out;
  CheckUsage(s.View(), out);
  EXPECT_THAT(out, ElementsAre(HasSubstr("usage: node n0 has cpu requested 1500 incrementally, 1000")));
}

TEST(VerifyInvariants, OvercommitReportedUnlessAlreadyAtInput) {
  State s;
  s.AddNode("n0");
  s.AddPods("", 5);
  s.Build();
  for (int i = 0; i < 5; ++i) s.Place("-" + std::to_string(i), 0);
  std::vector<std::string> out;
  CheckNoOvercommit(s.View(), out);
  EXPECT_THAT(out, ElementsAre(HasSubstr("over-commit: node n0 has cpu requested 5000 > allocatable 4000")));
  s.overcommitted = {0};
  out.clear();
  CheckNoOvercommit(s.View(), out);
  EXPECT_THAT(out, IsEmpty());
}

TEST(VerifyInvariants, DoubleBookingAndEvictedPodBound) {
  State s;
  s.AddNode("n0");
  s.AddPods("", 3);
  s.Build();
  s.Place("-0", 0);
  s.bind_count[s.Pod("-0")] = 2;
  s.Place("-1", 0, /*running=*/true);
  s.Evict("-1");
  s.Place("-1", 0);  // an evicted pod bound again
  s.Place("-2", 0, /*running=*/true);
  s.bound_now[s.Pod("-2")] = true;  // a running pod reported as a new binding
  std::vector<std::string> out;
  CheckBindings(s.View(), out);
  EXPECT_THAT(out, ElementsAre(HasSubstr("pod default/-0 bound 2 times"),
                               HasSubstr("pod default/-1 was evicted (deleted) but is bound again"),
                               HasSubstr("pod default/-1 arrived running but was bound again"),
                               HasSubstr("pod default/-2 arrived running but was bound again")));
}

TEST(VerifyInvariants, GangBoundBelowMinCount) {
  State s;
  s.AddNode("n0");
  s.objects.pod_groups.push_back(MakePodGroup().Name("g").MinCount(3).Obj());
  s.AddPods("g", 4);
  s.Build();
  s.Place("g-0", 0);
  s.Place("g-1", 0);
  std::vector<std::string> out;
  CheckGangAtomicity(s.View(), out);
  EXPECT_THAT(out, ElementsAre(HasSubstr("PodGroup default/g has 2 of 4 members placed, below minCount 3")));
  s.Place("g-2", 0);
  out.clear();
  CheckGangAtomicity(s.View(), out);
  EXPECT_THAT(out, IsEmpty());
}

TEST(VerifyInvariants, SingleVictimGroupMayStayBelowQuorumAllGroupMayNot) {
  // disruptionMode single: each pod is its own victim unit (upstream), the gang may be left at 2/3.
  State single;
  single.AddNode("n0");
  single.objects.pod_groups.push_back(MakePodGroup().Name("g").MinCount(3).Obj());
  single.AddPods("g", 3);
  single.Build();
  for (int i = 0; i < 3; ++i) single.Place("g-" + std::to_string(i), 0, /*running=*/true);
  single.Evict("g-0");
  EXPECT_THAT(single.Run(), IsEmpty());

  // disruptionMode all: the whole group is the unit; evicting one pod must evict every one.
  State all;
  all.AddNode("n0");
  all.objects.pod_groups.push_back(MakePodGroup().Name("g").MinCount(3).DisruptionAll().Obj());
  all.AddPods("g", 3);
  all.Build();
  for (int i = 0; i < 3; ++i) all.Place("g-" + std::to_string(i), 0, /*running=*/true);
  all.Evict("g-0");
  EXPECT_THAT(all.Run(),
              ElementsAre(HasSubstr("PodGroup default/g has 2 of 3 members placed, below minCount 3 "
                                    "after evictions"),
                          HasSubstr("victim unit: PodGroup default/g (disruptionMode all) lost pod "
                                    "default/g-0 to preemption but its pod default/g-1 still runs"),
                          HasSubstr("its pod default/g-2 still runs")));
}

TEST(VerifyInvariants, AllAncestorMakesTheWholeTreeOneUnit) {
  State s;
  s.AddNode("n0");
  auto root = MakeCompositePodGroup().Name("root").MinGroupCount(1).Obj();
  root.disruption_mode = api::DisruptionMode{.single = false, .all = true};
  s.objects.composite_pod_groups.push_back(root);
  s.objects.pod_groups.push_back(MakePodGroup().Name("a").MinCount(1).Parent("root").WorkloadRef("wl", "a").Obj());
  s.objects.pod_groups.push_back(MakePodGroup().Name("b").MinCount(1).Parent("root").WorkloadRef("wl", "b").Obj());
  s.AddPods("a", 1);
  s.AddPods("b", 1);
  s.Build();
  s.Place("a-0", 0, true);
  s.Place("b-0", 0, true);
  s.Evict("a-0");
  std::vector<std::string> out;
  CheckGangAtomicity(s.View(), out);
  EXPECT_THAT(out, ElementsAre(HasSubstr("victim unit: CompositePodGroup default/root (disruptionMode "
                                         "all) lost pod default/a-0 to preemption but its pod "
                                         "default/b-0 still runs")));
}

TEST(VerifyInvariants, CompositeBoundBelowMinGroupCount) {
  State s;
  s.AddNode("n0");
  s.objects.composite_pod_groups.push_back(MakeCompositePodGroup().Name("root").MinGroupCount(2).Obj());
  s.objects.pod_groups.push_back(MakePodGroup().Name("a").MinCount(2).Parent("root").WorkloadRef("wl", "a").Obj());
  s.objects.pod_groups.push_back(MakePodGroup().Name("b").MinCount(1).Parent("root").WorkloadRef("wl", "b").Obj());
  s.AddPods("a", 2);
  s.AddPods("b", 1);
  s.Build();
  s.Place("a-0", 0);
  s.Place("a-1", 0);
  std::vector<std::string> out;
  CheckGangAtomicity(s.View(), out);
  EXPECT_THAT(out, ElementsAre(HasSubstr("CompositePodGroup default/root has 1 child group(s) with pods "
                                         "placed but only 1 meeting their quorum, below minGroupCount 2")));
  s.Place("b-0", 0);
  out.clear();
  CheckGangAtomicity(s.View(), out);
  EXPECT_THAT(out, IsEmpty());
}

TEST(VerifyInvariants, TopologyDomainsOfGroupAndParent) {
  State s;
  s.AddNode("n0", {{"zone", "z0"}, {"rack", "r0"}});
  s.AddNode("n1", {{"zone", "z0"}, {"rack", "r1"}});
  s.AddNode("n2", {{"zone", "z1"}, {"rack", "r2"}});
  s.AddNode("n3", {});
  s.objects.composite_pod_groups.push_back(
      MakeCompositePodGroup().Name("root").MinGroupCount(2).TopologyKey("zone").Obj());
  s.objects.pod_groups.push_back(
      MakePodGroup().Name("a").MinCount(1).Parent("root").WorkloadRef("wl", "a").TopologyKey("rack").Obj());
  s.objects.pod_groups.push_back(MakePodGroup().Name("b").MinCount(1).Parent("root").WorkloadRef("wl", "b").Obj());
  s.objects.pod_groups.push_back(MakePodGroup().Name("c").MinCount(1).TopologyKey("rack").Obj());
  s.AddPods("a", 2);
  s.AddPods("b", 1);
  s.AddPods("c", 1);
  s.Build();
  s.Place("a-0", 0);
  s.Place("a-1", 0);
  s.Place("b-0", 1);  // same zone, other rack: fine (b has no key of its own)
  s.Place("c-0", 2);
  std::vector<std::string> out;
  CheckTopology(s.View(), out);
  EXPECT_THAT(out, IsEmpty());

  State broken = State();
  broken.objects = s.objects;
  broken.Build();
  broken.Place("a-0", 0);
  broken.Place("a-1", 1);  // rack r1: a spans two racks
  broken.Place("b-0", 2);  // zone z1: root spans two zones
  broken.Place("c-0", 3);  // no rack label
  CheckTopology(broken.View(), out);
  EXPECT_THAT(out, ElementsAre(HasSubstr("topology: PodGroup default/a spans several rack domains: pod "
                                         "default/a-0 in r0, pod default/a-1 in r1"),
                               HasSubstr("topology: PodGroup default/c pod default/c-0 is on node n3 "
                                         "without label rack"),
                               HasSubstr("topology: CompositePodGroup default/root spans several zone "
                                         "domains: pod default/a-0 in z0, pod default/b-0 in z1")));
}

TEST(VerifyInvariants, DeviceHeldByTwoClaims) {
  std::vector<std::string> out;
  CheckDevices({{"ns/a", "gpu.example.com/p0/d0"}, {"ns/a", "gpu.example.com/p0/d1"},
                {"ns/b", "gpu.example.com/p0/d2"}},
               out);
  EXPECT_THAT(out, IsEmpty());
  CheckDevices({{"ns/a", "gpu.example.com/p0/d0"}, {"ns/b", "gpu.example.com/p0/d0"}}, out);
  EXPECT_THAT(out, ElementsAre("dra: device gpu.example.com/p0/d0 allocated to claims ns/a and ns/b"));
}

TEST(VerifyInvariants, DomainSumsDifferFromRecomputation) {
  State s;
  s.AddNode("n0", {{"rack", "r0"}});
  s.AddNode("n1", {{"rack", "r0"}});
  s.AddNode("n2", {{"rack", "r1"}});
  s.AddPods("", 1);
  s.Build();
  s.Place("-0", 2);
  plugins::TopologyIndex topology(*s.nodes);
  const plugins::TopologyKeyIndex& rack = topology.Get("rack");
  const int32_t resources = s.nodes->resource_count();
  std::vector<int64_t> alloc_cpu{8000, 4000}, alloc_mem{32 * test::kGi, 16 * test::kGi};
  std::vector<int64_t> req_cpu{0, 1000}, req_mem{0, kDefaultMemoryRequest};
  std::vector<int64_t> free(2 * static_cast<size_t>(resources));
  for (int32_t d = 0; d < 2; ++d) {
    for (NodeIndex n : rack.NodesOf(d)) {
      for (ResourceId r = 0; r < resources; ++r) {
        free[static_cast<size_t>(d * resources + r)] += s.nodes->Allocatable(r, n) - s.nodes->Requested(r, n);
      }
    }
  }
  std::vector<std::string> out;
  CheckDomainSums(*s.nodes, {rack, alloc_cpu, alloc_mem, req_cpu, req_mem, free, resources}, out);
  EXPECT_THAT(out, IsEmpty());
  req_cpu[1] = 0;  // the change log missed the pod on n2
  CheckDomainSums(*s.nodes, {rack, alloc_cpu, alloc_mem, req_cpu, req_mem, free, resources}, out);
  EXPECT_THAT(out, ElementsAre(HasSubstr("domain sums: rack=r1: cached cpu alloc/req 4000/0")));
  req_cpu[1] = 1000;
  free[static_cast<size_t>(resources) + kCpu] += 1;
  out.clear();
  CheckDomainSums(*s.nodes, {rack, alloc_cpu, alloc_mem, req_cpu, req_mem, free, resources}, out);
  EXPECT_THAT(out, ElementsAre(HasSubstr("domain sums: rack=r1")));
}

// Through the engine: a run with trees, topology and preemption reports no violation to the
// collector (the checks run after every cycle, domain sums included).
TEST(VerifyInvariants, EngineRunCollectsNoViolation) {
  api::ObjectSet s;
  for (int i = 0; i < 4; ++i) {
    s.nodes.push_back(MakeNode().Name("n" + std::to_string(i))
                          .Capacity({{"cpu", 2000}, {"memory", 8 * test::kGi}, {"pods", 110}})
                          .Label("rack", i < 2 ? "r0" : "r1").Obj());
  }
  s.composite_pod_groups.push_back(MakeCompositePodGroup().Name("root").MinGroupCount(2).TopologyKey("rack").Obj());
  for (const char* g : {"a", "b"}) {
    s.pod_groups.push_back(MakePodGroup().Name(g).MinCount(2).Parent("root").WorkloadRef("wl", g).Obj());
    for (int i = 0; i < 2; ++i) {
      s.pods.push_back(MakePod().Name(std::string(g) + std::to_string(i)).Group(g).Req({{"cpu", 900}}).Obj());
    }
  }
  s.pod_groups.push_back(MakePodGroup().Name("t").MinCount(2).TopologyKey("rack").Obj());
  for (int i = 0; i < 3; ++i) {
    s.pods.push_back(MakePod().Name("t" + std::to_string(i)).Group("t").Req({{"cpu", 1000}}).Obj());
  }
  std::vector<std::string> violations;
  SchedulerOptions options{.verify = true};
  options.verify_violations = &violations;
  const ScheduleResult r = Schedule(s, options);
  EXPECT_EQ(r.bindings.size(), 7u);
  EXPECT_THAT(violations, IsEmpty());
}


// Through the engine with DRA claims: the golden DRA scenarios (per-pod, shared, PodGroup-level
// claims) collect no violation, and the devices they hand out are each held by one claim.
TEST(VerifyInvariants, EngineRunWithDeviceClaimsCollectsNoViolation) {
  for (const char* scenario : {"dra-group-claim-pins", "dra-podgroup-shared-claim"}) {
    SCOPED_TRACE(scenario);
    std::istringstream no_stdin;
    auto loaded = codec::LoadPaths({std::string(WASCHED_TESTDATA_DIR) + "/scenarios/" + scenario}, no_stdin);
    ASSERT_TRUE(loaded.has_value());
    std::vector<std::string> violations;
    SchedulerOptions options{.verify = true};
    options.verify_violations = &violations;
    const ScheduleResult r = Schedule(loaded->objects, options);
    EXPECT_FALSE(r.allocations.empty());
    EXPECT_THAT(violations, IsEmpty());
    std::vector<DeviceUse> uses;
    for (const auto& a : r.allocations) {
      for (const auto& d : a.devices) uses.push_back({a.claim, d.driver + "/" + d.pool + "/" + d.device});
    }
    std::vector<std::string> out;
    CheckDevices(uses, out);
    EXPECT_THAT(out, IsEmpty());
  }
}

}  // namespace
}  // namespace wasched::sched::verify
