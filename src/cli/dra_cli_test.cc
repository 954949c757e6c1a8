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
