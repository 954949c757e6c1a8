// File: validation/job_validation_test.cc
#include "validation/job_validation.h"

#include <string>
#include <vector>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "support/error_summary.h"

namespace wasched::validation {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

using test::Summary;

// WithValidTemplate: a pod template upstream accepts (one container, restartPolicy Never).
void WithValidTemplate(api::Job* job) {
  job->pod_template.containers.assign(1, api::Container{});
  job->pod_template.containers.front().name = "c";
  job->pod_template.containers.front().image = "registry.k8s.io/pause:3.10";
  job->template_restart_policy = "Never";
}

api::Job GangJob(std::optional<int32_t> parallelism, std::optional<int32_t> min_count) {
  api::Job job;
  WithValidTemplate(&job);
  job.meta.name = "j";
  job.meta.namespace_ = "default";
  job.parallelism = parallelism;
  api::JobSchedulingConfiguration s;
  s.scheduling_policy.emplace().gang = api::WorkloadPodGroupGangSchedulingPolicy{min_count};
  job.scheduling = s;
  return job;
}

// Choice for spec §12 item 3: Invalid at the minCount path, detail naming the parallelism, no
// origin (hand-written rule).
TEST(JobValidationTest, MinCountAboveParallelismOnCreate) {
  const ErrorList errs = ValidateJob(GangJob(4, 5), nullptr, FeatureGates{});
  ASSERT_THAT(Summary(errs), ElementsAre("Invalid spec.scheduling.schedulingPolicy.gang.minCount"));
  EXPECT_EQ(errs[0].bad_value, "5");
  EXPECT_EQ(errs[0].detail, "must not be greater than parallelism (4)");
  EXPECT_EQ(errs[0].origin, "");
  EXPECT_THAT(ValidateJob(GangJob(4, 4), nullptr, FeatureGates{}), IsEmpty());
}

TEST(JobValidationTest, UnsetParallelismDefaultsToOne) {
  EXPECT_THAT(Summary(ValidateJob(GangJob(std::nullopt, 2), nullptr, FeatureGates{})),
              ElementsAre("Invalid spec.scheduling.schedulingPolicy.gang.minCount"));
  EXPECT_THAT(ValidateJob(GangJob(std::nullopt, 1), nullptr, FeatureGates{}), IsEmpty());
  // An unset minCount is the controller's to default: nothing to compare.
  EXPECT_THAT(ValidateJob(GangJob(2, std::nullopt), nullptr, FeatureGates{}), IsEmpty());
}

TEST(JobValidationTest, MinCountAboveParallelismOnUpdateUsesTheFinalObject) {
  const api::Job old = GangJob(4, 4);
  EXPECT_THAT(ValidateJob(GangJob(8, 8), &old, FeatureGates{}), IsEmpty());
  EXPECT_THAT(Summary(ValidateJob(GangJob(4, 5), &old, FeatureGates{})),
              ElementsAre("Invalid spec.scheduling.schedulingPolicy.gang.minCount"));
  // Lowering parallelism below an unchanged minCount is caught too.
  EXPECT_THAT(Summary(ValidateJob(GangJob(2, 4), &old, FeatureGates{})),
              ElementsAre("Invalid spec.scheduling.schedulingPolicy.gang.minCount"));
}

TEST(JobValidationTest, ParallelismZeroWithAGang) {
  EXPECT_THAT(Summary(ValidateJob(GangJob(0, 1), nullptr, FeatureGates{})),
              ElementsAre("Invalid spec.scheduling.schedulingPolicy.gang.minCount"));
}

TEST(JobValidationTest, GateOffForbidsAndSkipsTheRest) {
  FeatureGates off;
  off.workload_with_job = false;
  EXPECT_THAT(Summary(ValidateJob(GangJob(4, 5), nullptr, off)), ElementsAre("Forbidden spec.scheduling"));
  const api::Job old = GangJob(4, 4);
  EXPECT_THAT(ValidateJob(old, &old, off), IsEmpty());  // stored value kept: ratcheted
}

TEST(JobValidationTest, SchedulingPolicySetOrClearedOnUpdate) {
  api::Job old = GangJob(4, 4);
  old.scheduling->scheduling_policy.reset();
  EXPECT_THAT(Summary(ValidateJob(GangJob(4, 4), &old, FeatureGates{})),
              ElementsAre("Invalid spec.scheduling.schedulingPolicy (update)"));
}

// C13, observed on the v1.37.2 control plane: a switch between basic and gang on update is one
// Invalid at the policy (validateJobSchedulingUpdate), nothing at .basic or .gang.
TEST(JobValidationTest, PolicyVariantSwitchIsOneErrorAtThePolicy) {
  api::Job basic = GangJob(10, 4);
  basic.scheduling->scheduling_policy.emplace().basic = api::BasicSchedulingPolicy{};
  const api::Job gang = GangJob(10, 4);
  using Pair = std::pair<const api::Job*, const api::Job*>;
  for (const auto& [now, old] : {Pair{&gang, &basic}, Pair{&basic, &gang}}) {
    const ErrorList errs = ValidateJob(*now, old, FeatureGates{});
    ASSERT_THAT(Summary(errs), ElementsAre("Invalid spec.scheduling.schedulingPolicy"));
    EXPECT_EQ(errs[0].bad_value, "null");
    EXPECT_EQ(errs[0].detail,
              "the basic/gang policy variant is immutable after creation; only "
              "schedulingPolicy.gang.minCount may be updated");
  }
}

TEST(JobValidationTest, NegativeCounts) {
  api::Job job = GangJob(-1, std::nullopt);
  job.completions = -2;
  EXPECT_THAT(Summary(ValidateJob(job, nullptr, FeatureGates{})),
              ElementsAre("Invalid spec.parallelism", "Invalid spec.completions"));
}

}  // namespace
}  // namespace wasched::validation

namespace wasched::validation {
namespace {

// Upstream case Q01: Basic (explicit or unset) plus disruptionMode all is Invalid at
// spec.scheduling.disruptionMode.
TEST(JobValidationTest, BasicPolicyWithDisruptionModeAllIsInvalid) {
  for (int variant = 0; variant < 2; ++variant) {
    api::Job job;
    WithValidTemplate(&job);
    job.meta.name = "j";
    job.meta.namespace_ = "default";
    job.parallelism = 4;
    api::JobSchedulingConfiguration s;
    if (variant != 1) s.scheduling_policy.emplace().basic = api::BasicSchedulingPolicy{};
    s.disruption_mode = api::DisruptionMode{.single = false, .all = true};
    job.scheduling = s;
    const ErrorList errs = ValidateJob(job, nullptr, FeatureGates{});
    ASSERT_THAT(Summary(errs), ElementsAre("Invalid spec.scheduling.disruptionMode")) << variant;
    EXPECT_EQ(errs[0].bad_value, "\"\"");
    EXPECT_EQ(errs[0].detail,
              "the disruptionMode `all` is not supported with the Basic scheduling policy");
  }
  // Gang + all stays valid.
  api::Job gang = GangJob(4, 4);
  gang.scheduling->disruption_mode = api::DisruptionMode{.single = false, .all = true};
  EXPECT_THAT(ValidateJob(gang, nullptr, FeatureGates{}), IsEmpty());
}

}  // namespace
}  // namespace wasched::validation

namespace wasched::validation {
namespace {

// QA1 finding 6: upstream validateJobSpec (pkg/apis/batch/validation/validation.go) validates
// spec.template: "" or Always → Required restartPolicy with the Job's valid values (an unset
// policy is defaulted to Always first), other values NotSupported, OnFailure / Never valid.
TEST(JobValidationTest, TemplateRestartPolicy) {
  for (const char* policy : {"", "Always"}) {
    api::Job job = GangJob(2, std::nullopt);
    job.template_restart_policy = policy;
    const ErrorList errs = ValidateJob(job, nullptr, FeatureGates{});
    ASSERT_THAT(Summary(errs), ElementsAre("Required spec.template.spec.restartPolicy")) << policy;
    EXPECT_EQ(errs[0].detail, "valid values: \"OnFailure\", \"Never\"");
    EXPECT_EQ(errs[0].ToString(),
              "spec.template.spec.restartPolicy: Required value: valid values: \"OnFailure\", "
              "\"Never\"");
  }
  api::Job job = GangJob(2, std::nullopt);
  job.template_restart_policy = "Sometimes";
  const ErrorList errs = ValidateJob(job, nullptr, FeatureGates{});
  ASSERT_THAT(Summary(errs), ElementsAre("NotSupported spec.template.spec.restartPolicy"));
  EXPECT_EQ(errs[0].ToString(),
            "spec.template.spec.restartPolicy: Unsupported value: \"Sometimes\": supported "
            "values: \"OnFailure\", \"Never\"");
  for (const char* policy : {"OnFailure", "Never"}) {
    job.template_restart_policy = policy;
    EXPECT_THAT(ValidateJob(job, nullptr, FeatureGates{}), IsEmpty()) << policy;
  }
}

// The core PodSpec rules (validation/core_validation.h) run on the template, their paths under
// spec.template: no containers, a negative request.
TEST(JobValidationTest, TemplatePodSpecUnderSpecTemplate) {
  api::Job job = GangJob(2, std::nullopt);
  job.pod_template.containers.clear();
  EXPECT_THAT(Summary(ValidateJob(job, nullptr, FeatureGates{})),
              ElementsAre("Required spec.template.spec.containers"));
  job = GangJob(2, std::nullopt);
  job.pod_template.containers[0].requests["cpu"] = -1;
  const ErrorList errs = ValidateJob(job, nullptr, FeatureGates{});
  ASSERT_THAT(Summary(errs),
              ElementsAre("Invalid spec.template.spec.containers[0].resources.requests[cpu]"));
  EXPECT_EQ(errs[0].detail, "must be greater than or equal to 0");
}

// QA1 finding 4: the create strategy puts the Job's name into the template's job-name labels;
// a name over 63 characters is one `spec.template.labels` error (both labels give the same
// text; upstream's aggregate reports it once). 63 characters are fine. The origin is
// ValidateLabels' (apimachinery v0.37.2 meta/v1 validation: format=k8s-label-value).
TEST(JobValidationTest, NameOver63CharactersIsAnInvalidTemplateLabel) {
  api::Job job = GangJob(2, std::nullopt);
  job.meta.name = std::string(63, 'a');
  EXPECT_THAT(ValidateJob(job, nullptr, FeatureGates{}), IsEmpty());
  job.meta.name = std::string(64, 'a');
  const ErrorList errs = ValidateJob(job, nullptr, FeatureGates{});
  ASSERT_THAT(Summary(errs), ElementsAre("Invalid spec.template.labels (format=k8s-label-value)"));
  EXPECT_EQ(errs[0].ToString(), "spec.template.labels: Invalid value: \"" + std::string(64, 'a') +
                                    "\": must be no more than 63 characters");
}

// QA1 finding 3: upstream's Indexed limits — parallelism ≤ 100000, completions required.
TEST(JobValidationTest, IndexedParallelismLimitAndCompletionsRequired) {
  api::Job job = GangJob(100000, std::nullopt);
  job.completion_mode = api::CompletionMode::kIndexed;
  job.completions = 100000;
  EXPECT_THAT(ValidateJob(job, nullptr, FeatureGates{}), IsEmpty());
  job.parallelism = 100001;
  ErrorList errs = ValidateJob(job, nullptr, FeatureGates{});
  ASSERT_THAT(Summary(errs), ElementsAre("Invalid spec.parallelism"));
  EXPECT_EQ(errs[0].ToString(),
            "spec.parallelism: Invalid value: 100001: must be less than or equal to 100000 when "
            "completion mode is Indexed");
  // NonIndexed: no upstream limit.
  job.completion_mode = api::CompletionMode::kNonIndexed;
  EXPECT_THAT(ValidateJob(job, nullptr, FeatureGates{}), IsEmpty());
  job.completion_mode = api::CompletionMode::kIndexed;
  job.parallelism = 2;
  job.completions.reset();
  errs = ValidateJob(job, nullptr, FeatureGates{});
  ASSERT_THAT(Summary(errs), ElementsAre("Required spec.completions"));
  EXPECT_EQ(errs[0].detail, "when completion mode is Indexed");
  // Neither set: the API server defaults both to 1 (SetDefaults_Job) before validating, so an
  // Indexed Job without either is valid (the most ordinary JobSet's Jobs are such; breaker
  // finding).
  job.parallelism.reset();
  EXPECT_THAT(ValidateJob(job, nullptr, FeatureGates{}), IsEmpty());
}

}  // namespace
}  // namespace wasched::validation
