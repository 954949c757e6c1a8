// File: validation/accounting_validation_test.cc
//
// The int64 accounting limit, through ValidateForSchedule's warnings: for every resource, all
// pods' effective requests plus the largest allocatable fit int64, or a warning says the sums
// saturate (the breaker's reproducers 03
// and 04: two running 7Ei pods on one node, three 4Ei gang members).
#include "validation/accounting_validation.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "support/builders.h"
#include "validation/object_set_validation.h"

namespace wasched::validation {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;
using wasched::test::kGi;
using wasched::test::MakeNode;
using wasched::test::MakePod;
using wasched::test::MakePodGroup;

constexpr int64_t kEi = int64_t{1} << 60;
constexpr int64_t kMax = std::numeric_limits<int64_t>::max();

std::vector<std::string> Strings(const InputErrors& errors) {
  std::vector<std::string> out;
  for (const InputError& e : errors) out.push_back(e.ToString());
  return out;
}

// Warnings: the accounting findings, which are warnings (the API server accepts any amounts; the
// scheduler's sums saturate at the bound); the input stays valid.
InputErrors Warnings(const api::ObjectSet& set) {
  InputErrors warnings;
  EXPECT_THAT(ValidateForSchedule(set, FeatureGates{}, &warnings), IsEmpty());
  return warnings;
}

api::Node SmallNode() {
  return MakeNode().Name("n1").Capacity({{"cpu", 4000}, {"memory", kGi}, {"pods", 110}}).Obj();
}

TEST(AccountingValidationTest, RunningPodsOverflowingANode) {  // breaker 03
  api::ObjectSet set;
  set.nodes.push_back(SmallNode());
  set.pods.push_back(MakePod().Name("r1").Node("n1").Req({{"memory", 7 * kEi}}).Obj());
  set.pods.push_back(MakePod().Name("r2").Node("n1").Req({{"memory", 7 * kEi}}).Obj());
  set.pods.push_back(MakePod().Name("p").Req({{"cpu", 1000}, {"memory", 1}}).Obj());
  EXPECT_THAT(Strings(Warnings(set)),
              ElementsAre("Pod default/r2: spec.containers[0].resources.requests[memory]: "
                          "Invalid value: \"7Ei\": the input's total requests of memory exceed "
                          "what wasched can account (9.2e18); its sums saturate at that bound"));
}

TEST(AccountingValidationTest, GangMembersOverflowingTheirAggregate) {  // breaker 04
  api::ObjectSet set;
  set.nodes.push_back(SmallNode());
  set.pod_groups.push_back(MakePodGroup().Name("g").MinCount(3).Obj());
  for (const char* name : {"p0", "p1", "p2"}) {
    set.pods.push_back(MakePod().Name(name).Group("g").Req({{"memory", 4 * kEi}}).Obj());
  }
  // 4Ei + 4Ei = 2^63 > INT64_MAX: the second member crosses; one error per resource.
  EXPECT_THAT(Strings(Warnings(set)),
              ElementsAre("Pod default/p1: spec.containers[0].resources.requests[memory]: "
                          "Invalid value: \"4Ei\": the input's total requests of memory exceed "
                          "what wasched can account (9.2e18); its sums saturate at that bound"));
}

TEST(AccountingValidationTest, TheLimitItselfIsAccepted) {
  api::ObjectSet set;
  set.nodes.push_back(MakeNode().Name("n1").Capacity({{"memory", 1000}, {"pods", 110}}).Obj());
  set.pods.push_back(MakePod().Name("a").Req({{"memory", kMax - 1000 - 5}}).Obj());
  set.pods.push_back(MakePod().Name("b").Req({{"memory", 5}}).Obj());
  EXPECT_THAT(Warnings(set), IsEmpty());
  set.pods.push_back(MakePod().Name("c").Req({{"memory", 1}}).Obj());
  EXPECT_THAT(Strings(Warnings(set)),
              ElementsAre(::testing::StartsWith("Pod default/c: spec.containers[0].resources."
                                                "requests[memory]: Invalid value: \"1\"")));
}

TEST(AccountingValidationTest, TheLargestAllocatableCounts) {
  api::ObjectSet set;
  set.nodes.push_back(MakeNode().Name("small").Capacity({{"cpu", 1000}, {"pods", 110}}).Obj());
  set.nodes.push_back(MakeNode().Name("huge").Capacity({{"cpu", kMax - 10}, {"pods", 110}}).Obj());
  set.pods.push_back(MakePod().Name("a").Req({{"cpu", 10}}).Obj());
  EXPECT_THAT(Warnings(set), IsEmpty());
  set.pods.push_back(MakePod().Name("b").Req({{"cpu", 1}}).Obj());
  // CPU is counted in millicores: the limit in cores is 9.2e15.
  EXPECT_THAT(Strings(Warnings(set)),
              ElementsAre("Pod default/b: spec.containers[0].resources.requests[cpu]: Invalid "
                          "value: \"1m\": the input's total requests of cpu exceed what wasched "
                          "can account (9.2e15); its sums saturate at that bound"));
}

TEST(AccountingValidationTest, PathOfTheFieldThatRequests) {
  api::ObjectSet set;
  set.nodes.push_back(SmallNode());
  set.pods.push_back(MakePod()
                         .Name("init")
                         .Req({{"memory", 1}})
                         .InitReq({{"memory", 5 * kEi}})
                         .Obj());
  api::Pod overhead = MakePod().Name("overhead").Overhead({{"memory", 5 * kEi}}).Obj();
  set.pods.push_back(overhead);
  EXPECT_THAT(Strings(Warnings(set)),
              ElementsAre("Pod default/overhead: spec.overhead[memory]: Invalid value: \"5Ei\": "
                          "the input's total requests of memory exceed what wasched can account "
                          "(9.2e18); its sums saturate at that bound"));
  set.pods.pop_back();
  api::Pod pod_level = MakePod().Name("pod-level").Req({{"memory", 1}}).Obj();
  pod_level.pod_level_requests = {{"memory", 5 * kEi}};
  set.pods.push_back(pod_level);
  EXPECT_THAT(Strings(Warnings(set)),
              ElementsAre(::testing::StartsWith(
                  "Pod default/pod-level: spec.resources.requests[memory]: Invalid value: "
                  "\"5Ei\"")));
  set.pods.pop_back();
  set.pods.push_back(MakePod().Name("late").Req({{"memory", 5 * kEi}}).Obj());
  set.pods.insert(set.pods.begin(),
                  MakePod().Name("first").Container({{"memory", 1}}).Container({{"memory", 2}}).Obj());
  // The init container of `init` (5Ei) is its effective request; `late` crosses.
  EXPECT_THAT(Strings(Warnings(set)),
              ElementsAre(::testing::StartsWith("Pod default/late: spec.containers[0]")));
}

TEST(AccountingValidationTest, TerminatedPodsHoldNothing) {
  api::ObjectSet set;
  set.nodes.push_back(SmallNode());
  set.pods.push_back(
      MakePod().Name("done").Node("n1").Phase("Succeeded").Req({{"memory", 7 * kEi}}).Obj());
  set.pods.push_back(MakePod().Name("p").Req({{"memory", 7 * kEi}}).Obj());
  EXPECT_THAT(Warnings(set), IsEmpty());
}

TEST(AccountingValidationTest, PodCountAgainstAHugePodsAllocatable) {
  api::ObjectSet set;
  set.nodes.push_back(SmallNode());
  set.nodes.push_back(MakeNode().Name("many").Capacity({{"cpu", 1000}, {"pods", kMax}}).Obj());
  EXPECT_THAT(Warnings(set), IsEmpty());  // no pod: nothing is added
  set.pods.push_back(MakePod().Name("p").Req({{"cpu", 100}}).Obj());
  EXPECT_THAT(Strings(Warnings(set)),
              ElementsAre("Node many: status.allocatable[pods]: Invalid value: "
                          "\"9223372036854775807\": the input's total requests of pods exceed "
                          "what wasched can account (9.2e18); its sums saturate at that bound"));
}

}  // namespace
}  // namespace wasched::validation
