// File: cli/dra_cli_test.cc
//
// The CLI on DRA input. `validate` counts the resource.k8s.io objects (QA1 finding 18).
// `schedule` with DRA selectors outside wasched's CEL subset (QA1 finding 11): valid upstream CEL
// (the `exists` macro) is a warning, never an input error; the pods whose claims depend on it
// stay pending as Unsupported (like other hard constraints wasched does not model) and are never
// bound as if the selector matched; pods without such claims schedule normally.
#include "cli/app.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <map>
#include <sstream>
#include <string>
#include <vector>

namespace wasched::cli {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

constexpr const char* kInput = R"yaml(apiVersion: v1
kind: Node
metadata: {name: n0}
status:
  allocatable: {cpu: "8", memory: "32Gi", pods: "110"}
---
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: n0-gpu}
spec:
  driver: gpu.example.com
  nodeName: n0
  pool: {name: n0, generation: 0, resourceSliceCount: 1}
  devices:
  - name: gpu-0
    attributes:
      index: {int: 0}
---
apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata: {name: gpu.example.com}
spec:
  selectors:
  - cel:
      expression: "device.driver == 'gpu.example.com'"
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaimTemplate
metadata: {name: exists, namespace: default}
spec:
  spec:
    devices:
      requests:
      - name: gpu
        exactly:
          deviceClassName: gpu.example.com
          selectors:
          - cel:
              expression: "device.attributes.exists(k, k == 'x')"
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaimTemplate
metadata: {name: plain, namespace: default}
spec:
  spec:
    devices:
      requests:
      - name: gpu
        exactly: {deviceClassName: gpu.example.com}
---
apiVersion: v1
kind: Pod
metadata: {name: p0, namespace: default}
spec:
  containers:
  - name: c
    image: registry.k8s.io/pause:3.10
    resources:
      requests: {cpu: "1"}
      claims: [{name: gpu}]
  resourceClaims:
  - name: gpu
    resourceClaimTemplateName: exists
---
apiVersion: v1
kind: Pod
metadata: {name: p1, namespace: default}
spec:
  containers:
  - name: c
    image: registry.k8s.io/pause:3.10
    resources:
      requests: {cpu: "1"}
      claims: [{name: gpu}]
  resourceClaims:
  - name: gpu
    resourceClaimTemplateName: plain
)yaml";

TEST(DraCliTest, UnsupportedCelLeavesDependentPodsPendingAsUnsupported) {
  const std::vector<std::string> args = {"wasched", "schedule", "-f", "-", "-o", "json"};
  std::vector<const char*> argv;
  for (const std::string& a : args) argv.push_back(a.c_str());
  std::istringstream in(kInput);
  std::ostringstream out;
  std::ostringstream err;
  ASSERT_EQ(cli::Run(static_cast<int>(argv.size()), argv.data(), in, out, err), 0) << err.str();
  EXPECT_THAT(err.str(),
              HasSubstr("warning: -: document 4: ResourceClaimTemplate default/exists: spec.spec."
                        "devices.requests[0].exactly.selectors[0].cel.expression: Unsupported "
                        "value: \"device.attributes.exists(k, k == 'x')\": function \"exists\" is "
                        "not supported by wasched; pods whose claims use it are not scheduled"));
  const nlohmann::json doc = nlohmann::json::parse(out.str());
  // p1 gets the one GPU; p0 is not bound (it would be, were its selector ignored).
  ASSERT_EQ(doc["bindings"].size(), 1u) << doc.dump(2);
  EXPECT_EQ(doc["bindings"][0]["pod"], "default/p1");
  ASSERT_EQ(doc["pending"].size(), 1u);
  EXPECT_EQ(doc["pending"][0]["pod"], "default/p0");
  EXPECT_EQ(doc["pending"][0]["reason"], "Unsupported");
  EXPECT_THAT(doc["pending"][0]["message"].get<std::string>(),
              HasSubstr("spec.resourceClaims[0] (CEL selector of ResourceClaimTemplate "
                        "default/exists: spec.spec.devices.requests[0].exactly.selectors[0].cel."
                        "expression: function \"exists\" is not supported by wasched)"));
}

// Issue 20 A.3, kubernetes/kubernetes#138765: a gang of three on one node with devices big-0,
// small-0 and small-1. a and c ask firstAvailable [big, small], b exactly big. In queue order a
// takes big (its first choice) and b finds nothing: upstream fails the gang. The complete
// placement search tries the alternatives: a taking its later choice first gives a small-0, b
// big-0, c small-1. `--placement upstream` leaves the gang pending, as upstream.
constexpr const char* kFirstAvailableGang = R"yaml(apiVersion: v1
kind: Node
metadata: {name: n0}
status:
  allocatable: {cpu: "8", memory: "32Gi", pods: "110"}
---
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: n0-gpu}
spec:
  driver: gpu.example.com
  nodeName: n0
  pool: {name: n0, generation: 0, resourceSliceCount: 1}
  devices:
  - {name: big-0, attributes: {model: {string: big}}}
  - {name: small-0, attributes: {model: {string: small}}}
  - {name: small-1, attributes: {model: {string: small}}}
---
apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata: {name: gpu.example.com}
spec:
  selectors:
  - cel: {expression: "device.driver == 'gpu.example.com'"}
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaimTemplate
metadata: {name: big-or-small, namespace: default}
spec:
  spec:
    devices:
      requests:
      - name: gpu
        firstAvailable:
        - name: big
          deviceClassName: gpu.example.com
          selectors: [{cel: {expression: "device.attributes['gpu.example.com'].model == 'big'"}}]
        - name: small
          deviceClassName: gpu.example.com
          selectors: [{cel: {expression: "device.attributes['gpu.example.com'].model == 'small'"}}]
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaimTemplate
metadata: {name: big, namespace: default}
spec:
  spec:
    devices:
      requests:
      - name: gpu
        exactly:
          deviceClassName: gpu.example.com
          selectors: [{cel: {expression: "device.attributes['gpu.example.com'].model == 'big'"}}]
---
apiVersion: scheduling.k8s.io/v1beta1
kind: PodGroup
metadata: {name: g, namespace: default}
spec:
  schedulingPolicy: {gang: {minCount: 3}}
)yaml";

std::string GangPod(const std::string& name, const std::string& tmpl) {
  return "---\napiVersion: v1\nkind: Pod\nmetadata: {name: " + name +
         ", namespace: default}\nspec:\n  schedulingGroup: {podGroupName: g}\n  containers:\n"
         "  - name: c\n    image: registry.k8s.io/pause:3.10\n    resources:\n      requests: {cpu: \"1\"}\n      claims: [{name: gpu}]\n"
         "  resourceClaims:\n  - name: gpu\n    resourceClaimTemplateName: " +
         tmpl + "\n";
}

nlohmann::json ScheduleJson(const std::string& input, const std::vector<std::string>& extra) {
  std::vector<std::string> args = {"wasched", "schedule", "-f", "-", "-o", "json"};
  args.insert(args.end(), extra.begin(), extra.end());
  std::vector<const char*> argv;
  for (const std::string& a : args) argv.push_back(a.c_str());
  std::istringstream in(input);
  std::ostringstream out;
  std::ostringstream err;
  EXPECT_EQ(cli::Run(static_cast<int>(argv.size()), argv.data(), in, out, err), 0) << err.str();
  return nlohmann::json::parse(out.str());
}

TEST(DraCliTest, GangTriesFirstAvailableAlternativesUnlessPlacementIsUpstream) {
  const std::string input = std::string(kFirstAvailableGang) + GangPod("a", "big-or-small") +
                            GangPod("b", "big") + GangPod("c", "big-or-small");
  const nlohmann::json complete = ScheduleJson(input, {});
  ASSERT_EQ(complete["bindings"].size(), 3u) << complete.dump(2);
  std::map<std::string, std::string> device_of;  // owner → "request=device"
  for (const auto& a : complete["allocations"]) {
    ASSERT_EQ(a["devices"].size(), 1u) << a.dump();
    device_of[a["owner"].get<std::string>()] = a["devices"][0]["request"].get<std::string>() +
                                               "=" + a["devices"][0]["device"].get<std::string>();
  }
  EXPECT_EQ(device_of, (std::map<std::string, std::string>{{"Pod default/a", "gpu/small=small-0"},
                                                           {"Pod default/b", "gpu=big-0"},
                                                           {"Pod default/c", "gpu/small=small-1"}}));

  const nlohmann::json upstream = ScheduleJson(input, {"--placement", "upstream"});
  EXPECT_TRUE(upstream["bindings"].empty()) << upstream.dump(2);
  EXPECT_FALSE(upstream.contains("allocations"));
  ASSERT_EQ(upstream["pending"].size(), 3u);
  for (const auto& p : upstream["pending"]) {
    EXPECT_EQ(p["reason"], "Unschedulable");
    EXPECT_EQ(p["message"],
              "Pod group default/g: 2 of 3 pods fit, minCount 3; for the first pod that did not "
              "fit (after 1 of the group's pods were placed): 0/1 nodes are available: 1 cannot "
              "allocate all claims. pod group preemption: No preemption victims found for "
              "incoming preemptor");
  }
}

// Preemption for a pod with a DRA claim: only nodes where its claims can be allocated are
// candidates, and the preemptor binds where its device is (differential suite, random r1-0359 /
// r1-0469 against v1.37.2: wasched evicted on, then bound to, nodes without the claimed GPU).
constexpr const char* kPreemptForClaim = R"yaml(apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {name: low}
value: 10
---
apiVersion: scheduling.k8s.io/v1
kind: PriorityClass
metadata: {name: high}
value: 1000
---
apiVersion: v1
kind: Node
metadata: {name: a-cpu-only}
status:
  allocatable: {cpu: "4", memory: "8Gi", pods: "110"}
---
apiVersion: v1
kind: Node
metadata: {name: b-gpu}
status:
  allocatable: {cpu: "4", memory: "8Gi", pods: "110"}
---
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: b-gpu}
spec:
  driver: gpu.example.com
  nodeName: b-gpu
  pool: {name: b-gpu, generation: 0, resourceSliceCount: 1}
  devices:
  - name: gpu-0
---
apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata: {name: gpu.example.com}
spec:
  selectors:
  - cel:
      expression: "device.driver == 'gpu.example.com'"
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaimTemplate
metadata: {name: one-gpu, namespace: default}
spec:
  spec:
    devices:
      requests:
      - name: gpu
        exactly:
          deviceClassName: gpu.example.com
---
apiVersion: v1
kind: Pod
metadata: {name: low-a, namespace: default}
spec:
  nodeName: a-cpu-only
  priorityClassName: low
  containers:
  - {name: c, image: registry.k8s.io/pause:3.10, resources: {requests: {cpu: "3"}}}
---
apiVersion: v1
kind: Pod
metadata: {name: low-b, namespace: default}
spec:
  nodeName: b-gpu
  priorityClassName: low
  containers:
  - {name: c, image: registry.k8s.io/pause:3.10, resources: {requests: {cpu: "3"}}}
---
apiVersion: v1
kind: Pod
metadata: {name: trainer, namespace: default}
spec:
  priorityClassName: high
  resourceClaims:
  - {name: gpu, resourceClaimTemplateName: one-gpu}
  containers:
  - name: c
    image: registry.k8s.io/pause:3.10
    resources:
      requests: {cpu: "2"}
      claims: [{name: gpu}]
)yaml";

TEST(DraCliTest, PreemptionForAClaimOnlyConsidersNodesWithTheDevice) {
  const nlohmann::json r = ScheduleJson(kPreemptForClaim, {"--placement", "upstream"});
  ASSERT_EQ(r["bindings"].size(), 1u) << r.dump(2);
  EXPECT_EQ(r["bindings"][0]["pod"], "default/trainer");
  EXPECT_EQ(r["bindings"][0]["node"], "b-gpu");
  ASSERT_EQ(r["evictions"].size(), 1u) << r.dump(2);
  EXPECT_EQ(r["evictions"][0]["pod"], "default/low-b");
}

TEST(DraCliTest, ValidateCountsDraObjects) {
  const std::vector<std::string> args = {"wasched", "validate", "-f", "-"};
  std::vector<const char*> argv;
  for (const std::string& a : args) argv.push_back(a.c_str());
  std::istringstream in(kInput);
  std::ostringstream out;
  std::ostringstream err;
  ASSERT_EQ(cli::Run(static_cast<int>(argv.size()), argv.data(), in, out, err), 0) << err.str();
  // Node, ResourceSlice, DeviceClass, 2 ResourceClaimTemplates, 2 Pods; the report holds the
  // warnings too, first (issue 20 item 6).
  EXPECT_THAT(out.str(), HasSubstr("\nvalid: 7 object(s), 0 errors, 1 warning(s)\n"));
  EXPECT_THAT(out.str(), ::testing::StartsWith("warning: -: document 4: ResourceClaimTemplate "
                                               "default/exists: "));
  EXPECT_THAT(out.str(), HasSubstr("function \"exists\" is not supported by wasched"));
}

// Issue 20 items 20 and 27: a ResourceSlice's names and attribute values follow upstream's rules
// (pkg/apis/resource/validation: validatePoolName, validateDeviceName = DNS-1123 label,
// validateQualifiedName of attribute keys, DeviceAttributeMaxValueLength = 64 for string and
// version values). Quotes, newlines and control bytes in names are errors, never table text.
TEST(DraCliTest, ResourceSliceNamesAndAttributeLengthsAreValidatedAsUpstream) {
  const std::string input = R"yaml(apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: bad}
spec:
  driver: gpu.example.com
  nodeName: n0
  pool: {name: "pool\"x/ok", generation: 0, resourceSliceCount: 1}
  devices:
  - name: "gpu\n0"
    attributes:
      model: {string: ")yaml" + std::string(65, 'm') + R"yaml("}
      ok: {string: ")yaml" + std::string(64, 'm') + R"yaml("}
      "bad key": {int: 1}
      "Example.com/x": {int: 1}
)yaml";
  const std::vector<std::string> args = {"wasched", "validate", "-f", "-"};
  std::vector<const char*> argv;
  for (const std::string& a : args) argv.push_back(a.c_str());
  std::istringstream in(input);
  std::ostringstream out;
  std::ostringstream err;
  ASSERT_EQ(cli::Run(static_cast<int>(argv.size()), argv.data(), in, out, err), 1) << err.str();
  const std::string e = out.str();  // validate's report
  EXPECT_THAT(e, HasSubstr("ResourceSlice bad: spec.pool.name: Invalid value: \"pool\\\"x\": a "
                           "lowercase RFC 1123 subdomain must consist of"));
  EXPECT_THAT(e, HasSubstr("ResourceSlice bad: spec.devices[0].name: Invalid value: \"gpu\\n0\": "
                           "a lowercase RFC 1123 label must consist of"));
  EXPECT_THAT(e, HasSubstr("spec.devices[0].attributes[model].string: Too long: may not be more "
                           "than 64 bytes"));
  EXPECT_THAT(e, Not(HasSubstr("attributes[ok]")));
  EXPECT_THAT(e, HasSubstr("spec.devices[0].attributes: Invalid value: \"bad key\": a valid C "
                           "identifier must start with alphabetic character or '_'"));
  EXPECT_THAT(e, Not(HasSubstr("\"Example.com\"")));  // the domain is checked lower-cased
  // No raw newline inside any line of the report.
  EXPECT_THAT(e, Not(HasSubstr("gpu\n0")));
}

}  // namespace
}  // namespace wasched::cli
