// File: tests/compile_jobset_test.cc
//
// Issue 7 acceptance: a JobSet-shaped tree built through the C++ workloadbuilder (composite root
// with minGroupCount 2, a leader child gang 1 and a workers child gang 4) validates, builds, is
// materialized into a CompositePodGroup and two child PodGroups, and schedules all-or-nothing:
// on 5 one-slot nodes all 5 pods bind; on 4 nodes none does (the root needs both children);
// the generated objects read back through the codec as a valid input.
#include <gtest/gtest.h>

#include "api/object_set.h"
#include "codec/generated_encoding.h"
#include "codec/loader.h"
#include "sched/scheduler.h"
#include "validation/api_validation.h"
#include "workloadbuilder/builder.h"

namespace wasched {
namespace {

namespace wb = workloadbuilder;

wb::WorkloadItem JobSetTree() {
  wb::WorkloadItem root;
  root.name = "js";
  root.path = "spec";
  api::WorkloadCompositePodGroupSchedulingPolicy gang;
  gang.gang = api::WorkloadCompositePodGroupGangSchedulingPolicy{2};
  root.input.policy = {std::nullopt, gang, {"schedulingPolicy"}};
  for (auto [name, count] : {std::pair<const char*, int32_t>{"js-leader", 1}, {"js-workers", 4}}) {
    wb::WorkloadItem child;
    child.name = name;
    child.path = std::string("spec.replicatedJobs[") + name + "]";
    api::WorkloadPodGroupSchedulingPolicy p;
    p.gang = api::WorkloadPodGroupGangSchedulingPolicy{count};
    child.input.policy = {p, std::nullopt, {"schedulingPolicy"}};
    root.children.push_back(child);
  }
  return root;
}

api::Pod Member(const std::string& name, const std::string& group) {
  api::Pod pod;
  pod.meta.name = name;
  pod.meta.namespace_ = "ml";
  api::Container c;
  c.name = "main";
  c.requests = {{"cpu", 1000}};
  pod.containers.push_back(c);
  pod.pod_group_name = group;
  pod.scheduling_group_set = true;
  return pod;
}

// JobSetObjects: the Workload, the root CompositePodGroup, two PodGroups and 5 pods.
api::ObjectSet JobSetObjects() {
  wb::BuildOptions opts;
  opts.name = "js-wl";
  opts.namespace_ = "ml";
  opts.owner = api::OwnerReference{"jobset.x-k8s.io/v1alpha2", "JobSet", "js", "js-uid", true, true};
  opts.allowed_policies = {wb::SchedulingPolicyOption::kGangPolicy};
  wb::Builder b = wb::Builder::New(JobSetTree(), opts);
  EXPECT_TRUE(b.Validate().empty());
  auto wl = b.BuildWorkload();
  EXPECT_TRUE(wl) << wl.error();
  api::ObjectSet objects;
  objects.workloads.push_back(**wl);
  auto root = b.NewCompositePodGroup("js-root", "js");
  auto leader = b.NewChildPodGroup("js-leader-0", "js-leader", "js-root");
  auto workers = b.NewChildPodGroup("js-workers-0", "js-workers", "js-root");
  EXPECT_TRUE(root && leader && workers);
  objects.composite_pod_groups.push_back(*root);
  objects.pod_groups.push_back(*leader);
  objects.pod_groups.push_back(*workers);
  objects.pods.push_back(Member("js-leader-0-0", "js-leader-0"));
  for (int i = 0; i < 4; ++i) objects.pods.push_back(Member("js-workers-0-" + std::to_string(i), "js-workers-0"));
  return objects;
}

void AddNodes(api::ObjectSet* objects, int n) {
  for (int i = 0; i < n; ++i) {
    api::Node node;
    node.meta.name = "node-" + std::to_string(i);
    node.allocatable = {{"cpu", 1000}, {"memory", 4LL << 30}, {"pods", 110}};
    objects->nodes.push_back(node);
  }
}

TEST(JobSetLibraryTest, SchedulesAllFiveOnFiveNodes) {
  api::ObjectSet objects = JobSetObjects();
  AddNodes(&objects, 5);
  const sched::ScheduleResult r = sched::Schedule(objects, {});
  EXPECT_EQ(r.bindings.size(), 5u);
  EXPECT_TRUE(r.pending.empty());
}

TEST(JobSetLibraryTest, AllOrNothingAcrossChildrenOnFourNodes) {
  api::ObjectSet objects = JobSetObjects();
  AddNodes(&objects, 4);
  const sched::ScheduleResult r = sched::Schedule(objects, {});
  EXPECT_TRUE(r.bindings.empty());
  EXPECT_EQ(r.pending.size(), 5u);
}

TEST(JobSetLibraryTest, GeneratedObjectsReadBackAndValidate) {
  const api::ObjectSet objects = JobSetObjects();
  const std::string yaml = codec::EncodeObjectsYaml(objects);
  auto loaded = codec::LoadString(yaml, "jobset.yaml");
  ASSERT_TRUE(loaded) << loaded.error().at(0).ToString();
  EXPECT_EQ(loaded->objects.workloads.size(), 1u);
  EXPECT_EQ(loaded->objects.composite_pod_groups.size(), 1u);
  EXPECT_EQ(loaded->objects.pod_groups.size(), 2u);
  EXPECT_EQ(loaded->objects.pods.size(), 5u);
  const InputErrors errors = validation::ValidateCreate(loaded->objects, FeatureGates{});
  EXPECT_TRUE(errors.empty()) << errors.at(0).ToString();
  EXPECT_EQ(codec::EncodeObjectsYaml(loaded->objects), yaml);  // round trip
}

}  // namespace
}  // namespace wasched
