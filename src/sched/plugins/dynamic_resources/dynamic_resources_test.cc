// Tests of the DynamicResources plugin: per-pod claims from templates, shared ResourceClaims,
// claims allocated in the input, PodGroup-level claims (KEP-5729) with the gate on and off,
// Reserve / RevertTo, and upstream's reasons.
#include "sched/plugins/dynamic_resources/dynamic_resources.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "codec/loader.h"
#include "util/name_generation.h"

namespace wasched::sched {
namespace {

constexpr const char* kCluster = R"(apiVersion: v1
kind: Node
metadata: {name: n0}
status: {allocatable: {cpu: "8", pods: "10"}}
---
apiVersion: v1
kind: Node
metadata: {name: n1}
status: {allocatable: {cpu: "8", pods: "10"}}
---
apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata: {name: gpu.example.com}
spec:
  selectors:
  - cel: {expression: "device.driver == 'gpu.example.com'"}
---
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: n0-gpus}
spec:
  driver: gpu.example.com
  nodeName: n0
  pool: {name: n0, generation: 1, resourceSliceCount: 1}
  devices: [{name: gpu-0}, {name: gpu-1}]
---
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: n1-gpus}
spec:
  driver: gpu.example.com
  nodeName: n1
  pool: {name: n1, generation: 1, resourceSliceCount: 1}
  devices: [{name: gpu-0}]
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaimTemplate
metadata: {name: one-gpu}
spec:
  spec:
    devices:
      requests:
      - name: gpu
        exactly: {deviceClassName: gpu.example.com}
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: shared}
spec:
  devices:
    requests:
    - name: gpu
      exactly: {deviceClassName: gpu.example.com}
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: held}
spec:
  devices:
    requests:
    - name: gpu
      exactly: {deviceClassName: gpu.example.com}
status:
  allocation:
    devices:
      results: [{request: gpu, driver: gpu.example.com, pool: n1, device: gpu-0}]
---
apiVersion: scheduling.k8s.io/v1beta1
kind: PodGroup
metadata: {name: g}
spec:
  schedulingPolicy: {gang: {minCount: 2}}
  resourceClaims: [{name: gpu, resourceClaimTemplateName: one-gpu}]
)";

std::string Pod(const std::string& name, const std::string& claims, const std::string& group = "") {
  std::string s = "---\napiVersion: v1\nkind: Pod\nmetadata: {name: " + name +
                  "}\nspec:\n  containers: [{name: c}]\n  resourceClaims: " + claims + "\n";
  if (!group.empty()) s += "  schedulingGroup: {podGroupName: " + group + "}\n";
  return s;
}

struct Env {
  api::ObjectSet objects;
  std::vector<const api::Node*> nodes;
  std::unique_ptr<DynamicResources> plugin;
  explicit Env(const std::string& pods, FeatureGates gates = {}) {
    auto loaded = codec::LoadString(std::string(kCluster) + pods, "t.yaml");
    EXPECT_TRUE(loaded.has_value());
    if (loaded) objects = std::move(loaded->objects);
    for (const api::Node& n : objects.nodes) nodes.push_back(&n);
    plugin = std::make_unique<DynamicResources>(objects, nodes, gates);
  }
  const api::Pod& pod(size_t i) const { return objects.pods[i]; }
};

std::vector<std::string> Summary(const std::vector<ClaimAllocationResult>& results) {
  std::vector<std::string> out;
  for (const auto& r : results) {
    std::string s = r.claim + " (" + r.owner + "):";
    for (const auto& d : r.devices) s += " " + d.request + "=" + d.pool + "/" + d.device;
    out.push_back(s);
  }
  return out;
}

// Generated: the claim wasched makes for `owner`'s template entry `entry` in namespace default:
// the resourceclaim controller's generateName "<owner>-<entry>-" plus 5 characters derived from
// kind, owner and entry (first attempt).
std::string Generated(const std::string& kind, const std::string& owner, const std::string& entry) {
  return "default/" + GenerateName(owner + "-" + entry + "-",
                                   "ResourceClaim/default/" + kind + "/" + owner + "/" + entry);
}

TEST(DynamicResources, PerPodClaimsFromTemplatesTakeOneDeviceEach) {
  Env env(Pod("a", "[{name: gpu, resourceClaimTemplateName: one-gpu}]") +
          Pod("b", "[{name: gpu, resourceClaimTemplateName: one-gpu}]") +
          Pod("c", "[{name: gpu, resourceClaimTemplateName: one-gpu}]"));
  DynamicResources& p = *env.plugin;
  EXPECT_TRUE(p.PreFilter(env.pod(0)).IsSuccess());
  // n1's only GPU is held by the claim "held", allocated in the input.
  EXPECT_EQ(p.Filter(env.pod(0), 1).reasons().at(0), "cannot allocate all claims");
  ASSERT_TRUE(p.Filter(env.pod(0), 0).IsSuccess());
  ASSERT_TRUE(p.Reserve(env.pod(0), 0));
  ASSERT_TRUE(p.Reserve(env.pod(1), 0));
  EXPECT_FALSE(p.Filter(env.pod(2), 0).IsSuccess());
  EXPECT_FALSE(p.Reserve(env.pod(2), 0));
  EXPECT_THAT(Summary(p.Allocations()),
              testing::ElementsAre(Generated("Pod", "a", "gpu") + " (Pod default/a): gpu=n0/gpu-0",
                                   Generated("Pod", "b", "gpu") + " (Pod default/b): gpu=n0/gpu-1"));
  EXPECT_TRUE(p.Verify());
}

TEST(DynamicResources, SharedClaimPinsLaterPodsToItsNode) {
  Env env(Pod("a", "[{name: x, resourceClaimName: shared}]") +
          Pod("b", "[{name: z, resourceClaimName: shared}]") +
          Pod("c", "[{name: x, resourceClaimName: held}]"));
  DynamicResources& p = *env.plugin;
  ASSERT_TRUE(p.Reserve(env.pod(0), 0));
  EXPECT_TRUE(p.Filter(env.pod(1), 0).IsSuccess());
  EXPECT_EQ(p.Filter(env.pod(1), 1).reasons().at(0), "resourceclaim not available on the node");
  // A claim allocated in the input restricts its pods to the devices' node.
  EXPECT_TRUE(p.Filter(env.pod(2), 1).IsSuccess());
  EXPECT_FALSE(p.Filter(env.pod(2), 0).IsSuccess());
  EXPECT_THAT(Summary(p.Allocations()), testing::ElementsAre("default/shared (): gpu=n0/gpu-0"));
}

TEST(DynamicResources, PodGroupClaimIsAllocatedOnceAndRevertedWithTheCycle) {
  Env env(Pod("m0", "[{name: gpu, resourceClaimTemplateName: one-gpu}]", "g") +
          Pod("m1", "[{name: gpu, resourceClaimTemplateName: one-gpu}]", "g") +
          Pod("solo", "[{name: other, resourceClaimTemplateName: one-gpu}]", "g"));
  DynamicResources& p = *env.plugin;
  const DynamicResources::Checkpoint mark = p.Mark();
  ASSERT_TRUE(p.Reserve(env.pod(0), 0));
  EXPECT_TRUE(p.Filter(env.pod(1), 0).IsSuccess());   // shares the group's claim
  EXPECT_FALSE(p.Filter(env.pod(1), 1).IsSuccess());  // must reach its device
  ASSERT_TRUE(p.Reserve(env.pod(1), 0));
  // "solo"'s entry has another name: not the group's entry, a claim of its own.
  ASSERT_TRUE(p.Reserve(env.pod(2), 0));
  EXPECT_THAT(Summary(p.Allocations()),
              testing::ElementsAre(
                  Generated("PodGroup", "g", "gpu") + " (PodGroup default/g): gpu=n0/gpu-0",
                  Generated("Pod", "solo", "other") + " (Pod default/solo): gpu=n0/gpu-1"));
  p.RevertTo(mark);
  EXPECT_THAT(p.Allocations(), testing::IsEmpty());
  EXPECT_TRUE(p.Filter(env.pod(1), 0).IsSuccess());
  EXPECT_TRUE(p.Verify());
}

TEST(DynamicResources, PodGroupClaimWithTheGateOffIsNeverCreated) {
  FeatureGates gates;
  gates.dra_workload_resource_claims = false;
  Env env(Pod("m0", "[{name: gpu, resourceClaimTemplateName: one-gpu}]", "g"), gates);
  const Status s = env.plugin->PreFilter(env.pod(0));
  EXPECT_EQ(s.code(), Code::kUnschedulableAndUnresolvable);
  EXPECT_EQ(s.reasons().at(0),
            "waiting for dynamic resource controller to create the resourceclaim \"m0-gpu\"");
}

// Issue 20 E.21: generated claim names never collide. Pod "a" with entry "b-c" and pod "a-b"
// with entry "c" share the generateName "a-b-c-" but get two claims, two devices.
TEST(DynamicResources, CollidingEntryNamesGetTheirOwnClaims) {
  Env env(Pod("a", "[{name: b-c, resourceClaimTemplateName: one-gpu}]") +
          Pod("a-b", "[{name: c, resourceClaimTemplateName: one-gpu}]"));
  DynamicResources& p = *env.plugin;
  ASSERT_TRUE(p.Reserve(env.pod(0), 0));
  ASSERT_TRUE(p.Reserve(env.pod(1), 0));
  const std::string first = Generated("Pod", "a", "b-c");
  const std::string second = Generated("Pod", "a-b", "c");
  ASSERT_NE(first, second);
  EXPECT_EQ(first.rfind("default/a-b-c-", 0), 0u);
  EXPECT_THAT(Summary(p.Allocations()),
              testing::UnorderedElementsAre(first + " (Pod default/a): gpu=n0/gpu-0",
                                            second + " (Pod default/a-b): gpu=n0/gpu-1"));
  EXPECT_TRUE(p.Verify());
}

// The same for PodGroup claims: group "x" entry "y-gpu" and group "x-y" entry "gpu".
TEST(DynamicResources, CollidingPodGroupEntryNamesGetTheirOwnClaims) {
  const std::string groups = R"(---
apiVersion: scheduling.k8s.io/v1beta1
kind: PodGroup
metadata: {name: x}
spec:
  schedulingPolicy: {gang: {minCount: 1}}
  resourceClaims: [{name: y-gpu, resourceClaimTemplateName: one-gpu}]
---
apiVersion: scheduling.k8s.io/v1beta1
kind: PodGroup
metadata: {name: x-y}
spec:
  schedulingPolicy: {gang: {minCount: 1}}
  resourceClaims: [{name: gpu, resourceClaimTemplateName: one-gpu}]
)";
  Env env(groups + Pod("m0", "[{name: y-gpu, resourceClaimTemplateName: one-gpu}]", "x") +
          Pod("m1", "[{name: gpu, resourceClaimTemplateName: one-gpu}]", "x-y"));
  DynamicResources& p = *env.plugin;
  ASSERT_TRUE(p.Reserve(env.pod(0), 0));
  ASSERT_TRUE(p.Reserve(env.pod(1), 0));
  EXPECT_THAT(Summary(p.Allocations()),
              testing::UnorderedElementsAre(
                  Generated("PodGroup", "x", "y-gpu") + " (PodGroup default/x): gpu=n0/gpu-0",
                  Generated("PodGroup", "x-y", "gpu") + " (PodGroup default/x-y): gpu=n0/gpu-1"));
}

// A user's ResourceClaim never becomes a pod's template claim, even under the very name the
// generation would pick (the name is derived again) or the old "<pod>-<entry>" one; both are
// allocated on n1 here, and the pod still gets a claim of its own, free to go to n0.
TEST(DynamicResources, UsersClaimOfTheSameNameIsNeverTakenOver) {
  const std::string taken = Generated("Pod", "p", "gpu").substr(std::string("default/").size());
  auto claim = [](const std::string& name) {
    return "---\napiVersion: resource.k8s.io/v1\nkind: ResourceClaim\nmetadata: {name: " + name +
           "}\nspec:\n  devices:\n    requests:\n    - name: gpu\n      exactly: {deviceClassName: "
           "gpu.example.com}\nstatus:\n  allocation:\n    devices:\n      results: [{request: "
           "gpu, driver: gpu.example.com, pool: n1, device: gpu-0}]\n";
  };
  Env env(claim(taken) + claim("p-gpu") + Pod("p", "[{name: gpu, resourceClaimTemplateName: one-gpu}]"));
  DynamicResources& p = *env.plugin;
  ASSERT_TRUE(p.Filter(env.pod(0), 0).IsSuccess());  // not pinned to n1 by a user's claim
  ASSERT_TRUE(p.Reserve(env.pod(0), 0));
  const std::vector<std::string> summary = Summary(p.Allocations());
  ASSERT_EQ(summary.size(), 1u);
  EXPECT_EQ(summary[0].rfind("default/p-gpu-", 0), 0u) << summary[0];
  EXPECT_NE(summary[0].rfind("default/" + taken + " ", 0), 0u) << summary[0];
  EXPECT_THAT(summary[0], testing::EndsWith(" (Pod default/p): gpu=n0/gpu-0"));
}

// A claim the pod owns (controller ownerReference, annotation resource.kubernetes.io/
// pod-claim-name = the entry; upstream findPodResourceClaim) is the pod's claim again.
TEST(DynamicResources, ClaimThePodOwnsIsTakenAgain) {
  const std::string owned = R"(---
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata:
  name: p-gpu-abcde
  annotations: {resource.kubernetes.io/pod-claim-name: gpu}
  ownerReferences: [{apiVersion: v1, kind: Pod, name: p, uid: "", controller: true}]
spec:
  devices:
    requests:
    - name: gpu
      exactly: {deviceClassName: gpu.example.com}
)";
  Env env(owned + Pod("p", "[{name: gpu, resourceClaimTemplateName: one-gpu}]"));
  DynamicResources& p = *env.plugin;
  ASSERT_TRUE(p.Reserve(env.pod(0), 0));
  EXPECT_THAT(Summary(p.Allocations()),
              testing::ElementsAre("default/p-gpu-abcde (Pod default/p): gpu=n0/gpu-0"));
}

// A PodGroup's claim recorded in its status.resourceClaimStatuses and controlled by it is the
// group's claim again; a claim of that name the group does not control is not.
TEST(DynamicResources, PodGroupClaimRecordedInItsStatusIsTakenAgain) {
  const std::string objects = R"(---
apiVersion: scheduling.k8s.io/v1beta1
kind: PodGroup
metadata: {name: h}
spec:
  schedulingPolicy: {gang: {minCount: 1}}
  resourceClaims: [{name: gpu, resourceClaimTemplateName: one-gpu}]
status:
  resourceClaimStatuses: [{name: gpu, resourceClaimName: h-gpu-made1}]
---
apiVersion: scheduling.k8s.io/v1beta1
kind: PodGroup
metadata: {name: k}
spec:
  schedulingPolicy: {gang: {minCount: 1}}
  resourceClaims: [{name: gpu, resourceClaimTemplateName: one-gpu}]
status:
  resourceClaimStatuses: [{name: gpu, resourceClaimName: not-mine}]
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata:
  name: h-gpu-made1
  ownerReferences: [{apiVersion: scheduling.k8s.io/v1beta1, kind: PodGroup, name: h, uid: "", controller: true}]
spec:
  devices:
    requests:
    - name: gpu
      exactly: {deviceClassName: gpu.example.com}
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: not-mine}
spec:
  devices:
    requests:
    - name: gpu
      exactly: {deviceClassName: gpu.example.com}
)";
  Env env(objects + Pod("m0", "[{name: gpu, resourceClaimTemplateName: one-gpu}]", "h") +
          Pod("m1", "[{name: gpu, resourceClaimTemplateName: one-gpu}]", "k"));
  DynamicResources& p = *env.plugin;
  ASSERT_TRUE(p.Reserve(env.pod(0), 0));
  ASSERT_TRUE(p.Reserve(env.pod(1), 0));
  EXPECT_THAT(Summary(p.Allocations()),
              testing::UnorderedElementsAre(
                  "default/h-gpu-made1 (PodGroup default/h): gpu=n0/gpu-0",
                  Generated("PodGroup", "k", "gpu") + " (PodGroup default/k): gpu=n0/gpu-1"));
}

}  // namespace
}  // namespace wasched::sched
