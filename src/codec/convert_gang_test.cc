// File: codec/convert_gang_test.cc
//
// convert from third-party gang schedulers (codec/convert_gang.h) on the real manifests of
// tests/data/manifests: scheduler-plugins coscheduling, Volcano PodGroup and batch Job, Kueue
// plain pod groups; each field without a native equivalent is reported by name; the output
// loads and validates clean.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "codec/convert.h"
#include "codec/loader.h"
#include "validation/object_set_validation.h"

namespace wasched::codec {
namespace {

using ::testing::HasSubstr;

std::string Read(const std::string& path) {
  std::ifstream in(std::string(WASCHED_TESTDATA_DIR) + "/data/manifests/" + path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

ConvertResult MustConvert(const std::string& text, const std::string& file) {
  auto r = ConvertString(text, file, {});
  EXPECT_TRUE(r) << (r ? "" : r.error()[0].ToString());
  return r ? *r : ConvertResult{};
}

std::string Issues(const ConvertResult& r) {
  std::string out;
  for (const ConvertIssue& i : r.issues) out += i.ToString() + "\n";
  return out;
}

api::ObjectSet LoadValid(const std::string& text) {
  auto loaded = LoadString(text, "converted.yaml");
  EXPECT_TRUE(loaded) << (loaded ? "" : loaded.error()[0].ToString());
  if (!loaded) return {};
  const InputErrors errors = validation::ValidateForSchedule(loaded->objects);
  for (const InputError& e : errors) ADD_FAILURE() << e.ToString();
  return std::move(loaded->objects);
}

TEST(ConvertGangTest, CoschedulingPodGroupAndReplicaSet) {
  const ConvertResult r = MustConvert(Read("scheduler-plugins/coscheduling-podgroup-replicaset.yaml"),
                                      "cos.yaml");
  EXPECT_THAT(r.text, HasSubstr("apiVersion: scheduling.k8s.io/v1beta1\nkind: PodGroup"));
  EXPECT_THAT(r.text, HasSubstr("minCount: 3"));
  EXPECT_THAT(r.text, HasSubstr("podGroupName: nginx"));
  EXPECT_THAT(Issues(r), HasSubstr("spec.scheduleTimeoutSeconds: cannot convert: scheduler-plugins "
                                   "coscheduling has no native equivalent"));
  const api::ObjectSet objects = LoadValid(r.text);
  ASSERT_EQ(objects.pod_groups.size(), 1u);
  EXPECT_EQ(objects.pod_groups[0].scheduling_policy.gang->min_count, 3);
  ASSERT_EQ(objects.replica_sets.size(), 1u);
  EXPECT_EQ(objects.replica_sets[0].pod_template.pod_group_name, "nginx");
}

TEST(ConvertGangTest, VolcanoPodGroup) {
  const ConvertResult r = MustConvert(Read("volcano/examples/apis-artifacts__podgroup.yaml"), "pg.yaml");
  const std::string issues = Issues(r);
  EXPECT_THAT(issues, HasSubstr("spec.minResources: cannot convert: Volcano PodGroup field"));
  EXPECT_THAT(issues, HasSubstr("spec.queue: cannot convert: Volcano PodGroup field"));
  const api::ObjectSet objects = LoadValid(r.text);
  ASSERT_EQ(objects.pod_groups.size(), 1u);
  EXPECT_EQ(objects.pod_groups[0].meta.name, "test-pg");
  EXPECT_EQ(objects.pod_groups[0].scheduling_policy.gang->min_count, 1);
}

TEST(ConvertGangTest, VolcanoPodAnnotationJoinsTheGroup) {
  const ConvertResult r = MustConvert(
      Read("volcano/examples/apis-artifacts__podgroup.yaml") +
          "---\napiVersion: v1\nkind: Pod\nmetadata:\n  name: p\n  annotations:\n"
          "    scheduling.k8s.io/group-name: test-pg\nspec:\n  schedulerName: volcano\n"
          "  containers: [{name: c, image: registry.k8s.io/pause:3.10}]\n",
      "pg.yaml");
  EXPECT_THAT(Issues(r), HasSubstr("spec.schedulerName: cannot convert: \"volcano\""));
  const api::ObjectSet objects = LoadValid(r.text);
  ASSERT_EQ(objects.pods.size(), 1u);
  EXPECT_EQ(objects.pods[0].pod_group_name, "test-pg");
  EXPECT_EQ(objects.pods[0].scheduler_name, "default-scheduler");
}

TEST(ConvertGangTest, VolcanoJobBecomesAWorkloadTree) {
  const ConvertResult r = MustConvert(Read("volcano/examples/job.yaml"), "job.yaml");
  const std::string issues = Issues(r);
  for (const char* field : {"spec.policies", "spec.plugins", "spec.maxRetry", "spec.queue"}) {
    EXPECT_THAT(issues, HasSubstr(std::string(field) + ": cannot convert")) << field;
  }
  const api::ObjectSet objects = LoadValid(r.text);
  ASSERT_EQ(objects.workloads.size(), 1u);
  const auto& root = objects.workloads[0].composite_pod_group_templates.at(0);
  EXPECT_EQ(root.scheduling_policy.gang->min_group_count, 1);
  // minAvailable 3 of 6 replicas (the task's own minimum defaults to 6: Volcano then checks
  // only the job's total).
  EXPECT_EQ(root.pod_group_templates.at(0).scheduling_policy.gang->min_count, 3);
  ASSERT_EQ(objects.composite_pod_groups.size(), 1u);
  ASSERT_EQ(objects.pod_groups.size(), 1u);
  EXPECT_EQ(objects.pod_groups[0].meta.name, "test-job-default-nginx");
  EXPECT_EQ(*objects.pod_groups[0].parent_composite_pod_group_name, "test-job");
  ASSERT_EQ(objects.pods.size(), 6u);
  EXPECT_EQ(objects.pods[5].meta.name, "test-job-default-nginx-5");
  EXPECT_EQ(objects.pods[5].pod_group_name, "test-job-default-nginx");
  EXPECT_EQ(objects.pods[5].meta.labels.at("volcano.sh/task-spec"), "default-nginx");
  EXPECT_EQ(objects.pods[5].scheduler_name, "default-scheduler");
}

TEST(ConvertGangTest, VolcanoNetworkTopologyJobReportsTheTopology) {
  const ConvertResult r =
      MustConvert(Read("volcano/doc-snippets/vcjob-network-topology-3.3.2-partition-policy.yaml"), "nt.yaml");
  const std::string issues = Issues(r);
  EXPECT_THAT(issues, HasSubstr("spec.networkTopology: cannot convert"));
  EXPECT_THAT(issues, HasSubstr("spec.tasks[0].partitionPolicy: cannot convert"));
  const api::ObjectSet objects = LoadValid(r.text);
  EXPECT_EQ(objects.pods.size(), 8u);
  EXPECT_EQ(objects.pod_groups.at(0).scheduling_policy.gang->min_count, 4);
}

TEST(ConvertGangTest, KueuePodGroup) {
  const ConvertResult r = MustConvert(Read("kueue/pods-kueue__kueue-pod-group.yaml"), "kueue.yaml");
  EXPECT_THAT(Issues(r), HasSubstr("metadata.labels.kueue.x-k8s.io/queue-name: cannot convert"));
  EXPECT_EQ(r.generated, 1);
  const api::ObjectSet objects = LoadValid(r.text);
  ASSERT_EQ(objects.pod_groups.size(), 1u);
  EXPECT_EQ(objects.pod_groups[0].meta.name, "sample-group");
  EXPECT_EQ(objects.pod_groups[0].scheduling_policy.gang->min_count, 2);
  ASSERT_EQ(objects.pods.size(), 2u);
  EXPECT_EQ(objects.pods[0].pod_group_name, "sample-group");
  EXPECT_EQ(objects.pods[1].pod_group_name, "sample-group");
}

TEST(ConvertGangTest, KueueRequiredTopologyBecomesAConstraint) {
  const ConvertResult r = MustConvert(R"(apiVersion: v1
kind: Pod
metadata:
  name: a
  labels: {kueue.x-k8s.io/pod-group-name: g}
  annotations:
    kueue.x-k8s.io/pod-group-total-count: "1"
    kueue.x-k8s.io/podset-required-topology: topology.example.com/rack
spec:
  containers: [{name: c, image: registry.k8s.io/pause:3.10}]
)",
                                      "k.yaml");
  const api::ObjectSet objects = LoadValid(r.text);
  ASSERT_EQ(objects.pod_groups.size(), 1u);
  ASSERT_TRUE(objects.pod_groups[0].scheduling_constraints);
  EXPECT_EQ(objects.pod_groups[0].scheduling_constraints->topology.at(0).key,
            "topology.example.com/rack");
}

}  // namespace
}  // namespace wasched::codec
