// File: validation/priority_admission_test.cc
//
// Priority admission's mismatch rules (plugin/pkg/admission/priority/admission.go admitPod).
#include "validation/priority_admission.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "support/builders.h"

namespace wasched::validation {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;
using wasched::test::MakePod;
using wasched::test::MakePriorityClass;

std::vector<std::string> Lines(const ErrorList& errs) {
  std::vector<std::string> out;
  for (const FieldError& e : errs) out.push_back(e.ToString());
  return out;
}

TEST(PriorityAdmissionTest, Resolve) {
  const PriorityAdmission none({MakePriorityClass().Name("high").Value(1000).Obj()});
  EXPECT_EQ(none.Resolve("high")->priority, 1000);
  EXPECT_EQ(none.Resolve("high")->preemption_policy, api::PreemptionPolicy::kPreemptLowerPriority);
  EXPECT_EQ(none.Resolve("system-node-critical")->priority, 2000001000);
  EXPECT_EQ(none.Resolve("")->priority, 0);  // no globalDefault class
  // no globalDefault class: PreemptLowerPriority (getDefaultPriority)
  EXPECT_EQ(none.Resolve("")->preemption_policy, api::PreemptionPolicy::kPreemptLowerPriority);
  EXPECT_FALSE(none.Resolve("ghost").has_value());

  // Several defaults (an input error of its own): the lowest value, as getDefaultPriorityClass.
  const PriorityAdmission defaults(
      {MakePriorityClass().Name("a").Value(50).GlobalDefault(true).Obj(),
       MakePriorityClass()
           .Name("b")
           .Value(7)
           .GlobalDefault(true)
           .PreemptionPolicy(api::PreemptionPolicy::kNever)
           .Obj()});
  EXPECT_EQ(defaults.Resolve("")->priority, 7);
  EXPECT_EQ(defaults.Resolve("")->preemption_policy, api::PreemptionPolicy::kNever);
}

TEST(PriorityAdmissionTest, PodPriorityMustMatchItsClass) {
  const PriorityAdmission admission({MakePriorityClass().Name("high").Value(1000).Obj()});
  EXPECT_THAT(admission.CheckPod(MakePod().Name("p").Obj()), IsEmpty());
  EXPECT_THAT(admission.CheckPod(MakePod().Name("p").Priority(0).Obj()), IsEmpty());
  EXPECT_THAT(admission.CheckPod(MakePod().Name("p").PriorityClassName("high").Priority(1000).Obj()),
              IsEmpty());
  EXPECT_THAT(Lines(admission.CheckPod(
                  MakePod().Name("p").PriorityClassName("system-node-critical").Priority(7).Obj())),
              ElementsAre("spec.priority: Forbidden: the integer value of priority (7) must not "
                          "be provided in pod spec; priority admission controller computed "
                          "2000001000 from the given PriorityClass name"));
  // No class and no globalDefault class: admission computes 0.
  EXPECT_THAT(Lines(admission.CheckPod(MakePod().Name("p").Priority(5).Obj())),
              ElementsAre("spec.priority: Forbidden: the integer value of priority (5) must not "
                          "be provided in pod spec; priority admission controller computed 0 "
                          "from the given PriorityClass name"));
  // An unknown class is the reference check's NotFound, not this.
  EXPECT_THAT(admission.CheckPod(MakePod().Name("p").PriorityClassName("ghost").Priority(5).Obj()),
              IsEmpty());
}

TEST(PriorityAdmissionTest, GlobalDefaultClassAppliesToPodsWithoutAClass) {
  const PriorityAdmission admission(
      {MakePriorityClass().Name("standard").Value(100).GlobalDefault(true).Obj()});
  EXPECT_THAT(admission.CheckPod(MakePod().Name("p").Priority(100).Obj()), IsEmpty());
  EXPECT_THAT(Lines(admission.CheckPod(MakePod().Name("p").Priority(0).Obj())),
              ElementsAre(::testing::HasSubstr("priority (0) must not be provided in pod spec; "
                                               "priority admission controller computed 100")));
}

TEST(PriorityAdmissionTest, PreemptionPolicyMustMatchItsClass) {
  const PriorityAdmission admission(
      {MakePriorityClass().Name("never").Value(10).PreemptionPolicy(api::PreemptionPolicy::kNever).Obj(),
       MakePriorityClass().Name("plain").Value(20).Obj()});
  EXPECT_THAT(admission.CheckPod(MakePod()
                                     .Name("p")
                                     .PriorityClassName("never")
                                     .PreemptionPolicy(api::PreemptionPolicy::kNever)
                                     .Obj()),
              IsEmpty());
  // Unset in the pod: admission fills it in.
  EXPECT_THAT(admission.CheckPod(MakePod().Name("p").PriorityClassName("never").Obj()), IsEmpty());
  EXPECT_THAT(Lines(admission.CheckPod(MakePod()
                                           .Name("p")
                                           .PriorityClassName("plain")
                                           .PreemptionPolicy(api::PreemptionPolicy::kNever)
                                           .Obj())),
              ElementsAre("spec.preemptionPolicy: Forbidden: the string value of "
                          "PreemptionPolicy (Never) must not be provided in pod spec; priority "
                          "admission controller computed PreemptLowerPriority from the given "
                          "PriorityClass name"));
  // Without any class that applies, admission computes PreemptLowerPriority (getDefaultPriority):
  // Never is refused (observed on the v1.37.2 control plane).
  EXPECT_THAT(
      Lines(admission.CheckPod(
          MakePod().Name("p").PreemptionPolicy(api::PreemptionPolicy::kNever).Obj())),
      ElementsAre("spec.preemptionPolicy: Forbidden: the string value of PreemptionPolicy (Never) "
                  "must not be provided in pod spec; priority admission controller computed "
                  "PreemptLowerPriority from the given PriorityClass name"));
  EXPECT_THAT(admission.CheckPod(MakePod()
                                     .Name("p")
                                     .PreemptionPolicy(api::PreemptionPolicy::kPreemptLowerPriority)
                                     .Obj()),
              IsEmpty());
  // Admission stops at its first error: the priority one.
  EXPECT_THAT(Lines(admission.CheckPod(MakePod()
                                           .Name("p")
                                           .PriorityClassName("plain")
                                           .Priority(1)
                                           .PreemptionPolicy(api::PreemptionPolicy::kNever)
                                           .Obj())),
              ElementsAre(::testing::StartsWith("spec.priority: Forbidden")));
}

TEST(PriorityAdmissionTest, GroupPriorityMustMatchItsClass) {
  const PriorityAdmission admission({MakePriorityClass().Name("high").Value(1000).Obj()});
  const std::optional<api::PreemptionPolicy> none;
  EXPECT_THAT(admission.CheckGroup("high", 1000, none, true, "pod group"), IsEmpty());
  EXPECT_THAT(admission.CheckGroup("high", std::nullopt, none, true, "pod group"), IsEmpty());
  EXPECT_THAT(admission.CheckGroup("", 0, none, true, "pod group"), IsEmpty());
  EXPECT_THAT(Lines(admission.CheckGroup("high", 5, none, true, "pod group")),
              ElementsAre("spec.priority: Forbidden: priority set in the pod group (5) must match "
                          "the priority computed (1000) based on the priority class set in the "
                          "spec"));
  EXPECT_THAT(Lines(admission.CheckGroup("", 2147483647, none, true, "composite pod group")),
              ElementsAre(::testing::HasSubstr("priority set in the composite pod group "
                                               "(2147483647) must match the priority computed "
                                               "(0)")));
}

// admitPodGroup: with gate PodGroupPreemptionPolicy on, the group's preemptionPolicy must equal
// the class's (PreemptLowerPriority without a class); the priority rule is checked first.
TEST(PriorityAdmissionTest, GroupPreemptionPolicyMustMatchItsClass) {
  const PriorityAdmission admission(
      {MakePriorityClass().Name("high").Value(1000).Obj(),
       MakePriorityClass().Name("quiet").Value(900).PreemptionPolicy(api::PreemptionPolicy::kNever).Obj()});
  const auto never = api::PreemptionPolicy::kNever;
  const auto lower = api::PreemptionPolicy::kPreemptLowerPriority;
  EXPECT_THAT(admission.CheckGroup("quiet", std::nullopt, never, true, "pod group"), IsEmpty());
  // Unset is defaulted to PreemptLowerPriority before admission: a Never class refuses it.
  EXPECT_THAT(Lines(admission.CheckGroup("quiet", std::nullopt, std::nullopt, true, "pod group")),
              ElementsAre("spec.preemptionPolicy: Forbidden: the string value of PreemptionPolicy "
                          "(PreemptLowerPriority) must not be provided in pod group spec; priority "
                          "admission controller computed Never from the given PriorityClass name"));
  EXPECT_THAT(admission.CheckGroup("high", std::nullopt, std::nullopt, true, "pod group"),
              IsEmpty());
  EXPECT_THAT(admission.CheckGroup("high", std::nullopt, lower, true, "pod group"), IsEmpty());
  EXPECT_THAT(Lines(admission.CheckGroup("high", std::nullopt, never, true, "pod group")),
              ElementsAre("spec.preemptionPolicy: Forbidden: the string value of PreemptionPolicy "
                          "(Never) must not be provided in pod group spec; priority admission "
                          "controller computed PreemptLowerPriority from the given PriorityClass "
                          "name"));
  EXPECT_THAT(Lines(admission.CheckGroup("", std::nullopt, never, true, "composite pod group")),
              ElementsAre(::testing::HasSubstr("(Never) must not be provided in composite pod "
                                               "group spec; priority admission controller "
                                               "computed PreemptLowerPriority")));
  EXPECT_THAT(Lines(admission.CheckGroup("quiet", std::nullopt, lower, true, "pod group")),
              ElementsAre(::testing::HasSubstr("computed Never from")));
  // Gate off: admission does not look at the policy.
  EXPECT_THAT(admission.CheckGroup("high", std::nullopt, never, false, "pod group"), IsEmpty());
  // The priority rule first.
  EXPECT_THAT(Lines(admission.CheckGroup("high", 1, never, true, "pod group")),
              ElementsAre(::testing::StartsWith("spec.priority: Forbidden")));
}

}  // namespace
}  // namespace wasched::validation
