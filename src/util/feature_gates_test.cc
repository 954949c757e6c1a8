// File: util/feature_gates_test.cc
#include "util/feature_gates.h"

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
      " CompositePodGroup=false, ,TopologyAwareWorkloadScheduling=F,"
      "CompositePodGroup=1,PodGroupPreemptionPolicy=FALSE");
  ASSERT_TRUE(gates) << gates.error();
  EXPECT_TRUE(gates->composite_pod_group);
  EXPECT_FALSE(gates->topology_aware_workload_scheduling);
  EXPECT_FALSE(gates->pod_group_preemption_policy);
  EXPECT_TRUE(gates->generic_workload);
}

TEST(FeatureGatesTest, ErrorsUseUpstreamWording) {
  EXPECT_EQ(ParseFeatureGates("Bogus=true").error(), "unrecognized feature gate: Bogus");
  EXPECT_EQ(ParseFeatureGates("GenericWorkload").error(), "missing bool value for GenericWorkload");
  EXPECT_EQ(ParseFeatureGates("GenericWorkload=yes").error(),
            "invalid value of GenericWorkload=yes, err: strconv.ParseBool: parsing \"yes\": "
            "invalid syntax");
}

}  // namespace
}  // namespace wasched
