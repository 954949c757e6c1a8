// File: workloadbuilder/builder_test.cc
//
// Upstream cases E01–E28 (spec/upstream-cases.md §E; component-helpers workloadbuilder
// builder_test.go, described) and the JobSet-shaped composite tree.
#include "workloadbuilder/builder.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace wasched::workloadbuilder {
namespace {

using ::testing::HasSubstr;

api::OwnerReference JobOwner(const std::string& name = "test-job") {
  return api::OwnerReference{"batch/v1", "Job", name, "uid-1", true, true};
}

BuildOptions Opts() {
  BuildOptions o;
  o.name = "wl";
  o.namespace_ = "ns";
  o.owner = JobOwner();
  o.allowed_policies = {SchedulingPolicyOption::kBasicPolicy, SchedulingPolicyOption::kGangPolicy};
  o.allowed_disruption_modes = {DisruptionModeOption::kSingleMode, DisruptionModeOption::kAllMode};
  return o;
}

WorkloadItem Leaf(const std::string& name, std::optional<SchedulingConfig> defaults = std::nullopt) {
  WorkloadItem item;
  item.name = name;
  item.path = "spec.scheduling";
  item.default_config = std::move(defaults);
  return item;
}

SchedulingConfig Defaults(SchedulingPolicy p) {
  SchedulingConfig c;
  c.policy = std::move(p);
  return c;
}

api::WorkloadPodGroupSchedulingPolicy UserGang(std::optional<int32_t> n) {
  api::WorkloadPodGroupSchedulingPolicy p;
  p.gang = api::WorkloadPodGroupGangSchedulingPolicy{n};
  return p;
}

api::WorkloadCompositePodGroupSchedulingPolicy UserCompositeGang(std::optional<int32_t> n) {
  api::WorkloadCompositePodGroupSchedulingPolicy p;
  p.gang = api::WorkloadCompositePodGroupGangSchedulingPolicy{n};
  return p;
}

const api::PodGroupTemplate& OnlyTemplate(const api::Workload& wl) {
  EXPECT_EQ(wl.pod_group_templates.size(), 1u);
  return wl.pod_group_templates.front();
}

TEST(BuilderTest, E01_LeafDefaultBasic) {
  Builder b = Builder::New(Leaf("test-job", Defaults(Basic())), Opts());
  auto wl = b.BuildWorkload();
  ASSERT_TRUE(wl) << wl.error();
  const api::PodGroupTemplate& t = OnlyTemplate(**wl);
  EXPECT_EQ(t.name, "test-job");
  EXPECT_TRUE(t.scheduling_policy.basic);
  EXPECT_FALSE(t.scheduling_policy.gang);
  EXPECT_EQ((*wl)->meta.name, "wl");
  EXPECT_EQ((*wl)->meta.namespace_, "ns");
  ASSERT_EQ((*wl)->meta.owner_references.size(), 1u);
  EXPECT_TRUE((*wl)->meta.owner_references[0].controller);
  ASSERT_TRUE((*wl)->controller_ref);
  EXPECT_EQ((*wl)->controller_ref->api_group, "batch");
  EXPECT_EQ((*wl)->controller_ref->kind, "Job");
  EXPECT_EQ((*wl)->controller_ref->name, "test-job");
  EXPECT_EQ((*wl)->api_version, "scheduling.k8s.io/v1beta1");
}

TEST(BuilderTest, E02_DefaultGang) {
  Builder b = Builder::New(Leaf("j", Defaults(Gang(4))), Opts());
  auto wl = b.BuildWorkload();
  ASSERT_TRUE(wl);
  ASSERT_TRUE(OnlyTemplate(**wl).scheduling_policy.gang);
  EXPECT_EQ(OnlyTemplate(**wl).scheduling_policy.gang->min_count, 4);
}

TEST(BuilderTest, E04_UserOverridesDefault) {
  WorkloadItem item = Leaf("j", Defaults(Basic()));
  item.input.policy.pod_group_data = UserGang(2);
  Builder b = Builder::New(item, Opts());
  auto wl = b.BuildWorkload();
  ASSERT_TRUE(wl);
  EXPECT_FALSE(OnlyTemplate(**wl).scheduling_policy.basic);
  EXPECT_EQ(OnlyTemplate(**wl).scheduling_policy.gang->min_count, 2);
}

TEST(BuilderTest, E05_DefaultsKeptPerField) {
  SchedulingConfig d = Defaults(Basic());
  d.disruption_mode = api::DisruptionMode{.single = true};
  WorkloadItem item = Leaf("j", d);
  item.input.constraints.pod_group_data = api::SchedulingConstraints{{{"topology.kubernetes.io/zone"}}};
  Builder b = Builder::New(item, Opts());
  auto wl = b.BuildWorkload();
  ASSERT_TRUE(wl);
  const auto& t = OnlyTemplate(**wl);
  EXPECT_TRUE(t.scheduling_policy.basic);
  ASSERT_TRUE(t.disruption_mode);
  EXPECT_TRUE(t.disruption_mode->single);
  ASSERT_TRUE(t.scheduling_constraints);
  EXPECT_EQ(t.scheduling_constraints->topology[0].key, "topology.kubernetes.io/zone");
}

TEST(BuilderTest, E07_UserClaim) {
  WorkloadItem item = Leaf("j");
  item.input.resource_claims.pod_group_data = {{"gpu", std::string("my-claim"), std::nullopt}};
  Builder b = Builder::New(item, Opts());
  auto wl = b.BuildWorkload();
  ASSERT_TRUE(wl);
  ASSERT_EQ(OnlyTemplate(**wl).resource_claims.size(), 1u);
  EXPECT_EQ(OnlyTemplate(**wl).resource_claims[0].name, "gpu");
}

TEST(BuilderTest, E08_PriorityClassNameFromDefault) {
  SchedulingConfig d = Defaults(Basic());
  d.priority_class_name = "system-node-critical";
  Builder b = Builder::New(Leaf("j", d), Opts());
  auto wl = b.BuildWorkload();
  ASSERT_TRUE(wl);
  EXPECT_EQ(OnlyTemplate(**wl).priority_class_name, "system-node-critical");
}

TEST(BuilderTest, E10_EmptyRootNameFailsBeforeCallbacks) {
  bool ran = false;
  WorkloadItem item = Leaf("");
  item.callbacks.push_back([&ran](SchedulingConfig&) { ran = true; });
  Builder b = Builder::New(item, Opts());
  auto wl = b.BuildWorkload();
  EXPECT_FALSE(wl);
  EXPECT_FALSE(ran);
}

TEST(BuilderTest, E11_BareRootIsBasic) {
  WorkloadItem item;
  item.name = "bare";
  Builder b = Builder::New(item, Opts());
  auto wl = b.BuildWorkload();
  ASSERT_TRUE(wl);
  EXPECT_TRUE(OnlyTemplate(**wl).scheduling_policy.basic);
}

TEST(BuilderTest, E13_CallbackFillsMinCountWithoutTouchingInput) {
  WorkloadItem item = Leaf("j");
  item.input.policy.pod_group_data = UserGang(std::nullopt);
  item.callbacks.push_back([](SchedulingConfig& c) {
    if (c.policy && c.policy->gang && !c.policy->gang->min_count) c.policy->gang->min_count = 16;
  });
  Builder b = Builder::New(item, Opts());
  auto wl = b.BuildWorkload();
  ASSERT_TRUE(wl);
  EXPECT_EQ(OnlyTemplate(**wl).scheduling_policy.gang->min_count, 16);
  EXPECT_FALSE(item.input.policy.pod_group_data->gang->min_count);
  EXPECT_EQ(ResolveSchedulingConfig(item).policy->gang->min_count, 16);
}

TEST(BuilderTest, E14_UnresolvedMinCountIsAnError) {
  WorkloadItem item = Leaf("j");
  item.input.policy.pod_group_data = UserGang(std::nullopt);
  Builder b = Builder::New(item, Opts());
  auto wl = b.BuildWorkload();
  ASSERT_FALSE(wl);
  EXPECT_THAT(wl.error(), HasSubstr("minCount to be set after resolution"));
}

WorkloadItem CompositeRoot(const std::string& name) {
  WorkloadItem root = Leaf(name);
  root.children.push_back(Leaf("workers", Defaults(Gang(4))));
  return root;
}

TEST(BuilderTest, E16_CompositeMinGroupCount) {
  WorkloadItem root = CompositeRoot("root");
  root.input.policy.composite_pod_group_data = UserCompositeGang(3);
  Builder b = Builder::New(root, Opts());
  auto wl = b.BuildWorkload();
  ASSERT_TRUE(wl) << wl.error();
  ASSERT_EQ((*wl)->composite_pod_group_templates.size(), 1u);
  EXPECT_TRUE((*wl)->pod_group_templates.empty());
  EXPECT_EQ((*wl)->composite_pod_group_templates[0].scheduling_policy.gang->min_group_count, 3);
}

TEST(BuilderTest, E17_CompositeConstraintsAndDisruption) {
  WorkloadItem root = CompositeRoot("root");
  root.input.constraints.composite_pod_group_data =
      api::SchedulingConstraints{{{"topology.kubernetes.io/zone"}}};
  root.input.disruption_mode.composite_pod_group_data = api::DisruptionMode{.all = true};
  Builder b = Builder::New(root, Opts());
  auto wl = b.BuildWorkload();
  ASSERT_TRUE(wl);
  const auto& t = (*wl)->composite_pod_group_templates[0];
  ASSERT_TRUE(t.scheduling_constraints);
  EXPECT_EQ(t.scheduling_constraints->topology[0].key, "topology.kubernetes.io/zone");
  ASSERT_TRUE(t.disruption_mode);
  EXPECT_TRUE(t.disruption_mode->all);
}

TEST(BuilderTest, E19_NestedComposite) {
  WorkloadItem inner = Leaf("inner");
  inner.input.policy.composite_pod_group_data = UserCompositeGang(2);
  inner.children.push_back(Leaf("workers"));
  WorkloadItem root = Leaf("root", Defaults(Basic()));
  root.children.push_back(inner);
  Builder b = Builder::New(root, Opts());
  auto wl = b.BuildWorkload();
  ASSERT_TRUE(wl) << wl.error();
  const auto& r = (*wl)->composite_pod_group_templates[0];
  EXPECT_TRUE(r.scheduling_policy.basic);
  ASSERT_EQ(r.composite_pod_group_templates.size(), 1u);
  EXPECT_EQ(r.composite_pod_group_templates[0].name, "inner");
  EXPECT_EQ(r.composite_pod_group_templates[0].scheduling_policy.gang->min_group_count, 2);
  ASSERT_EQ(r.composite_pod_group_templates[0].pod_group_templates.size(), 1u);
  EXPECT_EQ(r.composite_pod_group_templates[0].pod_group_templates[0].name, "workers");
}

TEST(BuilderTest, E20_Errors) {
  auto fails = [](std::optional<WorkloadItem> root, BuildOptions opts, const char* what) {
    Builder b = Builder::New(std::move(root), std::move(opts));
    auto wl = b.BuildWorkload();
    EXPECT_FALSE(wl) << what;
    return wl ? std::string() : wl.error();
  };
  WorkloadItem no_count = CompositeRoot("root");
  no_count.input.policy.composite_pod_group_data = UserCompositeGang(std::nullopt);
  EXPECT_THAT(fails(no_count, Opts(), "composite gang without minGroupCount"),
              HasSubstr("minGroupCount"));
  WorkloadItem leaf_block = CompositeRoot("root");
  leaf_block.input.policy.pod_group_data = UserGang(2);
  EXPECT_THAT(fails(leaf_block, Opts(), "composite with leaf block"),
              HasSubstr("sets leaf building block: policy"));
  WorkloadItem empty_child = Leaf("root");
  empty_child.children.push_back(Leaf(""));
  fails(empty_child, Opts(), "child with empty name");
  WorkloadItem twins = Leaf("root");
  twins.children.push_back(Leaf("workers"));
  twins.children.push_back(Leaf("workers"));
  EXPECT_THAT(fails(twins, Opts(), "two children named workers"), HasSubstr("duplicate"));
  EXPECT_THAT(fails(std::nullopt, Opts(), "nil root"), HasSubstr("missing root"));
  BuildOptions no_owner = Opts();
  no_owner.owner.reset();
  EXPECT_THAT(fails(Leaf("j"), no_owner, "missing owner"), HasSubstr("must be owned"));
  BuildOptions bad_owner = Opts();
  bad_owner.owner->api_version = "batch/v1/extra";
  EXPECT_THAT(fails(Leaf("j"), bad_owner, "bad apiVersion"), HasSubstr("batch/v1/extra"));
}

TEST(BuilderTest, E22_CachedAndFailuresNotCached) {
  Builder b = Builder::New(Leaf("j"), Opts());
  auto first = b.BuildWorkload();
  auto second = b.BuildWorkload();
  ASSERT_TRUE(first && second);
  EXPECT_EQ(*first, *second);
  BuildOptions no_owner = Opts();
  no_owner.owner.reset();
  Builder failing = Builder::New(Leaf("j"), no_owner);
  EXPECT_FALSE(failing.BuildWorkload());
  failing.mutable_options().owner = JobOwner();
  EXPECT_TRUE(failing.BuildWorkload());  // the failure was not cached
}

TEST(BuilderTest, E23_NewPodGroupBeforeBuild) {
  Builder b = Builder::New(Leaf("j"), Opts());
  auto pg = b.NewPodGroup("pg", "j");
  ASSERT_FALSE(pg);
  EXPECT_THAT(pg.error(), HasSubstr("call BuildWorkload or use NewBuilderFromExistingWorkload"));
}

TEST(BuilderTest, NewPodGroupCopiesTemplate) {
  SchedulingConfig d = Defaults(Gang(8));
  d.constraints = api::SchedulingConstraints{{{"topology.kubernetes.io/zone"}}};
  d.disruption_mode = api::DisruptionMode{.all = true};
  d.priority_class_name = "high";
  Builder b = Builder::New(Leaf("j", d), Opts());
  ASSERT_TRUE(b.BuildWorkload());
  auto pg = b.NewPodGroup("pg", "j");
  ASSERT_TRUE(pg) << pg.error();
  EXPECT_EQ(pg->meta.name, "pg");
  EXPECT_EQ(pg->meta.namespace_, "ns");
  ASSERT_EQ(pg->meta.owner_references.size(), 1u);
  EXPECT_EQ(pg->meta.owner_references[0].kind, "Job");
  ASSERT_TRUE(pg->workload_ref);
  EXPECT_EQ(pg->workload_ref->workload_name, "wl");
  EXPECT_EQ(pg->workload_ref->template_name, "j");
  EXPECT_EQ(pg->scheduling_policy.gang->min_count, 8);
  EXPECT_EQ(pg->scheduling_constraints->topology[0].key, "topology.kubernetes.io/zone");
  EXPECT_TRUE(pg->disruption_mode->all);
  EXPECT_EQ(pg->priority_class_name, "high");
}

TEST(BuilderTest, E25_OwnerClearedAfterBuild) {
  Builder b = Builder::New(Leaf("j"), Opts());
  ASSERT_TRUE(b.BuildWorkload());
  b.mutable_options().owner.reset();
  auto pg = b.NewPodGroup("pg", "j");
  ASSERT_TRUE(pg);
  EXPECT_TRUE(pg->meta.owner_references.empty());
}

TEST(BuilderTest, E26_UnknownTemplate) {
  Builder b = Builder::New(Leaf("j"), Opts());
  ASSERT_TRUE(b.BuildWorkload());
  auto pg = b.NewPodGroup("pg", "missing");
  ASSERT_FALSE(pg);
  EXPECT_THAT(pg.error(), HasSubstr("\"missing\" not found in workload \"wl\" (have [j])"));
}

TEST(BuilderTest, E28_ExistingWorkload) {
  api::Workload parent;
  parent.meta.name = "parent-wl";
  parent.meta.namespace_ = "ns";
  api::PodGroupTemplate t;
  t.name = "pgt-0";
  t.scheduling_policy.gang = api::GangSchedulingPolicy{4};
  t.priority_class_name = "high-priority";
  t.priority = 1000;
  parent.pod_group_templates.push_back(t);
  BuildOptions opts;
  opts.owner = JobOwner("job");
  Builder b = Builder::FromExistingWorkload(parent, opts);
  auto pg = b.NewPodGroup("pg", "pgt-0");
  ASSERT_TRUE(pg) << pg.error();
  EXPECT_EQ(pg->meta.namespace_, "ns");
  ASSERT_EQ(pg->meta.owner_references.size(), 1u);
  EXPECT_EQ(pg->meta.owner_references[0].name, "job");
  EXPECT_EQ(pg->priority_class_name, "high-priority");
  EXPECT_EQ(pg->priority, 1000);
  EXPECT_EQ(pg->workload_ref->workload_name, "parent-wl");
  auto wl = b.BuildWorkload();
  ASSERT_FALSE(wl);
  EXPECT_THAT(wl.error(), HasSubstr("not available on a Builder created from an existing Workload"));
  ASSERT_EQ(b.Validate().size(), 1u);
  EXPECT_EQ(b.Validate()[0].type, FieldErrorType::kInternal);
}

// JobSetTree: a composite root `jobset` (gang minGroupCount 2) with a leader (gang 1) and a
// workers (gang 4) child, as a JobSet-like controller would describe it.
WorkloadItem JobSetTree() {
  WorkloadItem root;
  root.name = "jobset";
  root.path = "spec";
  root.input.policy.composite_pod_group_data = UserCompositeGang(2);
  root.input.policy.path_elements = {"schedulingPolicy"};
  for (auto [name, count] : {std::pair<const char*, int32_t>{"leader", 1}, {"workers", 4}}) {
    WorkloadItem child;
    child.name = name;
    child.path = std::string("spec.replicatedJobs[") + name + "]";
    child.input.policy.pod_group_data = UserGang(count);
    child.input.policy.path_elements = {"schedulingPolicy"};
    root.children.push_back(child);
  }
  return root;
}

TEST(BuilderTest, JobSetTreeValidatesBuildsAndMaterializes) {
  BuildOptions opts = Opts();
  opts.owner = api::OwnerReference{"jobset.x-k8s.io/v1alpha2", "JobSet", "js", "uid-js", true, true};
  opts.name = "js-wl";
  Builder b = Builder::New(JobSetTree(), opts);
  EXPECT_TRUE(b.Validate().empty());
  auto wl = b.BuildWorkload();
  ASSERT_TRUE(wl) << wl.error();
  EXPECT_EQ((*wl)->controller_ref->api_group, "jobset.x-k8s.io");
  const auto& root = (*wl)->composite_pod_group_templates.at(0);
  EXPECT_EQ(root.scheduling_policy.gang->min_group_count, 2);
  ASSERT_EQ(root.pod_group_templates.size(), 2u);
  auto cpg = b.NewCompositePodGroup("js-root", "jobset");
  ASSERT_TRUE(cpg) << cpg.error();
  EXPECT_EQ(cpg->workload_ref->template_name, "jobset");
  EXPECT_EQ(cpg->scheduling_policy.gang->min_group_count, 2);
  EXPECT_FALSE(b.NewPodGroup("js-leader", "leader"));  // upstream: top-level templates only
  auto leader = b.NewChildPodGroup("js-leader", "leader", "js-root");
  ASSERT_TRUE(leader) << leader.error();
  EXPECT_EQ(leader->parent_composite_pod_group_name, "js-root");
  EXPECT_EQ(leader->scheduling_policy.gang->min_count, 1);
  EXPECT_FALSE(b.NewCompositePodGroup("x", "nope"));
}

}  // namespace
}  // namespace wasched::workloadbuilder
