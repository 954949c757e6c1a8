// File: workloadbuilder/validate_test.cc
//
// Upstream cases D01–D26 (spec/upstream-cases.md §D; component-helpers workloadbuilder
// validate_test.go, described): Builder::Validate's order, allow-lists, the Basic+All rule,
// paths with and without a root Path, tree checks and update ratcheting.
#include <gtest/gtest.h>

#include "workloadbuilder/builder.h"

namespace wasched::workloadbuilder {
namespace {

BuildOptions Allow(std::vector<SchedulingPolicyOption> policies,
                   std::vector<DisruptionModeOption> modes) {
  BuildOptions o;
  o.name = "wl";
  o.namespace_ = "ns";
  o.owner = api::OwnerReference{"batch/v1", "Job", "job", "uid", true, true};
  o.allowed_policies = std::move(policies);
  o.allowed_disruption_modes = std::move(modes);
  return o;
}

BuildOptions AllAllowed() {
  return Allow({SchedulingPolicyOption::kBasicPolicy, SchedulingPolicyOption::kGangPolicy},
               {DisruptionModeOption::kSingleMode, DisruptionModeOption::kAllMode});
}

WorkloadItem Job(std::optional<std::string> path = "spec.scheduling") {
  WorkloadItem item;
  item.name = "job";
  item.path = std::move(path);
  return item;
}

WorkloadItem WithBasic(WorkloadItem item) {
  api::WorkloadPodGroupSchedulingPolicy p;
  p.basic = api::BasicSchedulingPolicy{};
  item.input.policy.pod_group_data = p;
  item.input.policy.path_elements = {"schedulingPolicy"};
  return item;
}

WorkloadItem WithGang(WorkloadItem item, int32_t n) {
  api::WorkloadPodGroupSchedulingPolicy p;
  p.gang = api::WorkloadPodGroupGangSchedulingPolicy{n};
  item.input.policy.pod_group_data = p;
  item.input.policy.path_elements = {"schedulingPolicy"};
  return item;
}

WorkloadItem WithDisruption(WorkloadItem item, bool single, bool all) {
  item.input.disruption_mode.pod_group_data = api::DisruptionMode{single, all};
  item.input.disruption_mode.path_elements = {"disruptionMode"};
  return item;
}

WorkloadItem Composite(const std::string& name, std::optional<api::WorkloadCompositePodGroupSchedulingPolicy> p) {
  WorkloadItem item;
  item.name = name;
  item.path = "spec.scheduling";
  item.input.policy.composite_pod_group_data = std::move(p);
  item.input.policy.path_elements = {"schedulingPolicy"};
  return item;
}

api::WorkloadCompositePodGroupSchedulingPolicy CompositeGang(int32_t n) {
  api::WorkloadCompositePodGroupSchedulingPolicy p;
  p.gang = api::WorkloadCompositePodGroupGangSchedulingPolicy{n};
  return p;
}

validation::ErrorList ValidateTree(std::optional<WorkloadItem> root, BuildOptions opts,
                          const WorkloadItem* old = nullptr) {
  return Builder::New(std::move(root), std::move(opts)).Validate({old});
}

void ExpectOne(const validation::ErrorList& errs, FieldErrorType type, const std::string& field) {
  ASSERT_EQ(errs.size(), 1u) << (errs.empty() ? "" : errs[0].ToString());
  EXPECT_EQ(errs[0].type, type) << errs[0].ToString();
  EXPECT_EQ(errs[0].field, field) << errs[0].ToString();
}

TEST(ValidateTest, D01_NilRoot) {
  ExpectOne(ValidateTree(std::nullopt, Allow({}, {DisruptionModeOption::kAllMode})),
            FieldErrorType::kInvalid, "");
}

TEST(ValidateTest, D02_BasicAllowed) {
  EXPECT_TRUE(ValidateTree(WithBasic(Job()), Allow({SchedulingPolicyOption::kBasicPolicy}, {})).empty());
}

TEST(ValidateTest, D04_NothingAllowedClosedByDefault) {
  const auto errs = ValidateTree(WithBasic(Job()), Allow({}, {}));
  ExpectOne(errs, FieldErrorType::kForbidden, "spec.scheduling.schedulingPolicy");
  EXPECT_EQ(errs[0].detail, "basic scheduling policy is not supported by this controller");
}

TEST(ValidateTest, D05_GangNotAllowed) {
  const auto errs = ValidateTree(WithGang(Job(), 2), Allow({SchedulingPolicyOption::kBasicPolicy}, {}));
  ExpectOne(errs, FieldErrorType::kForbidden, "spec.scheduling.schedulingPolicy");
  EXPECT_EQ(errs[0].detail, "gang scheduling policy is not supported by this controller");
}

TEST(ValidateTest, D07_AllModeNotAllowed) {
  const auto errs = ValidateTree(WithDisruption(WithGang(Job(), 2), false, true),
                        Allow({SchedulingPolicyOption::kGangPolicy}, {DisruptionModeOption::kSingleMode}));
  ExpectOne(errs, FieldErrorType::kForbidden, "spec.scheduling.disruptionMode");
  EXPECT_EQ(errs[0].detail, "the disruptionMode `all` is not supported by this controller");
}

TEST(ValidateTest, D08_BasicWithAll) {
  const auto errs = ValidateTree(WithDisruption(WithBasic(Job()), false, true), AllAllowed());
  ExpectOne(errs, FieldErrorType::kInvalid, "spec.scheduling.disruptionMode");
  EXPECT_EQ(errs[0].detail,
            "the disruptionMode `all` is not supported with the Basic scheduling policy");
}

TEST(ValidateTest, D10_GangZeroWithPath) {
  const auto errs = ValidateTree(WithGang(Job(), 0), AllAllowed());
  ExpectOne(errs, FieldErrorType::kInvalid, "spec.scheduling.schedulingPolicy.gang.minCount");
  EXPECT_EQ(errs[0].origin, "minimum");
}

TEST(ValidateTest, D11_GangZeroWithoutPath) {
  ExpectOne(ValidateTree(WithGang(Job(std::nullopt), 0), AllAllowed()), FieldErrorType::kInvalid,
            "schedulingPolicy.gang.minCount");
}

TEST(ValidateTest, D13_DisruptionBothSet) {
  const auto errs = ValidateTree(WithDisruption(WithGang(Job(), 2), true, true), AllAllowed());
  ExpectOne(errs, FieldErrorType::kInvalid, "spec.scheduling.disruptionMode");
  EXPECT_EQ(errs[0].origin, "union");
}

TEST(ValidateTest, D14_TwoTopologyConstraints) {
  WorkloadItem item = WithGang(Job(), 2);
  item.input.constraints.pod_group_data = api::SchedulingConstraints{{{"a"}, {"b"}}};
  item.input.constraints.path_elements = {"schedulingConstraints"};
  ExpectOne(ValidateTree(item, AllAllowed()), FieldErrorType::kTooMany,
            "spec.scheduling.schedulingConstraints.topology");
}

TEST(ValidateTest, D16_CompositeWithLeafChild) {
  WorkloadItem root = Composite("root", CompositeGang(2));
  root.children.push_back(WithGang(Job(), 2));
  EXPECT_TRUE(ValidateTree(root, AllAllowed()).empty());
}

TEST(ValidateTest, D17_CompositeBasicForbidden) {
  api::WorkloadCompositePodGroupSchedulingPolicy basic;
  basic.basic = api::BasicSchedulingPolicy{};
  WorkloadItem root = Composite("root", basic);
  root.children.push_back(WithGang(Job(), 2));
  ExpectOne(ValidateTree(root, Allow({SchedulingPolicyOption::kGangPolicy}, {})), FieldErrorType::kForbidden,
            "spec.scheduling.schedulingPolicy");
}

TEST(ValidateTest, D19_CompositeBothMembers) {
  api::WorkloadCompositePodGroupSchedulingPolicy both = CompositeGang(2);
  both.basic = api::BasicSchedulingPolicy{};
  WorkloadItem root = Composite("root", both);
  root.children.push_back(WithGang(Job(), 2));
  ExpectOne(ValidateTree(root, AllAllowed()), FieldErrorType::kInvalid, "spec.scheduling.schedulingPolicy");
}

TEST(ValidateTest, D20_CompositeWithLeafBlockIsInternalError) {
  for (bool disable_dv : {false, true}) {
    WorkloadItem root = Composite("root", CompositeGang(2));
    root.input.policy.pod_group_data = api::WorkloadPodGroupSchedulingPolicy{};
    root.children.push_back(WithGang(Job(), 2));
    BuildOptions opts = AllAllowed();
    opts.disable_declarative_validation = disable_dv;
    ExpectOne(ValidateTree(root, opts), FieldErrorType::kInternal, "spec.scheduling");
    WorkloadItem root2 = Composite("root", CompositeGang(2));
    root2.input.disruption_mode.pod_group_data = api::DisruptionMode{.all = true};
    root2.children.push_back(WithGang(Job(), 2));
    ExpectOne(ValidateTree(root2, opts), FieldErrorType::kInternal, "spec.scheduling");
  }
}

TEST(ValidateTest, D22_UpdateSameRoot) {
  const WorkloadItem old = WithGang(Job(), 4);
  EXPECT_TRUE(ValidateTree(WithGang(Job(), 8), AllAllowed(), &old).empty());
}

TEST(ValidateTest, D23_UpdateRootRenamed) {
  WorkloadItem old = WithGang(Job(), 4);
  old.name = "stale-job";
  ExpectOne(ValidateTree(WithGang(Job(), 4), AllAllowed(), &old), FieldErrorType::kInternal,
            "spec.scheduling");
}

TEST(ValidateTest, D25_UnchangedInvalidChildIsRatcheted) {
  WorkloadItem root = Composite("root", CompositeGang(1));
  WorkloadItem leaf = WithGang(Job(), 0);
  leaf.name = "leaf";
  root.children.push_back(leaf);
  const WorkloadItem old = root;
  EXPECT_TRUE(ValidateTree(root, AllAllowed(), &old).empty());
}

TEST(ValidateTest, D26_MovedChildValidatesAsNew) {
  WorkloadItem leaf = WithGang(Job(), 0);
  leaf.name = "leaf";
  WorkloadItem mid = Composite("mid", CompositeGang(1));
  mid.children.push_back(leaf);
  WorkloadItem old = Composite("root", CompositeGang(1));
  old.children.push_back(mid);
  WorkloadItem root = Composite("root", CompositeGang(1));
  root.children.push_back(leaf);
  ExpectOne(ValidateTree(root, AllAllowed(), &old), FieldErrorType::kInvalid,
            "spec.scheduling.schedulingPolicy.gang.minCount");
}

}  // namespace
}  // namespace wasched::workloadbuilder
