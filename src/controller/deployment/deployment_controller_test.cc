// File: controller/deployment/deployment_controller_test.cc
//
// Deployment controller: the AI-conformance DRA Deployment gets one ReplicaSet
// `<deployment>-<pod-template-hash>` with the hash in labels, selector and template; paused or
// already rolled-out Deployments get none.
#include "controller/deployment/deployment_controller.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "controller/test_util.h"

namespace wasched::controller::deployment {
namespace {

using ::testing::MatchesRegex;

TEST(DeploymentControllerTest, ConformanceDeploymentGetsItsReplicaSet) {
  api::ObjectSet objects =
      testing::LoadManifest("k8s-ai-conformance/v1.36_vks_dra_support__03.yaml");
  ASSERT_EQ(objects.deployments.size(), 1u);
  api::Deployment d = objects.deployments[0];
  d.meta.uid = "d-uid";
  const SyncResult r = Sync(d, objects);
  ASSERT_TRUE(r.created);
  const api::ReplicaSet& rs = *r.created;
  EXPECT_THAT(rs.meta.name, MatchesRegex("dra-gpu-example-[b-z2-9]{1,10}"));
  const std::string hash = rs.meta.labels.at(kPodTemplateHashLabel);
  EXPECT_EQ(rs.meta.name, "dra-gpu-example-" + hash);
  EXPECT_EQ(rs.meta.namespace_, "gpu-test1");
  EXPECT_EQ(rs.meta.labels.at("app"), "dra-gpu-example");
  EXPECT_EQ(rs.selector->match_labels.at("app"), "dra-gpu-example");
  EXPECT_EQ(rs.selector->match_labels.at(kPodTemplateHashLabel), hash);
  EXPECT_EQ(rs.pod_template.meta.labels.at(kPodTemplateHashLabel), hash);
  EXPECT_EQ(rs.meta.annotations.at(kRevisionAnnotation), "1");
  EXPECT_EQ(rs.meta.annotations.at(kDesiredReplicasAnnotation), "1");
  EXPECT_EQ(rs.replicas, 1);
  EXPECT_EQ(rs.meta.owner_references.at(0).kind, "Deployment");
  EXPECT_EQ(rs.meta.owner_references.at(0).uid, "d-uid");
  ASSERT_EQ(rs.pod_template.resource_claims.size(), 1u);
  // Deterministic: the same template gives the same hash.
  EXPECT_EQ(Sync(d, objects).created->meta.name, rs.meta.name);
}

TEST(DeploymentControllerTest, PausedOrRolledOutDeploymentGetsNone) {
  api::ObjectSet objects =
      testing::LoadManifest("k8s-ai-conformance/v1.36_vks_dra_support__03.yaml");
  api::Deployment d = objects.deployments[0];
  d.meta.uid = "d-uid";
  d.paused = true;
  EXPECT_FALSE(Sync(d, objects).created);
  d.paused = false;
  objects.replica_sets.push_back(*Sync(d, objects).created);
  EXPECT_FALSE(Sync(d, objects).created);
}

}  // namespace
}  // namespace wasched::controller::deployment
