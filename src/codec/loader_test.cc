// File: codec/loader_test.cc
//
// LoadString / LoadPaths end to end: documents, Lists, every decoded kind, warnings (unknown
// kinds, unknown fields, defaulting), located errors, folders, stdin and real-world manifests
// from tests/data.
#include "codec/loader.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <limits>
#include <random>
#include <sstream>

#include <fmt/format.h>
#include <unistd.h>

namespace wasched::codec {
namespace {

using ::testing::Contains;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::Not;

const std::string kTestData = WASCHED_TESTDATA_DIR;

// kLenient: --validate=warn --skip-unknown-kinds, for the tests of the warnings themselves.
constexpr LoadOptions kLenient{.field_validation = FieldValidation::kWarn,
                               .skip_unknown_kinds = true};

LoadResult MustLoad(const std::string& text, const std::string& file = "f.yaml",
                    const LoadOptions& options = {}) {
  auto loaded = LoadString(text, file, options);
  if (!loaded) {
    std::string all;
    for (const InputError& e : loaded.error()) all += e.ToString() + "\n";
    ADD_FAILURE() << "unexpected errors:\n" << all;
    return {};
  }
  return std::move(*loaded);
}

InputErrors MustFail(const std::string& text, const std::string& file = "f.yaml",
                     const LoadOptions& options = {}) {
  auto loaded = LoadString(text, file, options);
  if (loaded) {
    ADD_FAILURE() << "expected errors, got none";
    return {};
  }
  return loaded.error();
}

std::vector<std::string> ErrorStrings(const InputErrors& errors) {
  std::vector<std::string> out;
  for (const InputError& e : errors) out.push_back(e.ToString());
  return out;
}

TEST(LoaderTest, MultiDocumentWithEmptyDocuments) {
  const LoadResult r = MustLoad(R"(---
apiVersion: v1
kind: Node
metadata:
  name: n1
  labels: {zone: a}
status:
  allocatable: {cpu: "4", memory: 8Gi, pods: "110"}
---
---
# only a comment
---
apiVersion: v1
kind: Pod
metadata: {name: p1}
spec:
  containers:
  - name: c
    image: registry.k8s.io/pause:3.10
    resources:
      requests: {cpu: 500m}
---
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {name: high}
value: 1000
globalDefault: true
preemptionPolicy: Never
description: important
)");
  ASSERT_EQ(r.objects.nodes.size(), 1u);
  ASSERT_EQ(r.objects.pods.size(), 1u);
  ASSERT_EQ(r.objects.priority_classes.size(), 1u);
  EXPECT_THAT(r.warnings, IsEmpty());

  const api::Node& n = r.objects.nodes[0];
  EXPECT_EQ(n.meta.name, "n1");
  EXPECT_EQ(n.meta.namespace_, "");
  EXPECT_EQ(n.meta.labels.at("zone"), "a");
  EXPECT_EQ(n.allocatable,
            (api::ResourceList{{"cpu", 4000}, {"memory", 8589934592}, {"pods", 110}}));
  EXPECT_EQ(n.meta.source.file, "f.yaml");
  EXPECT_EQ(n.meta.source.document, 1);

  const api::Pod& p = r.objects.pods[0];
  EXPECT_EQ(p.meta.namespace_, "default");
  EXPECT_EQ(p.scheduler_name, "default-scheduler");
  EXPECT_EQ(p.meta.source.document, 4);  // documents 2 and 3 are empty
  EXPECT_EQ(p.containers.at(0).requests.at("cpu"), 500);

  const api::PriorityClass& pc = r.objects.priority_classes[0];
  EXPECT_EQ(pc.meta.name, "high");
  EXPECT_EQ(pc.value, 1000);
  EXPECT_TRUE(pc.global_default);
  EXPECT_EQ(pc.preemption_policy, api::PreemptionPolicy::kNever);
}

TEST(LoaderTest, PodFieldsDecoded) {
  const LoadResult r = MustLoad(R"(
apiVersion: v1
kind: Pod
metadata:
  name: trainer-0
  namespace: ml
  uid: abc-123
  resourceVersion: "42"
  creationTimestamp: "2024-05-01T12:00:00Z"
  labels: {app: trainer}
  ownerReferences:
  - {apiVersion: batch/v1, kind: Job, name: trainer, uid: j1, controller: true}
spec:
  schedulerName: my-scheduler
  priorityClassName: high
  priority: 1000
  preemptionPolicy: PreemptLowerPriority
  nodeName: node-7
  nodeSelector: {gpu: a100}
  schedulingGroup: {podGroupName: trainer-workers}
  overhead: {cpu: 100m}
  initContainers:
  - name: sidecar
    image: registry.k8s.io/pause:3.10
    restartPolicy: Always
    resources: {requests: {cpu: 50m}}
  - name: init
    image: busybox
    resources: {limits: {cpu: "2", memory: 1Gi}}
  containers:
  - name: main
    image: trainer:v1
    command: [python, train.py]
    env: [{name: A, value: b}]
    resources:
      requests: {cpu: "1", nvidia.com/gpu: "8"}
      limits: {cpu: "2", memory: 64Gi, nvidia.com/gpu: "8"}
  tolerations:
  - {key: gpu, operator: Exists, effect: NoSchedule}
  - {key: dedicated, value: ml, tolerationSeconds: 30}
  affinity:
    nodeAffinity:
      requiredDuringSchedulingIgnoredDuringExecution:
        nodeSelectorTerms:
        - matchExpressions:
          - {key: zone, operator: In, values: [a, b]}
          matchFields:
          - {key: metadata.name, operator: NotIn, values: [bad-node]}
      preferredDuringSchedulingIgnoredDuringExecution:
      - weight: 10
        preference:
          matchExpressions:
          - {key: cores, operator: Gt, values: ["16"]}
  restartPolicy: Never
  volumes: []
status:
  phase: Running
  conditions: [{type: Ready, status: "True"}]
)");
  ASSERT_EQ(r.objects.pods.size(), 1u);
  EXPECT_THAT(r.warnings, IsEmpty());
  const api::Pod& p = r.objects.pods[0];
  EXPECT_EQ(api::NamespacedName(p.meta), "ml/trainer-0");
  EXPECT_EQ(p.meta.uid, "abc-123");
  EXPECT_EQ(p.meta.creation_timestamp, 1714564800);
  ASSERT_EQ(p.meta.owner_references.size(), 1u);
  EXPECT_EQ(p.meta.owner_references[0].kind, "Job");
  EXPECT_TRUE(p.meta.owner_references[0].controller);
  EXPECT_EQ(p.scheduler_name, "my-scheduler");
  EXPECT_EQ(p.priority_class_name, "high");
  EXPECT_EQ(p.priority, 1000);
  EXPECT_EQ(p.preemption_policy, api::PreemptionPolicy::kPreemptLowerPriority);
  EXPECT_EQ(p.node_name, "node-7");
  EXPECT_EQ(p.node_selector.at("gpu"), "a100");
  EXPECT_EQ(p.pod_group_name, "trainer-workers");
  EXPECT_EQ(p.overhead.at("cpu"), 100);
  EXPECT_EQ(p.phase, "Running");

  ASSERT_EQ(p.init_containers.size(), 2u);
  EXPECT_TRUE(p.init_containers[0].restart_policy_always);
  EXPECT_FALSE(p.init_containers[1].restart_policy_always);
  // Requests default to limits where only limits are given.
  EXPECT_EQ(p.init_containers[1].requests,
            (api::ResourceList{{"cpu", 2000}, {"memory", 1073741824}}));
  ASSERT_EQ(p.containers.size(), 1u);
  EXPECT_EQ(p.containers[0].name, "main");
  EXPECT_EQ(p.containers[0].requests,
            (api::ResourceList{{"cpu", 1000}, {"memory", 68719476736}, {"nvidia.com/gpu", 8}}));
  EXPECT_EQ(p.containers[0].limits.at("cpu"), 2000);

  ASSERT_EQ(p.tolerations.size(), 2u);
  EXPECT_EQ(p.tolerations[0].op, api::TolerationOperator::kExists);
  EXPECT_EQ(p.tolerations[0].effect, api::TaintEffect::kNoSchedule);
  EXPECT_EQ(p.tolerations[1].op, api::TolerationOperator::kEqual);
  EXPECT_EQ(p.tolerations[1].value, "ml");
  EXPECT_FALSE(p.tolerations[1].effect.has_value());
  EXPECT_EQ(p.tolerations[1].toleration_seconds, 30);

  ASSERT_TRUE(p.node_affinity.has_value());
  ASSERT_TRUE(p.node_affinity->required.has_value());
  ASSERT_EQ(p.node_affinity->required->size(), 1u);
  const api::NodeSelectorTerm& term = (*p.node_affinity->required)[0];
  ASSERT_EQ(term.match_expressions.size(), 1u);
  EXPECT_EQ(term.match_expressions[0].op, api::NodeSelectorOperator::kIn);
  EXPECT_THAT(term.match_expressions[0].values, ElementsAre("a", "b"));
  ASSERT_EQ(term.match_fields.size(), 1u);
  EXPECT_EQ(term.match_fields[0].op, api::NodeSelectorOperator::kNotIn);
  ASSERT_EQ(p.node_affinity->preferred.size(), 1u);
  EXPECT_EQ(p.node_affinity->preferred[0].weight, 10);
  EXPECT_EQ(p.node_affinity->preferred[0].preference.match_expressions[0].op,
            api::NodeSelectorOperator::kGt);

  EXPECT_EQ(api::EffectiveRequests(p),
            (api::ResourceList{{"cpu", 2150}, {"memory", 68719476736}, {"nvidia.com/gpu", 8}}));
}

TEST(LoaderTest, NodeFields) {
  const LoadResult r = MustLoad(R"(
apiVersion: v1
kind: Node
metadata: {name: n1, namespace: ignored}
spec:
  unschedulable: true
  podCIDR: 10.0.0.0/24
  taints:
  - {key: gpu, value: reserved, effect: NoSchedule}
  - {key: spot, effect: PreferNoSchedule, timeAdded: "2024-01-01T00:00:00Z"}
status:
  capacity: {cpu: "8", memory: 16Gi, pods: "50"}
  conditions: [{type: Ready, status: "True"}]
  nodeInfo: {kubeletVersion: v1.37.0}
)");
  ASSERT_EQ(r.objects.nodes.size(), 1u);
  EXPECT_THAT(r.warnings, IsEmpty());
  const api::Node& n = r.objects.nodes[0];
  EXPECT_EQ(n.meta.namespace_, "");
  EXPECT_TRUE(n.unschedulable);
  ASSERT_EQ(n.taints.size(), 2u);
  EXPECT_EQ(n.taints[0].value, "reserved");
  EXPECT_EQ(n.taints[1].effect, api::TaintEffect::kPreferNoSchedule);
  // No allocatable: capacity is used.
  EXPECT_EQ(n.allocatable,
            (api::ResourceList{{"cpu", 8000}, {"memory", 17179869184}, {"pods", 50}}));
}

TEST(LoaderTest, NodeWithoutPodsGetsKubeletDefaultAndOneWarning) {
  const LoadResult r = MustLoad(R"(
apiVersion: v1
kind: Node
metadata: {name: a}
status: {allocatable: {cpu: "1"}}
---
apiVersion: v1
kind: Node
metadata: {name: b}
)");
  ASSERT_EQ(r.objects.nodes.size(), 2u);
  EXPECT_EQ(r.objects.nodes[0].allocatable.at("pods"), 110);
  EXPECT_EQ(r.objects.nodes[1].allocatable.at("pods"), 110);
  EXPECT_THAT(r.warnings,
              ElementsAre("assumed kubelet's default maxPods 110 for 2 node(s) without "
                          "status.allocatable[pods] (first: f.yaml document 1, Node a)"));
}

TEST(LoaderTest, SchedulingKinds) {
  const LoadResult r = MustLoad(R"(
apiVersion: scheduling.k8s.io/v1alpha3
kind: Workload
metadata: {name: w, namespace: ml}
spec:
  controllerRef: {apiGroup: batch, kind: Job, name: j}
  compositePodGroupTemplates:
  - name: root
    schedulingPolicy: {gang: {minGroupCount: 2}}
    schedulingConstraints: {topology: [{key: zone}]}
    disruptionMode: {all: {}}
    priorityClassName: high
    priority: 100
    preemptionPolicy: Never
    podGroupTemplates:
    - name: leaf
      schedulingPolicy: {basic: {}}
      resourceClaims:
      - {name: c1, resourceClaimName: claim}
      - {name: c2, resourceClaimTemplateName: tmpl}
    compositePodGroupTemplates:
    - name: inner
      schedulingPolicy: {basic: {}}
      podGroupTemplates:
      - {name: deep, schedulingPolicy: {gang: {minCount: 3}}, disruptionMode: {single: {}}}
---
apiVersion: scheduling.k8s.io/v1beta1
kind: PodGroup
metadata: {name: g, namespace: ml, creationTimestamp: "2024-05-01T12:00:00+02:00"}
spec:
  parentCompositePodGroupName: root-cpg
  workloadRef: {workloadName: w, templateName: leaf}
  schedulingPolicy: {gang: {minCount: 4}}
  schedulingConstraints: {topology: [{key: rack}]}
  resourceClaims: [{name: c1, resourceClaimName: claim}]
  disruptionMode: {single: {}}
  priorityClassName: high
  priority: 100
  preemptionPolicy: PreemptLowerPriority
status:
  conditions:
  - type: PodGroupInitiallyScheduled
    status: "False"
    reason: Unschedulable
    message: "0/3 nodes are available"
    observedGeneration: 2
    lastTransitionTime: "2024-05-01T12:00:05Z"
  resourceClaimStatuses: [{name: c1, resourceClaimName: claim-abc}]
---
apiVersion: scheduling.k8s.io/v1alpha3
kind: CompositePodGroup
metadata: {name: root-cpg, namespace: ml}
spec:
  workloadRef: {workloadName: w, templateName: root}
  schedulingPolicy: {gang: {minGroupCount: 2}}
  disruptionMode: {all: {}}
status:
  conditions: [{type: CompositePodGroupInitiallyScheduled, status: "True", reason: Scheduled}]
)");
  EXPECT_THAT(r.warnings, IsEmpty());
  ASSERT_EQ(r.objects.workloads.size(), 1u);
  const api::Workload& w = r.objects.workloads[0];
  EXPECT_EQ(w.api_version, "scheduling.k8s.io/v1alpha3");
  ASSERT_TRUE(w.controller_ref.has_value());
  EXPECT_EQ(w.controller_ref->kind, "Job");
  ASSERT_EQ(w.composite_pod_group_templates.size(), 1u);
  const api::CompositePodGroupTemplate& root = w.composite_pod_group_templates[0];
  EXPECT_EQ(root.scheduling_policy.gang->min_group_count, 2);
  EXPECT_FALSE(root.scheduling_policy.basic.has_value());
  EXPECT_EQ(root.scheduling_constraints->topology.at(0).key, "zone");
  EXPECT_TRUE(root.disruption_mode->all);
  EXPECT_FALSE(root.disruption_mode->single);
  EXPECT_EQ(root.priority, 100);
  EXPECT_EQ(root.preemption_policy, api::PreemptionPolicy::kNever);
  ASSERT_EQ(root.pod_group_templates.size(), 1u);
  EXPECT_TRUE(root.pod_group_templates[0].scheduling_policy.basic.has_value());
  ASSERT_EQ(root.pod_group_templates[0].resource_claims.size(), 2u);
  EXPECT_EQ(root.pod_group_templates[0].resource_claims[1].resource_claim_template_name, "tmpl");
  ASSERT_EQ(root.composite_pod_group_templates.size(), 1u);
  EXPECT_EQ(root.composite_pod_group_templates[0]
                .pod_group_templates.at(0)
                .scheduling_policy.gang->min_count,
            3);

  ASSERT_EQ(r.objects.pod_groups.size(), 1u);
  const api::PodGroup& g = r.objects.pod_groups[0];
  EXPECT_EQ(g.api_version, "scheduling.k8s.io/v1beta1");
  EXPECT_EQ(g.meta.creation_timestamp, 1714557600);
  EXPECT_EQ(g.parent_composite_pod_group_name, "root-cpg");
  EXPECT_EQ(g.workload_ref->template_name, "leaf");
  EXPECT_EQ(api::MinCount(g.scheduling_policy), 4);
  EXPECT_EQ(g.scheduling_constraints->topology.at(0).key, "rack");
  EXPECT_EQ(g.resource_claims.at(0).resource_claim_name, "claim");
  EXPECT_TRUE(g.disruption_mode->single);
  EXPECT_EQ(g.preemption_policy, api::PreemptionPolicy::kPreemptLowerPriority);
  ASSERT_EQ(g.conditions.size(), 1u);
  EXPECT_EQ(g.conditions[0], (api::Condition{"PodGroupInitiallyScheduled", "False",
                                              "Unschedulable", "0/3 nodes are available", 2,
                                              1714564805}));
  ASSERT_EQ(g.resource_claim_statuses.size(), 1u);
  EXPECT_EQ(g.resource_claim_statuses[0].resource_claim_name, "claim-abc");

  ASSERT_EQ(r.objects.composite_pod_groups.size(), 1u);
  const api::CompositePodGroup& cpg = r.objects.composite_pod_groups[0];
  EXPECT_EQ(cpg.api_version, "scheduling.k8s.io/v1alpha3");
  EXPECT_EQ(cpg.scheduling_policy.gang->min_group_count, 2);
  EXPECT_FALSE(cpg.parent_composite_pod_group_name.has_value());
  EXPECT_EQ(cpg.conditions.at(0).reason, "Scheduled");
}

TEST(LoaderTest, ListExpandsItemsWithItemPaths) {
  const LoadResult r = MustLoad(R"(
apiVersion: v1
kind: List
metadata: {resourceVersion: ""}
items:
- {apiVersion: v1, kind: Node, metadata: {name: n1}, status: {allocatable: {pods: "10"}}}
- {apiVersion: v1, kind: Pod, metadata: {name: p1}, spec: {bogus: 1}}
- {apiVersion: apps/v1, kind: DaemonSet, metadata: {name: d}}
)",
                                "f.yaml", kLenient);
  EXPECT_EQ(r.objects.nodes.size(), 1u);
  ASSERT_EQ(r.objects.pods.size(), 1u);
  EXPECT_EQ(r.objects.pods[0].meta.source.document, 1);
  EXPECT_THAT(r.warnings,
              ElementsAre("f.yaml: document 1: Pod default/p1: unknown field \"items[1].spec.bogus\"",
                          "skipped 1 object(s) of apps/v1 DaemonSet: not used for scheduling "
                          "(first: f.yaml document 1, items[2])"));
}

TEST(LoaderTest, ListItemErrorsUseItemPaths) {
  const InputErrors errors = MustFail(R"(
apiVersion: v1
kind: List
items:
- {apiVersion: v1, kind: Pod, metadata: {name: ok}}
- apiVersion: v1
  kind: Pod
  metadata: {name: p}
  spec:
    containers:
    - name: c
      image: registry.k8s.io/pause:3.10
      resources: {requests: {memory: 5Xi}}
)");
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].object, "Pod default/p");
  EXPECT_EQ(errors[0].error.field, "items[1].spec.containers[0].resources.requests[memory]");
}

TEST(LoaderTest, EmptyListsAndListLikeKinds) {
  const LoadResult r = MustLoad(R"(
apiVersion: v1
kind: List
---
apiVersion: v1
kind: List
items: []
---
apiVersion: example.com/v1
kind: ShoppingList
spec: {}
)",
                                "f.yaml", kLenient);
  EXPECT_THAT(r.warnings, ElementsAre("skipped 1 object(s) of example.com/v1 ShoppingList: "
                                      "unknown API example.com/v1 ShoppingList: not a Kubernetes "
                                      "v1.37 API that wasched reads (first: f.yaml document 3)"));
}

TEST(LoaderTest, TypedListItemsInheritKind) {
  const LoadResult r = MustLoad(R"({"apiVersion": "v1", "kind": "NodeList",
    "items": [{"metadata": {"name": "a"}}, {"metadata": {"name": "b"}}]})");
  ASSERT_EQ(r.objects.nodes.size(), 2u);
  EXPECT_EQ(r.objects.nodes[1].meta.name, "b");
}

TEST(LoaderTest, UnknownKindsSkippedWithOneWarningPerKind) {
  const LoadResult r = MustLoad(R"(
apiVersion: v1
kind: ConfigMap
metadata: {name: x}
---
apiVersion: apps/v1
kind: DaemonSet
metadata: {name: d1}
---
apiVersion: apps/v1
kind: DaemonSet
metadata: {name: d2}
---
apiVersion: apps/v1
kind: DaemonSet
metadata: {name: d3}
---
apiVersion: scheduling.k8s.io/v1alpha2
kind: Workload
metadata: {name: old}
spec: {podGroupTemplates: [{name: w, schedulingPolicy: {gang: {minCount: 2}}}]}
---
apiVersion: scheduling.k8s.io/v1alpha1
kind: Workload
metadata: {name: older}
)",
                                "f.yaml", kLenient);
  EXPECT_THAT(r.objects.workloads, IsEmpty());
  EXPECT_EQ(r.skipped, 6);
  EXPECT_THAT(
      r.warnings,
      ElementsAre(
          "skipped 1 object(s) of v1 ConfigMap: not used for scheduling (first: f.yaml document 1)",
          "skipped 3 object(s) of apps/v1 DaemonSet: not used for scheduling (first: f.yaml "
          "document 2)",
          "skipped 1 object(s) of scheduling.k8s.io/v1alpha2 Workload: scheduling.k8s.io/v1alpha2 "
          "was removed in v1.37 (it serves scheduling.k8s.io/v1beta1 and "
          "scheduling.k8s.io/v1alpha3); run `wasched convert --to scheduling.k8s.io/v1beta1` "
          "(first: f.yaml document 5)",
          "skipped 1 object(s) of scheduling.k8s.io/v1alpha1 Workload: scheduling.k8s.io/v1alpha1 "
          "was removed in v1.37 (it serves scheduling.k8s.io/v1beta1 and "
          "scheduling.k8s.io/v1alpha3); run `wasched convert --to scheduling.k8s.io/v1beta1` "
          "(first: f.yaml document 6)"));
}

// Issue 20 item 4: kinds and versions wasched does not read are errors naming what v1.37 serves
// (not silently skipped, so that `validate` cannot call such a file valid); kinds of APIs that do
// not affect scheduling are skipped with a note.
TEST(LoaderTest, UnknownKindsAndVersionsAreErrorsNamingWhatIsServed) {
  EXPECT_THAT(
      ErrorStrings(MustFail(R"(apiVersion: scheduling.k8s.io/v1
kind: PodGroup
metadata: {name: pg, namespace: ml}
---
apiVersion: batch/v2
kind: Job
metadata: {name: j}
---
apiVersion: v1
kind: pod
metadata: {name: p}
---
apiVersion: scheduling.k8s.io/v1alpha2
kind: PodGroup
metadata: {name: old}
---
apiVersion: v1
kind: List
items:
- {apiVersion: example.com/v1, kind: Widget, metadata: {name: w}}
---
apiVersion: resource.k8s.io/v1beta1
kind: ResourceClaim
metadata: {name: c}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: cm}
)")),
      ElementsAre(
          "f.yaml: document 1: PodGroup ml/pg: apiVersion: Unsupported value: "
          "\"scheduling.k8s.io/v1\": PodGroup is served as scheduling.k8s.io/v1beta1 and "
          "scheduling.k8s.io/v1alpha3 in v1.37 (wasched reads those) (--skip-unknown-kinds skips "
          "such objects)",
          "f.yaml: document 2: Job j: apiVersion: Unsupported value: \"batch/v2\": Job is served "
          "as batch/v1 in v1.37 (wasched reads those) (--skip-unknown-kinds skips such objects)",
          "f.yaml: document 3: pod p: kind: Unsupported value: \"pod\": unknown kind \"pod\": did "
          "you mean \"Pod\" (v1)? kinds are case-sensitive (--skip-unknown-kinds skips such "
          "objects)",
          "f.yaml: document 4: PodGroup old: apiVersion: Unsupported value: "
          "\"scheduling.k8s.io/v1alpha2\": scheduling.k8s.io/v1alpha2 was removed in v1.37 (it "
          "serves scheduling.k8s.io/v1beta1 and scheduling.k8s.io/v1alpha3); run `wasched convert "
          "--to scheduling.k8s.io/v1beta1` (--skip-unknown-kinds skips such objects)",
          "f.yaml: document 5: Widget w: items[0].apiVersion: Unsupported value: "
          "\"example.com/v1\": unknown API example.com/v1 Widget: not a Kubernetes v1.37 API that "
          "wasched reads (--skip-unknown-kinds skips such objects)",
          "f.yaml: document 6: ResourceClaim c: apiVersion: Unsupported value: "
          "\"resource.k8s.io/v1beta1\": ResourceClaim is served as resource.k8s.io/v1 and "
          "resource.k8s.io/v1beta2 in v1.37 (wasched reads those); resource.k8s.io/v1beta1 (off "
          "by default in v1.37) has an older shape: write the object as resource.k8s.io/v1 "
          "(--skip-unknown-kinds skips such objects)"));
}

// A DRA kind of resource.k8s.io/v1beta2 (v1's fields; served by v1.37 when enabled) is read as
// v1, with a note: never silently.
TEST(LoaderTest, DraV1beta2IsReadAsV1WithANote) {
  const LoadResult r = MustLoad(R"(apiVersion: resource.k8s.io/v1beta2
kind: DeviceClass
metadata: {name: gpu.example.com}
spec:
  selectors:
  - cel: {expression: "device.driver == 'gpu.example.com'"}
)");
  ASSERT_EQ(r.objects.device_classes.size(), 1u);
  EXPECT_THAT(r.warnings,
              ElementsAre("read 1 object(s) of resource.k8s.io/v1beta2 DeviceClass as "
                          "resource.k8s.io/v1 (the same fields; v1.37 serves v1beta2 only when "
                          "enabled) (first: f.yaml document 1)"));
}

// Issue 20 item 5: kubectl's --validate. strict (the default): unknown fields are errors in
// kubectl's words; warn: warnings; ignore: nothing. Repeated keys likewise.
TEST(LoaderTest, FieldValidationModes) {
  const std::string job = R"(apiVersion: batch/v1
kind: Job
metadata: {name: train}
spec:
  paralellism: 2
  parallelism: 1
  parallelism: 3
  template:
    spec:
      containers:
      - name: c
        image: registry.k8s.io/pause:3.10
        resources: {requets: {cpu: 1}}
)";
  EXPECT_THAT(ErrorStrings(MustFail(job)),
              ElementsAre("f.yaml: document 1: Job default/train: unknown field "
                          "\"spec.paralellism\"",
                          "f.yaml: document 1: Job default/train: spec.parallelism: Duplicate "
                          "value: mapping key already defined",
                          "f.yaml: document 1: Job default/train: unknown field "
                          "\"spec.template.spec.containers[0].resources.requets\""));
  const LoadResult warned =
      MustLoad(job, "f.yaml", LoadOptions{.field_validation = FieldValidation::kWarn});
  EXPECT_THAT(warned.warnings,
              ElementsAre("f.yaml: document 1: Job default/train: unknown field "
                          "\"spec.paralellism\"",
                          "f.yaml: document 1: Job default/train: duplicate field "
                          "\"spec.parallelism\"",
                          "f.yaml: document 1: Job default/train: unknown field "
                          "\"spec.template.spec.containers[0].resources.requets\""));
  const LoadResult ignored =
      MustLoad(job, "f.yaml", LoadOptions{.field_validation = FieldValidation::kIgnore});
  EXPECT_THAT(ignored.warnings, IsEmpty());
  ASSERT_EQ(ignored.objects.jobs.size(), 1u);
  EXPECT_EQ(ignored.objects.jobs[0].parallelism, std::optional<int32_t>(1));  // the first one
}

// Issue 20 item 6: a failed load keeps its warnings (the cause of an error is often one).
TEST(LoaderTest, FailedLoadKeepsItsWarnings) {
  auto loaded = LoadString(R"(apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata: {name: example-device-class}
spec:
  selectors:
  - cel:
    expression: device.driver == "driver.example.com"
)",
                           "dc.yaml", LoadOptions{.field_validation = FieldValidation::kWarn});
  ASSERT_FALSE(loaded);
  EXPECT_THAT(loaded.error().warnings,
              ElementsAre("dc.yaml: document 1: DeviceClass example-device-class: unknown field "
                          "\"spec.selectors[0].expression\""));
  EXPECT_THAT(ErrorStrings(loaded.error()),
              ElementsAre(HasSubstr("spec.selectors[0].cel: Required value")));
}

TEST(LoaderTest, UnknownFieldsWarnButKnownIgnoredFieldsDoNot) {
  const LoadResult r = MustLoad(R"(
apiVersion: v1
kind: Pod
metadata:
  name: p
  namespace: ns
  lables: {a: b}
  managedFields: [{manager: kubectl}]
  resourceVersion: "7"
spec:
  foo: 1
  containers:
  - name: c
    image: x
    resourcez: {}
  topologySpreadConstraints: [{maxSkew: 1, whenUnsatisfiable: ScheduleAnyway}]
  affinity:
    podAntiAffinity:
      preferredDuringSchedulingIgnoredDuringExecution: []
status:
  hostIP: 1.2.3.4
  whatever: {}
extra: 1
)",
                                "f.yaml", kLenient);
  ASSERT_EQ(r.objects.pods.size(), 1u);
  EXPECT_THAT(
      r.warnings,
      ElementsAre(
          "f.yaml: document 1: Pod ns/p: unknown field \"metadata.lables\"",
          "f.yaml: document 1: Pod ns/p: unknown field \"spec.foo\"",
          "f.yaml: document 1: Pod ns/p: unknown field \"spec.containers[0].resourcez\"",
          "f.yaml: document 1: Pod ns/p: unknown field \"extra\""));
}

// Repeated mapping keys are errors, as in kubectl / the API server's strict decoding, at the
// repeated key's path, once, in YAML and JSON alike, in fields wasched reads and in fields it
// ignores; the object's label names it even for top-level keys.
TEST(LoaderTest, DuplicateMappingKeysAreErrors) {
  EXPECT_THAT(ErrorStrings(MustFail(R"(apiVersion: v1
kind: Node
metadata: {name: n1, name: n2}
status: {allocatable: {cpu: "4", memory: 8Gi, pods: "110"}}
---
apiVersion: v1
kind: Pod
metadata: {name: p, namespace: default}
spec:
  containers:
  - name: c
    image: x
    securityContext: {runAsUser: 1, runAsUser: 2}
    resources:
      requests:
        cpu: "8"
        cpu: "100m"
spec: {}
)")),
              ElementsAre("f.yaml: document 1: Node n1: metadata.name: Duplicate value: "
                          "mapping key already defined",
                          "f.yaml: document 2: Pod default/p: spec: Duplicate value: mapping key "
                          "already defined",
                          "f.yaml: document 2: Pod default/p: "
                          "spec.containers[0].resources.requests[cpu]: Duplicate value: mapping "
                          "key already defined",
                          "f.yaml: document 2: Pod default/p: "
                          "spec.containers[0].securityContext.runAsUser: Duplicate value: "
                          "mapping key already defined"));
  const InputErrors json = MustFail(
      R"({"apiVersion": "v1", "kind": "Pod", "metadata": {"name": "p", "labels": {"a": "1", "a": "2"}},
          "spec": {"containers": [{"name": "c", "image": "registry.k8s.io/pause:3.10", "resources": {"limits": {"memory": "1Gi", "memory": "2Gi"}}}]}})",
      "p.json");
  EXPECT_THAT(ErrorStrings(json),
              ElementsAre("p.json: document 1: Pod default/p: metadata.labels[a]: Duplicate "
                          "value: mapping key already defined",
                          "p.json: document 1: Pod default/p: "
                          "spec.containers[0].resources.limits[memory]: Duplicate value: mapping "
                          "key already defined"));
  // Inside a List item, with the item's path; a big map (indexed lookup) too.
  std::string labels;
  for (int i = 0; i < 40; ++i) labels += fmt::format("l{}: v\n      ", i);
  EXPECT_THAT(ErrorStrings(MustFail("apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n"
                                    "  kind: Node\n  metadata:\n    name: n1\n    labels:\n      " +
                                    labels + "l7: again\n")),
              ElementsAre("f.yaml: document 1: Node n1: items[0].metadata.labels[l7]: Duplicate "
                          "value: mapping key already defined"));
}

// Repeated keys in fields the decoders ignore are found in every item of a List (the walk that
// finds them keeps one visited set for the whole document, so a List of n objects costs O(n),
// not O(n²)); a map an alias shares between items is reported once, in the first item.
TEST(LoaderTest, DuplicateKeysInIgnoredFieldsOfEveryListItem) {
  EXPECT_THAT(ErrorStrings(MustFail(R"(apiVersion: v1
kind: List
items:
- {apiVersion: v1, kind: Pod, metadata: {name: a}, spec: {containers: [{name: c, image: registry.k8s.io/pause:3.10,
   securityContext: &sc {runAsUser: 1, runAsUser: 2}}]}}
- {apiVersion: v1, kind: Pod, metadata: {name: b}, spec: {containers: [{name: c, image: registry.k8s.io/pause:3.10,
   securityContext: *sc}]}}
- {apiVersion: v1, kind: Pod, metadata: {name: c}, status: {hostIP: x, hostIP: y}}
)")),
              ElementsAre("f.yaml: document 1: Pod default/a: "
                          "items[0].spec.containers[0].securityContext.runAsUser: Duplicate value: "
                          "mapping key already defined",
                          "f.yaml: document 1: Pod default/c: items[2].status.hostIP: Duplicate "
                          "value: mapping key already defined"));
}

// Host ports, pod (anti-)affinity and topology spread constraints are decoded for NodePorts,
// InterPodAffinity and PodTopologySpread (none is recorded as unsupported, none warns).
TEST(LoaderTest, PortsAffinityAndSpreadAreDecoded) {
  const LoadResult r = MustLoad(R"(
apiVersion: v1
kind: Pod
metadata: {name: p}
spec:
  initContainers:
  - name: init
    image: registry.k8s.io/pause:3.10
    ports: [{containerPort: 80, hostPort: 8080}]
  containers:
  - name: a
    image: registry.k8s.io/pause:3.10
    ports: [{containerPort: 80}, {containerPort: 81, hostPort: 0}]
  - name: b
    image: registry.k8s.io/pause:3.10
    ports: [{containerPort: 80}, {containerPort: 443, hostPort: 8443}]
  affinity:
    podAffinity:
      requiredDuringSchedulingIgnoredDuringExecution:
      - {labelSelector: {matchLabels: {app: x}}, topologyKey: zone}
    podAntiAffinity:
      requiredDuringSchedulingIgnoredDuringExecution:
      - {labelSelector: {matchLabels: {app: x}}, topologyKey: kubernetes.io/hostname}
      preferredDuringSchedulingIgnoredDuringExecution:
      - {weight: 1, podAffinityTerm: {topologyKey: zone}}
  topologySpreadConstraints:
  - {maxSkew: 1, topologyKey: zone, labelSelector: {}}
  - {maxSkew: 1, topologyKey: zone, whenUnsatisfiable: ScheduleAnyway}
  - {maxSkew: 1, topologyKey: zone, whenUnsatisfiable: DoNotSchedule}
---
apiVersion: v1
kind: Pod
metadata: {name: free}
spec:
  containers: [{name: c, image: registry.k8s.io/pause:3.10, ports: [{containerPort: 80}]}]
  affinity:
    podAntiAffinity: {requiredDuringSchedulingIgnoredDuringExecution: []}
  topologySpreadConstraints: []
)");
  ASSERT_EQ(r.objects.pods.size(), 2u);
  // Host ports (NodePorts), pod (anti-)affinity (InterPodAffinity) and topology spread
  // (PodTopologySpread) are modelled: decoded, not recorded.
  EXPECT_THAT(r.objects.pods[0].unsupported_constraints, IsEmpty());
  ASSERT_EQ(r.objects.pods[0].topology_spread_constraints.size(), 3u);
  const api::TopologySpreadConstraint& spread = r.objects.pods[0].topology_spread_constraints[1];
  EXPECT_EQ(spread.when_unsatisfiable, "ScheduleAnyway");
  EXPECT_EQ(spread.max_skew, 1);
  EXPECT_EQ(spread.topology_key, "zone");
  EXPECT_FALSE(spread.label_selector.has_value());
  EXPECT_TRUE(r.objects.pods[0].topology_spread_constraints[0].label_selector.has_value());
  // No whenUnsatisfiable: core/v1 has no default, so it stays "" (validation's NotSupported).
  EXPECT_EQ(r.objects.pods[0].topology_spread_constraints[0].when_unsatisfiable, "");
  EXPECT_THAT(r.objects.pods[1].unsupported_constraints, IsEmpty());
  const api::Pod& p = r.objects.pods[0];
  ASSERT_EQ(p.containers.size(), 2u);
  ASSERT_EQ(p.containers[1].ports.size(), 2u);
  EXPECT_EQ(p.containers[1].ports[1].host_port, 8443);
  EXPECT_EQ(p.containers[1].ports[1].container_port, 443);
  EXPECT_EQ(p.containers[1].ports[1].protocol, "TCP");
  EXPECT_EQ(p.init_containers.at(0).ports.at(0).host_port, 8080);
  ASSERT_TRUE(p.pod_affinity && p.pod_anti_affinity);
  ASSERT_EQ(p.pod_affinity->required.size(), 1u);
  EXPECT_EQ(p.pod_affinity->required[0].topology_key, "zone");
  EXPECT_EQ(p.pod_affinity->required[0].label_selector->match_labels.at("app"), "x");
  EXPECT_FALSE(p.pod_affinity->required[0].namespace_selector.has_value());
  ASSERT_EQ(p.pod_anti_affinity->preferred.size(), 1u);
  EXPECT_EQ(p.pod_anti_affinity->preferred[0].weight, 1);
  EXPECT_FALSE(p.pod_anti_affinity->preferred[0].term.label_selector.has_value());
  EXPECT_THAT(r.warnings, IsEmpty());
  EXPECT_THAT(ErrorStrings(MustFail(R"(
apiVersion: v1
kind: Pod
metadata: {name: p}
spec:
  containers: [{name: c, image: registry.k8s.io/pause:3.10}]
  topologySpreadConstraints: [{maxSkew: 1, whenUnsatisfiable: Sometimes}]
)")),
              ElementsAre("f.yaml: document 1: Pod default/p: "
                          "spec.topologySpreadConstraints[0].whenUnsatisfiable: Unsupported "
                          "value: \"Sometimes\": supported values: \"DoNotSchedule\", "
                          "\"ScheduleAnyway\""));
}

// spec.resources (PodLevelResources): requests decoded, limits default requests as core/v1
// defaultPodRequests does; unsupported names and negative amounts are errors.
TEST(LoaderTest, PodLevelResources) {
  const LoadResult r = MustLoad(R"(
apiVersion: v1
kind: Pod
metadata: {name: requests}
spec:
  resources: {requests: {cpu: "3", memory: 1Gi}}
  containers: [{name: c, image: registry.k8s.io/pause:3.10}]
---
apiVersion: v1
kind: Pod
metadata: {name: limits}
spec:
  resources: {limits: {cpu: "2", memory: 2Gi, hugepages-2Mi: 4Mi}}
  containers: [{name: c, image: registry.k8s.io/pause:3.10, resources: {requests: {cpu: 500m}}}, {name: d, image: registry.k8s.io/pause:3.10}]
)");
  ASSERT_EQ(r.objects.pods.size(), 2u);
  EXPECT_THAT(r.warnings, IsEmpty());
  EXPECT_EQ(r.objects.pods[0].pod_level_requests,
            (api::ResourceList{{"cpu", 3000}, {"memory", int64_t{1} << 30}}));
  // cpu: the containers request it, so their aggregate; memory and hugepages: the limit.
  EXPECT_EQ(r.objects.pods[1].pod_level_requests,
            (api::ResourceList{
                {"cpu", 500}, {"memory", int64_t{2} << 30}, {"hugepages-2Mi", int64_t{4} << 20}}));
  EXPECT_THAT(ErrorStrings(MustFail(R"(
apiVersion: v1
kind: Pod
metadata: {name: p}
spec:
  resources: {requests: {cpu: "-1", nvidia.com/gpu: "1"}, limits: {ephemeral-storage: 1Gi}}
  containers: [{name: c, image: registry.k8s.io/pause:3.10}]
)")),
              ElementsAre("f.yaml: document 1: Pod default/p: spec.resources.requests[cpu]: "
                          "Invalid value: \"-1\": must be greater than or equal to 0",
                          "f.yaml: document 1: Pod default/p: "
                          "spec.resources.requests[nvidia.com/gpu]: Unsupported value: "
                          "\"nvidia.com/gpu\": supported values: \"cpu\", \"hugepages-\", "
                          "\"memory\"",
                          "f.yaml: document 1: Pod default/p: "
                          "spec.resources.limits[ephemeral-storage]: Unsupported value: "
                          "\"ephemeral-storage\": supported values: \"cpu\", \"hugepages-\", "
                          "\"memory\""));
}

TEST(LoaderTest, NullUnionMemberWarns) {
  const LoadResult r = MustLoad(R"(
apiVersion: scheduling.k8s.io/v1beta1
kind: PodGroup
metadata: {name: g}
spec:
  schedulingPolicy:
    basic:
)");
  ASSERT_EQ(r.objects.pod_groups.size(), 1u);
  EXPECT_FALSE(r.objects.pod_groups[0].scheduling_policy.basic.has_value());
  EXPECT_THAT(r.warnings, ElementsAre(HasSubstr("\"spec.schedulingPolicy.basic\" is null")));
}

TEST(LoaderTest, MalformedYamlReportsDocumentAndLine) {
  const InputErrors errors = MustFail(R"(apiVersion: v1
kind: Pod
metadata: {name: ok}
---
apiVersion: v1
kind: Pod
metadata: {name: [broken}
)",
                                      "bad.yaml");
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].source.file, "bad.yaml");
  EXPECT_EQ(errors[0].source.document, 2);
  EXPECT_EQ(errors[0].object, "");
  EXPECT_THAT(errors[0].ToString(), HasSubstr("bad.yaml: document 2: "));
  EXPECT_THAT(errors[0].error.detail, HasSubstr("malformed YAML: line 7, column"));
}

TEST(LoaderTest, MalformedDocumentDoesNotHideLaterErrors) {
  const InputErrors errors = MustFail(R"(a: [1
---
apiVersion: v1
kind: Node
metadata: {labels: {}}
)");
  ASSERT_EQ(errors.size(), 2u);
  EXPECT_THAT(errors[0].error.detail, HasSubstr("malformed YAML: line 2"));
  EXPECT_EQ(errors[1].source.document, 2);
  EXPECT_EQ(errors[1].error.field, "metadata.name");
}

TEST(LoaderTest, BadQuantity) {
  const InputErrors errors = MustFail(R"(
apiVersion: v1
kind: Pod
metadata: {name: p}
spec:
  containers:
  - name: c
    image: registry.k8s.io/pause:3.10
    resources:
      requests: {cpu: 5Xi, memory: 1Gi}
      limits: {cpu: 1e100}
)");
  // 1e100 is accepted (upstream's Quantity is arbitrary precision): see
  // QuantityBeyondInt64IsAWarningAndSaturates.
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].object, "Pod default/p");
  EXPECT_EQ(errors[0].error.type, FieldErrorType::kInvalid);
  EXPECT_EQ(errors[0].error.field, "spec.containers[0].resources.requests[cpu]");
  EXPECT_EQ(errors[0].error.bad_value, "\"5Xi\"");
  EXPECT_THAT(errors[0].error.detail, HasSubstr("quantities must match the regular expression"));
  EXPECT_EQ(errors[0].ToString(),
            "f.yaml: document 1: Pod default/p: spec.containers[0].resources.requests[cpu]: "
            "Invalid value: \"5Xi\": quantities must match the regular expression "
            "'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'");
}

// A quantity the API server accepts but int64 cannot hold (apimachinery's Quantity.Value() is
// not meaningful for it either): a warning, and int64's maximum (the pod's request saturates).
TEST(LoaderTest, QuantityBeyondInt64IsAWarningAndSaturates) {
  const LoadResult r = MustLoad(R"(
apiVersion: v1
kind: Pod
metadata: {name: p}
spec:
  containers:
  - name: c
    image: registry.k8s.io/pause:3.10
    resources:
      requests: {cpu: 1e100, memory: 99999999999999999999Ei}
)");
  ASSERT_EQ(r.objects.pods.size(), 1u);
  const api::ResourceList& req = r.objects.pods[0].containers[0].requests;
  EXPECT_EQ(req.at("cpu"), std::numeric_limits<int64_t>::max());
  EXPECT_EQ(req.at("memory"), std::numeric_limits<int64_t>::max());
  EXPECT_THAT(r.warnings,
              ElementsAre(HasSubstr("spec.containers[0].resources.requests[cpu]: quantity "
                                    "\"1e+100\" is beyond what the scheduler can represent "
                                    "(milli-units in int64); it is taken as 9223372036854775807"),
                          HasSubstr("spec.containers[0].resources.requests[memory]: quantity "
                                    "\"99999999999999999999Ei\" is beyond what the scheduler")));
}

TEST(LoaderTest, NegativeQuantityIsKeptForValidation) {
  const LoadResult r = MustLoad(R"(
apiVersion: v1
kind: Pod
metadata: {name: p}
spec: {containers: [{name: c, image: registry.k8s.io/pause:3.10, resources: {requests: {cpu: "-1", memory: -5Mi}}}]}
)");
  ASSERT_EQ(r.objects.pods.size(), 1u);
  EXPECT_EQ(r.objects.pods[0].containers[0].requests.at("cpu"), -1000);
  EXPECT_EQ(r.objects.pods[0].containers[0].requests.at("memory"), -5242880);
}

TEST(LoaderTest, NodeWithoutName) {
  const InputErrors errors = MustFail("apiVersion: v1\nkind: Node\nmetadata: {labels: {a: b}}\n");
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].object, "Node");
  EXPECT_EQ(errors[0].error.type, FieldErrorType::kRequired);
  EXPECT_EQ(errors[0].error.field, "metadata.name");
  EXPECT_EQ(errors[0].ToString(),
            "f.yaml: document 1: Node: metadata.name: Required value: name or generateName is "
            "required");
}

// generateName (issue 19): accepted; the name is derived (codec/generated_names_test.cc).
TEST(LoaderTest, GenerateNameIsAccepted) {
  auto loaded = LoadString("apiVersion: v1\nkind: Pod\nmetadata: {generateName: p-}\n", "f.yaml");
  ASSERT_TRUE(loaded);
  ASSERT_EQ(loaded->objects.pods.size(), 1u);
  EXPECT_THAT(loaded->objects.pods[0].meta.name, testing::MatchesRegex("p-[b-z2-9]{5}"));
  EXPECT_EQ(loaded->objects.pods[0].meta.generate_name, "p-");
}

TEST(LoaderTest, WrongTypes) {
  const InputErrors errors = MustFail(R"(
apiVersion: scheduling.k8s.io/v1beta1
kind: Workload
metadata: {name: w, labels: [a, b]}
spec:
  podGroupTemplates:
  - name: t
    schedulingPolicy: {gang: {minCount: "abc"}}
    priority: 99999999999
  - name: [x]
    schedulingPolicy: {gang: {minCount: 1.5}}
  controllerRef: yes-please
)");
  ASSERT_EQ(errors.size(), 6u);
  EXPECT_EQ(errors[0].error.field, "metadata.labels");
  EXPECT_EQ(errors[0].error.detail, "expected object, got list");
  EXPECT_EQ(errors[1].error.type, FieldErrorType::kTypeInvalid);
  EXPECT_EQ(errors[1].error.field, "spec.podGroupTemplates[0].schedulingPolicy.gang.minCount");
  EXPECT_EQ(errors[1].error.detail, "expected integer, got string \"abc\"");
  EXPECT_EQ(errors[2].error.field, "spec.podGroupTemplates[0].priority");
  EXPECT_EQ(errors[2].error.detail, "expected int32, got integer 99999999999 (out of range)");
  EXPECT_EQ(errors[3].error.field, "spec.podGroupTemplates[1].name");
  EXPECT_EQ(errors[3].error.detail, "expected string, got list");
  EXPECT_EQ(errors[4].error.detail, "expected integer, got number 1.5");
  EXPECT_EQ(errors[5].error.field, "spec.controllerRef");
  EXPECT_EQ(errors[5].error.detail, "expected object, got string \"yes-please\"");
  for (const InputError& e : errors) EXPECT_EQ(e.object, "Workload default/w");
}

TEST(LoaderTest, StringFieldsRejectNumbersAndBooleans) {
  const InputErrors errors = MustFail(R"(
apiVersion: v1
kind: Pod
metadata: {name: p}
spec:
  nodeSelector: {gpu: true, count: 4, ok: "true"}
)");
  ASSERT_EQ(errors.size(), 2u);
  EXPECT_EQ(errors[0].error.field, "spec.nodeSelector[gpu]");
  EXPECT_EQ(errors[0].error.detail, "expected string, got boolean true");
  EXPECT_EQ(errors[1].error.field, "spec.nodeSelector[count]");
}

TEST(LoaderTest, EnumsRejectUnknownValues) {
  const InputErrors errors = MustFail(R"(
apiVersion: v1
kind: Node
metadata: {name: n1}
spec:
  taints: [{key: a, effect: Sometimes}, {key: b}]
---
apiVersion: v1
kind: Pod
metadata: {name: p}
spec:
  preemptionPolicy: Always
  tolerations: [{key: a, operator: Maybe}]
  affinity:
    nodeAffinity:
      requiredDuringSchedulingIgnoredDuringExecution:
        nodeSelectorTerms: [{matchExpressions: [{key: a, operator: Near}]}]
)");
  std::vector<std::string> fields;
  for (const InputError& e : errors) fields.push_back(e.error.field);
  EXPECT_THAT(fields, ElementsAre("spec.taints[0].effect", "spec.taints[1].effect",
                                  "spec.preemptionPolicy", "spec.tolerations[0].operator",
                                  "spec.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuring"
                                  "Execution.nodeSelectorTerms[0].matchExpressions[0].operator"));
  EXPECT_EQ(errors[0].error.type, FieldErrorType::kNotSupported);
  EXPECT_EQ(errors[1].error.type, FieldErrorType::kRequired);
  EXPECT_EQ(errors[2].error.detail, "supported values: \"Never\", \"PreemptLowerPriority\"");
}

TEST(LoaderTest, BadTimestamp) {
  const InputErrors errors = MustFail(R"(
apiVersion: v1
kind: Pod
metadata: {name: p, creationTimestamp: "yesterday"}
)");
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].error.field, "metadata.creationTimestamp");
  EXPECT_EQ(errors[0].error.bad_value, "\"yesterday\"");
}

TEST(LoaderTest, MissingKindOrNonObjectDocument) {
  const InputErrors errors = MustFail(R"(
spec: {x: 1}
---
- just
- a list
---
apiVersion: v1
)");
  EXPECT_THAT(ErrorStrings(errors),
              ElementsAre(HasSubstr("document 1: apiVersion: Required value"),
                          HasSubstr("document 1: kind: Required value"),
                          "f.yaml: document 2: Invalid value: expected object, got list",
                          HasSubstr("document 3: kind: Required value")));
}

TEST(LoaderTest, AllErrorsInInputOrderAndNoObjects) {
  auto loaded = LoadString(R"(
apiVersion: v1
kind: Node
metadata: {name: fine}
---
apiVersion: v1
kind: Pod
metadata: {name: a}
spec: {priority: x}
---
apiVersion: v1
kind: Pod
metadata: {name: b}
spec: {containers: [{name: c, image: registry.k8s.io/pause:3.10, resources: {requests: {cpu: bad}}}]}
)",
                           "in.yaml");
  ASSERT_FALSE(loaded.has_value());
  ASSERT_EQ(loaded.error().size(), 2u);
  EXPECT_EQ(loaded.error()[0].object, "Pod default/a");
  EXPECT_EQ(loaded.error()[1].object, "Pod default/b");
}

TEST(LoaderTest, JsonInput) {
  const LoadResult r = MustLoad(R"({
	"apiVersion": "v1",
	"kind": "Pod",
	"metadata": {"name": "j", "namespace": "x"},
	"spec": {
		"priority": 5,
		"containers": [{"name": "c", "image": "registry.k8s.io/pause:3.10", "resources": {"requests": {"cpu": 0.5, "memory": "1Mi"}}}]
	}
})",
                                "pod.json");
  ASSERT_EQ(r.objects.pods.size(), 1u);
  EXPECT_EQ(r.objects.pods[0].priority, 5);
  EXPECT_EQ(r.objects.pods[0].containers[0].requests.at("cpu"), 500);
  EXPECT_EQ(r.objects.pods[0].containers[0].requests.at("memory"), 1048576);
}

// A JSON List's items are parsed one at a time; an item that is not strict JSON (`tru` is YAML)
// makes the loader take back the items it decoded and read the text as YAML, once: both Nodes,
// no duplicates.
TEST(LoaderTest, JsonListWithANonJsonItemIsReadAgainAsYaml) {
  const LoadResult r = MustLoad(
      R"({"apiVersion": "v1", "kind": "List", "items": [
           {"apiVersion": "v1", "kind": "Node", "metadata": {"name": "a"}},
           {"apiVersion": "v1", "kind": "Node", "metadata": {"name": "b"}, "x": tru}]})",
      "l.json", kLenient);
  ASSERT_EQ(r.objects.nodes.size(), 2u);
  EXPECT_EQ(r.objects.nodes[0].meta.name, "a");
  EXPECT_EQ(r.objects.nodes[1].meta.name, "b");
  EXPECT_THAT(r.warnings, Contains(HasSubstr("unknown field \"items[1].x\"")));
}

TEST(LoaderTest, JsonSyntaxError) {
  const InputErrors errors = MustFail("{\"apiVersion\": \"v1\",\n \"kind\": \"Pod\"\n", "x.json");
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_THAT(errors[0].ToString(), HasSubstr("x.json: document 1: "));
  EXPECT_THAT(errors[0].error.detail, HasSubstr("line 3, column 1: did not find expected ',' or '}'"));
}

TEST(LoaderTest, AliasBombIsBounded) {
  // 2^30 composite templates by aliases: decoding must stop at the visit budget.
  std::string text =
      "apiVersion: scheduling.k8s.io/v1alpha3\nkind: Workload\nmetadata: {name: w}\n"
      "x0: &a0 {name: a, podGroupTemplates: [{name: p}]}\n";
  for (int i = 1; i < 30; ++i) {
    text += fmt::format("x{0}: &a{0} {{name: a, compositePodGroupTemplates: [*a{1}, *a{1}]}}\n",
                        i, i - 1);
  }
  text += "spec: {compositePodGroupTemplates: [*a29, *a29]}\n";
  // (The x<i> anchors are unknown fields: --validate=ignore, so that only the budget speaks.)
  auto loaded = LoadString(text, "bomb.yaml",  // must return promptly, not hang or crash
                           LoadOptions{.field_validation = FieldValidation::kIgnore});
  ASSERT_FALSE(loaded.has_value());
  EXPECT_THAT(ErrorStrings(loaded.error()), ElementsAre(HasSubstr("too many nodes")));
}

TEST(LoaderTest, NeverCrashesOnMutatedInput) {
  const std::string base = R"(apiVersion: v1
kind: List
items:
- apiVersion: v1
  kind: Pod
  metadata: {name: p, namespace: ns, creationTimestamp: "2024-01-01T00:00:00Z"}
  spec:
    containers: [{name: c, image: registry.k8s.io/pause:3.10, resources: {requests: {cpu: 1, memory: 1Gi}, limits: {x: 2}}}]
    tolerations: [{key: a, operator: Exists, effect: NoSchedule}]
    affinity: {nodeAffinity: {requiredDuringSchedulingIgnoredDuringExecution: {nodeSelectorTerms: [{matchExpressions: [{key: a, operator: In, values: [b]}]}]}}}
- apiVersion: scheduling.k8s.io/v1alpha3
  kind: Workload
  metadata: {name: w}
  spec: {compositePodGroupTemplates: [{name: r, schedulingPolicy: {gang: {minGroupCount: 2}}, podGroupTemplates: [{name: a, schedulingPolicy: {basic: {}}}]}]}
)";
  const std::string alphabet = "{}[]:,-'\"&*!|>#% \n\tabc019.eKi~";
  std::mt19937 rng(12345);
  for (int round = 0; round < 3000; ++round) {
    std::string text = base;
    const int edits = 1 + static_cast<int>(rng() % 4);
    for (int e = 0; e < edits; ++e) {
      const size_t pos = rng() % text.size();
      switch (rng() % 3) {
        case 0: text[pos] = alphabet[rng() % alphabet.size()]; break;
        case 1: text.erase(pos, 1 + rng() % 8); break;
        default: text.insert(pos, 1, alphabet[rng() % alphabet.size()]);
      }
    }
    (void)LoadString(text, "fuzz.yaml");
  }
}

TEST(LoaderTest, StdinAndMissingPath) {
  std::istringstream in("apiVersion: v1\nkind: Node\nmetadata: {name: from-stdin}\n");
  auto loaded = LoadPaths({"-"}, in);
  ASSERT_TRUE(loaded.has_value());
  ASSERT_EQ(loaded->objects.nodes.size(), 1u);
  EXPECT_EQ(loaded->objects.nodes[0].meta.source.file, "-");

  std::istringstream empty;
  auto missing = LoadPaths({"/nonexistent/wasched/file.yaml"}, empty);
  ASSERT_FALSE(missing.has_value());
  EXPECT_EQ(missing.error()[0].error.type, FieldErrorType::kNotFound);
  EXPECT_EQ(missing.error()[0].source.file, "/nonexistent/wasched/file.yaml");
}

TEST(LoaderTest, StdinErrorsNameDash) {
  std::istringstream in("apiVersion: v1\nkind: Node\nmetadata: {}\n");
  auto loaded = LoadPaths({"-"}, in);
  ASSERT_FALSE(loaded.has_value());
  EXPECT_EQ(loaded.error()[0].ToString().substr(0, 14), "-: document 1:");
}

class LoaderFolderTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("wasched-loader-test-" + std::to_string(::getpid()));
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_ / "sub");
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  void Write(const std::string& rel, const std::string& text) {
    std::ofstream(dir_ / rel) << text;
  }
  std::filesystem::path dir_;
};

std::string NodeYaml(const std::string& name) {
  return "apiVersion: v1\nkind: Node\nmetadata: {name: " + name + "}\nstatus: {allocatable: {pods: '1'}}\n";
}

TEST_F(LoaderFolderTest, FolderFilesSortedByPathRecursively) {
  Write("b.yaml", NodeYaml("from-b"));
  Write("a.json", R"({"apiVersion": "v1", "kind": "Node", "metadata": {"name": "from-a"},
                      "status": {"allocatable": {"pods": "1"}}})");
  Write("sub/c.yml", NodeYaml("from-sub-c"));
  Write("c.yaml", NodeYaml("from-c"));
  Write("notes.txt", "not yaml: [");
  std::istringstream in;
  auto loaded = LoadPaths({dir_.string()}, in);
  ASSERT_TRUE(loaded.has_value()) << loaded.error()[0].ToString();
  std::vector<std::string> names;
  for (const api::Node& n : loaded->objects.nodes) names.push_back(n.meta.name);
  EXPECT_THAT(names, ElementsAre("from-a", "from-b", "from-c", "from-sub-c"));
  EXPECT_EQ(loaded->objects.nodes[3].meta.source.file, (dir_ / "sub/c.yml").generic_string());
}

TEST_F(LoaderFolderTest, PathsKeepTheirOrderAndEmptyFolderWarns) {
  Write("z.yaml", NodeYaml("z"));
  std::filesystem::create_directories(dir_ / "empty");
  std::istringstream in("apiVersion: v1\nkind: Node\nmetadata: {name: s}\nstatus: {allocatable: {pods: '1'}}\n");
  auto loaded = LoadPaths({(dir_ / "z.yaml").string(), "-", (dir_ / "empty").string()}, in);
  ASSERT_TRUE(loaded.has_value());
  ASSERT_EQ(loaded->objects.nodes.size(), 2u);
  EXPECT_EQ(loaded->objects.nodes[0].meta.name, "z");
  EXPECT_EQ(loaded->objects.nodes[1].meta.name, "s");
  EXPECT_THAT(loaded->warnings, ElementsAre(HasSubstr("folder holds no *.yaml")));
}

// A file named twice (also through another spelling of its path, or inside a named folder) is
// read once: its objects are not duplicates of themselves.
TEST_F(LoaderFolderTest, FileGivenTwiceIsReadOnce) {
  Write("a.yaml", NodeYaml("a"));
  Write("sub/b.yaml", NodeYaml("b"));
  const std::string a = (dir_ / "a.yaml").string();
  const std::string a_again = (dir_ / "sub" / ".." / "a.yaml").string();
  const std::string b = (dir_ / "sub/b.yaml").string();
  std::istringstream in;
  auto loaded = LoadPaths({a, a_again, (dir_ / "sub").string(), b}, in);
  ASSERT_TRUE(loaded.has_value()) << loaded.error()[0].ToString();
  std::vector<std::string> names;
  for (const api::Node& n : loaded->objects.nodes) names.push_back(n.meta.name);
  EXPECT_THAT(names, ElementsAre("a", "b"));
  EXPECT_THAT(loaded->warnings, ElementsAre("file " + a_again + " given more than once; read once",
                                            "file " + b + " given more than once; read once"));
}

// A binary file (here NUL bytes, then NUL-padded YAML that yaml-cpp would take for UTF-16) is
// an error naming the file, not an empty input.
TEST_F(LoaderFolderTest, FileWithNulBytesIsNotAManifest) {
  Write("nul.yaml", std::string(3, '\0'));
  Write("padded.yaml", std::string("\0a\0p\0i", 6) + "Version: v1\n");
  std::istringstream in;
  auto loaded = LoadPaths({(dir_ / "nul.yaml").string(), (dir_ / "padded.yaml").string()}, in);
  ASSERT_FALSE(loaded.has_value());
  EXPECT_THAT(ErrorStrings(loaded.error()),
              ElementsAre((dir_ / "nul.yaml").string() +
                              ": Invalid value: file is not a text manifest (contains NUL bytes)",
                          (dir_ / "padded.yaml").string() +
                              ": Invalid value: file is not a text manifest (contains NUL bytes)"));
  // UTF-16 with a byte-order mark is text (yaml-cpp decodes it).
  std::string utf16 = "\xFF\xFE";
  for (char c : NodeYaml("u")) utf16 += std::string{c, '\0'};
  Write("utf16.yaml", utf16);
  auto decoded = LoadPaths({(dir_ / "utf16.yaml").string()}, in);
  ASSERT_TRUE(decoded.has_value()) << decoded.error()[0].ToString();
  ASSERT_EQ(decoded->objects.nodes.size(), 1u);
  EXPECT_EQ(decoded->objects.nodes[0].meta.name, "u");
}

TEST(LoaderRealDataTest, AlibabaOpenbGpuNodes) {
  std::istringstream in;
  auto loaded =
      LoadPaths({kTestData + "/data/alibaba-openb/openb_node_list_gpu_node.yaml"}, in);
  ASSERT_TRUE(loaded.has_value()) << loaded.error()[0].ToString();
  EXPECT_THAT(loaded->warnings, IsEmpty());
  const std::vector<api::Node>& nodes = loaded->objects.nodes;
  ASSERT_EQ(nodes.size(), 1213u);
  int with_gpus = 0;
  for (const api::Node& n : nodes) {
    auto it = n.allocatable.find("alibabacloud.com/gpu-count");
    if (it != n.allocatable.end() && it->second > 0) ++with_gpus;
  }
  EXPECT_EQ(with_gpus, 1213);
  EXPECT_EQ(nodes[0].meta.name, "openb-node-0000");
  EXPECT_EQ(nodes[0].meta.labels.at("alibabacloud.com/gpu-card-model"), "P100");
  EXPECT_EQ(nodes[0].allocatable,
            (api::ResourceList{{"alibabacloud.com/gpu-count", 2},
                               {"alibabacloud.com/gpu-milli", 2000},
                               {"cpu", 64000},
                               {"memory", 274877906944},
                               {"pods", 1001}}));
  EXPECT_EQ(nodes.back().meta.source.document, 1213);
}

TEST(LoaderRealDataTest, KubernetesWebsiteWorkloadApiExamples) {
  const std::string dir = kTestData + "/data/kubernetes-website/workload-api/";
  std::istringstream in;
  auto loaded = LoadPaths({dir + "main-v1beta1_workload-with-priority-disruption.yaml",
                           dir + "main-v1alpha3_composite-gang-of-gangs.yaml"},
                          in);
  ASSERT_TRUE(loaded.has_value()) << loaded.error()[0].ToString();
  EXPECT_THAT(loaded->warnings, IsEmpty());
  ASSERT_EQ(loaded->objects.workloads.size(), 2u);
  const api::Workload& beta = loaded->objects.workloads[0];
  EXPECT_EQ(beta.api_version, "scheduling.k8s.io/v1beta1");
  EXPECT_EQ(api::NamespacedName(beta.meta), "some-ns/training-job-workload");
  EXPECT_EQ(beta.controller_ref->name, "training-job");
  ASSERT_EQ(beta.pod_group_templates.size(), 1u);
  EXPECT_EQ(beta.pod_group_templates[0].scheduling_policy.gang->min_count, 4);
  EXPECT_EQ(beta.pod_group_templates[0].priority_class_name, "high-priority");
  EXPECT_TRUE(beta.pod_group_templates[0].disruption_mode->all);
  const api::Workload& alpha = loaded->objects.workloads[1];
  EXPECT_EQ(alpha.api_version, "scheduling.k8s.io/v1alpha3");
  ASSERT_EQ(alpha.composite_pod_group_templates.size(), 1u);
  EXPECT_EQ(alpha.composite_pod_group_templates[0].scheduling_policy.gang->min_group_count, 2);
  EXPECT_EQ(alpha.composite_pod_group_templates[0].pod_group_templates.size(), 2u);
}

TEST(LoaderRealDataTest, KubernetesWebsiteOlderGenerationsAreSkipped) {
  const std::string dir = kTestData + "/data/kubernetes-website/workload-api/";
  std::istringstream in;
  auto loaded = LoadPaths({dir + "v1.35-v1alpha1_workload-and-pod-workloadRef.yaml",
                           dir + "v1.36-v1alpha2_podgroup-topology-constraint.yaml",
                           dir + "v1.36-v1alpha2_workload-podgroup-pod.yaml"},
                          in, kLenient);
  ASSERT_TRUE(loaded.has_value()) << loaded.error()[0].ToString();
  EXPECT_THAT(loaded->objects.workloads, IsEmpty());
  EXPECT_THAT(loaded->objects.pod_groups, IsEmpty());
  EXPECT_EQ(loaded->objects.pods.size(), 2u);  // Pods are v1 and load (workloadRef warns)
  EXPECT_THAT(loaded->warnings,
              ElementsAre(HasSubstr("unknown field \"spec.workloadRef\""),
                          HasSubstr("skipped 1 object(s) of scheduling.k8s.io/v1alpha1 "
                                    "Workload: scheduling.k8s.io/v1alpha1 was removed in v1.37"),
                          HasSubstr("skipped 2 object(s) of scheduling.k8s.io/v1alpha2 "
                                    "PodGroup: scheduling.k8s.io/v1alpha2 was removed in v1.37"),
                          HasSubstr("skipped 1 object(s) of scheduling.k8s.io/v1alpha2 "
                                    "Workload: scheduling.k8s.io/v1alpha2 was removed in v1.37")));
  EXPECT_EQ(loaded->objects.pods[1].pod_group_name, "training-worker-0");
}

TEST(LoaderRealDataTest, KubernetesWebsiteWholeFolderDoesNotCrash) {
  std::istringstream in;
  auto loaded = LoadPaths({kTestData + "/data/kubernetes-website/workload-api"}, in);
  // The *.fragment.yaml files are partial objects (no apiVersion/kind): errors, not crashes; the
  // v1.35 / v1.36 objects are errors naming `wasched convert` (and a v1.35 Pod's workloadRef an
  // unknown field).
  ASSERT_FALSE(loaded.has_value());
  for (const InputError& e : loaded.error()) {
    const bool old_generation = e.source.file.find("/v1.3") != std::string::npos;
    EXPECT_TRUE(e.source.file.ends_with(".fragment.yaml") || old_generation) << e.ToString();
    if (!e.source.file.ends_with(".fragment.yaml") && e.error.field == "apiVersion") {
      EXPECT_THAT(e.error.detail, HasSubstr("run `wasched convert")) << e.ToString();
    }
  }
}

// A Node left out for its errors (keep_valid_objects) while its allocatable lacked `pods`: the
// defaulted-pods note read `nodes.back()` of an empty list (validate crashed on `metadata:
// {name: true}`), or named the previous Node.
TEST(LoaderTest, FailedNodeWithDefaultedPodsIsNotNamedInTheNote) {
  const std::string bad = "apiVersion: v1\nkind: Node\nmetadata: {name: true}\n";
  LoadOptions options;
  options.keep_valid_objects = true;
  const auto alone = LoadString(bad, "f.yaml", options);
  ASSERT_TRUE(alone);
  EXPECT_TRUE(alone->objects.nodes.empty());
  ASSERT_FALSE(alone->object_errors.empty());
  EXPECT_EQ(alone->object_errors[0].ToString(),
            "f.yaml: document 1: Node: metadata.name: Invalid value: expected string, got boolean "
            "true");
  const std::string good =
      "apiVersion: v1\nkind: Node\nmetadata: {name: n1}\nstatus: {allocatable: {cpu: '1', "
      "pods: '110'}}\n---\n";
  const auto after = LoadString(good + bad, "f.yaml", options);
  ASSERT_TRUE(after);
  ASSERT_EQ(after->objects.nodes.size(), 1u);
  for (const std::string& w : after->warnings) EXPECT_THAT(w, Not(HasSubstr("n1"))) << w;
}

}  // namespace
}  // namespace wasched::codec

namespace wasched::codec {
namespace {

// keep_valid_objects (validate): an object with an error is left out and its errors are
// reported, every other object loads, as the API server takes each object on its own.
TEST(LoaderTest, KeepValidObjectsLeavesOutOnlyTheFailingOne) {
  const std::string text = R"(apiVersion: batch/v1
kind: Job
metadata: {name: bad}
spec: {paralellism: 2, template: {spec: {containers: [{name: c, image: x}]}}}
---
apiVersion: batch/v1
kind: Job
metadata: {name: good}
spec: {parallelism: 2, template: {spec: {containers: [{name: c, image: x}]}}}
)";
  EXPECT_FALSE(LoadString(text, "f.yaml"));  // the default refuses the whole input
  LoadOptions options;
  options.keep_valid_objects = true;
  const auto loaded = LoadString(text, "f.yaml", options);
  ASSERT_TRUE(loaded);
  ASSERT_EQ(loaded->objects.jobs.size(), 1u);
  EXPECT_EQ(loaded->objects.jobs[0].meta.name, "good");
  ASSERT_EQ(loaded->object_errors.size(), 1u);
  EXPECT_EQ(loaded->object_errors[0].ToString(),
            "f.yaml: document 1: Job default/bad: unknown field \"spec.paralellism\"");
}

}  // namespace
}  // namespace wasched::codec
