// File: live/run_config_test.cc
#include "live/run_config.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace wasched::live {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

TEST(ParseRunConfig, ReadsTheUpstreamShape) {
  auto c = ParseRunConfig(R"(apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
clientConnection: {qps: 500, burst: 1000}
leaderElection: {leaderElect: false, leaseDuration: 20s, renewDeadline: 15s, retryPeriod: 500ms,
                 resourceName: sched, resourceNamespace: wasched-system, resourceLock: leases}
percentageOfNodesToScore: 50
profiles:
- schedulerName: gang
  pluginConfig:
  - name: NodeResourcesFit
    args: {scoringStrategy: {type: MostAllocated}}
)", "c.yaml");
  ASSERT_TRUE(c.has_value()) << c.error()[0];
  EXPECT_EQ(c->qps, 500);
  EXPECT_EQ(c->burst, 1000);
  EXPECT_FALSE(c->leader_elect);
  EXPECT_EQ(c->lease_duration, 20);
  EXPECT_EQ(c->renew_deadline, 15);
  EXPECT_DOUBLE_EQ(c->retry_period, 0.5);
  EXPECT_EQ(c->lease_name, "sched");
  EXPECT_EQ(c->lease_namespace, "wasched-system");
  EXPECT_EQ(c->scheduler_name, "gang");
  EXPECT_EQ(c->scoring, sched::ScoringStrategy::kMostAllocated);
  ASSERT_EQ(c->notes.size(), 1u);
  EXPECT_THAT(c->notes[0], HasSubstr("percentageOfNodesToScore: accepted and not used (wasched "
                                     "scores every node)"));
}

TEST(ParseRunConfig, DefaultsAreUpstreams) {
  auto c = ParseRunConfig("apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n",
                          "c.yaml");
  ASSERT_TRUE(c.has_value());
  EXPECT_EQ(c->qps, 50);
  EXPECT_EQ(c->burst, 100);
  EXPECT_TRUE(c->leader_elect);
  EXPECT_EQ(c->scheduler_name, "wasched");
}

TEST(ParseRunConfig, UnknownFieldsAndBadValuesNameTheFieldPath) {
  auto c = ParseRunConfig(R"(apiVersion: kubescheduler.config.k8s.io/v1beta3
kind: KubeSchedulerConfiguration
profiles:
- schedulerName: x
  plugins: {score: {disabled: [{name: '*'}]}}
  pluginConfig:
  - name: NodeResourcesFit
    args: {scoringStrategy: {type: RequestedToCapacityRatio}}
leaderElection: {leaseDuration: soon}
)", "c.yaml");
  ASSERT_FALSE(c.has_value());
  EXPECT_THAT(c.error(), ElementsAre(
      HasSubstr("c.yaml: KubeSchedulerConfiguration: apiVersion: Unsupported value: "
                "\"kubescheduler.config.k8s.io/v1beta3\""),
      HasSubstr("leaderElection.leaseDuration: Invalid value"),
      HasSubstr("profiles[0].plugins: Forbidden: not supported by wasched"),
      HasSubstr("profiles[0].pluginConfig[0].args.scoringStrategy.type: Unsupported value: "
                "\"RequestedToCapacityRatio\"")));
}

TEST(ParseRunConfig, MalformedYamlAndManyProfiles) {
  auto bad = ParseRunConfig("a: [", "c.yaml");
  ASSERT_FALSE(bad.has_value());
  EXPECT_THAT(bad.error()[0], HasSubstr("c.yaml: line 1: malformed YAML"));
  auto two = ParseRunConfig(
      "apiVersion: kubescheduler.config.k8s.io/v1\nkind: KubeSchedulerConfiguration\n"
      "profiles: [{schedulerName: a}, {schedulerName: b}]\n", "c.yaml");
  ASSERT_FALSE(two.has_value());
  EXPECT_THAT(two.error()[0], HasSubstr("profiles: Invalid value: wasched runs exactly one profile"));
}

TEST(ParseDuration, GoSyntax) {
  EXPECT_EQ(ParseDuration("15s"), 15);
  EXPECT_EQ(ParseDuration("1m30s"), 90);
  EXPECT_DOUBLE_EQ(*ParseDuration("250ms"), 0.25);
  EXPECT_FALSE(ParseDuration("15").has_value());
  EXPECT_FALSE(ParseDuration("").has_value());
}

}  // namespace
}  // namespace wasched::live
