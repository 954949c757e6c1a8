// File: codec/decode_dra_test.cc
//
// The resource.k8s.io/v1 decoders end to end through LoadPaths / LoadString: the real
// ResourceSlice dumps and examples of tests/data/dra (dra-example-driver, k8s-ai-conformance)
// load and decode every field wasched reads; bad values are located errors; and then
// ValidateForSchedule's DRA checks (dangling DeviceClass / claim / template, unsupported CEL).
#include "codec/decode_dra.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <sstream>

#include "codec/loader.h"
#include "validation/dra_validation.h"
#include "validation/object_set_validation.h"

namespace wasched::codec {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

const std::string kDra = std::string(WASCHED_TESTDATA_DIR) + "/data/dra/";

// (--skip-unknown-kinds: the example driver's folder holds a v1.36 scheduling.k8s.io/v1alpha2
// PodGroup, transcribed verbatim, next to its DRA objects.)
LoadResult Load(const std::vector<std::string>& paths) {
  std::istringstream in;
  auto loaded = LoadPaths(paths, in, LoadOptions{.skip_unknown_kinds = true});
  if (!loaded) {
    std::string all;
    for (const InputError& e : loaded.error()) all += e.ToString() + "\n";
    ADD_FAILURE() << all;
    return {};
  }
  return std::move(*loaded);
}

std::vector<std::string> Strings(const InputErrors& errors) {
  std::vector<std::string> out;
  for (const InputError& e : errors) out.push_back(e.ToString());
  return out;
}

TEST(DecodeDra, ExampleDriverResourceSliceDump) {
  const LoadResult r = Load({kDra + "dra-example-driver/resourceslice-list-kubectl-output.yaml"});
  ASSERT_EQ(r.objects.resource_slices.size(), 1u);
  const api::ResourceSlice& s = r.objects.resource_slices[0];
  EXPECT_EQ(s.driver, "gpu.example.com");
  EXPECT_EQ(s.node_name, "dra-example-driver-cluster-worker");
  EXPECT_EQ(s.pool.name, "dra-example-driver-cluster-worker");
  EXPECT_EQ(s.pool.resource_slice_count, 1);
  ASSERT_EQ(s.devices.size(), 8u);
  EXPECT_EQ(s.devices[7].name, "gpu-7");
  const api::Device& d = s.devices[0];
  ASSERT_EQ(d.attributes.size(), 4u);
  EXPECT_EQ(d.attributes[0].first, "driverVersion");
  EXPECT_EQ(d.attributes[0].second.kind, api::DeviceAttribute::Kind::kVersion);
  EXPECT_EQ(d.attributes[0].second.version.major, 1u);
  EXPECT_EQ(d.attributes[1].second.int_value, 0);
  EXPECT_EQ(d.attributes[2].second.string_value, "LATEST-GPU-MODEL");
  ASSERT_EQ(d.capacity.size(), 1u);
  EXPECT_EQ(d.capacity[0].second, *api::Quantity::Parse("80Gi"));
}

TEST(DecodeDra, ConformanceDumpsFromRealClustersLoadAndValidate) {
  const LoadResult r = Load({kDra + "k8s-ai-conformance", kDra + "classes"});
  EXPECT_EQ(r.objects.resource_slices.size(), 2u + 8u);  // v1.36: 2 nodes; v1.35: 4 nodes × 2 drivers
  ASSERT_EQ(r.objects.resource_claims.size(), 2u);
  const api::ResourceClaim* allocated = nullptr;
  for (const auto& c : r.objects.resource_claims) {
    if (c.allocation) allocated = &c;
  }
  ASSERT_NE(allocated, nullptr);
  ASSERT_EQ(allocated->allocation->size(), 1u);
  EXPECT_EQ((*allocated->allocation)[0].device, "gpu-0");
  EXPECT_EQ((*allocated->allocation)[0].pool, "conformance-test-np1-qcqc8-bpdtl-wv2gs");
  ASSERT_EQ(allocated->reserved_for.size(), 1u);
  EXPECT_EQ(allocated->reserved_for[0].resource, "pods");
  EXPECT_EQ(r.objects.resource_claim_templates.size(), 2u);
  const api::ExactDeviceRequest& e = *r.objects.resource_claim_templates[0].spec.requests[0].exactly;
  EXPECT_EQ(e.device_class_name, "gpu.nvidia.com");
  EXPECT_EQ(e.count, 1);
  // The pod of the OpenShift example references its claim by name.
  ASSERT_EQ(r.objects.pods.size(), 1u);
  ASSERT_EQ(r.objects.pods[0].resource_claims.size(), 1u);
  EXPECT_EQ(r.objects.pods[0].resource_claims[0].resource_claim_name, "gpu-claim");
  EXPECT_EQ(r.objects.pods[0].containers[0].claims[0].name, "gpu");
  EXPECT_THAT(Strings(validation::ValidateForSchedule(r.objects)), IsEmpty());
}

TEST(DecodeDra, ExampleDriverExamplesValidateWithTheirDeviceClass) {
  const LoadResult r = Load({kDra + "dra-example-driver", kDra + "classes"});
  EXPECT_EQ(r.objects.resource_claim_templates.size(), 5u);
  // prioritized alternatives keep their order and names
  const api::ResourceClaimTemplate* prioritized = nullptr;
  for (const auto& t : r.objects.resource_claim_templates) {
    if (t.meta.name == "prioritized-gpu") prioritized = &t;
  }
  ASSERT_NE(prioritized, nullptr);
  ASSERT_EQ(prioritized->spec.requests[0].first_available.size(), 3u);
  EXPECT_EQ(prioritized->spec.requests[0].first_available[2].name, "older-gpu");
  EXPECT_THAT(Strings(validation::ValidateForSchedule(r.objects)), IsEmpty());
}

TEST(DecodeDra, BadValuesAreLocatedErrors) {
  auto loaded = LoadString(R"(apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: s}
spec:
  driver: d
  nodeName: n1
  pool: {name: p, resourceSliceCount: 1}
  devices:
  - name: a
    attributes:
      v: {version: "1.0"}
      both: {int: 1, string: x}
    capacity:
      memory: {value: 5Xi}
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: c}
spec:
  devices:
    requests:
    - name: r
      exactly: {deviceClassName: x, allocationMode: Some}
)",
                           "f.yaml");
  ASSERT_FALSE(loaded);
  EXPECT_THAT(
      Strings(loaded.error()),
      ElementsAre(
          "f.yaml: document 1: ResourceSlice s: spec.devices[0].attributes[v].version: Invalid "
          "value: \"1.0\": must be a string compatible with semver.org spec 2.0.0",
          "f.yaml: document 1: ResourceSlice s: spec.devices[0].attributes[both]: Invalid value: "
          "exactly one value must be specified, not several",
          HasSubstr("spec.devices[0].capacity[memory].value: Invalid value: \"5Xi\""),
          "f.yaml: document 2: ResourceClaim default/c: spec.devices.requests[0].exactly."
          "allocationMode: Unsupported value: \"Some\": supported values: \"All\", "
          "\"ExactCount\""));
}

TEST(DecodeDra, DanglingReferencesAndUnsupportedCelAreClearErrors) {
  auto loaded = LoadString(R"(apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata: {name: gpu}
spec:
  selectors:
  - cel: {expression: "device.driver.lowerAscii() == 'x'"}
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaimTemplate
metadata: {name: t, namespace: ns}
spec:
  spec:
    devices:
      requests:
      - name: r
        exactly:
          deviceClassName: ghost
          selectors:
          - cel: {expression: "device.attributes['x'].y =="}
---
apiVersion: v1
kind: Pod
metadata: {name: p, namespace: ns}
spec:
  containers:
  - name: c
    image: registry.k8s.io/pause:3.10
    resources:
      claims: [{name: other}]
  resourceClaims:
  - {name: a, resourceClaimTemplateName: t}
  - {name: b, resourceClaimName: missing}
)",
                           "f.yaml");
  ASSERT_TRUE(loaded);
  InputErrors warnings;
  EXPECT_THAT(
      Strings(validation::ValidateForSchedule(loaded->objects, FeatureGates{}, &warnings)),
      ElementsAre(
          HasSubstr("spec.spec.devices.requests[0].exactly.selectors[0].cel.expression: Invalid "
                    "value: \"device.attributes['x'].y ==\": compilation failed: Syntax error"),
          "f.yaml: document 3: Pod ns/p: spec.resourceClaims[1].resourceClaimName: Not found: "
          "\"missing\"",
          "f.yaml: document 3: Pod ns/p: spec.containers[0].resources.claims[0].name: Not found: "
          "\"other\": must be one of the names in pod.spec.resourceClaims"));
  // Valid CEL outside wasched's subset is a warning naming field and construct (QA1 finding 11).
  // A DeviceClass missing from the input is a warning: the API server accepts the claim (observed
  // on v1.37.2), allocation waits for the class.
  EXPECT_THAT(Strings(warnings),
              ElementsAre("f.yaml: document 1: DeviceClass gpu: spec.selectors[0].cel.expression: "
                          "Unsupported value: \"device.driver.lowerAscii() == 'x'\": function "
                          "\"lowerAscii\" is not supported by wasched; pods whose claims use it "
                          "are not scheduled",
                          "f.yaml: document 2: ResourceClaimTemplate ns/t: spec.spec.devices."
                          "requests[0].exactly.deviceClassName: Not found: \"ghost\": no "
                          "DeviceClass of this name in the input; the API server accepts the "
                          "claim, and pods that use it stay pending until the DeviceClass exists"));
}

// QA1 finding 11: upstream's compile.go accepts a selector whose type is bool or dyn; a
// statically typed non-bool is Invalid at create with upstream's text; valid CEL wasched does not
// evaluate (the `exists` macro) is a warning, and the pods depending on it are marked so that the
// scheduler leaves them pending as Unsupported; a syntax error stays an error.
TEST(DecodeDra, CelTypesUnsupportedConstructsAndSyntaxErrors) {
  auto loaded = LoadString(R"yaml(apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata: {name: gpu}
spec:
  selectors: [{cel: {expression: "device.driver == 'gpu.example.com'"}}]
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
          deviceClassName: gpu
          selectors: [{cel: {expression: "device.attributes.exists(k, k == 'x')"}}]
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaimTemplate
metadata: {name: typed, namespace: default}
spec:
  spec:
    devices:
      requests:
      - name: gpu
        exactly:
          deviceClassName: gpu
          selectors:
          - cel: {expression: "device.driver"}
          - cel: {expression: "device.driver =="}
---
apiVersion: v1
kind: Pod
metadata: {name: p0, namespace: default}
spec:
  containers: [{name: c, image: registry.k8s.io/pause:3.10, resources: {claims: [{name: gpu}]}}]
  resourceClaims: [{name: gpu, resourceClaimTemplateName: exists}]
---
apiVersion: v1
kind: Pod
metadata: {name: p1, namespace: default}
spec:
  containers: [{name: c, image: registry.k8s.io/pause:3.10}]
)yaml",
                           "f.yaml");
  ASSERT_TRUE(loaded);
  InputErrors warnings;
  EXPECT_THAT(
      Strings(validation::ValidateForSchedule(loaded->objects, FeatureGates{}, &warnings)),
      ElementsAre(
          "f.yaml: document 3: ResourceClaimTemplate default/typed: spec.spec.devices."
          "requests[0].exactly.selectors[0].cel.expression: Invalid value: \"device.driver\": "
          "must evaluate to bool or the unknown type, not string",
          HasSubstr("selectors[1].cel.expression: Invalid value: \"device.driver ==\": "
                    "compilation failed: Syntax error")));
  EXPECT_THAT(Strings(warnings),
              ElementsAre("f.yaml: document 2: ResourceClaimTemplate default/exists: spec.spec."
                          "devices.requests[0].exactly.selectors[0].cel.expression: Unsupported "
                          "value: \"device.attributes.exists(k, k == 'x')\": function \"exists\" "
                          "is not supported by wasched; pods whose claims use it are not "
                          "scheduled"));
  EXPECT_EQ(validation::MarkPodsWithUnsupportedSelectors(&loaded->objects), 1);
  EXPECT_THAT(loaded->objects.pods[0].unsupported_constraints,
              ElementsAre("spec.resourceClaims[0] (CEL selector of ResourceClaimTemplate "
                          "default/exists: spec.spec.devices.requests[0].exactly.selectors[0]."
                          "cel.expression: function \"exists\" is not supported by wasched)"));
  EXPECT_THAT(loaded->objects.pods[1].unsupported_constraints, IsEmpty());
}

// QA1 finding 12: an over-long expression is TooLong without its value, as upstream's
// validateCELSelector (field.TooLong(path, "", CELSelectorExpressionMaxLength)).
TEST(DecodeDra, OverLongCelExpressionIsTooLongWithoutTheValue) {
  const std::string expr = std::string(200 * 1024, '(');
  auto loaded = LoadString("apiVersion: resource.k8s.io/v1\nkind: DeviceClass\nmetadata: {name: "
                           "gpu}\nspec:\n  selectors: [{cel: {expression: \"" + expr + "\"}}]\n",
                           "f.yaml");
  ASSERT_TRUE(loaded);
  EXPECT_THAT(Strings(validation::ValidateForSchedule(loaded->objects)),
              ElementsAre("f.yaml: document 1: DeviceClass gpu: spec.selectors[0].cel.expression: "
                          "Too long: may not be more than 10240 bytes"));
}

// QA1 finding 18: upstream ValidateDeviceClass (metadata.name a DNS-1123 subdomain),
// validateDeviceAllocationMode (`count` with All), ValidateNonnegativeQuantity on capacities, and
// `spec.config` a list (decode error otherwise).
TEST(DecodeDra, UpstreamShapeAndValueChecks) {
  auto bad_name = LoadString(R"(apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata: {name: "Bad_Name"}
spec:
  selectors: [{cel: {expression: "true"}}]
)",
                             "f.yaml");
  ASSERT_TRUE(bad_name);
  EXPECT_THAT(Strings(validation::ValidateForSchedule(bad_name->objects)),
              ElementsAre(HasSubstr(
                  "f.yaml: document 1: DeviceClass Bad_Name: metadata.name: Invalid value: "
                  "\"Bad_Name\": a lowercase RFC 1123 subdomain")));

  auto decode_errors = LoadString(R"(apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata: {name: gpu}
spec:
  config: 7
---
apiVersion: resource.k8s.io/v1
kind: ResourceSlice
metadata: {name: s}
spec:
  driver: gpu.example.com
  nodeName: n0
  pool: {name: p, generation: 0, resourceSliceCount: 1}
  devices:
  - {name: e, capacity: {memory: {value: "-1Gi"}}}
)",
                                  "f.yaml");
  ASSERT_FALSE(decode_errors);
  EXPECT_THAT(
      Strings(decode_errors.error()),
      ElementsAre(HasSubstr("f.yaml: document 1: DeviceClass gpu: spec.config: Invalid value"),
                  "f.yaml: document 2: ResourceSlice s: spec.devices[0].capacity[memory].value: "
                  "Invalid value: \"-1Gi\": must be greater than or equal to 0"));
}

// `count` with allocationMode All is a validation error (upstream validateDeviceAllocationMode),
// not a decode error: it no longer hides the other errors of the input (known gap, closed).
TEST(DecodeDra, CountWithAllIsReportedBesideOtherErrors) {
  auto loaded = LoadString(R"(apiVersion: resource.k8s.io/v1
kind: DeviceClass
metadata: {name: gpu}
---
apiVersion: resource.k8s.io/v1
kind: ResourceClaim
metadata: {name: c, namespace: default}
spec:
  devices:
    requests:
    - {name: r, exactly: {deviceClassName: gpu, allocationMode: All, count: 3}}
    - {name: s, exactly: {deviceClassName: gpu, allocationMode: All}}
    - {name: t, exactly: {deviceClassName: gpu, count: 0}}
)",
                           "f.yaml");
  ASSERT_TRUE(loaded);
  InputErrors warnings;
  EXPECT_THAT(
      Strings(validation::ValidateForSchedule(loaded->objects, FeatureGates{}, &warnings)),
      ElementsAre("f.yaml: document 2: ResourceClaim default/c: spec.devices.requests[0].exactly."
                  "count: Invalid value: 3: must not be specified when allocationMode is 'All'",
                  "f.yaml: document 2: ResourceClaim default/c: spec.devices.requests[2].exactly."
                  "count: Invalid value: 0: must be greater than zero"));
}

}  // namespace
}  // namespace wasched::codec
