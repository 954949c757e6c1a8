// File: codec/decode_batch_test.cc
//
// batch/v1 Job through LoadString: every decoded field, the older alpha spellings of the scheduling
// fields refused as unknown fields, and malformed values reported at their paths.
#include "codec/decode_batch.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "codec/loader.h"

namespace wasched::codec {
namespace {

using ::testing::HasSubstr;
using ::testing::IsEmpty;

LoadResult MustLoad(const std::string& text) {
  auto loaded = LoadString(text, "job.yaml");
  if (!loaded) {
    std::string all;
    for (const InputError& e : loaded.error()) all += e.ToString() + "\n";
    ADD_FAILURE() << "unexpected errors:\n" << all;
    return {};
  }
  return std::move(*loaded);
}

std::string Errors(const std::string& text) {
  auto loaded = LoadString(text, "job.yaml");
  if (loaded) return "";
  std::string all;
  for (const InputError& e : loaded.error()) all += e.ToString() + "\n";
  return all;
}

TEST(DecodeBatchTest, JobWithCurrentFieldNames) {
  const LoadResult r = MustLoad(R"(
apiVersion: batch/v1
kind: Job
metadata: {name: train, namespace: ml}
spec:
  parallelism: 8
  completions: 8
  completionMode: Indexed
  suspend: true
  backoffLimit: 3
  template:
    metadata:
      labels: {app: train}
      annotations: {a: b}
      creationTimestamp: null
    spec:
      restartPolicy: Never
      containers:
      - name: main
        image: busybox
        resources: {requests: {cpu: "2", nvidia.com/gpu: 1}}
  scheduling:
    schedulingPolicy: {gang: {minCount: 8}}
    schedulingConstraints: {topology: [{key: topology.kubernetes.io/zone}]}
    disruptionMode: {all: {}}
    resourceClaims: [{name: gpu, resourceClaimTemplateName: gpu-template}]
status: {active: 2, succeeded: 1, startTime: "2026-01-01T00:00:00Z"}
)");
  EXPECT_THAT(r.warnings, IsEmpty());
  ASSERT_EQ(r.objects.jobs.size(), 1u);
  const api::Job& j = r.objects.jobs[0];
  EXPECT_EQ(j.api_version, "batch/v1");
  EXPECT_EQ(j.meta.name, "train");
  EXPECT_EQ(j.parallelism, 8);
  EXPECT_EQ(j.completions, 8);
  EXPECT_EQ(j.completion_mode, api::CompletionMode::kIndexed);
  EXPECT_TRUE(j.suspend);
  EXPECT_EQ(j.pod_template.meta.labels.at("app"), "train");
  EXPECT_EQ(j.pod_template.meta.annotations.at("a"), "b");
  ASSERT_EQ(j.pod_template.containers.size(), 1u);
  EXPECT_EQ(j.pod_template.containers[0].requests.at("cpu"), 2000);
  ASSERT_TRUE(j.scheduling.has_value());
  const api::JobSchedulingConfiguration& s = *j.scheduling;
  EXPECT_TRUE(s.scheduling_policy.has_value());
  EXPECT_EQ(s.scheduling_policy->gang->min_count, 8);
  EXPECT_FALSE(s.scheduling_policy->basic.has_value());
  EXPECT_EQ(s.scheduling_constraints->topology.at(0).key, "topology.kubernetes.io/zone");
  EXPECT_TRUE(s.disruption_mode->all);
  EXPECT_EQ(s.resource_claims.at(0).resource_claim_template_name, "gpu-template");
  EXPECT_EQ(j.status.active, 2);
  EXPECT_EQ(j.status.succeeded, 1);
}

// The older alpha spellings `policy` / `constraints` are not v1.37.2 fields: with strict field
// validation (the default) they are unknown fields, as the v1.37.2 API server reports them
// (observed: differential cases upstream.c04_policy_spelling and upstream.q01).
TEST(DecodeBatchTest, AlphaSpellingsAreUnknownFields) {
  const std::string yaml = R"(
apiVersion: batch/v1
kind: Job
metadata: {name: old}
spec:
  scheduling:
    policy: {gang: {}}
    constraints: {topology: [{key: rack}]}
)";
  const auto loaded = LoadString(yaml, "f.yaml");
  ASSERT_FALSE(loaded);
  std::vector<std::string> lines;
  for (const auto& e : loaded.error()) lines.push_back(e.ToString());
  EXPECT_THAT(lines, ::testing::ElementsAre(
                         ::testing::HasSubstr("unknown field \"spec.scheduling.policy\""),
                         ::testing::HasSubstr("unknown field \"spec.scheduling.constraints\"")));
}

TEST(DecodeBatchTest, EmptySchedulingIsSet) {
  const LoadResult r = MustLoad(
      "apiVersion: batch/v1\nkind: Job\nmetadata: {name: j}\nspec: {scheduling: {}}\n");
  ASSERT_TRUE(r.objects.jobs.at(0).scheduling.has_value());
  EXPECT_FALSE(r.objects.jobs[0].scheduling->scheduling_policy.has_value());
}

TEST(DecodeBatchTest, AlphaSpellingBesideTheCurrentOneIsUnknown) {
  EXPECT_THAT(Errors(R"(
apiVersion: batch/v1
kind: Job
metadata: {name: j}
spec:
  scheduling:
    schedulingPolicy: {basic: {}}
    policy: {basic: {}}
)"),
              HasSubstr("Job default/j: unknown field \"spec.scheduling.policy\""));
}

TEST(DecodeBatchTest, MalformedValuesHaveFieldPaths) {
  EXPECT_THAT(Errors("apiVersion: batch/v1\nkind: Job\nmetadata: {name: j}\n"
                     "spec: {scheduling: [basic]}\n"),
              HasSubstr("spec.scheduling: Invalid value: expected object, got list"));
  EXPECT_THAT(Errors("apiVersion: batch/v1\nkind: Job\nmetadata: {name: j}\n"
                     "spec: {scheduling: {schedulingPolicy: {gang: {minCount: many}}}}\n"),
              HasSubstr("spec.scheduling.schedulingPolicy.gang.minCount: Invalid value: "
                        "expected integer"));
  EXPECT_THAT(Errors("apiVersion: batch/v1\nkind: Job\nmetadata: {name: j}\n"
                     "spec: {parallelism: [1]}\n"),
              HasSubstr("spec.parallelism: Invalid value: expected integer"));
  EXPECT_THAT(Errors("apiVersion: batch/v1\nkind: Job\nmetadata: {name: j}\n"
                     "spec: {template: {spec: {containers: {a: b}}}}\n"),
              HasSubstr("spec.template.spec.containers: Invalid value: expected list"));
  EXPECT_THAT(Errors("apiVersion: batch/v1\nkind: Job\nmetadata: {name: j}\n"
                     "spec: {completionMode: Sometimes}\n"),
              HasSubstr("spec.completionMode: Unsupported value: \"Sometimes\""));
  EXPECT_THAT(Errors("apiVersion: batch/v1\nkind: Job\nmetadata: {name: j}\n"
                     "spec: {scheduling: {resourceClaims: {name: x}}}\n"),
              HasSubstr("spec.scheduling.resourceClaims: Invalid value: expected list"));
}

}  // namespace
}  // namespace wasched::codec
