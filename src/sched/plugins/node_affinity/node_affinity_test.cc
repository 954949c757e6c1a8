#include "sched/plugins/node_affinity/node_affinity.h"

#include <gtest/gtest.h>

#include "support/builders.h"

namespace wasched::sched::plugins {
namespace {

using Op = api::NodeSelectorOperator;
using test::MakeNode;
using test::MakePod;

api::NodeSelectorTerm Term(std::string key, Op op, std::vector<std::string> values) {
  api::NodeSelectorTerm t;
  t.match_expressions.push_back({std::move(key), op, std::move(values)});
  return t;
}

TEST(NodeAffinityTest, OperatorsOnLabels) {
  api::Node node = MakeNode().Name("n1").Label("zone", "a").Label("gen", "5").Obj();
  EXPECT_TRUE(MatchesNodeSelectorTerm(Term("zone", Op::kIn, {"a", "b"}), node));
  EXPECT_FALSE(MatchesNodeSelectorTerm(Term("zone", Op::kNotIn, {"a"}), node));
  EXPECT_TRUE(MatchesNodeSelectorTerm(Term("missing", Op::kNotIn, {"a"}), node));
  EXPECT_TRUE(MatchesNodeSelectorTerm(Term("zone", Op::kExists, {}), node));
  EXPECT_TRUE(MatchesNodeSelectorTerm(Term("missing", Op::kDoesNotExist, {}), node));
  EXPECT_TRUE(MatchesNodeSelectorTerm(Term("gen", Op::kGt, {"4"}), node));
  EXPECT_FALSE(MatchesNodeSelectorTerm(Term("gen", Op::kGt, {"5"}), node));
  EXPECT_TRUE(MatchesNodeSelectorTerm(Term("gen", Op::kLt, {"6"}), node));
  EXPECT_FALSE(MatchesNodeSelectorTerm(Term("zone", Op::kLt, {"6"}), node));  // not an integer
  EXPECT_FALSE(MatchesNodeSelectorTerm(api::NodeSelectorTerm{}, node));        // empty term
}

TEST(NodeAffinityTest, MatchFieldsOnMetadataName) {
  api::Node node = MakeNode().Name("n1").Obj();
  api::NodeSelectorTerm t;
  t.match_fields.push_back({"metadata.name", Op::kIn, {"n1"}});
  EXPECT_TRUE(MatchesNodeSelectorTerm(t, node));
  t.match_fields[0].values = {"n2"};
  EXPECT_FALSE(MatchesNodeSelectorTerm(t, node));
}

TEST(NodeAffinityTest, FilterNeedsSelectorAndOneRequiredTerm) {
  api::Node node = MakeNode().Name("n1").Label("zone", "a").Obj();
  api::Pod pod = MakePod().Name("p").NodeSelector("zone", "a").Obj();
  EXPECT_TRUE(NodeAffinityFilter().Filter(pod, node).IsSuccess());
  pod.node_affinity = api::NodeAffinity{};
  pod.node_affinity->required = std::vector<api::NodeSelectorTerm>{
      Term("zone", Op::kIn, {"b"}), Term("zone", Op::kIn, {"a"})};
  EXPECT_TRUE(NodeAffinityFilter().Filter(pod, node).IsSuccess());  // terms are ORed
  pod.node_affinity->required->pop_back();
  Status s = NodeAffinityFilter().Filter(pod, node);
  EXPECT_EQ(s.Message(), "node(s) didn't match Pod's node affinity/selector");
}

TEST(NodeAffinityTest, PreferredWeightsSum) {
  api::Node node = MakeNode().Name("n1").Label("zone", "a").Label("disk", "ssd").Obj();
  api::Pod pod = MakePod().Name("p").Obj();
  pod.node_affinity = api::NodeAffinity{};
  pod.node_affinity->preferred = {{10, Term("zone", Op::kIn, {"a"})},
                                  {5, Term("disk", Op::kIn, {"ssd"})},
                                  {7, Term("disk", Op::kIn, {"hdd"})}};
  EXPECT_EQ(NodeAffinityScore().Score(pod, node), 15);
}

}  // namespace
}  // namespace wasched::sched::plugins
