// File: validation/api_validation_test.cc
#include "validation/api_validation.h"

#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "support/builders.h"

namespace wasched::validation {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

std::vector<std::string> Strings(const InputErrors& errors) {
  std::vector<std::string> out;
  for (const InputError& e : errors) out.push_back(e.ToString());
  return out;
}

TEST(ApiValidationTest, UpdatePairsByKindNamespaceAndName) {
  api::ObjectSet old;
  old.pod_groups.push_back(test::MakePodGroup().Name("a").MinCount(2).Obj());
  old.pod_groups.push_back(test::MakePodGroup().Name("b").Namespace("other").MinCount(2).Obj());
  api::ObjectSet updated;
  updated.pod_groups.push_back(test::MakePodGroup().Name("a").Basic().Obj());  // update of a
  updated.pod_groups.push_back(test::MakePodGroup().Name("b").Basic().Obj());  // a create
  EXPECT_THAT(Strings(ValidateUpdate(old, updated, FeatureGates{})),
              ElementsAre("PodGroup default/a: spec.schedulingPolicy.basic: Invalid value: null: "
                          "field is immutable",
                          "PodGroup default/a: spec.schedulingPolicy.gang: Invalid value: null: "
                          "field cannot be cleared once set"));
  EXPECT_THAT(ValidateCreate(updated, FeatureGates{}), IsEmpty());
}

TEST(ApiValidationTest, KindsNotServedWhileTheirGateIsOff) {
  api::ObjectSet set;
  set.pod_groups.push_back(test::MakePodGroup().Name("pg").MinCount(0).Obj());
  api::CompositePodGroup cpg;
  cpg.meta.name = "root";
  cpg.meta.namespace_ = "default";
  cpg.api_version = "scheduling.k8s.io/v1alpha3";
  set.composite_pod_groups.push_back(cpg);
  FeatureGates gates;
  gates.composite_pod_group = false;
  const InputErrors errors = ValidateCreate(set, gates);
  ASSERT_EQ(errors.size(), 2u);
  EXPECT_EQ(errors[0].object, "CompositePodGroup default/root");
  EXPECT_EQ(errors[0].error.type, FieldErrorType::kForbidden);
  EXPECT_EQ(errors[0].error.field, "kind");
  EXPECT_EQ(errors[0].error.detail,
            "CompositePodGroup (scheduling.k8s.io/v1alpha3) is not served while feature gate "
            "CompositePodGroup is disabled");
  EXPECT_EQ(errors[1].error.field, "spec.schedulingPolicy.gang.minCount");
  gates.generic_workload = false;
  EXPECT_EQ(ValidateCreate(set, gates).size(), 2u);  // one "not served" per object
}

TEST(ApiValidationTest, PodSchedulingGroup) {
  api::ObjectSet set;
  set.pods.push_back(test::MakePod().Name("p").Group("Bad_Group").Obj());
  EXPECT_THAT(Strings(ValidateCreate(set, FeatureGates{})),
              ElementsAre(::testing::StartsWith(
                  "Pod default/p: spec.schedulingGroup.podGroupName: Invalid value: \"Bad_Group\"")));
  FeatureGates off;
  off.generic_workload = false;
  EXPECT_THAT(Strings(ValidateCreate(set, off)),
              ElementsAre("Pod default/p: spec.schedulingGroup: Forbidden"));
  api::ObjectSet old = set;
  old.pods[0].pod_group_name = "other";
  EXPECT_THAT(Strings(ValidateUpdate(old, set, FeatureGates{})),
              ElementsAre("Pod default/p: spec.schedulingGroup: Invalid value: null: field is "
                          "immutable"));
}

TEST(ApiValidationTest, PriorityClassUpdate) {
  api::ObjectSet old;
  old.priority_classes.push_back(test::MakePriorityClass().Name("high").Value(10).Obj());
  api::ObjectSet updated = old;
  updated.priority_classes[0].value = 20;
  EXPECT_THAT(Strings(ValidateUpdate(old, updated, FeatureGates{})),
              ElementsAre("PriorityClass high: value: Forbidden: may not be changed in an update."));
}

// Document order wins over the order of kinds.
TEST(ApiValidationTest, ErrorsFollowInputOrder) {
  api::ObjectSet set;
  api::PodGroup late = test::MakePodGroup().Name("late").MinCount(-1).Obj();
  late.meta.source = {"x.yaml", 2};
  api::Job early;
  early.meta.name = "early";
  early.meta.namespace_ = "default";
  early.parallelism = -1;
  early.pod_template.containers.emplace_back().name = "c";
  early.pod_template.containers.back().image = "registry.k8s.io/pause:3.10";
  early.template_restart_policy = "Never";
  early.meta.source = {"x.yaml", 1};
  set.pod_groups.push_back(late);
  set.jobs.push_back(early);
  const InputErrors errors = ValidateCreate(set, FeatureGates{});
  ASSERT_EQ(errors.size(), 2u);
  EXPECT_EQ(errors[0].object, "Job default/early");
  EXPECT_EQ(errors[1].object, "PodGroup default/late");
}

}  // namespace
}  // namespace wasched::validation
