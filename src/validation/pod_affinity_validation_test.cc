// File: validation/pod_affinity_validation_test.cc
//
// Pod (anti-)affinity terms, topology spread constraints and label selectors with upstream
// v1.37.2's paths, values, details and origins (pkg/apis/core/validation/validation.go,
// apimachinery pkg/apis/meta/v1/validation/validation.go, the matchLabelKeys merge of
// pkg/registry/core/pod/strategy.go). One test per rule family. The regex texts of name-format
// problems come from validation/names.h (tested in names_test.cc).
#include "validation/pod_affinity_validation.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "validation/core_validation.h"
#include "validation/label_selector_validation.h"
#include "validation/names.h"

namespace wasched::validation {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

std::vector<std::string> Lines(const ErrorList& errs) {
  std::vector<std::string> out;
  for (const FieldError& e : errs) out.push_back(e.ToString());
  return out;
}

std::vector<std::string> Origins(const ErrorList& errs) {
  std::vector<std::string> out;
  for (const FieldError& e : errs) out.push_back(e.origin);
  return out;
}

api::LabelSelector MatchLabels(std::map<std::string, std::string> labels) {
  api::LabelSelector s;
  s.match_labels = std::move(labels);
  return s;
}

api::LabelSelectorRequirement Req(std::string key, api::LabelSelectorOperator op,
                                  std::string op_text, std::vector<std::string> values) {
  return api::LabelSelectorRequirement{std::move(key), op, std::move(op_text), std::move(values)};
}

api::PodAffinityTerm Term(std::string topology_key = "zone") {
  api::PodAffinityTerm t;
  t.label_selector = MatchLabels({{"app", "web"}});
  t.topology_key = std::move(topology_key);
  return t;
}

api::Pod PodWithContainer() {
  api::Pod pod;
  pod.meta.name = "p";
  pod.meta.namespace_ = "default";
  pod.containers.emplace_back().name = "c";
  pod.containers.back().image = "registry.k8s.io/pause:3.10";
  return pod;
}

api::TopologySpreadConstraint Spread(std::string key = "zone",
                                     std::string when = "DoNotSchedule") {
  api::TopologySpreadConstraint c;
  c.max_skew = 1;
  c.topology_key = std::move(key);
  c.when_unsatisfiable = std::move(when);
  c.label_selector = MatchLabels({{"app", "web"}});
  return c;
}

const std::string kAnti =
    "spec.affinity.podAntiAffinity.requiredDuringSchedulingIgnoredDuringExecution";
const std::string kAffPreferred =
    "spec.affinity.podAffinity.preferredDuringSchedulingIgnoredDuringExecution";

TEST(PodAffinityValidationTest, ValidTermsAndConstraintsPass) {
  api::Pod pod = PodWithContainer();
  pod.pod_affinity.emplace().required.push_back(Term());
  pod.pod_affinity->preferred.push_back({100, Term("kubernetes.io/hostname")});
  pod.pod_anti_affinity.emplace().preferred.push_back({1, Term()});
  pod.topology_spread_constraints = {Spread(), Spread("zone", "ScheduleAnyway")};
  pod.topology_spread_constraints[0].min_domains = 2;
  pod.topology_spread_constraints[0].node_affinity_policy = "Honor";
  pod.topology_spread_constraints[0].node_taints_policy = "Ignore";
  EXPECT_THAT(ValidatePodAffinity(pod, PodSpecSource::kPod), IsEmpty());
  EXPECT_THAT(ValidateTopologySpreadConstraints(pod, PodSpecSource::kPod), IsEmpty());
  EXPECT_THAT(ValidatePodSpecCore(pod, PodSpecSource::kPod), IsEmpty());
}

// validatePodAffinityTerm: Required "can not be empty", then ValidateLabelName on the same key
// (an empty key is no qualified name either); a bad key is Invalid with format=k8s-label-key.
TEST(PodAffinityValidationTest, TopologyKey) {
  api::Pod pod = PodWithContainer();
  pod.pod_anti_affinity.emplace().required.push_back(Term(""));
  const ErrorList errs = ValidatePodAffinity(pod, PodSpecSource::kPod);
  std::vector<std::string> expected = {kAnti + "[0].topologyKey: Required value: can not be empty"};
  for (const std::string& msg : QualifiedNameErrors("")) {
    expected.push_back(kAnti + "[0].topologyKey: Invalid value: \"\": " + msg);
  }
  EXPECT_THAT(Lines(errs), ::testing::ElementsAreArray(expected));
  EXPECT_EQ(expected.size(), 3u);  // "name part must be non-empty" and the regex problem
  EXPECT_EQ(errs[1].origin, kOriginLabelKey);

  pod.pod_anti_affinity->required[0].topology_key = "a/b/c";
  EXPECT_THAT(Lines(ValidatePodAffinity(pod, PodSpecSource::kPod)),
              ElementsAre(kAnti + "[0].topologyKey: Invalid value: \"a/b/c\": " +
                          QualifiedNameErrors("a/b/c")[0]));
}

// validateWeightedPodAffinityTerms: weight in 1–100, then the term at `.podAffinityTerm`.
TEST(PodAffinityValidationTest, PreferredWeightRange) {
  api::Pod pod = PodWithContainer();
  pod.pod_affinity.emplace().preferred = {{0, Term()}, {101, Term()}, {-3, Term("")}};
  EXPECT_THAT(
      Lines(ValidatePodAffinity(pod, PodSpecSource::kPod)),
      ElementsAre(kAffPreferred + "[0].weight: Invalid value: 0: must be in the range 1-100",
                  kAffPreferred + "[1].weight: Invalid value: 101: must be in the range 1-100",
                  kAffPreferred + "[2].weight: Invalid value: -3: must be in the range 1-100",
                  kAffPreferred +
                      "[2].podAffinityTerm.topologyKey: Required value: can not be empty",
                  kAffPreferred + "[2].podAffinityTerm.topologyKey: Invalid value: \"\": " +
                      QualifiedNameErrors("")[0],
                  kAffPreferred + "[2].podAffinityTerm.topologyKey: Invalid value: \"\": " +
                      QualifiedNameErrors("")[1]));
}

// ValidatePodAffinityTermSelector: labelSelector then namespaceSelector, each
// ValidateLabelSelector (matchLabels first, then each requirement: operator / values, key,
// values' label-value format).
TEST(PodAffinityValidationTest, LabelAndNamespaceSelectors) {
  api::Pod pod = PodWithContainer();
  api::PodAffinityTerm term = Term();
  term.label_selector->match_expressions = {
      Req("tier", api::LabelSelectorOperator::kIn, "In", {}),
      Req("tier", api::LabelSelectorOperator::kExists, "Exists", {"x"}),
      Req("tier", api::LabelSelectorOperator::kUnknown, "Near", {}),
      Req("tier", api::LabelSelectorOperator::kNotIn, "NotIn", {"ok", "not ok"})};
  term.label_selector->match_labels = {{"bad key", "web"}};
  term.namespace_selector = api::LabelSelector{};
  term.namespace_selector->match_expressions = {
      Req("team", api::LabelSelectorOperator::kDoesNotExist, "DoesNotExist", {"a"})};
  pod.pod_affinity.emplace().required.push_back(term);
  const std::string t =
      "spec.affinity.podAffinity.requiredDuringSchedulingIgnoredDuringExecution[0]";
  const ErrorList errs = ValidatePodAffinity(pod, PodSpecSource::kPod);
  EXPECT_THAT(
      Lines(errs),
      ElementsAre(
          t + ".labelSelector.matchLabels: Invalid value: \"bad key\": " +
              QualifiedNameErrors("bad key")[0],
          t + ".labelSelector.matchExpressions[0].values: Required value: must be specified "
              "when `operator` is 'In' or 'NotIn'",
          t + ".labelSelector.matchExpressions[1].values: Forbidden: may not be specified when "
              "`operator` is 'Exists' or 'DoesNotExist'",
          t + ".labelSelector.matchExpressions[2].operator: Invalid value: \"Near\": not a "
              "valid selector operator",
          t + ".labelSelector.matchExpressions[3].values[1]: Invalid value: \"not ok\": " +
              LabelValueErrors("not ok")[0],
          t + ".namespaceSelector.matchExpressions[0].values: Forbidden: may not be specified "
              "when `operator` is 'Exists' or 'DoesNotExist'"));
  EXPECT_EQ(errs[0].origin, kOriginLabelKey);
}

// validatePodAffinityTerm: each of `namespaces` a DNS-1123 label, reported at `.namespace`
// (singular, upstream's path).
TEST(PodAffinityValidationTest, NamespaceNames) {
  api::Pod pod = PodWithContainer();
  api::PodAffinityTerm term = Term();
  term.namespaces = {"ok", "Bad_NS", "a.b"};
  pod.pod_anti_affinity.emplace().required.push_back(term);
  EXPECT_THAT(Lines(ValidatePodAffinity(pod, PodSpecSource::kPod)),
              ElementsAre(kAnti + "[0].namespace: Invalid value: \"Bad_NS\": " +
                              Dns1123LabelErrors("Bad_NS")[0],
                          kAnti + "[0].namespace: Invalid value: \"a.b\": must not contain dots"));
}

// ValidateMatchLabelKeysAndMismatchLabelKeys on affinity terms: no labelSelector → Forbidden
// (per list); keys are label names; a key in both lists; a key named twice by the selector that
// the Pod create strategy merged (`key In (value)` for a label the pod has) → Invalid at the
// term path indexed by the key's position (upstream's path).
TEST(PodAffinityValidationTest, MatchLabelKeysRules) {
  api::Pod pod = PodWithContainer();
  api::PodAffinityTerm no_selector = Term();
  no_selector.label_selector.reset();
  no_selector.match_label_keys = {"app"};
  no_selector.mismatch_label_keys = {"team"};
  api::PodAffinityTerm both = Term();
  both.match_label_keys = {"bad key", "track"};
  both.mismatch_label_keys = {"track"};
  pod.pod_anti_affinity.emplace().required = {no_selector, both};
  EXPECT_THAT(
      Lines(ValidatePodAffinity(pod, PodSpecSource::kPod)),
      ElementsAre(kAnti + "[0].matchLabelKeys: Forbidden: must not be specified when "
                          "labelSelector is not set",
                  kAnti + "[0].mismatchLabelKeys: Forbidden: must not be specified when "
                          "labelSelector is not set",
                  kAnti + "[1].matchLabelKeys[0]: Invalid value: \"bad key\": " +
                      QualifiedNameErrors("bad key")[0],
                  kAnti + "[1].matchLabelKeys[1]: Invalid value: \"track\": exists in both "
                          "matchLabelKeys and mismatchLabelKeys"));

  // The key in matchLabels and in matchLabelKeys: the Pod create strategy merges `app In (web)`
  // when the pod is labelled app=web, so validation sees app twice.
  api::Pod labelled = PodWithContainer();
  labelled.meta.labels = {{"app", "web"}};
  api::PodAffinityTerm dup = Term();
  dup.match_label_keys = {"zone", "app"};
  labelled.pod_affinity.emplace().preferred.push_back({10, dup});
  const ErrorList errs = ValidatePodAffinity(labelled, PodSpecSource::kPod);
  EXPECT_THAT(Lines(errs), ElementsAre(kAffPreferred + "[0].podAffinityTerm[1]: Invalid value: "
                                                       "\"app\": exists in both matchLabelKeys "
                                                       "and labelSelector"));
  EXPECT_THAT(Origins(errs), ElementsAre("duplicatedLabelKeys"));
  // Without the label nothing is merged; a pod template is never merged.
  api::Pod unlabelled = labelled;
  unlabelled.meta.labels.clear();
  EXPECT_THAT(ValidatePodAffinity(unlabelled, PodSpecSource::kPod), IsEmpty());
  EXPECT_THAT(ValidatePodAffinity(labelled, PodSpecSource::kTemplate), IsEmpty());
  // Written twice by the user (upstream's test case): a template fails as well.
  api::Pod twice = PodWithContainer();
  api::PodAffinityTerm written = Term();
  written.label_selector->match_labels.clear();
  written.label_selector->match_expressions = {
      Req("key", api::LabelSelectorOperator::kIn, "In", {"value1"}),
      Req("key", api::LabelSelectorOperator::kNotIn, "NotIn", {"value2"})};
  written.match_label_keys = {"key"};
  twice.pod_anti_affinity.emplace().required.push_back(written);
  EXPECT_THAT(Lines(ValidatePodAffinity(twice, PodSpecSource::kTemplate)),
              ElementsAre(kAnti + "[0][0]: Invalid value: \"key\": exists in both "
                                  "matchLabelKeys and labelSelector"));
}

// validateTopologySpreadConstraints, per constraint in upstream's order.
TEST(TopologySpreadValidationTest, FieldRules) {
  api::Pod pod = PodWithContainer();
  api::TopologySpreadConstraint bad = Spread("", "");
  bad.max_skew = 0;
  bad.min_domains = 0;
  bad.node_affinity_policy = "Sometimes";
  bad.node_taints_policy = "honor";
  pod.topology_spread_constraints = {bad};
  const std::string c = "spec.topologySpreadConstraints[0]";
  const ErrorList errs = ValidateTopologySpreadConstraints(pod, PodSpecSource::kPod);
  EXPECT_THAT(
      Lines(errs),
      ElementsAre(c + ".maxSkew: Invalid value: 0: must be greater than zero",
                  c + ".topologyKey: Required value: can not be empty",
                  c + ".whenUnsatisfiable: Unsupported value: \"\": supported values: "
                      "\"DoNotSchedule\", \"ScheduleAnyway\"",
                  c + ".minDomains: Invalid value: 0: must be greater than zero",
                  c + ".minDomains: Invalid value: 0: can only use minDomains if "
                      "whenUnsatisfiable=DoNotSchedule, not ",
                  c + ".nodeAffinityPolicy: Unsupported value: \"Sometimes\": supported values: "
                      "\"Honor\", \"Ignore\"",
                  c + ".nodeTaintsPolicy: Unsupported value: \"honor\": supported values: "
                      "\"Honor\", \"Ignore\""));
  EXPECT_THAT(Origins(errs), ElementsAre("minimum", "", "", "minimum", "dependsOn", "", ""));
}

// validateMinDomains: minDomains only with whenUnsatisfiable DoNotSchedule, and > 0.
TEST(TopologySpreadValidationTest, MinDomains) {
  api::Pod pod = PodWithContainer();
  pod.topology_spread_constraints = {Spread("zone", "ScheduleAnyway"), Spread("rack")};
  pod.topology_spread_constraints[0].min_domains = 3;
  pod.topology_spread_constraints[1].min_domains = -1;
  EXPECT_THAT(Lines(ValidateTopologySpreadConstraints(pod, PodSpecSource::kPod)),
              ElementsAre("spec.topologySpreadConstraints[0].minDomains: Invalid value: 3: can "
                          "only use minDomains if whenUnsatisfiable=DoNotSchedule, not "
                          "ScheduleAnyway",
                          "spec.topologySpreadConstraints[1].minDomains: Invalid value: -1: "
                          "must be greater than zero"));
}

// ValidateSpreadConstraintNotRepeat: a {topologyKey, whenUnsatisfiable} pair repeated later is
// Duplicate at the first one (once, however many repeats follow).
TEST(TopologySpreadValidationTest, DuplicatePairs) {
  api::Pod pod = PodWithContainer();
  pod.topology_spread_constraints = {Spread("zone"), Spread("zone", "ScheduleAnyway"),
                                     Spread("zone"), Spread("zone")};
  EXPECT_THAT(Lines(ValidateTopologySpreadConstraints(pod, PodSpecSource::kPod)),
              ElementsAre("spec.topologySpreadConstraints[0].{topologyKey, whenUnsatisfiable}: "
                          "Duplicate value: \"{zone, DoNotSchedule}\"",
                          "spec.topologySpreadConstraints[2].{topologyKey, whenUnsatisfiable}: "
                          "Duplicate value: \"{zone, DoNotSchedule}\""));
}

// matchLabelKeys on a constraint (MatchLabelKeysInPodTopologySpreadSelectorMerge on in v1.37.2:
// ValidateMatchLabelKeysAndMismatchLabelKeys on the merged selector), then the labelSelector.
TEST(TopologySpreadValidationTest, MatchLabelKeysAndSelector) {
  api::Pod pod = PodWithContainer();
  pod.meta.labels = {{"app", "web"}, {"pod-template-hash", "abc"}};
  api::TopologySpreadConstraint no_selector = Spread("zone");
  no_selector.label_selector.reset();
  no_selector.match_label_keys = {"pod-template-hash"};
  api::TopologySpreadConstraint dup = Spread("rack");
  dup.match_label_keys = {"app", "pod-template-hash", "Bad Key"};
  dup.label_selector->match_expressions = {
      Req("tier", api::LabelSelectorOperator::kIn, "In", {"front end"})};
  pod.topology_spread_constraints = {no_selector, dup};
  const ErrorList errs = ValidateTopologySpreadConstraints(pod, PodSpecSource::kPod);
  EXPECT_THAT(
      Lines(errs),
      ElementsAre("spec.topologySpreadConstraints[0].matchLabelKeys: Forbidden: must not be "
                  "specified when labelSelector is not set",
                  "spec.topologySpreadConstraints[1].matchLabelKeys[2]: Invalid value: "
                  "\"Bad Key\": " + QualifiedNameErrors("Bad Key")[0],
                  "spec.topologySpreadConstraints[1][0]: Invalid value: \"app\": exists in both "
                  "matchLabelKeys and labelSelector",
                  "spec.topologySpreadConstraints[1].labelSelector.matchExpressions[0]."
                  "values[0]: Invalid value: \"front end\": " +
                      LabelValueErrors("front end")[0]));
  EXPECT_EQ(errs[2].origin, "duplicatedLabelKeys");
  // A template is validated as written: app is named once.
  EXPECT_THAT(Lines(ValidateTopologySpreadConstraints(pod, PodSpecSource::kTemplate)),
              ElementsAre("spec.topologySpreadConstraints[0].matchLabelKeys: Forbidden: must "
                          "not be specified when labelSelector is not set",
                          "spec.topologySpreadConstraints[1].matchLabelKeys[2]: Invalid value: "
                          "\"Bad Key\": " + QualifiedNameErrors("Bad Key")[0],
                          "spec.topologySpreadConstraints[1].labelSelector.matchExpressions[0]."
                          "values[0]: Invalid value: \"front end\": " +
                              LabelValueErrors("front end")[0]));
}

// ValidateLabelSelector itself (shared with PodDisruptionBudgets): matchLabels before
// matchExpressions, with upstream's origins on the format rules.
TEST(LabelSelectorValidationTest, OrderAndOrigins) {
  api::LabelSelector s = MatchLabels({{"app", "bad value!"}});
  s.match_expressions = {Req("", api::LabelSelectorOperator::kExists, "Exists", {})};
  const ErrorList errs = ValidateLabelSelector(s, "spec.selector");
  ASSERT_EQ(errs.size(), 3u);
  EXPECT_EQ(errs[0].ToString(), "spec.selector.matchLabels: Invalid value: \"bad value!\": " +
                                    LabelValueErrors("bad value!")[0]);
  EXPECT_EQ(errs[0].origin, kOriginLabelValue);
  EXPECT_EQ(errs[1].field, "spec.selector.matchExpressions[0].key");
  EXPECT_EQ(errs[1].origin, kOriginLabelKey);
  EXPECT_EQ(errs[2].field, "spec.selector.matchExpressions[0].key");
}

// ValidatePodSpec's order: nodeSelector, affinity, topologySpreadConstraints, tolerations.
TEST(PodAffinityValidationTest, PodSpecCoreOrder) {
  api::Pod pod = PodWithContainer();
  pod.node_selector = {{"bad key", "x"}};
  pod.pod_anti_affinity.emplace().required.push_back(Term("zone"));
  pod.pod_anti_affinity->required[0].namespaces = {"Bad"};
  pod.topology_spread_constraints = {Spread("")};
  pod.tolerations.emplace_back().op = api::TolerationOperator::kEqual;
  std::vector<std::string> fields;
  for (const FieldError& e : ValidatePodSpecCore(pod, PodSpecSource::kPod)) {
    fields.push_back(e.field);
  }
  EXPECT_THAT(fields, ElementsAre("spec.nodeSelector", kAnti + "[0].namespace",
                                  "spec.topologySpreadConstraints[0].topologyKey",
                                  "spec.tolerations[0].operator"));
}

}  // namespace
}  // namespace wasched::validation
