// File: controller/jobset/jobset_controller_test.cc
//
// JobSet controller on the real JobSet examples: child Job names, the jobset.sigs.k8s.io labels
// and annotations, exclusive placement (annotations, the pod webhook's affinity terms, followers
// refused), the KEP-969 Workload / PodGroups (top-level and per-ReplicatedJob modes, names with
// SHA-1 hashes) and the gang-of-gangs tree.
#include "controller/jobset/jobset_controller.h"

#include <gtest/gtest.h>

#include "controller/jobset/names.h"
#include "controller/jobset/pod_webhook.h"
#include "controller/test_util.h"
#include "util/sha1.h"

namespace wasched::controller::jobset {
namespace {

api::JobSet Load(const std::string& path) {
  api::ObjectSet objects = testing::LoadManifest(path);
  EXPECT_EQ(objects.job_sets.size(), 1u);
  api::JobSet js = objects.job_sets.at(0);
  js.meta.uid = "js-uid";
  return js;
}

TEST(JobSetControllerTest, WasExampleJobSetGetsThreeIndexedJobs) {
  const api::JobSet js = Load("jobset/workload-aware-scheduling/jobset.yaml");
  const JobSetSyncResult r = JobSetController({}).Sync(js, {});
  EXPECT_FALSE(r.plan);  // no spec.scheduling: the example's own Workload and PodGroup are used
  ASSERT_EQ(r.created_jobs.size(), 3u);
  const api::Job& job = r.created_jobs[1];
  EXPECT_EQ(job.meta.name, "js-rj-1");
  EXPECT_EQ(job.completion_mode, api::CompletionMode::kIndexed);  // JobSet's defaulting
  EXPECT_EQ(job.parallelism, 2);
  EXPECT_EQ(job.meta.owner_references.at(0).kind, "JobSet");
  for (const auto* meta : {&job.meta, &job.pod_template.meta}) {
    EXPECT_EQ(meta->labels.at(kJobSetNameKey), "js");
    EXPECT_EQ(meta->labels.at(kJobSetUidKey), "js-uid");
    EXPECT_EQ(meta->labels.at(kReplicatedJobNameKey), "rj");
    EXPECT_EQ(meta->labels.at(kReplicatedJobReplicasKey), "3");
    EXPECT_EQ(meta->labels.at(kGlobalReplicasKey), "3");
    EXPECT_EQ(meta->labels.at(kJobIndexKey), "1");
    EXPECT_EQ(meta->labels.at(kJobGlobalIndexKey), "1");
    EXPECT_EQ(meta->labels.at(kGroupNameKey), "default");
    EXPECT_EQ(meta->labels.at(kJobGroupIndexKey), "1");
    EXPECT_EQ(meta->labels.at(kRestartsKey), "0");
    EXPECT_EQ(meta->labels.at(kJobKey), Sha1Hex("default/js-rj-1"));
    EXPECT_EQ(meta->annotations.at(kJobKey), Sha1Hex("default/js-rj-1"));
  }
  // The pod template keeps the PodGroup the example names.
  EXPECT_EQ(job.pod_template.pod_group_name, "js-abc-workers-def");
}

TEST(JobSetControllerTest, ExclusivePlacementAnnotatesAndTheWebhookAddsAffinity) {
  const api::JobSet js = Load("jobset/examples/simple__exclusive-placement.yaml");
  const JobSetSyncResult r = JobSetController({}).Sync(js, {});
  ASSERT_EQ(r.created_jobs.size(), 3u);
  const api::Job& job = r.created_jobs[0];
  EXPECT_EQ(job.pod_template.meta.annotations.at(kExclusiveKey), "cloud.google.com/gke-nodepool");
  api::Pod leader = job.pod_template;
  leader.meta.annotations["batch.kubernetes.io/job-completion-index"] = "0";
  EXPECT_FALSE(AdmitPod(&leader, 0).deferred);
  EXPECT_EQ(leader.meta.labels.at(kPriorityKey), "0");
  ASSERT_TRUE(leader.pod_affinity && leader.pod_anti_affinity);
  ASSERT_EQ(leader.pod_affinity->required.size(), 1u);
  const api::PodAffinityTerm& a = leader.pod_affinity->required[0];
  EXPECT_EQ(a.topology_key, "cloud.google.com/gke-nodepool");
  ASSERT_TRUE(a.namespace_selector);  // {}: every namespace
  EXPECT_TRUE(api::IsEmpty(*a.namespace_selector));
  EXPECT_EQ(a.label_selector->match_expressions.at(0).values.at(0),
            Sha1Hex("default/exclusive-placement-workers-0"));
  const api::PodAffinityTerm& anti = leader.pod_anti_affinity->required.at(0);
  ASSERT_EQ(anti.label_selector->match_expressions.size(), 3u);
  EXPECT_EQ(anti.label_selector->match_expressions[1].op, api::LabelSelectorOperator::kNotIn);
  EXPECT_EQ(anti.label_selector->match_expressions[2].key, kPriorityKey);
  api::Pod follower = job.pod_template;
  follower.meta.annotations["batch.kubernetes.io/job-completion-index"] = "1";
  const WebhookResult w = AdmitPod(&follower, 0);
  EXPECT_TRUE(w.deferred);
  EXPECT_EQ(w.topology_key, "cloud.google.com/gke-nodepool");
  EXPECT_FALSE(follower.pod_affinity);
}

TEST(JobSetControllerTest, TopLevelGangIsOnePodGroupOverEveryPod) {
  api::JobSet js = Load("jobset/workload-aware-scheduling/jobset.yaml");
  js.scheduling.emplace();  // `scheduling: {}`: gang, minCount Σ replicas × parallelism
  const JobSetSyncResult r = JobSetController({}).Sync(js, {});
  ASSERT_TRUE(r.plan && r.plan->workload);
  EXPECT_TRUE(r.plan->errors.empty());
  const api::Workload& wl = *r.plan->workload;
  EXPECT_EQ(wl.meta.name, "js-" + Sha1Hex("JobSet/default/js").substr(0, 10));
  ASSERT_EQ(wl.pod_group_templates.size(), 1u);
  EXPECT_EQ(wl.pod_group_templates[0].name, wl.meta.name);
  EXPECT_EQ(wl.pod_group_templates[0].scheduling_policy.gang->min_count, 6);
  EXPECT_EQ(wl.controller_ref->kind, "JobSet");
  EXPECT_TRUE(wl.meta.owner_references.at(0).controller);
  ASSERT_EQ(r.plan->pod_groups.size(), 1u);
  EXPECT_EQ(r.plan->pod_groups[0].meta.name, wl.meta.name);  // top-level: the template's name
  for (const api::Job& job : r.created_jobs) {
    EXPECT_EQ(job.pod_template.pod_group_name, wl.meta.name);
    EXPECT_EQ(job.meta.annotations.at(kGroupTemplateNameKey), wl.meta.name);
  }
}

TEST(JobSetControllerTest, PerReplicatedJobAndPerJobModes) {
  api::JobSet js = Load("jobset/workload-aware-scheduling/jobset.yaml");
  js.scheduling.emplace();
  api::ReplicatedJobScheduling entry;
  entry.target_replicated_jobs = {"rj"};
  entry.job.emplace();
  api::TopologyConstraint rack{"topology.example.com/rack"};
  entry.job->scheduling_constraints = api::SchedulingConstraints{{rack}};
  js.scheduling->replicated_jobs.push_back(entry);
  const JobSetSyncResult r = JobSetController({}).Sync(js, {});
  ASSERT_TRUE(r.plan && r.plan->workload) << r.plan->build_error;
  ASSERT_TRUE(r.plan->errors.empty());
  const api::Workload& wl = *r.plan->workload;
  ASSERT_EQ(wl.pod_group_templates.size(), 3u);  // one per Job
  EXPECT_EQ(wl.pod_group_templates[0].name, PerJobTemplateName(js, "rj", 0));
  EXPECT_EQ(wl.pod_group_templates[0].scheduling_policy.gang->min_count, 2);  // parallelism
  EXPECT_EQ(wl.pod_group_templates[0].scheduling_constraints->topology.at(0).key,
            "topology.example.com/rack");
  ASSERT_EQ(r.plan->pod_groups.size(), 3u);
  EXPECT_EQ(r.plan->pod_groups[2].meta.name, PodGroupName("js", PerJobTemplateName(js, "rj", 2)));
  EXPECT_EQ(r.created_jobs[2].pod_template.pod_group_name, r.plan->pod_groups[2].meta.name);
}

TEST(JobSetControllerTest, InvalidSchedulingIsAFieldError) {
  api::JobSet js = Load("jobset/workload-aware-scheduling/jobset.yaml");
  js.scheduling.emplace();
  js.scheduling->scheduling_policy.emplace();
  js.scheduling->scheduling_policy->basic = api::BasicSchedulingPolicy{};
  js.scheduling->disruption_mode = api::DisruptionMode{.all = true};  // Basic + All: invalid
  const JobSetSyncResult r = JobSetController({}).Sync(js, {});
  ASSERT_TRUE(r.plan);
  ASSERT_FALSE(r.plan->errors.empty());
  EXPECT_EQ(r.plan->errors[0].field.rfind("spec.scheduling", 0), 0u) << r.plan->errors[0].field;
  EXPECT_FALSE(r.created_jobs.at(0).pod_template.scheduling_group_set &&
               r.created_jobs.at(0).pod_template.pod_group_name != "js-abc-workers-def");
}

TEST(JobSetControllerTest, GangOfGangsBuildsACompositeRoot) {
  api::JobSet js = Load("kueue/jobs__sample-jobset-tas-required.yaml");
  const JobSetSyncResult r = JobSetController({.gang_of_gangs = true}).Sync(js, {});
  ASSERT_TRUE(r.plan && r.plan->workload) << (r.plan ? r.plan->build_error : "");
  ASSERT_TRUE(r.plan->errors.empty());
  const api::Workload& wl = *r.plan->workload;
  ASSERT_EQ(wl.composite_pod_group_templates.size(), 1u);
  const auto& root = wl.composite_pod_group_templates[0];
  EXPECT_EQ(root.scheduling_policy.gang->min_group_count, 1);
  ASSERT_EQ(root.pod_group_templates.size(), 1u);
  EXPECT_EQ(root.pod_group_templates[0].scheduling_policy.gang->min_count, 4);
  ASSERT_EQ(r.plan->composite_pod_groups.size(), 1u);
  ASSERT_EQ(r.plan->pod_groups.size(), 1u);
  EXPECT_EQ(r.plan->pod_groups[0].parent_composite_pod_group_name,
            r.plan->composite_pod_groups[0].meta.name);
  EXPECT_EQ(r.created_jobs.at(0).pod_template.pod_group_name, r.plan->pod_groups[0].meta.name);
}

TEST(JobSetControllerTest, SuspendedJobSetCreatesSuspendedJobsAndNoGroups) {
  api::JobSet js = Load("jobset/workload-aware-scheduling/jobset.yaml");
  js.suspend = true;
  js.scheduling.emplace();
  const JobSetSyncResult r = JobSetController({}).Sync(js, {});
  EXPECT_FALSE(r.plan);
  ASSERT_EQ(r.created_jobs.size(), 3u);
  EXPECT_TRUE(r.created_jobs[0].suspend);
}

TEST(JobSetNamesTest, HashedNamesStayWithin63Characters) {
  const std::string hash = "0123456789";
  EXPECT_EQ(HashedName("short", hash), "short-0123456789");
  EXPECT_EQ(HashedName(std::string(60, 'a'), hash), std::string(52, 'a') + "-" + hash);
  EXPECT_EQ(PodGroupName("js", "t"), "js-t");
  const std::string long_name = PodGroupName(std::string(60, 'j'), "template");
  EXPECT_EQ(long_name.size(), 63u);
  EXPECT_EQ(long_name, std::string(52, 'j') + "-" + Sha1Hex(std::string(60, 'j') + "/template").substr(0, 10));
}

}  // namespace
}  // namespace wasched::controller::jobset
