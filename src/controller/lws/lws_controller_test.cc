// File: controller/lws/lws_controller_test.cc
//
// LeaderWorkerSet controllers on the real LWS examples: the leader StatefulSet, leader and worker
// pods (names, group-index / worker-index / group-key labels), exclusive placement (leader
// affinity terms, workers deferred with the topology key), the KEP-666 Workload and per-group
// PodGroups, and the composite-groups option.
#include "controller/lws/lws_controller.h"

#include <gtest/gtest.h>

#include "controller/manager/controller_manager.h"
#include "controller/test_util.h"
#include "util/sha1.h"

namespace wasched::controller::lws {
namespace {

const api::Pod* FindPod(const api::ObjectSet& objects, const std::string& name) {
  for (const api::Pod& p : objects.pods) {
    if (p.meta.name == name) return &p;
  }
  return nullptr;
}

TEST(LwsControllerTest, VllmGetsLeaderAndWorkerPods) {
  api::ObjectSet objects = testing::LoadManifest("lws/vllm__GPU__lws.yaml");
  ASSERT_EQ(objects.leader_worker_sets.size(), 1u);
  ControllerManager manager({});
  const ManagerRun run = manager.Run(&objects);
  // The leader set `vllm` and one worker set per group.
  ASSERT_EQ(run.generated.stateful_sets.size(), 3u);
  EXPECT_EQ(run.generated.stateful_sets[0].meta.name, "vllm");
  EXPECT_EQ(run.generated.stateful_sets[1].meta.name, "vllm-0");
  EXPECT_EQ(run.generated.stateful_sets[2].meta.name, "vllm-1");
  ASSERT_EQ(run.generated.pods.size(), 4u);  // 2 groups × size 2
  const api::Pod* leader = FindPod(objects, "vllm-1");
  const api::Pod* worker = FindPod(objects, "vllm-1-1");
  ASSERT_TRUE(leader && worker);
  EXPECT_EQ(leader->meta.labels.at(kWorkerIndexKey), "0");
  EXPECT_EQ(leader->meta.labels.at(kGroupIndexKey), "1");
  EXPECT_EQ(leader->meta.labels.at(kGroupKeyKey), Sha1Hex("default/vllm-1"));
  EXPECT_EQ(leader->meta.labels.at("role"), "leader");
  EXPECT_EQ(leader->meta.annotations.at(kSizeKey), "2");
  EXPECT_EQ(worker->meta.labels.at(kWorkerIndexKey), "1");
  EXPECT_EQ(worker->meta.labels.at(kGroupIndexKey), "1");
  EXPECT_EQ(worker->meta.labels.at(kGroupKeyKey), Sha1Hex("default/vllm-1"));
  EXPECT_EQ(worker->meta.annotations.at(kLeaderNameKey), "vllm-1");
  EXPECT_EQ(worker->meta.owner_references.at(0).kind, "StatefulSet");
  EXPECT_EQ(worker->containers.at(0).requests.at("nvidia.com/gpu"), 8);
  EXPECT_FALSE(leader->scheduling_group_set);  // no spec.scheduling: plain pods
  EXPECT_TRUE(run.deferred.empty());
}

TEST(LwsControllerTest, ExclusivePlacementDefersWorkersUntilTheLeaderIsBound) {
  api::ObjectSet objects = testing::LoadManifest("lws/sample__lws-exclusive-placement.yaml");
  ControllerManager manager({});
  ManagerRun run = manager.Run(&objects);
  ASSERT_EQ(run.generated.pods.size(), 3u);  // the leaders only
  const api::Pod* leader = FindPod(objects, "leaderworkerset-sample-0");
  ASSERT_TRUE(leader && leader->pod_affinity && leader->pod_anti_affinity);
  EXPECT_EQ(leader->pod_affinity->required.at(0).topology_key, "cloud.google.com/gke-nodepool");
  EXPECT_EQ(leader->pod_affinity->required.at(0).label_selector->match_expressions.at(0).key,
            kGroupKeyKey);
  ASSERT_EQ(run.deferred.size(), 3u);
  EXPECT_EQ(run.deferred[0].pods.size(), 3u);
  EXPECT_EQ(run.deferred[0].topology_key, "cloud.google.com/gke-nodepool");
  // Bind leader 0 on a node of pool p1: its worker set is created with the pool as selector.
  api::Node node;
  node.meta.name = "n1";
  node.meta.labels["cloud.google.com/gke-nodepool"] = "p1";
  objects.nodes.push_back(node);
  for (api::Pod& p : objects.pods) {
    if (p.meta.name == "leaderworkerset-sample-0") p.node_name = "n1";
  }
  EXPECT_EQ(manager.ReleaseDeferred(&objects, &run), 3u);
  EXPECT_EQ(run.deferred.size(), 2u);
  const api::Pod* worker = FindPod(objects, "leaderworkerset-sample-0-3");
  ASSERT_TRUE(worker);
  EXPECT_EQ(worker->node_selector.at("cloud.google.com/gke-nodepool"), "p1");
  EXPECT_EQ(run.generated.stateful_sets.back().meta.name, "leaderworkerset-sample-0");
}

TEST(LwsControllerTest, SchedulingGivesEveryGroupAPodGroup) {
  api::ObjectSet objects = testing::LoadManifest("lws/sample__lws-multi-template.yaml");
  objects.leader_worker_sets[0].scheduling.emplace();  // `scheduling: {}` → gang of size
  ControllerManager manager({});
  const ManagerRun run = manager.Run(&objects);
  ASSERT_TRUE(run.errors.empty());
  ASSERT_EQ(run.generated.workloads.size(), 1u);
  const api::Workload& wl = run.generated.workloads[0];
  EXPECT_EQ(wl.meta.name, "leaderworkerset-multi-template");
  ASSERT_EQ(wl.pod_group_templates.size(), 1u);
  EXPECT_EQ(wl.pod_group_templates[0].name, "replica");
  EXPECT_EQ(wl.pod_group_templates[0].scheduling_policy.gang->min_count, 4);
  ASSERT_EQ(run.generated.pod_groups.size(), 3u);
  const std::string rev = RevisionKey(objects.leader_worker_sets[0]);
  EXPECT_EQ(run.generated.pod_groups[1].meta.name, "leaderworkerset-multi-template-1-" + rev);
  int members = 0;
  for (const api::Pod& p : run.generated.pods) {
    if (p.pod_group_name == "leaderworkerset-multi-template-1-" + rev) ++members;
  }
  EXPECT_EQ(members, 4);
}

TEST(LwsControllerTest, CompositeGroupsOption) {
  api::ObjectSet objects = testing::LoadManifest("lws/sample__lws-multi-template.yaml");
  ManagerOptions options;
  options.lws_composite_groups = true;
  ControllerManager manager(options);
  const ManagerRun run = manager.Run(&objects);
  ASSERT_TRUE(run.errors.empty());
  ASSERT_EQ(run.generated.workloads.size(), 1u);
  const auto& root = run.generated.workloads[0].composite_pod_group_templates.at(0);
  EXPECT_EQ(root.scheduling_policy.gang->min_group_count, 2);
  ASSERT_EQ(root.pod_group_templates.size(), 2u);
  EXPECT_EQ(root.pod_group_templates[0].scheduling_policy.gang->min_count, 1);
  EXPECT_EQ(root.pod_group_templates[1].scheduling_policy.gang->min_count, 3);
  EXPECT_EQ(run.generated.composite_pod_groups.size(), 3u);
  EXPECT_EQ(run.generated.pod_groups.size(), 6u);
  const std::string rev = RevisionKey(objects.leader_worker_sets[0]);
  const api::Pod* leader = FindPod(objects, "leaderworkerset-multi-template-0");
  const api::Pod* worker = FindPod(objects, "leaderworkerset-multi-template-0-2");
  ASSERT_TRUE(leader && worker);
  EXPECT_EQ(leader->pod_group_name, "leaderworkerset-multi-template-0-" + rev + "-leader");
  EXPECT_EQ(worker->pod_group_name, "leaderworkerset-multi-template-0-" + rev + "-workers");
}

}  // namespace
}  // namespace wasched::controller::lws
