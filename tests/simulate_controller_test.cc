// File: tests/simulate_controller_test.cc
//
// The simulator's Job-controller path (issue 8: "job arrivals → Job with .spec.scheduling →
// Workload/PodGroup/pods"; sim/job_objects.h): the objects a trace job becomes carry the names
// the upstream Job controller gives them (controller/job/names.h), gang policies put
// .spec.scheduling gang.minCount on multi-pod Jobs, basic creates pods only; the pods the
// scheduler binds in a run are those objects; and the deadlock detector fires on a basic run
// where two jobs hold part of their GPUs forever.
#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

#include "controller/job/names.h"
#include "sim/cluster.h"
#include "sim/job_objects.h"
#include "sim/simulator.h"
#include "sim/trace.h"
#include "support/sim_fixtures.h"

namespace wasched::sim {
namespace {

namespace cj = controller::job;

const std::string kHead = "timestamp,duration,num_gpus,gpu_time,cluster\n";

Trace Philly(const std::string& rows, int32_t gpus_per_pod = 1) {
  return test::PhillyTrace(kHead + rows, gpus_per_pod);
}

std::vector<api::Node> Cluster(const std::string& spec) { return test::GeneratedCluster(spec); }

TEST(SimulateController, GangJobGetsTheUpstreamWorkloadPodGroupAndPodNames) {
  const Trace t = Philly("2017-10-09 00:00:00,100,4,0,a\n");
  const TraceJob& tj = t.jobs[0];
  const JobObjects o = CompileJob(tj, t.gpu_resource, {.policy = Policy::kGang});
  EXPECT_TRUE(o.errors.empty());
  // The Job: .spec.scheduling gang.minCount = its pods, parallelism = completions = pods.
  EXPECT_EQ(o.job.meta.name, tj.name);
  EXPECT_EQ(o.job.meta.uid, cj::DerivedUid("Job", kSimNamespace, tj.name));
  ASSERT_TRUE(o.job.scheduling && o.job.scheduling->scheduling_policy);
  ASSERT_TRUE(o.job.scheduling->scheduling_policy->gang);
  EXPECT_EQ(o.job.scheduling->scheduling_policy->gang->min_count, 4);
  EXPECT_FALSE(o.job.scheduling->scheduling_constraints);
  EXPECT_EQ(o.job.parallelism, 4);
  // The Workload and PodGroup: upstream computeWorkloadName / computePodGroupName.
  ASSERT_EQ(o.workloads.size(), 1u);
  const std::string workload = cj::ComputeWorkloadName(o.job);
  EXPECT_EQ(o.workloads[0].meta.name, workload);
  ASSERT_TRUE(o.pod_group);
  const std::string group = cj::ComputePodGroupName(workload, cj::PodGroupTemplateName(o.job));
  EXPECT_EQ(o.pod_group->meta.name, group);
  EXPECT_EQ(o.pod_group->meta.name, tj.name + "-" + cj::UidHash(o.job.meta.uid) + "-" + tj.name + "-pgt-0-" +
                                        cj::SafeEncodeString(std::to_string(cj::Fnv32a(workload + tj.name + "-pgt-0"))));
  ASSERT_TRUE(o.pod_group->scheduling_policy.gang);
  EXPECT_EQ(o.pod_group->scheduling_policy.gang->min_count, 4);
  ASSERT_TRUE(o.pod_group->workload_ref);
  EXPECT_EQ(o.pod_group->workload_ref->workload_name, workload);
  EXPECT_EQ(o.pod_group->meta.creation_timestamp, tj.submit_seconds);
  EXPECT_EQ(o.pod_group->preemption_policy, api::PreemptionPolicy::kNever);
  // The pods: generateName "<job>-" plus the deterministic suffix, naming the PodGroup.
  ASSERT_EQ(o.pods.size(), 4u);
  for (size_t i = 0; i < o.pods.size(); ++i) {
    const api::Pod& p = o.pods[i];
    EXPECT_EQ(p.meta.name, tj.name + "-" + cj::NameSuffix(o.job.meta.uid + "/" + std::to_string(i)));
    EXPECT_EQ(p.pod_group_name, group);
    EXPECT_EQ(p.meta.labels.at("batch.kubernetes.io/job-name"), tj.name);
    ASSERT_EQ(p.meta.owner_references.size(), 1u);
    EXPECT_EQ(p.meta.owner_references[0].kind, "Job");
    EXPECT_EQ(p.containers[0].requests.at(kGpuResource), 1);
  }
}

TEST(SimulateController, GangTopologyAddsTheConstraintAndUnevenJobsTrimTheLastPod) {
  // 6 GPUs at 4 per pod: pods of 4 and 2.
  const Trace t = Philly("2017-10-09 00:00:00,100,6,0,a\n", 4);
  const JobObjects o =
      CompileJob(t.jobs[0], t.gpu_resource, {.policy = Policy::kGangTopology, .topology_key = "topology.wasched.io/rack"});
  ASSERT_TRUE(o.job.scheduling && o.job.scheduling->scheduling_constraints);
  ASSERT_EQ(o.job.scheduling->scheduling_constraints->topology.size(), 1u);
  ASSERT_TRUE(o.pod_group && o.pod_group->scheduling_constraints);
  EXPECT_EQ(o.pod_group->scheduling_constraints->topology.at(0).key, "topology.wasched.io/rack");
  ASSERT_EQ(o.pods.size(), 2u);
  EXPECT_EQ(o.pods[0].containers[0].requests.at(kGpuResource), 4);
  EXPECT_EQ(o.pods[1].containers[0].requests.at(kGpuResource), 2);
}

TEST(SimulateController, BasicCreatesPodsOnlyAndGangGivesSinglePodJobsABasicPodGroup) {
  const Trace t = Philly(
      "2017-10-09 00:00:00,100,4,0,a\n"
      "2017-10-09 00:00:01,100,1,0,a\n");
  const JobObjects basic = CompileJob(t.jobs[0], t.gpu_resource, {.policy = Policy::kBasic});
  EXPECT_FALSE(basic.job.scheduling);
  EXPECT_TRUE(basic.workloads.empty());
  EXPECT_FALSE(basic.pod_group);
  ASSERT_EQ(basic.pods.size(), 4u);
  for (const api::Pod& p : basic.pods) EXPECT_FALSE(p.pod_group_name);
  // Gate WorkloadWithJob on, no .spec.scheduling: manageBoth with the default policy Basic.
  const JobObjects single = CompileJob(t.jobs[1], t.gpu_resource, {.policy = Policy::kGang});
  EXPECT_FALSE(single.job.scheduling);
  ASSERT_EQ(single.workloads.size(), 1u);
  ASSERT_TRUE(single.pod_group);
  EXPECT_TRUE(single.pod_group->scheduling_policy.basic);
  EXPECT_FALSE(single.pod_group->scheduling_policy.gang);
  ASSERT_EQ(single.pods.size(), 1u);
  EXPECT_EQ(single.pods[0].pod_group_name, single.pod_group->meta.name);
}

// 8 GPUs; a 1-GPU job runs 0..1000 s; an 8-GPU job arrives at 1 s (as simulate_policy_test).
const char* kPartialRows =
    "2017-10-09 00:00:00,1000,1,0,a\n"
    "2017-10-09 00:00:01,500,8,0,a\n";

TEST(SimulateController, TheBoundPodsAreTheControllersPods) {
  const Trace t = Philly(kPartialRows);
  const auto nodes = Cluster("nodes=2,gpus=4,zones=1,racksPerZone=1");
  for (Policy policy : {Policy::kBasic, Policy::kGang, Policy::kGangTopology}) {
    std::set<std::string> want;
    for (const TraceJob& tj : t.jobs) {
      for (const api::Pod& p : CompileJob(tj, t.gpu_resource, {.policy = policy}).pods) {
        want.insert(std::string(kSimNamespace) + "/" + p.meta.name);
      }
    }
    std::set<std::string> bound;
    SimOptions o;
    o.policy = policy;
    o.on_binding = [&](const sched::Binding& b, int64_t) { EXPECT_TRUE(bound.insert(b.pod).second) << b.pod; };
    const SimResult r = Simulate(t, nodes, o);
    EXPECT_EQ(r.completed, 2) << PolicyName(policy);
    EXPECT_EQ(bound, want) << PolicyName(policy);
    EXPECT_EQ(bound.size(), 9u);
    if (policy == Policy::kBasic) {
      EXPECT_GT(r.partial_gpu_hours, 0.0);
    } else {
      EXPECT_EQ(r.partial_gpu_hours, 0.0) << PolicyName(policy);
    }
  }
}

// 2 nodes × 3 GPUs, 2 GPUs per pod. A (6 GPUs = 3 pods of 2) binds one pod per node and waits
// for a third 2-GPU slot that never comes; B (3 GPUs = pods of 2 and 1) binds its 1-GPU pod in
// what is left and waits too. One GPU stays free, both hold GPUs forever; C (2 GPUs) arriving two
// hours later cannot start either: a deadlock (free capacity, pending work, no progress for an
// hour) that never ends. As gangs, B runs and C runs, no GPU is ever held partially; A (3 pods of
// 2 GPUs on 3-GPU nodes) can never be placed and stays pending beside free GPUs, which the
// detector counts as stalls too (B's end at 100 s to C's start at 7200 s, and from C's end to the
// run's end).
const char* kDeadlockRows =
    "2017-10-09 00:00:00,100,6,0,a\n"
    "2017-10-09 00:00:00,100,3,0,a\n"
    "2017-10-09 02:00:00,100,2,0,a\n";

TEST(SimulateController, BasicDeadlockIsDetectedGangHoldsNothingPartially) {
  const Trace t = Philly(kDeadlockRows, 2);
  const auto nodes = Cluster("nodes=2,gpus=3,cpus=96,memory=768Gi,zones=1,racksPerZone=1");
  SimOptions o;
  o.policy = Policy::kBasic;
  const SimResult basic = Simulate(t, nodes, o);
  EXPECT_EQ(basic.completed, 0);
  EXPECT_EQ(basic.unfinished, 3);
  EXPECT_EQ(basic.deadlock_episodes, 1);
  // A permanent deadlock: from 0 to the run's end, the last event (7200) + kDeadlockSeconds.
  EXPECT_EQ(basic.deadlock_seconds, 7200 + kDeadlockSeconds);
  EXPECT_GT(basic.partial_gpu_hours, 0.0);
  o.policy = Policy::kGang;
  const SimResult gang = Simulate(t, nodes, o);
  EXPECT_EQ(gang.completed, 2);
  EXPECT_EQ(gang.unfinished, 1);
  EXPECT_EQ(gang.deadlock_episodes, 2);
  EXPECT_EQ(gang.deadlock_seconds, (7200 - 100) + kDeadlockSeconds);
  EXPECT_EQ(gang.partial_gpu_hours, 0.0);
}

}  // namespace
}  // namespace wasched::sim
