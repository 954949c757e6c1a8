// File: codec/convert_test.cc
//
// ConvertString: every rewrite of codec/convert.h (v1alpha1 Workload + pods → templates,
// generated PodGroups and schedulingGroup; v1alpha2 renames; v1alpha3 ↔ v1beta1), pass-through
// and round trip, Lists, JSON output, the issues reported, and malformed input.
#include "codec/convert.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "codec/yaml_tree.h"

namespace wasched::codec {
namespace {

using internal::YamlTree;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::Not;

ConvertResult MustConvert(const std::string& text, std::string_view target = kConvertTargetV1beta1,
                          ConvertFormat format = ConvertFormat::kYaml) {
  ConvertOptions options;
  options.target = std::string(target);
  options.format = format;
  auto result = ConvertString(text, "in.yaml", options);
  if (!result) {
    std::string all;
    for (const InputError& e : result.error()) all += e.ToString() + "\n";
    ADD_FAILURE() << "unexpected errors:\n" << all;
    return {};
  }
  return std::move(*result);
}

std::vector<std::string> MustFail(const std::string& text) {
  auto result = ConvertString(text, "in.yaml", ConvertOptions{});
  EXPECT_FALSE(result.has_value()) << result->text;
  std::vector<std::string> errors;
  if (!result) {
    for (const InputError& e : result.error()) errors.push_back(e.ToString());
  }
  return errors;
}

std::vector<std::string> Issues(const ConvertResult& r) {
  std::vector<std::string> out;
  for (const ConvertIssue& i : r.issues) out.push_back(i.ToString());
  return out;
}

std::vector<YamlTree> Parse(const std::string& text) {
  std::string error;
  std::vector<YamlTree> trees = internal::ParseTrees(text, &error);
  EXPECT_EQ(error, "");
  return trees;
}

constexpr const char* kV1alpha1 = R"(apiVersion: scheduling.k8s.io/v1alpha1
kind: Workload
metadata:
  name: training
  namespace: ml
spec:
  controllerRef:
    apiGroup: batch
    kind: Job
    name: training
  podGroups:
  - name: workers
    policy:
      gang:
        minCount: 2
  - name: driver
    policy:
      basic: {}
---
apiVersion: v1
kind: Pod
metadata:
  name: worker-0
  namespace: ml
spec:
  workloadRef:
    name: training
    podGroup: workers
    podGroupReplicaKey: "0"
  containers:
  - name: c
    image: busybox
---
apiVersion: v1
kind: Pod
metadata:
  name: driver
  namespace: ml
spec:
  workloadRef: {name: training, podGroup: driver}
  containers:
  - name: c
    image: busybox
)";

TEST(ConvertTest, V1alpha1WorkloadAndPodsBecomeTemplatesPodGroupsAndSchedulingGroups) {
  const ConvertResult r = MustConvert(kV1alpha1);
  EXPECT_THAT(Issues(r), IsEmpty());
  EXPECT_EQ(r.text, R"(apiVersion: scheduling.k8s.io/v1beta1
kind: Workload
metadata:
  name: training
  namespace: ml
spec:
  controllerRef:
    apiGroup: batch
    kind: Job
    name: training
  podGroupTemplates:
    - name: workers
      schedulingPolicy:
        gang:
          minCount: 2
    - name: driver
      schedulingPolicy:
        basic: {}
---
apiVersion: scheduling.k8s.io/v1beta1
kind: PodGroup
metadata:
  name: training-workers-0
  namespace: ml
spec:
  workloadRef:
    workloadName: training
    templateName: workers
  schedulingPolicy:
    gang:
      minCount: 2
---
apiVersion: scheduling.k8s.io/v1beta1
kind: PodGroup
metadata:
  name: training-driver
  namespace: ml
spec:
  workloadRef:
    workloadName: training
    templateName: driver
  schedulingPolicy:
    basic: {}
---
apiVersion: v1
kind: Pod
metadata:
  name: worker-0
  namespace: ml
spec:
  schedulingGroup:
    podGroupName: training-workers-0
  containers:
    - name: c
      image: busybox
---
apiVersion: v1
kind: Pod
metadata:
  name: driver
  namespace: ml
spec:
  schedulingGroup:
    podGroupName: training-driver
  containers:
    - name: c
      image: busybox
)");
  EXPECT_EQ(r.objects, 5);
  EXPECT_EQ(r.converted, 3);
  EXPECT_EQ(r.generated, 2);
}

TEST(ConvertTest, OnePodGroupPerReplicaKeyInFirstSeenOrderAfterTheWorkload) {
  std::string text = R"(apiVersion: v1
kind: Pod
metadata: {name: p-b}
spec:
  workloadRef: {name: w, podGroup: g, podGroupReplicaKey: b}
---
apiVersion: scheduling.k8s.io/v1alpha1
kind: Workload
metadata: {name: w}
spec:
  podGroups: [{name: g, policy: {gang: {minCount: 2}}}]
)";
  for (const char* pod : {"p-a1", "p-a2"}) {
    text += std::string("---\napiVersion: v1\nkind: Pod\nmetadata: {name: ") + pod +
            "}\nspec:\n  workloadRef: {name: w, podGroup: g, podGroupReplicaKey: a}\n";
  }
  const ConvertResult r = MustConvert(text);
  EXPECT_THAT(Issues(r), IsEmpty());
  const std::vector<YamlTree> docs = Parse(r.text);
  ASSERT_EQ(docs.size(), 6u);
  const auto name = [](const YamlTree& d) { return d.Find("metadata")->Find("name")->text; };
  EXPECT_EQ(name(docs[0]), "p-b");
  EXPECT_EQ(name(docs[1]), "w");
  EXPECT_EQ(name(docs[2]), "w-g-b");
  EXPECT_EQ(name(docs[3]), "w-g-a");
  EXPECT_EQ(docs[2].Find("metadata")->Find("namespace"), nullptr);  // as the pods: none
  EXPECT_EQ(docs[5].Find("spec")->Find("schedulingGroup")->Find("podGroupName")->text, "w-g-a");
}

TEST(ConvertTest, PodsCommonPriorityGoesOnTheGeneratedPodGroup) {
  const ConvertResult r = MustConvert(R"(apiVersion: scheduling.k8s.io/v1alpha1
kind: Workload
metadata: {name: w}
spec:
  podGroups: [{name: g, policy: {gang: {minCount: 2}}}, {name: h, policy: {basic: {}}}]
---
{apiVersion: v1, kind: Pod, metadata: {name: a}, spec: {priorityClassName: high, priority: 100, workloadRef: {name: w, podGroup: g}}}
---
{apiVersion: v1, kind: Pod, metadata: {name: b}, spec: {priorityClassName: high, priority: 100, workloadRef: {name: w, podGroup: g}}}
---
{apiVersion: v1, kind: Pod, metadata: {name: c}, spec: {priorityClassName: high, workloadRef: {name: w, podGroup: h}}}
---
{apiVersion: v1, kind: Pod, metadata: {name: d}, spec: {priorityClassName: low, workloadRef: {name: w, podGroup: h}}}
)");
  const std::vector<YamlTree> docs = Parse(r.text);
  ASSERT_EQ(docs.size(), 7u);
  const YamlTree& g = *docs[1].Find("spec");
  EXPECT_EQ(g.Find("priorityClassName")->text, "high");
  EXPECT_EQ(g.Find("priority")->text, "100");
  const YamlTree& h = *docs[2].Find("spec");
  EXPECT_EQ(h.Find("priorityClassName"), nullptr);
  EXPECT_THAT(Issues(r),
              ElementsAre("in.yaml: document 5: Pod default/d: spec.priorityClassName: cannot "
                          "convert: the pods of PodGroup w-h differ in priorityClassName/priority "
                          "(1.37 schedules a group only when all its pods have the group's "
                          "priority); the PodGroup gets no priority"));
}

TEST(ConvertTest, PodWhoseWorkloadOrPodGroupIsMissingStillPointsAtTheImpliedName) {
  const ConvertResult r = MustConvert(R"(apiVersion: scheduling.k8s.io/v1alpha1
kind: Workload
metadata: {name: w, namespace: ns}
spec:
  podGroups: [{name: g, policy: {basic: {}}}]
---
{apiVersion: v1, kind: Pod, metadata: {name: a, namespace: ns}, spec: {workloadRef: {name: other, podGroup: g}}}
---
{apiVersion: v1, kind: Pod, metadata: {name: b, namespace: ns}, spec: {workloadRef: {name: w, podGroup: nope}}}
---
{apiVersion: v1, kind: Pod, metadata: {name: c}, spec: {workloadRef: {name: w, podGroup: g}}}
)");
  EXPECT_THAT(
      Issues(r),
      ElementsAre("in.yaml: document 2: Pod ns/a: spec.workloadRef.name: cannot convert: Workload "
                  "ns/other is not in the input, so PodGroup other-g was not generated; the pod "
                  "points at it",
                  "in.yaml: document 3: Pod ns/b: spec.workloadRef.podGroup: cannot convert: "
                  "Workload ns/w has no pod group \"nope\", so PodGroup w-nope was not "
                  "generated; the pod points at it",
                  // Another namespace: a Workload is only seen from its own namespace.
                  "in.yaml: document 4: Pod default/c: spec.workloadRef.name: cannot convert: "
                  "Workload default/w is not in the input, so PodGroup w-g was not generated; "
                  "the pod points at it"));
  EXPECT_EQ(r.generated, 0);
  const std::vector<YamlTree> docs = Parse(r.text);
  ASSERT_EQ(docs.size(), 4u);
  EXPECT_EQ(docs[1].Find("spec")->Find("schedulingGroup")->Find("podGroupName")->text, "other-g");
}

TEST(ConvertTest, WorkloadRefEdgeCases) {
  const ConvertResult r = MustConvert(R"(apiVersion: scheduling.k8s.io/v1alpha1
kind: Workload
metadata: {name: w}
spec:
  podGroups: [{name: g, policy: {basic: {}}}]
---
apiVersion: scheduling.k8s.io/v1beta1
kind: PodGroup
metadata: {name: w-g}
spec: {schedulingPolicy: {basic: {}}}
---
{apiVersion: v1, kind: Pod, metadata: {name: both}, spec: {workloadRef: {name: w, podGroup: g}, schedulingGroup: {podGroupName: x}}}
---
{apiVersion: v1, kind: Pod, metadata: {name: nogroup}, spec: {workloadRef: {name: w}}}
---
{apiVersion: v1, kind: Pod, metadata: {name: nullref}, spec: {workloadRef: null}}
---
{apiVersion: v1, kind: Pod, metadata: {name: extra}, spec: {workloadRef: {name: w, podGroup: g, color: red}}}
)");
  EXPECT_THAT(
      Issues(r),
      ElementsAre(
          "in.yaml: document 3: Pod default/both: spec.workloadRef: cannot convert: the pod also "
          "sets spec.schedulingGroup, which is kept; workloadRef dropped",
          "in.yaml: document 4: Pod default/nogroup: spec.workloadRef.podGroup: cannot convert: "
          "required field is missing; workloadRef dropped, the pod joins no group",
          "in.yaml: document 6: Pod default/extra: spec.workloadRef.color: cannot convert: not a "
          "field of v1 WorkloadReference (1.35); dropped",
          "in.yaml: document 6: Pod default/extra: spec.workloadRef: cannot convert: PodGroup "
          "default/w-g is already in the input, so it was not generated; the pod points at the "
          "existing one"));
  const std::vector<YamlTree> docs = Parse(r.text);
  ASSERT_EQ(docs.size(), 6u);
  EXPECT_EQ(docs[2].Find("spec")->Find("workloadRef"), nullptr);
  EXPECT_EQ(docs[2].Find("spec")->Find("schedulingGroup")->Find("podGroupName")->text, "x");
  EXPECT_EQ(docs[3].Find("spec")->MapSize(), 0u);
  EXPECT_EQ(docs[4].Find("spec")->MapSize(), 0u);
}

// The fuzz smoke's crash (2026-11-29): fmt's `{:?}` aborted on a kind holding invalid UTF-8.
// Every quoted name in convert's messages now goes through QuoteValue, which never fails. Since
// libyaml reads manifests, invalid UTF-8 is a malformed document (as for kubectl), so the kind
// here holds control characters instead: they reach the message quoted.
TEST(ConvertTest, UnknownKindWithInvalidUtf8IsReportedNotACrash) {
  EXPECT_THAT(MustFail(std::string("apiVersion: scheduling.k8s.io/v1alpha2\n"
                                   "kind: Po\xff\xfe\n"
                                   "metadata: {name: x}\n")),
              ElementsAre(HasSubstr("malformed YAML: line 2, column 9: invalid leading UTF-8 octet")));
  const ConvertResult r = MustConvert(std::string("apiVersion: scheduling.k8s.io/v1alpha2\n"
                                                  "kind: \"Po\\a\\e\"\n"
                                                  "metadata: {name: x}\n"));
  ASSERT_EQ(Issues(r).size(), 1u);
  EXPECT_THAT(Issues(r)[0], HasSubstr("scheduling.k8s.io/v1alpha2 has no kind \"Po\\x07\\x1b\"; "
                                      "passed through unchanged"));
}

TEST(ConvertTest, GeneratedNamesThatCollideOrAreInvalidAreReported) {
  const ConvertResult r = MustConvert(R"(apiVersion: scheduling.k8s.io/v1alpha1
kind: Workload
metadata: {name: a-b}
spec: {podGroups: [{name: c, policy: {basic: {}}}]}
---
apiVersion: scheduling.k8s.io/v1alpha1
kind: Workload
metadata: {name: a}
spec: {podGroups: [{name: b-c, policy: {basic: {}}}, {name: up, policy: {basic: {}}}]}
---
{apiVersion: v1, kind: Pod, metadata: {name: p1}, spec: {workloadRef: {name: a-b, podGroup: c}}}
---
{apiVersion: v1, kind: Pod, metadata: {name: p2}, spec: {workloadRef: {name: a, podGroup: b-c}}}
---
{apiVersion: v1, kind: Pod, metadata: {name: p3}, spec: {workloadRef: {name: a, podGroup: up, podGroupReplicaKey: UP}}}
)");
  EXPECT_THAT(Issues(r),
              ElementsAre(HasSubstr("Pod default/p2: spec.workloadRef: cannot convert: the "
                                    "PodGroup name a-b-c is also derived from workload \"a-b\""),
                          HasSubstr("Pod default/p3: spec.workloadRef: cannot convert: the "
                                    "generated PodGroup name \"a-up-UP\" is not a DNS subdomain")));
  EXPECT_EQ(r.generated, 2);
}

TEST(ConvertTest, PodTemplatesOfControllersAreRewritten) {
  const ConvertResult r = MustConvert(R"(apiVersion: scheduling.k8s.io/v1alpha1
kind: Workload
metadata: {name: w}
spec: {podGroups: [{name: g, policy: {gang: {minCount: 4}}}]}
---
apiVersion: batch/v1
kind: Job
metadata: {name: j}
spec:
  parallelism: 4
  template:
    spec:
      workloadRef: {name: w, podGroup: g}
      containers: [{name: c, image: busybox}]
---
apiVersion: jobset.x-k8s.io/v1alpha2
kind: JobSet
metadata: {name: js}
spec:
  replicatedJobs:
  - name: rj
    template: {spec: {template: {spec: {workloadRef: {name: w, podGroup: g, podGroupReplicaKey: "1"}}}}}
)");
  EXPECT_THAT(Issues(r), IsEmpty());
  EXPECT_EQ(r.generated, 2);
  EXPECT_THAT(r.text, HasSubstr("      schedulingGroup:\n        podGroupName: w-g\n"));
  EXPECT_THAT(r.text, HasSubstr("podGroupName: w-g-1\n"));
}

TEST(ConvertTest, V1alpha2WorkloadAndPodGroup) {
  const ConvertResult r = MustConvert(R"(apiVersion: scheduling.k8s.io/v1alpha2
kind: Workload
metadata: {name: w}
spec:
  podGroupTemplates:
  - name: t
    schedulingPolicy: {gang: {minCount: 4}}
    disruptionMode: PodGroup
    priorityClassName: high
---
apiVersion: scheduling.k8s.io/v1alpha2
kind: PodGroup
metadata: {name: pg}
spec:
  podGroupTemplateRef:
    workload: {workloadName: w, podGroupTemplateName: t}
  schedulingPolicy: {gang: {minCount: 4}}
  disruptionMode: Pod
status:
  conditions:
  - {type: PodGroupScheduled, status: "True", reason: Scheduled, message: "", lastTransitionTime: "2026-01-01T00:00:00Z"}
  - {type: DisruptionTarget, status: "False", reason: x, message: "", lastTransitionTime: "2026-01-01T00:00:00Z"}
)");
  EXPECT_THAT(Issues(r), IsEmpty());
  EXPECT_EQ(r.text, R"(apiVersion: scheduling.k8s.io/v1beta1
kind: Workload
metadata:
  name: w
spec:
  podGroupTemplates:
    - name: t
      schedulingPolicy:
        gang:
          minCount: 4
      disruptionMode:
        all: {}
      priorityClassName: high
---
apiVersion: scheduling.k8s.io/v1beta1
kind: PodGroup
metadata:
  name: pg
spec:
  workloadRef:
    workloadName: w
    templateName: t
  schedulingPolicy:
    gang:
      minCount: 4
  disruptionMode:
    single: {}
status:
  conditions:
    - type: PodGroupInitiallyScheduled
      status: "True"
      reason: Scheduled
      message: ""
      lastTransitionTime: "2026-01-01T00:00:00Z"
    - type: DisruptionTarget
      status: "False"
      reason: x
      message: ""
      lastTransitionTime: "2026-01-01T00:00:00Z"
)");
}

TEST(ConvertTest, FieldsTheSourceVersionLacksAreDroppedAndReported) {
  const ConvertResult r = MustConvert(R"(apiVersion: scheduling.k8s.io/v1alpha2
kind: PodGroup
metadata: {name: pg, namespace: ns}
spec:
  podGroupTemplateRef: {workload: {workloadName: w, podGroupTemplateName: t, extra: 1}}
  schedulingPolicy: {gang: {minCount: 4}}
  preemptionPolicy: Never
status:
  observedGeneration: 3
)");
  EXPECT_THAT(
      Issues(r),
      ElementsAre("in.yaml: document 1: PodGroup ns/pg: spec.preemptionPolicy: cannot convert: "
                  "not a field of scheduling.k8s.io/v1alpha2 PodGroupSpec; dropped",
                  "in.yaml: document 1: PodGroup ns/pg: spec.podGroupTemplateRef.workload.extra: "
                  "cannot convert: not a field of scheduling.k8s.io/v1alpha2 "
                  "WorkloadPodGroupTemplateReference; dropped",
                  "in.yaml: document 1: PodGroup ns/pg: status.observedGeneration: cannot "
                  "convert: not a field of scheduling.k8s.io/v1alpha2 PodGroupStatus; dropped"));
  EXPECT_THAT(r.text, Not(HasSubstr("preemptionPolicy")));
  EXPECT_THAT(r.text, HasSubstr("  workloadRef:\n    workloadName: w\n    templateName: t\n"));
}

TEST(ConvertTest, FragmentsConvertWhatIsThereAndReportMissingRequiredFields) {
  const ConvertResult r = MustConvert(R"(apiVersion: scheduling.k8s.io/v1alpha2
kind: PodGroup
metadata: {name: training-group, namespace: some-ns}
spec:
  # ...
  resourceClaims:
  - name: pg-claim
    resourceClaimName: my-pg-claim
---
apiVersion: scheduling.k8s.io/v1alpha1
kind: Workload
metadata: {name: w}
spec:
  podGroups: [{name: g}]
)");
  EXPECT_THAT(Issues(r),
              ElementsAre(HasSubstr("document 1: PodGroup some-ns/training-group: "
                                    "spec.schedulingPolicy: cannot convert: required field is "
                                    "missing (a fragment?)"),
                          HasSubstr("document 2: Workload default/w: spec.podGroups[0].policy: "
                                    "cannot convert: required field is missing")));
  EXPECT_THAT(r.text, HasSubstr("apiVersion: scheduling.k8s.io/v1beta1\nkind: PodGroup"));
  EXPECT_THAT(r.text, HasSubstr("  podGroupTemplates:\n    - name: g\n"));
}

constexpr const char* kV1beta1 = R"(apiVersion: scheduling.k8s.io/v1beta1
kind: Workload
metadata:
  name: w
  namespace: ns
  labels: {"team": "ml", "tier": "1"}
spec:
  controllerRef: {apiGroup: batch, kind: Job, name: j}
  podGroupTemplates:
  - name: t
    schedulingPolicy: {gang: {minCount: 4}}
    schedulingConstraints: {topology: [{key: topology.kubernetes.io/zone}]}
    disruptionMode: {all: {}}
    priority: 5
---
apiVersion: scheduling.k8s.io/v1beta1
kind: PodGroup
metadata: {name: pg, namespace: ns}
spec:
  workloadRef: {workloadName: w, templateName: t}
  schedulingPolicy: {gang: {minCount: 4}}
  futureField: {kept: "as is"}
status:
  conditions: [{type: PodGroupScheduled, status: "True"}]
)";

TEST(ConvertTest, TargetVersionObjectsAreTheObjectsThemselves) {
  for (ConvertFormat format : {ConvertFormat::kYaml, ConvertFormat::kJson}) {
    const ConvertResult r = MustConvert(kV1beta1, kConvertTargetV1beta1, format);
    EXPECT_THAT(Issues(r), IsEmpty());
    EXPECT_EQ(r.converted, 0);
    std::vector<YamlTree> in = Parse(kV1beta1);
    std::vector<YamlTree> out = Parse(r.text);
    if (format == ConvertFormat::kJson) {
      ASSERT_EQ(out.size(), 1u);
      EXPECT_EQ(out[0].Find("kind")->text, "List");
      out = out[0].Find("items")->children;
    }
    ASSERT_EQ(in.size(), out.size());
    for (size_t i = 0; i < in.size(); ++i) {
      EXPECT_TRUE(internal::SameContent(in[i], out[i])) << r.text;
    }
  }
}

TEST(ConvertTest, V1beta1AndV1alpha3SwitchOnlyTheApiVersion) {
  const ConvertResult to_alpha = MustConvert(kV1beta1, kConvertTargetV1alpha3);
  EXPECT_THAT(Issues(to_alpha), IsEmpty());
  EXPECT_EQ(to_alpha.converted, 2);
  std::vector<YamlTree> in = Parse(kV1beta1);
  std::vector<YamlTree> out = Parse(to_alpha.text);
  ASSERT_EQ(out.size(), 2u);
  for (size_t i = 0; i < in.size(); ++i) {
    EXPECT_EQ(out[i].Find("apiVersion")->text, "scheduling.k8s.io/v1alpha3");
    *in[i].Find("apiVersion") = YamlTree::Plain("scheduling.k8s.io/v1alpha3");
    EXPECT_TRUE(internal::SameContent(in[i], out[i]));
  }
  const ConvertResult back = MustConvert(to_alpha.text, kConvertTargetV1beta1);
  std::vector<YamlTree> again = Parse(back.text);
  std::vector<YamlTree> original = Parse(kV1beta1);
  for (size_t i = 0; i < original.size(); ++i) {
    EXPECT_TRUE(internal::SameContent(original[i], again[i]));
  }
}

TEST(ConvertTest, CompositePodGroupStaysV1alpha3) {
  const ConvertResult r = MustConvert(R"(apiVersion: scheduling.k8s.io/v1alpha3
kind: CompositePodGroup
metadata: {name: root}
spec:
  workloadRef: {workloadName: w, templateName: root}
  schedulingPolicy: {gang: {minGroupCount: 2}}
)");
  EXPECT_THAT(Issues(r), ElementsAre("in.yaml: document 1: CompositePodGroup default/root: "
                                     "apiVersion: cannot convert: CompositePodGroup exists only "
                                     "in scheduling.k8s.io/v1alpha3; kept at "
                                     "scheduling.k8s.io/v1alpha3"));
  EXPECT_THAT(r.text, HasSubstr("apiVersion: scheduling.k8s.io/v1alpha3\n"));
  EXPECT_THAT(Issues(MustConvert(r.text, kConvertTargetV1alpha3)), IsEmpty());
}

TEST(ConvertTest, OtherObjectsPassThroughUnchanged) {
  const std::string text = R"(apiVersion: apps/v1
kind: Deployment
metadata: {name: d, annotations: {"a": "1", b: "true"}}
spec:
  replicas: 2
  template:
    spec:
      containers: [{name: c, image: "x:1", args: ["--n", "3", "", null]}]
      schedulingGroup: {podGroupName: g}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: cm}
data:
  script: |
    echo hi
    exit 0
  "007": "007"
)";
  const ConvertResult r = MustConvert(text);
  EXPECT_THAT(Issues(r), IsEmpty());
  EXPECT_EQ(r.converted, 0);
  const std::vector<YamlTree> in = Parse(text);
  const std::vector<YamlTree> out = Parse(r.text);
  ASSERT_EQ(in.size(), out.size());
  for (size_t i = 0; i < in.size(); ++i) EXPECT_TRUE(internal::SameContent(in[i], out[i]));
}

TEST(ConvertTest, ListsAreConvertedInPlace) {
  const ConvertResult r = MustConvert(R"(apiVersion: v1
kind: List
items:
- apiVersion: scheduling.k8s.io/v1alpha1
  kind: Workload
  metadata: {name: w}
  spec: {podGroups: [{name: g, policy: {basic: {}}}], extra: 1}
- apiVersion: v1
  kind: Pod
  metadata: {name: p}
  spec: {workloadRef: {name: w, podGroup: g}}
---
apiVersion: scheduling.k8s.io/v1alpha2
kind: PodGroupList
items:
- metadata: {name: a}
  spec: {schedulingPolicy: {basic: {}}, disruptionMode: PodGroup}
)");
  EXPECT_THAT(Issues(r),
              ElementsAre("in.yaml: document 1: Workload default/w: items[0].spec.extra: "
                          "cannot convert: not a field of scheduling.k8s.io/v1alpha1 "
                          "WorkloadSpec; dropped"));
  const std::vector<YamlTree> docs = Parse(r.text);
  ASSERT_EQ(docs.size(), 2u);
  const YamlTree& items = *docs[0].Find("items");
  ASSERT_EQ(items.children.size(), 3u);
  EXPECT_EQ(items.children[1].Find("kind")->text, "PodGroup");  // right after its Workload
  EXPECT_EQ(items.children[1].Find("metadata")->Find("name")->text, "w-g");
  EXPECT_EQ(docs[1].Find("apiVersion")->text, "scheduling.k8s.io/v1beta1");  // the typed list
  EXPECT_EQ(docs[1].Find("items")->children[0].Find("apiVersion"), nullptr);
  EXPECT_THAT(r.text, HasSubstr("disruptionMode:\n        all: {}"));
}

TEST(ConvertTest, JsonOutputIsOneObjectOrAList) {
  const ConvertResult one = MustConvert(
      "apiVersion: scheduling.k8s.io/v1alpha2\nkind: Workload\nmetadata: {name: w, labels: "
      "{v: \"1\"}}\nspec: {podGroupTemplates: [{name: t, schedulingPolicy: {gang: {minCount: "
      "2}}}]}\n",
      kConvertTargetV1beta1, ConvertFormat::kJson);
  EXPECT_EQ(one.text, R"({
  "apiVersion": "scheduling.k8s.io/v1beta1",
  "kind": "Workload",
  "metadata": {
    "name": "w",
    "labels": {
      "v": "1"
    }
  },
  "spec": {
    "podGroupTemplates": [
      {
        "name": "t",
        "schedulingPolicy": {
          "gang": {
            "minCount": 2
          }
        }
      }
    ]
  }
}
)");
  const ConvertResult many = MustConvert(kV1alpha1, kConvertTargetV1beta1, ConvertFormat::kJson);
  const std::vector<YamlTree> docs = Parse(many.text);
  ASSERT_EQ(docs.size(), 1u);
  EXPECT_EQ(docs[0].Find("apiVersion")->text, "v1");
  EXPECT_EQ(docs[0].Find("items")->children.size(), 5u);
  EXPECT_EQ(MustConvert("", kConvertTargetV1beta1, ConvertFormat::kJson).text,
            "{\n  \"apiVersion\": \"v1\",\n  \"kind\": \"List\",\n  \"items\": []\n}\n");
  EXPECT_EQ(MustConvert("# nothing\n---\n").text, "");
}

TEST(ConvertTest, MalformedInputIsAFieldPathError) {
  EXPECT_THAT(MustFail("a: [1, 2\n"), ElementsAre(HasSubstr("in.yaml: document 1: Invalid value: "
                                                            "malformed YAML: line")));
  EXPECT_THAT(MustFail("- 1\n- 2\n"),
              ElementsAre("in.yaml: document 1: Invalid value: expected object, got list"));
  EXPECT_THAT(MustFail("spec:\n  workloadRef: {name: w, podGroup: g}\n"),
              ElementsAre("in.yaml: document 1: apiVersion: Required value: every object needs "
                          "apiVersion and kind",
                          "in.yaml: document 1: kind: Required value: every object needs "
                          "apiVersion and kind"));
  EXPECT_THAT(MustFail("apiVersion: 1\nkind: Pod\n"),
              ElementsAre("in.yaml: document 1: apiVersion: Invalid value: expected string, got "
                          "integer 1"));
  EXPECT_THAT(MustFail("apiVersion: scheduling.k8s.io/v1alpha1\nkind: Workload\nmetadata: {name: "
                       "w}\nspec: {podGroups: {name: g}}\n"),
              ElementsAre("in.yaml: document 1: Workload default/w: spec.podGroups: Invalid "
                          "value: expected list, got object"));
  EXPECT_THAT(MustFail("apiVersion: scheduling.k8s.io/v1alpha2\nkind: PodGroup\nmetadata: {name: "
                       "p}\nspec: {schedulingPolicy: {basic: {}}, disruptionMode: Always}\n---\n"
                       "apiVersion: scheduling.k8s.io/v1alpha2\nkind: PodGroup\nmetadata: {name: "
                       "q}\nspec: {schedulingPolicy: {basic: {}}, disruptionMode: [Pod]}\n"),
              ElementsAre("in.yaml: document 1: PodGroup default/p: spec.disruptionMode: "
                          "Unsupported value: \"Always\": supported values: \"Pod\", \"PodGroup\"",
                          "in.yaml: document 2: PodGroup default/q: spec.disruptionMode: Invalid "
                          "value: expected string, got list"));
  EXPECT_THAT(MustFail("apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: Pod\n  "
                       "metadata: {name: p}\n  spec: {workloadRef: {name: w, podGroup: 7}}\n"),
              ElementsAre("in.yaml: document 1: Pod default/p: items[0].spec.workloadRef.podGroup: "
                          "Invalid value: expected string, got integer 7"));
  // Aliases that would expand without bound are an error, not a crash.
  std::string laughs = "a0: &a0 [x, x, x, x, x, x, x, x, x]\n";
  for (int i = 1; i <= 9; ++i) {
    laughs += "a" + std::to_string(i) + ": &a" + std::to_string(i) + " [";
    for (int j = 0; j < 9; ++j) laughs += (j ? ", *a" : "*a") + std::to_string(i - 1);
    laughs += "]\n";
  }
  EXPECT_THAT(MustFail(laughs), ElementsAre(HasSubstr("too large after expanding YAML aliases")));
}

TEST(ConvertTest, IssueToStringOmitsEmptyParts) {
  EXPECT_EQ((ConvertIssue{{"f.yaml", 2}, "Pod ns/p", "spec.x", "why"}).ToString(),
            "f.yaml: document 2: Pod ns/p: spec.x: cannot convert: why");
  EXPECT_EQ((ConvertIssue{{"", 0}, "", "", "why"}).ToString(), "cannot convert: why");
}

}  // namespace
}  // namespace wasched::codec

namespace wasched::codec {
namespace {

// QA3 finding 15: renaming PodGroupScheduled onto an existing PodGroupInitiallyScheduled keeps
// the existing condition, drops the renamed one and says so.
TEST(ConvertTest, ConditionRenameOntoAnExistingTypeDropsTheRenamedOne) {
  const ConvertResult r = MustConvert(R"(apiVersion: scheduling.k8s.io/v1alpha2
kind: PodGroup
metadata: {name: pg}
spec:
  schedulingPolicy: {basic: {}}
status:
  conditions:
  - {type: PodGroupScheduled, status: "False", reason: Unschedulable, lastTransitionTime: "2024-01-01T00:00:00Z"}
  - {type: PodGroupInitiallyScheduled, status: "True", reason: Scheduled, lastTransitionTime: "2024-01-01T00:00:00Z"}
)");
  ASSERT_THAT(Issues(r), ElementsAre(HasSubstr("status.conditions[0]: cannot convert: condition "
                                               "PodGroupScheduled becomes "
                                               "PodGroupInitiallyScheduled")));
  const std::vector<YamlTree> out = Parse(r.text);
  ASSERT_EQ(out.size(), 1u);
  const YamlTree& conditions = *out[0].Find("status")->Find("conditions");
  ASSERT_EQ(conditions.children.size(), 1u);
  EXPECT_EQ(conditions.children[0].Find("type")->text, "PodGroupInitiallyScheduled");
  EXPECT_EQ(conditions.children[0].Find("reason")->text, "Scheduled");
}

}  // namespace
}  // namespace wasched::codec
