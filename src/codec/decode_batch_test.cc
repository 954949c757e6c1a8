// File: codec/decode_batch_test.cc
//
// batch/v1 Job through LoadString: every decoded field, both spellings of the scheduling
// fields (and the spelling recorded), and malformed values reported at their paths.
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
  EXPECT_EQ(s.scheduling_policy_field, "schedulingPolicy");
  EXPECT_EQ(s.scheduling_constraints_field, "schedulingConstraints");
  EXPECT_EQ(s.scheduling_policy->gang->min_count, 8);
  EXPECT_FALSE(s.scheduling_policy->basic.has_value());
  EXPECT_EQ(s.scheduling_constraints->topology.at(0).key, "topology.kubernetes.io/zone");
  EXPECT_TRUE(s.disruption_mode->all);
  EXPECT_EQ(s.resource_claims.at(0).resource_claim_template_name, "gpu-template");
  EXPECT_EQ(j.status.active, 2);
  EXPECT_EQ(j.status.succeeded, 1);
}

TEST(DecodeBatchTest, AlphaSpellingsAreReadAndRecorded) {
  const LoadResult r = MustLoad(R"(
apiVersion: batch/v1
kind: Job
metadata: {name: old}
spec:
  scheduling:
    policy: {gang: {}}
    constraints: {topology: [{key: rack}]}
)");
  const api::Job& j = r.objects.jobs.at(0);
  EXPECT_EQ(j.meta.namespace_, "default");
  EXPECT_FALSE(j.parallelism.has_value());
  EXPECT_EQ(api::EffectiveParallelism(j), 1);
  EXPECT_EQ(j.scheduling->scheduling_policy_field, "policy");
  EXPECT_EQ(j.scheduling->scheduling_constraints_field, "constraints");
  ASSERT_TRUE(j.scheduling->scheduling_policy->gang.has_value());
  EXPECT_FALSE(j.scheduling->scheduling_policy->gang->min_count.has_value());
  EXPECT_EQ(j.scheduling->scheduling_constraints->topology.at(0).key, "rack");
}

TEST(DecodeBatchTest, EmptySchedulingIsSet) {
  const LoadResult r = MustLoad(
      "apiVersion: batch/v1\nkind: Job\nmetadata: {name: j}\nspec: {scheduling: {}}\n");
  ASSERT_TRUE(r.objects.jobs.at(0).scheduling.has_value());
  EXPECT_FALSE(r.objects.jobs[0].scheduling->scheduling_policy.has_value());
}

TEST(DecodeBatchTest, BothSpellingsAreAnError) {
  EXPECT_THAT(Errors(R"(
apiVersion: batch/v1
kind: Job
metadata: {name: j}
spec:
  scheduling:
    schedulingPolicy: {basic: {}}
    policy: {basic: {}}
)"),
              HasSubstr("Job default/j: spec.scheduling.policy: Invalid value: may not be set "
                        "together with `schedulingPolicy`"));
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
