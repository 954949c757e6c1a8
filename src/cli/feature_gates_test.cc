// File: cli/feature_gates_test.cc
#include "cli/feature_gates.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "support/builders.h"

namespace wasched::cli {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

TEST(ApplyFeatureGatesTest, GenericWorkloadOffSchedulesPodsOneByOne) {
  api::ObjectSet set;
  set.pod_groups.push_back(test::MakePodGroup().Name("pg").MinCount(2).Obj());
  set.pods.push_back(test::MakePod().Name("a").Group("pg").Obj());
  set.pods.push_back(test::MakePod().Name("b").Obj());
  FeatureGates gates;
  gates.generic_workload = false;
  auto warnings = ApplyFeatureGates(gates, &set);
  EXPECT_THAT(warnings,
              ElementsAre(::testing::HasSubstr("ignored 0 Workload(s), 1 PodGroup(s)"),
                          ::testing::HasSubstr("dropped spec.schedulingGroup of 1 pod(s)")));
  EXPECT_THAT(set.pod_groups, IsEmpty());
  EXPECT_FALSE(set.pods[0].pod_group_name.has_value());
}

TEST(ApplyFeatureGatesTest, GatedFieldsAreDropped) {
  api::ObjectSet set;
  set.pod_groups.push_back(
      test::MakePodGroup().Name("pg").MinCount(2).TopologyKey("zone").Parent("root").Obj());
  api::CompositePodGroup cpg;
  cpg.meta.name = "root";
  set.composite_pod_groups.push_back(cpg);
  FeatureGates gates;
  gates.topology_aware_workload_scheduling = false;
  gates.composite_pod_group = false;
  auto warnings = ApplyFeatureGates(gates, &set);
  EXPECT_EQ(warnings.size(), 3u);
  EXPECT_THAT(set.composite_pod_groups, IsEmpty());
  EXPECT_FALSE(set.pod_groups[0].parent_composite_pod_group_name.has_value());
  EXPECT_FALSE(set.pod_groups[0].scheduling_constraints.has_value());
}

TEST(ApplyFeatureGatesTest, NothingToDropNoWarning) {
  api::ObjectSet set;
  set.pod_groups.push_back(test::MakePodGroup().Name("pg").MinCount(2).Obj());
  FeatureGates gates;
  gates.topology_aware_workload_scheduling = false;
  gates.dra_workload_resource_claims = false;
  gates.pod_group_preemption_policy = false;
  gates.composite_pod_group = false;
  EXPECT_THAT(ApplyFeatureGates(gates, &set), IsEmpty());
  EXPECT_EQ(set.pod_groups.size(), 1u);
}

}  // namespace
}  // namespace wasched::cli
