// File: controller/statefulset/statefulset_controller_test.cc
//
// StatefulSet controller: ordinal names and identity labels; OrderedReady defers pod N+1 until
// pod N is bound, Parallel creates all; ordinals.start; existing pods are not recreated.
#include "controller/statefulset/statefulset_controller.h"

#include <gtest/gtest.h>

#include "controller/test_util.h"

namespace wasched::controller::statefulset {
namespace {

constexpr const char* kSet = R"(apiVersion: apps/v1
kind: StatefulSet
metadata: {name: web, namespace: shop, uid: sts-uid}
spec:
  replicas: 3
  serviceName: web
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: c, image: registry.k8s.io/pause:3.10, resources: {requests: {cpu: "1"}}}]
)";

TEST(StatefulSetControllerTest, OrderedReadyCreatesTheFirstPodAndDefersTheRest) {
  api::ObjectSet objects = testing::LoadText(kSet);
  ASSERT_EQ(objects.stateful_sets.size(), 1u);
  const SyncResult r = Sync(objects.stateful_sets[0], objects);
  ASSERT_EQ(r.created_pods.size(), 1u);
  const api::Pod& p = r.created_pods[0];
  EXPECT_EQ(p.meta.name, "web-0");
  EXPECT_EQ(p.meta.labels.at(kPodNameLabel), "web-0");
  EXPECT_EQ(p.meta.labels.at(kPodIndexLabel), "0");
  EXPECT_EQ(p.meta.labels.at(kRevisionLabel), RevisionName(objects.stateful_sets[0]));
  EXPECT_EQ(p.meta.labels.at("app"), "web");
  EXPECT_EQ(p.meta.owner_references.at(0).kind, "StatefulSet");
  ASSERT_EQ(r.deferred.size(), 2u);
  EXPECT_EQ(r.deferred[0].pods.at(0).meta.name, "web-1");
  EXPECT_EQ(r.deferred[0].leaders, std::vector<std::string>{"shop/web-0"});
  EXPECT_EQ(r.deferred[1].leaders, std::vector<std::string>{"shop/web-1"});
  EXPECT_TRUE(r.deferred[0].topology_key.empty());
}

TEST(StatefulSetControllerTest, ParallelCreatesEveryPodFromTheStartOrdinal) {
  api::ObjectSet objects = testing::LoadText(std::string(kSet) +
                                             "  podManagementPolicy: Parallel\n"
                                             "  ordinals: {start: 5}\n");
  const SyncResult r = Sync(objects.stateful_sets[0], objects);
  ASSERT_EQ(r.created_pods.size(), 3u);
  EXPECT_EQ(r.created_pods[0].meta.name, "web-5");
  EXPECT_EQ(r.created_pods[2].meta.name, "web-7");
  EXPECT_EQ(r.created_pods[2].meta.labels.at(kPodIndexLabel), "7");
  EXPECT_TRUE(r.deferred.empty());
}

TEST(StatefulSetControllerTest, ExistingPodsAreKeptAndARunningOneUnblocksTheNext) {
  api::ObjectSet objects = testing::LoadText(kSet);
  api::Pod running = NewPod(objects.stateful_sets[0], 0);
  running.node_name = "n1";
  objects.pods.push_back(running);
  const SyncResult r = Sync(objects.stateful_sets[0], objects);
  ASSERT_EQ(r.created_pods.size(), 1u);
  EXPECT_EQ(r.created_pods[0].meta.name, "web-1");
  ASSERT_EQ(r.deferred.size(), 1u);
  EXPECT_EQ(r.deferred[0].pods.at(0).meta.name, "web-2");
}

}  // namespace
}  // namespace wasched::controller::statefulset
