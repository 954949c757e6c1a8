// File: util/feature_gates_test.cc
#include "util/feature_gates.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace wasched {
namespace {

TEST(FeatureGatesTest, AllOnByDefault) {
  auto gates = ParseFeatureGates("");
  ASSERT_TRUE(gates);
  EXPECT_EQ(*gates, FeatureGates{});
  EXPECT_EQ(FormatFeatureGates(*gates),
            "GenericWorkload=true,TopologyAwareWorkloadScheduling=true,"
            "DRAWorkloadResourceClaims=true,CompositePodGroup=true,WorkloadWithJob=true,"
            "PodGroupPreemptionPolicy=true");
}

TEST(FeatureGatesTest, ParsesPairsLaterWins) {
  auto gates = ParseFeatureGates(
      " CompositePodGroup=true, ,DRAWorkloadResourceClaims=F,"
      "CompositePodGroup=0,PodGroupPreemptionPolicy=FALSE");
  ASSERT_TRUE(gates) << gates.error();
  EXPECT_FALSE(gates->composite_pod_group);
  EXPECT_FALSE(gates->dra_workload_resource_claims);
  EXPECT_TRUE(gates->topology_aware_workload_scheduling);
  EXPECT_FALSE(gates->pod_group_preemption_policy);
  EXPECT_TRUE(gates->generic_workload);
}

TEST(FeatureGatesTest, ErrorsUseUpstreamWording) {
  EXPECT_EQ(ParseFeatureGates("Bogus=true").error(),
            "unrecognized feature gate: Bogus (accepted gates: GenericWorkload, "
            "TopologyAwareWorkloadScheduling, DRAWorkloadResourceClaims, CompositePodGroup, "
            "WorkloadWithJob, PodGroupPreemptionPolicy)");
  EXPECT_EQ(ParseFeatureGates("GenericWorkload").error(), "missing bool value for GenericWorkload");
  EXPECT_EQ(ParseFeatureGates("GenericWorkload=yes").error(),
            "invalid value of GenericWorkload=yes, err: strconv.ParseBool: parsing \"yes\": "
            "invalid syntax");
}

// Issue 20 item 7: a gate removed in v1.37 names the gate that took it over.
TEST(FeatureGatesTest, RemovedGateNamesItsSuccessor) {
  EXPECT_EQ(ParseFeatureGates("GangScheduling=true").error(),
            "unrecognized feature gate: GangScheduling (removed in v1.37: GenericWorkload took it "
            "over; accepted gates: GenericWorkload, TopologyAwareWorkloadScheduling, "
            "DRAWorkloadResourceClaims, CompositePodGroup, WorkloadWithJob, "
            "PodGroupPreemptionPolicy)");
  EXPECT_THAT(ParseFeatureGates("WorkloadAwarePreemption=false").error(),
              ::testing::HasSubstr("removed in v1.37: GenericWorkload took it over"));
}

TEST(FeatureGatesTest, CompositePodGroupExplicitlyOnNeedsItsDependencies) {
  // spec §11: CompositePodGroup depends on GenericWorkload + TopologyAwareWorkloadScheduling;
  // component-base refuses an enabled gate whose dependency is disabled.
  EXPECT_EQ(ParseFeatureGates("CompositePodGroup=true,TopologyAwareWorkloadScheduling=false").error(),
            "CompositePodGroup is enabled, but depends on features that are disabled: "
            "[TopologyAwareWorkloadScheduling] (CompositePodGroup depends on "
            "TopologyAwareWorkloadScheduling; turn CompositePodGroup off too)");
  EXPECT_EQ(ParseFeatureGates("GenericWorkload=false,CompositePodGroup=true,"
                              "TopologyAwareWorkloadScheduling=false")
                .error(),
            "CompositePodGroup is enabled, but depends on features that are disabled: "
            "[GenericWorkload TopologyAwareWorkloadScheduling] (CompositePodGroup depends on "
            "GenericWorkload and TopologyAwareWorkloadScheduling; turn CompositePodGroup off too)");
  // Order does not matter: the check runs after every pair is read.
  EXPECT_FALSE(ParseFeatureGates("TopologyAwareWorkloadScheduling=false,CompositePodGroup=true"));
  EXPECT_TRUE(ParseFeatureGates("CompositePodGroup=true,TopologyAwareWorkloadScheduling=true"));
}

TEST(FeatureGatesTest, CompositePodGroupByDefaultFollowsItsDependencies) {
  // Left at wasched's default (on), CompositePodGroup turns off with a dependency.
  for (const char* spec : {"TopologyAwareWorkloadScheduling=false", "GenericWorkload=false"}) {
    auto gates = ParseFeatureGates(spec);
    ASSERT_TRUE(gates) << spec << ": " << gates.error();
    EXPECT_FALSE(gates->composite_pod_group) << spec;
    EXPECT_TRUE(gates->workload_with_job) << spec;
  }
  auto both = ParseFeatureGates("TopologyAwareWorkloadScheduling=false,CompositePodGroup=false");
  ASSERT_TRUE(both);
  EXPECT_FALSE(both->composite_pod_group);
}

}  // namespace
}  // namespace wasched
