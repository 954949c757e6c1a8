#include "sched/plugins/taint_toleration/taint_toleration.h"

#include <gtest/gtest.h>

#include "support/builders.h"

namespace wasched::sched::plugins {
namespace {

using test::MakeNode;
using test::MakePod;

TEST(TaintTolerationTest, UntoleratedNoScheduleTaintRejectsWithKeyAndValue) {
  api::Node node = MakeNode().Name("n").Taint("gpu", "reserved", api::TaintEffect::kNoSchedule).Obj();
  Status s = TaintTolerationFilter().Filter(MakePod().Name("p").Obj(), node);
  EXPECT_EQ(s.code(), Code::kUnschedulableAndUnresolvable);
  EXPECT_EQ(s.Message(), "node(s) had untolerated taint {gpu: reserved}");
}

TEST(TaintTolerationTest, MatchingTolerationPasses) {
  api::Node node = MakeNode().Name("n").Taint("gpu", "reserved", api::TaintEffect::kNoSchedule).Obj();
  api::Pod pod = MakePod().Name("p").Obj();
  pod.tolerations.push_back({"gpu", api::TolerationOperator::kEqual, "reserved",
                             api::TaintEffect::kNoSchedule, std::nullopt});
  EXPECT_TRUE(TaintTolerationFilter().Filter(pod, node).IsSuccess());
  pod.tolerations[0].value = "other";
  EXPECT_FALSE(TaintTolerationFilter().Filter(pod, node).IsSuccess());
}

TEST(TaintTolerationTest, EmptyKeyExistsToleratesEverything) {
  api::Node node = MakeNode().Name("n").Taint("a", "b", api::TaintEffect::kNoExecute).Obj();
  api::Pod pod = MakePod().Name("p").Obj();
  pod.tolerations.push_back({"", api::TolerationOperator::kExists, "", std::nullopt, std::nullopt});
  EXPECT_TRUE(TaintTolerationFilter().Filter(pod, node).IsSuccess());
}

TEST(TaintTolerationTest, PreferNoScheduleOnlyScores) {
  api::Node node =
      MakeNode().Name("n").Taint("soft", "x", api::TaintEffect::kPreferNoSchedule).Obj();
  api::Pod pod = MakePod().Name("p").Obj();
  EXPECT_TRUE(TaintTolerationFilter().Filter(pod, node).IsSuccess());
  EXPECT_EQ(TaintTolerationScore().Score(pod, node), 1);
  pod.tolerations.push_back({"soft", api::TolerationOperator::kExists, "",
                             api::TaintEffect::kPreferNoSchedule, std::nullopt});
  EXPECT_EQ(TaintTolerationScore().Score(pod, node), 0);
}

}  // namespace
}  // namespace wasched::sched::plugins
