// File: validation/workload_validation_test.cc
//
// Workload rules beyond the upstream cases (those run through the CLI in
// tests/upstream_cases_test.cc): the hand-written rules' edges, ratcheting, the composite
// minGroupCount choice (spec §12 item 5) and gate behaviour on update.
#include "validation/workload_validation.h"

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

api::PodGroupTemplate Leaf(std::string name, int32_t min_count = 1) {
  api::PodGroupTemplate t;
  t.name = std::move(name);
  t.scheduling_policy.gang = api::GangSchedulingPolicy{min_count};
  return t;
}

api::CompositePodGroupTemplate Composite(std::string name, int32_t min_group_count = 1) {
  api::CompositePodGroupTemplate t;
  t.name = std::move(name);
  t.scheduling_policy.gang = api::CompositeGangSchedulingPolicy{min_group_count};
  return t;
}

api::Workload Base() {
  api::Workload w;
  w.meta.name = "w";
  w.meta.namespace_ = "default";
  w.pod_group_templates.push_back(Leaf("main"));
  return w;
}

api::Workload WithComposites(std::vector<api::CompositePodGroupTemplate> composites) {
  api::Workload w = Base();
  w.pod_group_templates.clear();
  w.composite_pod_group_templates = std::move(composites);
  return w;
}

TEST(WorkloadValidationTest, ValidBaseAndMetadata) {
  EXPECT_THAT(ValidateWorkload(Base(), nullptr, FeatureGates{}), IsEmpty());
  api::Workload w = Base();
  w.meta.name = "Bad_Name";
  EXPECT_THAT(Summary(ValidateWorkload(w, nullptr, FeatureGates{})),
              ElementsAre("Invalid metadata.name"));
}

TEST(WorkloadValidationTest, TemplateNamesUniqueAcrossTheWholeTree) {
  api::CompositePodGroupTemplate a = Composite("a");
  a.pod_group_templates.push_back(Leaf("x"));
  api::CompositePodGroupTemplate b = Composite("b");
  b.pod_group_templates.push_back(Leaf("x"));  // same name as a's child: cross-list duplicate
  api::CompositePodGroupTemplate nested = Composite("a");  // same as a top-level composite
  nested.pod_group_templates.push_back(Leaf("y"));
  b.composite_pod_group_templates.push_back(nested);
  const ErrorList errs = ValidateWorkload(WithComposites({a, b}), nullptr, FeatureGates{});
  EXPECT_THAT(Summary(errs),
              ElementsAre("Duplicate spec.compositePodGroupTemplates[1].podGroupTemplates[0].name",
                          "Duplicate spec.compositePodGroupTemplates[1]."
                          "compositePodGroupTemplates[0].name"));
}

TEST(WorkloadValidationTest, DuplicatesInOneListAreDeclarativeOnly) {
  api::Workload w = Base();
  w.pod_group_templates.push_back(Leaf("main"));
  EXPECT_THAT(Summary(ValidateWorkload(w, nullptr, FeatureGates{})),
              ElementsAre("Duplicate spec.podGroupTemplates[1]"));
}

TEST(WorkloadValidationTest, DepthThreeCompositeLevelsAreFineFourAreNot) {
  auto chain = [](int levels) {
    api::CompositePodGroupTemplate t = Composite("c" + std::to_string(levels));
    t.pod_group_templates.push_back(Leaf("leaf"));
    for (int i = levels - 1; i >= 1; --i) {
      api::CompositePodGroupTemplate parent = Composite("c" + std::to_string(i));
      parent.composite_pod_group_templates.push_back(t);
      t = parent;
    }
    return t;
  };
  EXPECT_THAT(ValidateWorkload(WithComposites({chain(3)}), nullptr, FeatureGates{}), IsEmpty());
  const ErrorList errs = ValidateWorkload(WithComposites({chain(4)}), nullptr, FeatureGates{});
  EXPECT_THAT(Summary(errs), ElementsAre("Invalid spec.compositePodGroupTemplates[0]"));
  EXPECT_EQ(errs[0].detail, "maximum template hierarchy depth is 4");
}

TEST(WorkloadValidationTest, PriorityConfigurationEvenWhenCompositesAreForbidden) {
  api::CompositePodGroupTemplate c = Composite("main");
  c.priority = 100;
  c.pod_group_templates.push_back(Leaf("worker"));
  FeatureGates gates;
  gates.composite_pod_group = false;
  EXPECT_THAT(Summary(ValidateWorkload(WithComposites({c}), nullptr, gates)),
              ElementsAre("Forbidden spec.compositePodGroupTemplates", "Invalid spec"));
  // Same class and priority everywhere: fine.
  api::Workload w = Base();
  w.pod_group_templates[0].priority_class_name = "high";
  w.pod_group_templates.push_back(Leaf("second"));
  w.pod_group_templates[1].priority_class_name = "high";
  EXPECT_THAT(ValidateWorkload(w, nullptr, FeatureGates{}), IsEmpty());
  w.pod_group_templates[1].priority = 5;
  EXPECT_THAT(Summary(ValidateWorkload(w, nullptr, FeatureGates{})), ElementsAre("Invalid spec"));
}

TEST(WorkloadValidationTest, EmptyNestedCompositeIsReportedAtItsPath) {
  api::CompositePodGroupTemplate root = Composite("root");
  root.composite_pod_group_templates.push_back(Composite("empty"));
  const ErrorList errs = ValidateWorkload(WithComposites({root}), nullptr, FeatureGates{});
  EXPECT_THAT(Summary(errs), ElementsAre("Invalid spec.compositePodGroupTemplates[0]."
                                         "compositePodGroupTemplates[0]"));
  EXPECT_EQ(errs[0].bad_value, "\"empty\"");
}

// Choice for spec §12 item 5: a composite template's gang.minGroupCount may change on a
// Workload update (the markers leave it mutable); switching basic/gang may not.
TEST(WorkloadValidationTest, CompositeMinGroupCountIsMutableInATemplate) {
  api::CompositePodGroupTemplate c = Composite("main", 2);
  c.pod_group_templates.push_back(Leaf("worker"));
  const api::Workload old = WithComposites({c});
  api::Workload updated = old;
  updated.composite_pod_group_templates[0].scheduling_policy.gang->min_group_count = 3;
  EXPECT_THAT(ValidateWorkload(updated, &old, FeatureGates{}), IsEmpty());
  updated.composite_pod_group_templates[0].scheduling_policy.gang.reset();
  updated.composite_pod_group_templates[0].scheduling_policy.basic.emplace();
  EXPECT_THAT(Summary(ValidateWorkload(updated, &old, FeatureGates{})),
              ElementsAre("Invalid spec.compositePodGroupTemplates[0].schedulingPolicy.basic "
                          "(immutable)",
                          "Invalid spec.compositePodGroupTemplates[0].schedulingPolicy.gang "
                          "(update)"));
}

TEST(WorkloadValidationTest, UnchangedInvalidValuesAreRatcheted) {
  api::Workload old = Base();
  old.pod_group_templates[0].priority = 2000000000;  // above the user maximum
  api::Workload updated = old;
  updated.pod_group_templates[0].scheduling_policy.gang->min_count = 5;
  EXPECT_THAT(ValidateWorkload(updated, &old, FeatureGates{}), IsEmpty());
  EXPECT_THAT(Summary(ValidateWorkload(updated, nullptr, FeatureGates{})),
              ElementsAre("Invalid spec.podGroupTemplates[0].priority (maximum)"));
}

// QA3 finding 10: NoAddItem short-circuits the list (upstream MarkShortCircuit): an added item
// reports only Forbidden(update), not its own contents (nor changes to the other items).
TEST(WorkloadValidationTest, AddedItemShortCircuitsTheList) {
  const api::Workload old = Base();
  api::Workload updated = old;
  updated.pod_group_templates.push_back(Leaf("B_ad", -1));
  updated.pod_group_templates[0].scheduling_policy.gang->min_count = 0;
  EXPECT_THAT(Summary(ValidateWorkload(updated, &old, FeatureGates{})),
              ElementsAre("Forbidden spec.podGroupTemplates[1] (update)"));
}

TEST(WorkloadValidationTest, ControllerRefSetOnUpdateIsImmutable) {
  const api::Workload old = Base();
  api::Workload updated = old;
  updated.controller_ref = api::TypedLocalObjectReference{"apps", "Deployment", "d"};
  EXPECT_THAT(Summary(ValidateWorkload(updated, &old, FeatureGates{})),
              ElementsAre("Invalid spec.controllerRef (immutable)"));
}

}  // namespace
}  // namespace wasched::validation
