// File: controller/replicaset/replicaset_controller_test.cc
//
// ReplicaSet controller: the pods of scheduler-plugins' coscheduling ReplicaSet (6 replicas),
// names from generateName `<rs>-`, labels, owner; existing active pods are counted.
#include "controller/replicaset/replicaset_controller.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "controller/test_util.h"
#include "util/name_generation.h"

namespace wasched::controller::replicaset {
namespace {

using ::testing::MatchesRegex;

TEST(ReplicaSetControllerTest, CoschedulingReplicaSetGetsSixPods) {
  api::ObjectSet objects =
      testing::LoadManifest("scheduler-plugins/coscheduling-podgroup-replicaset.yaml");
  ASSERT_EQ(objects.replica_sets.size(), 1u);
  api::ReplicaSet rs = objects.replica_sets[0];
  rs.meta.uid = "rs-uid";
  std::unordered_set<std::string> taken;
  const SyncResult r = Sync(rs, objects, &taken);
  ASSERT_EQ(r.created_pods.size(), 6u);
  std::set<std::string> names;
  for (const api::Pod& p : r.created_pods) {
    EXPECT_THAT(p.meta.name, MatchesRegex("nginx-[b-z2-9]{5}"));
    names.insert(p.meta.name);
    EXPECT_EQ(p.meta.namespace_, "default");
    EXPECT_EQ(p.meta.labels.at("app"), "nginx");
    EXPECT_EQ(p.meta.labels.at("scheduling.x-k8s.io/pod-group"), "nginx");
    ASSERT_EQ(p.meta.owner_references.size(), 1u);
    EXPECT_EQ(p.meta.owner_references[0].kind, "ReplicaSet");
    EXPECT_EQ(p.meta.owner_references[0].name, "nginx");
    EXPECT_TRUE(p.meta.owner_references[0].controller);
    EXPECT_EQ(p.containers.at(0).requests.at("cpu"), 3000);
  }
  EXPECT_EQ(names.size(), 6u);
  EXPECT_EQ(r.created_pods[0].meta.name, GenerateName("nginx-", "rs-uid/0"));
  EXPECT_EQ(taken.size(), 6u);
}

TEST(ReplicaSetControllerTest, ActivePodsAreCountedAndTerminalOnesAreNot) {
  api::ObjectSet objects =
      testing::LoadManifest("scheduler-plugins/coscheduling-podgroup-replicaset.yaml");
  api::ReplicaSet rs = objects.replica_sets[0];
  rs.meta.uid = "rs-uid";
  std::unordered_set<std::string> taken;
  SyncResult first = Sync(rs, objects, &taken);
  objects.pods.push_back(first.created_pods[0]);
  objects.pods.push_back(first.created_pods[1]);
  objects.pods.back().phase = "Failed";  // a failed pod is replaced
  const SyncResult second = Sync(rs, objects, &taken);
  EXPECT_EQ(second.created_pods.size(), 5u);
  for (const api::Pod& p : second.created_pods) {
    EXPECT_NE(p.meta.name, first.created_pods[0].meta.name);
    EXPECT_NE(p.meta.name, first.created_pods[1].meta.name);
  }
}

TEST(ReplicaSetControllerTest, PodsPrefix) {
  EXPECT_EQ(PodsPrefix("web"), "web-");
  // `<name>-` that is no valid prefix (upstream getPodsPrefix falls back to the name).
  EXPECT_EQ(PodsPrefix(std::string(254, 'a')), std::string(254, 'a'));
}

}  // namespace
}  // namespace wasched::controller::replicaset
