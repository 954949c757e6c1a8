// File: codec/decode_workload_kinds_test.cc
//
// The decoders of the workload controllers' kinds (decode_apps.h, decode_jobset.h,
// decode_lws.h) through LoadString: fields, the defaults the CRDs / webhooks apply, KEP-969 and
// KEP-666 spec.scheduling, and errors / warnings at their paths.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "codec/loader.h"

namespace wasched::codec {
namespace {

using ::testing::HasSubstr;

// (--validate=warn: the tests check unknown fields' warnings.)
LoadResult MustLoad(const std::string& text) {
  auto r = LoadString(text, "f.yaml", LoadOptions{.field_validation = FieldValidation::kWarn});
  EXPECT_TRUE(r) << (r ? "" : r.error()[0].ToString());
  return r ? *r : LoadResult{};
}

TEST(DecodeWorkloadKindsTest, AppsKinds) {
  const LoadResult r = MustLoad(R"(apiVersion: apps/v1
kind: StatefulSet
metadata: {name: s}
spec:
  replicas: 2
  serviceName: svc
  podManagementPolicy: Parallel
  ordinals: {start: 3}
  selector: {matchLabels: {a: b}}
  volumeClaimTemplates: [{metadata: {name: data}}]
  updateStrategy: {type: RollingUpdate}
  template:
    metadata: {labels: {a: b}}
    spec: {containers: [{name: c, image: registry.k8s.io/pause:3.10, resources: {requests: {cpu: "1"}}}]}
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: d}
spec:
  paused: true
  selector: {matchLabels: {a: b}}
  template: {metadata: {labels: {a: b}}, spec: {containers: [{name: c, image: registry.k8s.io/pause:3.10}]}}
status: {collisionCount: 2, replicas: 0}
---
apiVersion: apps/v1
kind: ReplicaSet
metadata: {name: rs}
spec: {template: {spec: {containers: [{name: c, image: registry.k8s.io/pause:3.10}]}}, bogus: 1}
)");
  ASSERT_EQ(r.objects.stateful_sets.size(), 1u);
  const api::StatefulSet& s = r.objects.stateful_sets[0];
  EXPECT_EQ(s.replicas, 2);
  EXPECT_EQ(s.service_name, "svc");
  EXPECT_EQ(s.pod_management_policy, api::PodManagementPolicy::kParallel);
  EXPECT_EQ(s.ordinals_start, 3);
  EXPECT_EQ(s.volume_claim_templates, 1);
  EXPECT_EQ(s.pod_template.containers.at(0).requests.at("cpu"), 1000);
  ASSERT_EQ(r.objects.deployments.size(), 1u);
  EXPECT_TRUE(r.objects.deployments[0].paused);
  EXPECT_EQ(r.objects.deployments[0].collision_count, 2);
  ASSERT_EQ(r.objects.replica_sets.size(), 1u);
  EXPECT_FALSE(r.objects.replica_sets[0].replicas);  // defaulted to 1 by EffectiveReplicas
  EXPECT_THAT(r.warnings, ::testing::Contains(HasSubstr("unknown field \"spec.bogus\"")));
}

TEST(DecodeWorkloadKindsTest, BadPodManagementPolicyIsNotSupported) {
  auto r = LoadString("apiVersion: apps/v1\nkind: StatefulSet\nmetadata: {name: s}\n"
                      "spec: {podManagementPolicy: Sometimes}\n",
                      "f.yaml");
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error()[0].error.field, "spec.podManagementPolicy");
  EXPECT_EQ(r.error()[0].error.type, FieldErrorType::kNotSupported);
}

TEST(DecodeWorkloadKindsTest, JobSetDefaultsAndScheduling) {
  const LoadResult r = MustLoad(R"(apiVersion: jobset.x-k8s.io/v1alpha2
kind: JobSet
metadata: {name: js}
spec:
  startupPolicy: {startupPolicyOrder: InOrder}
  network: {enableDNSHostnames: false, subdomain: sub}
  coordinator: {replicatedJob: driver, jobIndex: 0, podIndex: 0}
  scheduling:
    schedulingPolicy: {gang: {}}
    replicatedJobs:
    - targetReplicatedJobs: [workers]
      job:
        schedulingConstraints: {topology: [{key: rack}]}
  replicatedJobs:
  - name: workers
    template:
      metadata: {annotations: {x: "y"}}
      spec:
        parallelism: 2
        completions: 2
        template: {spec: {containers: [{name: c, image: registry.k8s.io/pause:3.10}]}}
    dependsOn: [{name: driver, status: Ready}]
  - name: driver
    groupName: g
    replicas: 3
    template: {spec: {completionMode: NonIndexed, template: {spec: {restartPolicy: Never, containers: [{name: c, image: registry.k8s.io/pause:3.10}]}}}}
status: {restarts: 2}
)");
  ASSERT_EQ(r.objects.job_sets.size(), 1u);
  const api::JobSet& js = r.objects.job_sets[0];
  EXPECT_TRUE(js.startup_in_order);
  EXPECT_FALSE(js.enable_dns_hostnames);
  EXPECT_EQ(js.subdomain, "sub");
  EXPECT_EQ(js.coordinator->replicated_job, "driver");
  EXPECT_EQ(js.restarts, 2);
  ASSERT_EQ(js.replicated_jobs.size(), 2u);
  const api::ReplicatedJob& w = js.replicated_jobs[0];
  EXPECT_EQ(w.group_name, "default");
  EXPECT_EQ(w.replicas, 1);
  EXPECT_EQ(w.job_template.completion_mode, api::CompletionMode::kIndexed);  // webhook default
  EXPECT_EQ(w.job_template.template_restart_policy, "OnFailure");          // webhook default
  EXPECT_EQ(w.job_template.meta.annotations.at("x"), "y");
  EXPECT_EQ(w.depends_on.at(0).name, "driver");
  const api::ReplicatedJob& d = js.replicated_jobs[1];
  EXPECT_EQ(d.group_name, "g");
  EXPECT_EQ(d.replicas, 3);
  EXPECT_EQ(d.job_template.completion_mode, api::CompletionMode::kNonIndexed);
  EXPECT_EQ(d.job_template.template_restart_policy, "Never");
  ASSERT_TRUE(js.scheduling);
  EXPECT_EQ(js.scheduling->scheduling_policy->gang->min_count, 0);  // unset: controller computes
  ASSERT_TRUE(js.scheduling->replicated_jobs.at(0).job);
  EXPECT_EQ(js.scheduling->replicated_jobs[0].job->scheduling_constraints->topology.at(0).key, "rack");
}

TEST(DecodeWorkloadKindsTest, LeaderWorkerSetDefaultsAndScheduling) {
  const LoadResult r = MustLoad(R"(apiVersion: leaderworkerset.x-k8s.io/v1
kind: LeaderWorkerSet
metadata: {name: l}
spec:
  startupPolicy: LeaderReady
  networkConfig: {subdomainPolicy: UniquePerReplica}
  scheduling: {schedulingPolicy: {gang: {minCount: 4}}, disruptionMode: {all: {}}}
  rolloutStrategy: {type: RollingUpdate}
  leaderWorkerTemplate:
    size: 4
    subGroupPolicy: {subGroupSize: 2}
    workerTemplate: {spec: {containers: [{name: w, image: registry.k8s.io/pause:3.10}]}}
)");
  ASSERT_EQ(r.objects.leader_worker_sets.size(), 1u);
  const api::LeaderWorkerSet& l = r.objects.leader_worker_sets[0];
  EXPECT_EQ(l.replicas, 1);
  EXPECT_EQ(l.size, 4);
  EXPECT_FALSE(l.leader_template);
  EXPECT_EQ(l.startup_policy, "LeaderReady");
  EXPECT_EQ(l.subdomain_policy, "UniquePerReplica");
  EXPECT_EQ(l.sub_group_policy->type, "LeaderWorker");
  EXPECT_EQ(l.sub_group_policy->sub_group_size, 2);
  EXPECT_EQ(l.scheduling->scheduling_policy->gang->min_count, 4);
  EXPECT_TRUE(l.scheduling->disruption_mode->all);
}

}  // namespace
}  // namespace wasched::codec
