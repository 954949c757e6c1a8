// File: validation/object_set_validation_test.cc
//
// Unit tests for ValidateForSchedule: one case per check, the exact upstream-style message, and
// the input order of errors across kinds and files.
#include "validation/object_set_validation.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "support/builders.h"

namespace wasched::validation {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;
using wasched::test::kGi;
using wasched::test::MakeNode;
using wasched::test::MakePod;
using wasched::test::MakePodGroup;
using wasched::test::MakePriorityClass;

api::SourceRef Src(std::string file, int document) {
  return api::SourceRef{std::move(file), document};
}

template <typename T>
T At(T object, std::string file, int document) {
  object.meta.source = Src(std::move(file), document);
  return object;
}

std::vector<std::string> Strings(const InputErrors& errors) {
  std::vector<std::string> out;
  for (const InputError& e : errors) out.push_back(e.ToString());
  return out;
}

api::ObjectSet ValidSet() {
  api::ObjectSet set;
  set.nodes.push_back(At(MakeNode().Name("n1").Capacity({{"cpu", 4000}, {"memory", 8 * kGi}}).Obj(),
                         "cluster.yaml", 1));
  set.priority_classes.push_back(
      At(MakePriorityClass().Name("high").Value(1000).Obj(), "cluster.yaml", 2));
  set.pod_groups.push_back(At(MakePodGroup().Name("pg").MinCount(2).Obj(), "job.yaml", 1));
  set.pods.push_back(
      At(MakePod().Name("p0").Group("pg").PriorityClassName("high").Req({{"cpu", 1000}}).Obj(),
         "job.yaml", 2));
  set.pods.push_back(
      At(MakePod().Name("p1").Group("pg").Req({{"cpu", 1000}}).Obj(), "job.yaml", 3));
  set.pods.push_back(
      At(MakePod().Name("running").Node("n1").PriorityClassName("system-node-critical").Obj(),
         "job.yaml", 4));
  return set;
}

TEST(ValidateForScheduleTest, ValidInputHasNoErrors) {
  EXPECT_THAT(ValidateForSchedule(ValidSet()), IsEmpty());
  EXPECT_THAT(ValidateForSchedule(api::ObjectSet{}), IsEmpty());
}

TEST(ValidateForScheduleTest, NameRequired) {
  api::ObjectSet set;
  set.nodes.push_back(At(MakeNode().Obj(), "nodes.yaml", 2));
  InputErrors errors = ValidateForSchedule(set);
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].object, "Node");
  EXPECT_EQ(errors[0].error.type, FieldErrorType::kRequired);
  EXPECT_EQ(errors[0].error.field, "metadata.name");
  EXPECT_EQ(errors[0].ToString(),
            "nodes.yaml: document 2: Node: metadata.name: Required value: name or generateName is "
            "required");
}

TEST(ValidateForScheduleTest, NameFormat) {
  api::ObjectSet set;
  set.pods.push_back(At(MakePod().Name("Bad_Name").Obj(), "p.yaml", 1));
  InputErrors errors = ValidateForSchedule(set);
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(
      errors[0].ToString(),
      "p.yaml: document 1: Pod default/Bad_Name: metadata.name: Invalid value: \"Bad_Name\": "
      "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' "
      "or '.', and must start and end with an alphanumeric character (e.g. 'example.com', "
      "regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-"
      "9])?)*')");
}

TEST(ValidateForScheduleTest, NameFormatAcceptsSubdomainsAndRejectsLongNames) {
  api::ObjectSet set;
  set.nodes.push_back(MakeNode().Name("gpu-1.zone-a.example.com").Obj());
  set.nodes.push_back(MakeNode().Name("a..b").Obj());
  set.nodes.push_back(MakeNode().Name("-a").Obj());
  set.nodes.push_back(MakeNode().Name(std::string(254, 'a')).Obj());
  InputErrors errors = ValidateForSchedule(set);
  ASSERT_EQ(errors.size(), 3u);
  EXPECT_EQ(errors[0].object, "Node a..b");
  EXPECT_EQ(errors[1].object, "Node -a");
  EXPECT_EQ(errors[2].error.detail, "must be no more than 253 characters");
}

TEST(ValidateForScheduleTest, NamespaceFormat) {
  api::ObjectSet set;
  set.pods.push_back(MakePod().Name("p").Namespace("a.b").Obj());
  InputErrors errors = ValidateForSchedule(set);
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].error.field, "metadata.namespace");
  // A valid subdomain that is not a label: upstream IsDNS1123Label's "must not contain dots".
  EXPECT_EQ(errors[0].error.detail, "must not contain dots");
}

TEST(ValidateForScheduleTest, DuplicateNamesNameTheFirstDefinition) {
  api::ObjectSet set = ValidSet();
  set.nodes.push_back(At(MakeNode().Name("n1").Obj(), "more.yaml", 3));
  set.pods.push_back(At(MakePod().Name("p0").Group("pg").Obj(), "more.yaml", 4));
  set.pods.push_back(
      At(MakePod().Name("p0").Namespace("other").Obj(), "more.yaml", 5));  // other ns: fine
  set.pod_groups.push_back(At(MakePodGroup().Name("pg").Obj(), "more.yaml", 6));
  set.priority_classes.push_back(At(MakePriorityClass().Name("high").Obj(), "more.yaml", 7));
  EXPECT_THAT(Strings(ValidateForSchedule(set)),
              ElementsAre("more.yaml: document 3: Node n1: metadata.name: Duplicate value: \"n1\": "
                          "also defined in cluster.yaml document 1",
                          "more.yaml: document 4: Pod default/p0: metadata.name: Duplicate value: "
                          "\"p0\": also defined in job.yaml document 2",
                          "more.yaml: document 6: PodGroup default/pg: metadata.name: Duplicate "
                          "value: \"pg\": also defined in job.yaml document 1",
                          "more.yaml: document 7: PriorityClass high: metadata.name: Duplicate "
                          "value: \"high\": also defined in cluster.yaml document 2"));
}

TEST(ValidateForScheduleTest, DuplicateWorkload) {
  api::ObjectSet set;
  api::Workload w;
  w.meta.name = "w";
  w.meta.namespace_ = "default";
  api::PodGroupTemplate t;
  t.name = "t";
  t.scheduling_policy.basic = api::BasicSchedulingPolicy{};
  w.pod_group_templates.push_back(t);
  set.workloads = {At(w, "a.yaml", 1), At(w, "a.yaml", 2)};
  EXPECT_THAT(Strings(ValidateForSchedule(set)),
              ElementsAre("a.yaml: document 2: Workload default/w: metadata.name: Duplicate value: "
                          "\"w\": also defined in a.yaml document 1"));
}

TEST(ValidateForScheduleTest, NegativeQuantities) {
  api::ObjectSet set;
  set.nodes.push_back(
      At(MakeNode().Name("n").Capacity({{"memory", -(int64_t{1} << 30)}}).Obj(), "n.yaml", 1));
  set.pods.push_back(At(MakePod()
                            .Name("p1")
                            .Req({{"cpu", -1000}})
                            .Limits({{"cpu", -500}})
                            .InitReq({{"nvidia.com/gpu", -2}})
                            .Overhead({{"cpu", -250}})
                            .Obj(),
                        "pods.yaml", 2));
  // Upstream's order (validateResourceRequirements): containers before init containers, limits
  // before requests.
  EXPECT_THAT(Strings(ValidateForSchedule(set)),
              ElementsAre("n.yaml: document 1: Node n: status.allocatable[memory]: Invalid value: "
                          "\"-1Gi\": must be "
                          "greater than or equal to 0",
                          "pods.yaml: document 2: Pod default/p1: "
                          "spec.containers[0].resources.limits[cpu]: Invalid "
                          "value: \"-500m\": must be greater than or equal to 0",
                          "pods.yaml: document 2: Pod default/p1: "
                          "spec.containers[0].resources.requests[cpu]: Invalid "
                          "value: \"-1\": must be greater than or equal to 0",
                          "pods.yaml: document 2: Pod default/p1: "
                          "spec.initContainers[0].resources.requests[nvidia.com/"
                          "gpu]: Invalid value: \"-2\": must be greater than or equal to 0",
                          "pods.yaml: document 2: Pod default/p1: "
                          "spec.initContainers[0].resources.limits: Required value: Limit must be "
                          "set for non overcommitable resources",
                          "pods.yaml: document 2: Pod default/p1: spec.overhead[cpu]: Invalid "
                          "value: \"-250m\": must "
                          "be greater than or equal to 0"));
}

// The API server accepts a pod naming a PodGroup that does not exist, and the scheduler holds it
// at PreEnqueue (differential case corpus.bad_missing-podgroup: 0 errors on v1.37.2): a warning.
TEST(ValidateForScheduleTest, MissingPodGroupIsNotFoundInThePodsNamespace) {
  api::ObjectSet set = ValidSet();
  set.pods.push_back(At(MakePod().Name("q").Namespace("team-b").Group("pg").Obj(), "job.yaml", 9));
  InputErrors warnings;
  EXPECT_THAT(CheckScheduleInput(set, &warnings), IsEmpty());
  EXPECT_THAT(Strings(warnings),
              ElementsAre("job.yaml: document 9: Pod team-b/q: spec.schedulingGroup.podGroupName: "
                          "Not found: \"pg\": the PodGroup is not in the input; the API server "
                          "accepts the pod, and the scheduler holds it at PreEnqueue until the "
                          "PodGroup exists"));
}

TEST(ValidateForScheduleTest, MissingPriorityClass) {
  api::ObjectSet set = ValidSet();
  set.pods.push_back(At(MakePod().Name("q").PriorityClassName("nope").Obj(), "job.yaml", 9));
  set.pods.push_back(
      At(MakePod().Name("r").PriorityClassName("system-cluster-critical").Obj(), "job.yaml", 10));
  set.pod_groups.push_back(
      At(MakePodGroup().Name("g2").PriorityClassName("missing").Obj(), "job.yaml", 11));
  EXPECT_THAT(
      Strings(ValidateForSchedule(set)),
      ElementsAre(
          "job.yaml: document 9: Pod default/q: spec.priorityClassName: Not found: \"nope\"",
          "job.yaml: document 11: PodGroup default/g2: spec.priorityClassName: Not "
          "found: \"missing\""));
}

TEST(ValidateForScheduleTest, OneGlobalDefaultPriorityClass) {
  api::ObjectSet set;
  set.priority_classes.push_back(
      At(MakePriorityClass().Name("a").GlobalDefault().Obj(), "pc.yaml", 1));
  set.priority_classes.push_back(
      At(MakePriorityClass().Name("b").GlobalDefault().Obj(), "pc.yaml", 2));
  set.priority_classes.push_back(At(MakePriorityClass().Name("c").Obj(), "pc.yaml", 3));
  InputErrors errors = ValidateForSchedule(set);
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].object, "PriorityClass b");
  EXPECT_EQ(errors[0].error.type, FieldErrorType::kInvalid);
  EXPECT_EQ(errors[0].error.field, "globalDefault");
  EXPECT_THAT(errors[0].error.detail,
              ::testing::HasSubstr("PriorityClass a is already marked as default"));
}

TEST(ValidateForScheduleTest, PriorityClassValueAndReservedNames) {
  api::ObjectSet set;
  set.priority_classes.push_back(MakePriorityClass().Name("huge").Value(1000000001).Obj());
  set.priority_classes.push_back(
      MakePriorityClass().Name("system-cluster-critical").Value(2000000000).Obj());
  set.priority_classes.push_back(MakePriorityClass().Name("system-foo").Value(1).Obj());
  EXPECT_THAT(
      Strings(ValidateForSchedule(set)),
      ElementsAre("PriorityClass huge: value: Forbidden: maximum allowed value of a user "
                  "defined priority is 1000000000",
                  "PriorityClass system-foo: metadata.name: Forbidden: priority class names "
                  "with 'system-' prefix are reserved for system use only. error: system-foo "
                  "is not a known system priority class"));
}

TEST(ValidateForScheduleTest, GangMinCount) {
  api::ObjectSet set;
  set.pod_groups.push_back(MakePodGroup().Name("zero").MinCount(0).Obj());
  set.pod_groups.push_back(MakePodGroup().Name("neg").MinCount(-1).Obj());
  InputErrors errors = ValidateForSchedule(set);
  EXPECT_THAT(
      Strings(errors),
      ElementsAre("PodGroup default/zero: spec.schedulingPolicy.gang.minCount: Required value",
                  "PodGroup default/neg: spec.schedulingPolicy.gang.minCount: Invalid value: "
                  "-1: must be greater than or equal to 1"));
  EXPECT_EQ(errors[1].error.origin, "minimum");
}

TEST(ValidateForScheduleTest, PolicyUnion) {
  api::ObjectSet set;
  api::PodGroup both = MakePodGroup().Name("both").MinCount(2).Obj();
  both.scheduling_policy.basic = api::BasicSchedulingPolicy{};
  api::PodGroup neither = MakePodGroup().Name("neither").Obj();
  neither.scheduling_policy.basic.reset();
  set.pod_groups = {both, neither};
  InputErrors errors = ValidateForSchedule(set);
  EXPECT_THAT(Strings(errors),
              ElementsAre("PodGroup default/both: spec.schedulingPolicy: Invalid value: \"{basic, "
                          "gang}\": must specify exactly one of: `basic`, `gang`",
                          "PodGroup default/neither: spec.schedulingPolicy: Invalid value: \"\": "
                          "must specify one of: `basic`, `gang`"));
  EXPECT_EQ(errors[0].error.origin, "union");
}

TEST(ValidateForScheduleTest, CompositeAndWorkloadPolicies) {
  api::ObjectSet set;
  api::CompositePodGroup cpg;
  cpg.meta.name = "root";
  cpg.meta.namespace_ = "default";
  cpg.scheduling_policy.gang = api::CompositeGangSchedulingPolicy{0};
  set.composite_pod_groups.push_back(cpg);
  api::Workload w;
  w.meta.name = "w";
  w.meta.namespace_ = "default";
  api::CompositePodGroupTemplate ct;
  ct.name = "root";
  ct.scheduling_policy.gang = api::CompositeGangSchedulingPolicy{-2};
  api::PodGroupTemplate leaf;
  leaf.name = "leaf";
  leaf.scheduling_policy.gang = api::GangSchedulingPolicy{0};
  ct.pod_group_templates.push_back(leaf);
  w.composite_pod_group_templates.push_back(ct);
  set.workloads.push_back(w);
  EXPECT_THAT(
      Strings(ValidateForSchedule(set)),
      ElementsAre("Workload default/w: spec.compositePodGroupTemplates[0].schedulingPolicy.gang."
                  "minGroupCount: Invalid value: -2: must be greater than or equal to 1",
                  "Workload default/w: spec.compositePodGroupTemplates[0].podGroupTemplates[0]."
                  "schedulingPolicy.gang.minCount: Required value",
                  "CompositePodGroup default/root: spec.workloadRef: Required value",
                  "CompositePodGroup default/root: spec.schedulingPolicy.gang.minGroupCount: "
                  "Required value"));
}

TEST(ValidateForScheduleTest, TopologyKeyRequired) {
  api::ObjectSet set;
  set.pod_groups.push_back(MakePodGroup().Name("pg").MinCount(1).TopologyKey("").Obj());
  api::PodGroup two = MakePodGroup().Name("two").MinCount(1).TopologyKey("zone").Obj();
  two.scheduling_constraints->topology.push_back(api::TopologyConstraint{"rack"});
  set.pod_groups.push_back(two);
  EXPECT_THAT(
      Strings(ValidateForSchedule(set)),
      ElementsAre("PodGroup default/pg: spec.schedulingConstraints.topology[0].key: Required value",
                  "PodGroup default/two: spec.schedulingConstraints.topology: Too many: 2: "
                  "must have at most 1 item"));
}

// A running pod on a Node the input does not hold (a snapshot taken after the node was deleted)
// is a warning, not an error: the scheduler counts it on no node.
TEST(ValidateForScheduleTest, UnknownNodeNameIsAWarning) {
  api::ObjectSet set = ValidSet();
  set.pods.push_back(At(MakePod().Name("lost").Node("n9").Obj(), "job.yaml", 7));
  InputErrors warnings;
  EXPECT_THAT(ValidateForSchedule(set, FeatureGates{}, &warnings), IsEmpty());
  EXPECT_THAT(Strings(warnings),
              ElementsAre("job.yaml: document 7: Pod default/lost: spec.nodeName: Not found: "
                          "\"n9\": the pod is bound to a node that is not in the input; its "
                          "requests are not counted on any node"));
  EXPECT_THAT(ValidateForSchedule(set), IsEmpty());  // warnings dropped
  warnings.clear();
  EXPECT_THAT(ValidateUpdateForSchedule(set, set, FeatureGates{}, &warnings), IsEmpty());
  EXPECT_EQ(warnings.size(), 1u);
}

TEST(ValidateForScheduleTest, NodeAffinityRequirements) {
  api::ObjectSet set;
  api::Pod pod = MakePod().Name("p").Obj();
  api::NodeAffinity affinity;
  api::NodeSelectorTerm term;
  term.match_expressions.push_back({"gen", api::NodeSelectorOperator::kGt, {"4", "5"}});
  term.match_expressions.push_back({"gen", api::NodeSelectorOperator::kLt, {"four"}});
  term.match_expressions.push_back({"gen", api::NodeSelectorOperator::kGt, {"-12"}});  // fine
  term.match_expressions.push_back({"zone", api::NodeSelectorOperator::kIn, {}});
  term.match_expressions.push_back({"zone", api::NodeSelectorOperator::kExists, {"a"}});
  affinity.required = std::vector<api::NodeSelectorTerm>{term};
  affinity.preferred.push_back(api::PreferredSchedulingTerm{0, {}});
  pod.node_affinity = affinity;
  set.pods.push_back(pod);
  const std::string terms =
      "Pod default/p: spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution."
      "nodeSelectorTerms[0]";
  EXPECT_THAT(
      Strings(ValidateForSchedule(set)),
      ElementsAre(
          terms + ".matchExpressions[0].values: Required value: must be specified single "
                  "value when `operator` is 'Lt' or 'Gt'",
          terms + ".matchExpressions[1].values[0]: Invalid value: \"four\": for 'Gt', 'Lt' "
                  "operators, the value must be an integer",
          terms + ".matchExpressions[3].values: Required value: must be specified when "
                  "`operator` is 'In' or 'NotIn'",
          terms + ".matchExpressions[4].values: Forbidden: may not be specified when "
                  "`operator` is 'Exists' or 'DoesNotExist'",
          "Pod default/p: spec.affinity.nodeAffinity.preferredDuringSchedulingIgnoredDuringE"
          "xecution[0].weight: Invalid value: 0: must be in the range 1-100"));
}

// Priority admission (plugin/pkg/admission/priority): an explicit priority must be what the
// class (or the globalDefault class, or 0) resolves to — pods and, in v1.37, pod groups
// (breaker 35, and 24's PodGroup with priority 2147483647 and no class).
TEST(ValidateForScheduleTest, ExplicitPriorityMustMatchTheClass) {
  api::ObjectSet set = ValidSet();
  set.pods.push_back(At(MakePod()
                            .Name("b")
                            .PriorityClassName("system-node-critical")
                            .Priority(7)
                            .Req({{"cpu", 1000}})
                            .Obj(),
                        "job.yaml", 5));
  set.pods.push_back(
      At(MakePod().Name("ok").PriorityClassName("high").Priority(1000).Obj(), "job.yaml", 6));
  set.pod_groups.push_back(At(MakePodGroup().Name("big").Priority(2147483647).Obj(), "job.yaml", 7));
  set.pod_groups.push_back(
      At(MakePodGroup().Name("ok-group").PriorityClassName("high").Priority(1000).Obj(), "job.yaml",
         8));
  EXPECT_THAT(
      Strings(ValidateForSchedule(set)),
      ElementsAre("job.yaml: document 5: Pod default/b: spec.priority: Forbidden: the integer "
                  "value of priority (7) must not be provided in pod spec; priority admission "
                  "controller computed 2000001000 from the given PriorityClass name",
                  "job.yaml: document 7: PodGroup default/big: spec.priority: Invalid value: "
                  "2147483647: must be less than or equal to 1000000000",
                  "job.yaml: document 7: PodGroup default/big: spec.priority: Forbidden: "
                  "priority set in the pod group (2147483647) must match "
                  "the priority computed (0) based on the priority class set in the spec"));
}

// metadata.labels of every kind (meta/v1 ValidateLabels), node taints and the pod's core fields.
TEST(ValidateForScheduleTest, CoreFieldsOfNodesAndPods) {
  api::ObjectSet set = ValidSet();
  set.nodes.push_back(At(MakeNode()
                             .Name("n2")
                             .Label("k", std::string(100, 'v'))
                             .Taint("gpu", "a b", api::TaintEffect::kNoSchedule)
                             .Capacity({{"cpu", 1000}})
                             .Obj(),
                         "cluster.yaml", 3));
  api::Pod pod = MakePod().Name("tol").Label("bad key/x/y", "v").Obj();
  api::Toleration t;
  t.op = api::TolerationOperator::kEqual;
  t.value = "x";
  pod.tolerations.push_back(t);
  set.pods.push_back(At(pod, "job.yaml", 5));
  api::Pod no_containers = MakePod().Name("empty").Obj();
  no_containers.containers.clear();
  set.pods.push_back(At(no_containers, "job.yaml", 6));
  const std::vector<std::string> got = Strings(ValidateForSchedule(set));
  ASSERT_EQ(got.size(), 5u) << ::testing::PrintToString(got);
  EXPECT_EQ(got[0],
            "cluster.yaml: document 3: Node n2: metadata.labels: Invalid value: \"" +
                std::string(100, 'v') + "\": must be no more than 63 characters");
  EXPECT_THAT(got[1], ::testing::StartsWith("cluster.yaml: document 3: Node n2: "
                                            "spec.taints[0].value: Invalid value: \"a b\": a "
                                            "valid label must be"));
  EXPECT_THAT(got[2], ::testing::StartsWith("job.yaml: document 5: Pod default/tol: "
                                            "metadata.labels: Invalid value: \"bad key/x/y\": a "
                                            "qualified name must consist of"));
  EXPECT_EQ(got[3],
            "job.yaml: document 5: Pod default/tol: spec.tolerations[0].operator: Invalid value: "
            "\"Equal\": operator must be Exists when `key` is empty, which means \"match all "
            "values and all keys\"");
  EXPECT_EQ(got[4], "job.yaml: document 6: Pod default/empty: spec.containers: Required value");
}

TEST(ValidateForScheduleTest, ErrorsFollowInputOrderAcrossKindsAndFiles) {
  // Files were read in the order z.yaml, a.yaml: the errors follow that order, not the kinds'.
  api::ObjectSet set;
  set.nodes.push_back(At(MakeNode().Name("n").Obj(), "z.yaml", 2));
  set.nodes.push_back(At(MakeNode().Name("n").Obj(), "a.yaml", 1));
  set.pods.push_back(At(MakePod().Name("p").Req({{"cpu", -1}}).Obj(), "z.yaml", 1));
  set.pods.push_back(At(MakePod().Name("q").Req({{"cpu", -1}}).Obj(), "a.yaml", 2));
  InputErrors errors = ValidateForSchedule(set);
  std::vector<std::string> where;
  for (const InputError& e : errors)
    where.push_back(e.source.file + "#" + std::to_string(e.source.document));
  EXPECT_THAT(where, ElementsAre("z.yaml#1", "a.yaml#1", "a.yaml#2"));
}

}  // namespace
}  // namespace wasched::validation
