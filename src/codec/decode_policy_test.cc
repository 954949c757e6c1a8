// policy/v1 PodDisruptionBudget through LoadString, and its validation.
#include "codec/decode_policy.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "codec/loader.h"
#include "validation/pod_disruption_budget_validation.h"

namespace wasched::codec {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

TEST(DecodePolicy, PodDisruptionBudgetFields) {
  auto loaded = LoadString(R"(apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: {name: web, namespace: shop}
spec:
  maxUnavailable: 25%
  unhealthyPodEvictionPolicy: AlwaysAllow
  selector:
    matchLabels: {app: web}
    matchExpressions:
    - {key: tier, operator: NotIn, values: [batch]}
status: {disruptionsAllowed: 3}
)",
                           "pdb.yaml");
  ASSERT_TRUE(loaded);
  ASSERT_EQ(loaded->objects.pod_disruption_budgets.size(), 1u);
  const api::PodDisruptionBudget& pdb = loaded->objects.pod_disruption_budgets[0];
  EXPECT_EQ(pdb.meta.namespace_, "shop");
  EXPECT_FALSE(pdb.min_available.has_value());
  ASSERT_TRUE(pdb.max_unavailable.has_value());
  EXPECT_TRUE(pdb.max_unavailable->is_string);
  EXPECT_EQ(pdb.max_unavailable->str_value, "25%");
  ASSERT_TRUE(pdb.selector.has_value());
  EXPECT_EQ(pdb.selector->match_labels.at("app"), "web");
  ASSERT_EQ(pdb.selector->match_expressions.size(), 1u);
  EXPECT_EQ(pdb.selector->match_expressions[0].op, api::LabelSelectorOperator::kNotIn);
  EXPECT_TRUE(loaded->warnings.empty());
}

TEST(DecodePolicy, IntOrStringWrongType) {
  auto loaded = LoadString(R"(apiVersion: policy/v1
kind: PodDisruptionBudget
metadata: {name: web}
spec: {minAvailable: [1]}
)",
                           "pdb.yaml");
  ASSERT_FALSE(loaded);
  EXPECT_THAT(loaded.error()[0].ToString(), HasSubstr("spec.minAvailable"));
}

std::vector<std::string> Errors(const api::PodDisruptionBudget& pdb) {
  std::vector<std::string> out;
  for (const FieldError& e : validation::ValidatePodDisruptionBudget(pdb)) {
    out.push_back(e.field + ": " + e.detail);
  }
  return out;
}

TEST(PodDisruptionBudgetValidation, Rules) {
  api::PodDisruptionBudget pdb;
  pdb.meta.name = "web";
  pdb.meta.namespace_ = "default";
  pdb.min_available = api::IntOrString{false, -1, ""};
  EXPECT_THAT(Errors(pdb), ElementsAre("spec.minAvailable: must be greater than or equal to 0"));
  pdb.min_available = api::IntOrString{true, 0, "5"};
  EXPECT_THAT(Errors(pdb), ElementsAre(HasSubstr("spec.minAvailable: a valid percent string")));
  pdb.min_available = api::IntOrString{true, 0, "50%"};
  pdb.max_unavailable = api::IntOrString{false, 1, ""};
  EXPECT_THAT(Errors(pdb), ElementsAre("spec: minAvailable and maxUnavailable cannot be both set"));
  pdb.min_available.reset();
  pdb.selector = api::LabelSelector{};
  pdb.selector->match_expressions.push_back(
      {"app", api::LabelSelectorOperator::kExists, "Exists", {"x"}});
  EXPECT_THAT(Errors(pdb), ElementsAre("spec.selector.matchExpressions[0].values: may not be "
                                       "specified when `operator` is 'Exists' or 'DoesNotExist'"));
}

}  // namespace
}  // namespace wasched::codec
