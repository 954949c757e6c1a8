// File: codec/generated_encoding_test.cc
//
// The manifests of generated objects read back through the codec (LoadString) into the same
// objects, for every field the encoder writes; the ScheduleResult's `generated` list in JSON and
// YAML.
#include "codec/generated_encoding.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "codec/loader.h"
#include "codec/result_encoding.h"

namespace wasched::codec {
namespace {

api::Pod FullPod() {
  api::Pod p;
  p.meta.name = "p-0";
  p.meta.namespace_ = "ml";
  p.meta.uid = "u-1";
  p.meta.labels = {{"batch.kubernetes.io/job-completion-index", "3"}, {"app", "yes"}};
  p.meta.annotations = {{"note", "0x1f"}};
  p.meta.owner_references = {{"batch/v1", "Job", "j", "ju", true, true}};
  api::Container c;
  c.name = "main";
  c.requests = {{"cpu", 1500}, {"memory", 512LL << 20}, {"nvidia.com/gpu", 1}};
  c.limits = {{"cpu", 2000}};
  p.containers.push_back(c);
  api::Container sidecar;
  sidecar.name = "side";
  sidecar.restart_policy_always = true;
  sidecar.requests = {{"cpu", 100}};
  p.init_containers.push_back(sidecar);
  p.node_selector = {{"pool", "gpu"}};
  api::NodeAffinity na;
  na.required = std::vector<api::NodeSelectorTerm>{
      {{{"topology.kubernetes.io/zone", api::NodeSelectorOperator::kIn, {"a", "b"}}}, {}}};
  na.preferred.push_back({7, {{{"rack", api::NodeSelectorOperator::kExists, {}}}, {}}});
  p.node_affinity = na;
  api::Toleration t;
  t.key = "gpu";
  t.op = api::TolerationOperator::kEqual;
  t.value = "true";
  t.effect = api::TaintEffect::kNoSchedule;
  p.tolerations.push_back(t);
  p.priority_class_name = "high";
  p.priority = 1000;
  p.pod_group_name = "pg";
  p.scheduling_group_set = true;
  p.scheduling_gates = {"wait"};
  return p;
}

TEST(GeneratedEncodingTest, PodRoundTrip) {
  api::ObjectSet in;
  in.pods.push_back(FullPod());
  const std::string yaml = EncodeObjectsYaml(in);
  auto loaded = LoadString(yaml, "gen.yaml");
  ASSERT_TRUE(loaded) << loaded.error().at(0).ToString() << "\n" << yaml;
  ASSERT_EQ(loaded->objects.pods.size(), 1u);
  const api::Pod& p = loaded->objects.pods[0];
  const api::Pod want = FullPod();
  EXPECT_EQ(p.meta.name, want.meta.name);
  EXPECT_EQ(p.meta.namespace_, "ml");
  EXPECT_EQ(p.meta.labels, want.meta.labels);
  EXPECT_EQ(p.meta.annotations, want.meta.annotations);
  ASSERT_EQ(p.meta.owner_references.size(), 1u);
  EXPECT_TRUE(p.meta.owner_references[0].controller);
  EXPECT_EQ(p.containers.at(0).requests, want.containers[0].requests);
  EXPECT_EQ(p.containers.at(0).limits, want.containers[0].limits);
  EXPECT_TRUE(p.init_containers.at(0).restart_policy_always);
  EXPECT_EQ(p.node_selector, want.node_selector);
  ASSERT_TRUE(p.node_affinity && p.node_affinity->required);
  EXPECT_EQ(p.node_affinity->required->at(0).match_expressions.at(0).values,
            (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(p.node_affinity->preferred.at(0).weight, 7);
  EXPECT_EQ(p.tolerations.at(0).value, "true");
  EXPECT_EQ(p.tolerations.at(0).effect, api::TaintEffect::kNoSchedule);
  EXPECT_EQ(p.priority, 1000);
  EXPECT_EQ(p.priority_class_name, "high");
  EXPECT_EQ(p.pod_group_name, "pg");
  EXPECT_EQ(p.scheduling_gates, want.scheduling_gates);
  EXPECT_EQ(EncodeObjectsYaml(loaded->objects), yaml);
}

TEST(GeneratedEncodingTest, GroupsRoundTripAndListShape) {
  api::ObjectSet in;
  api::Workload wl;
  wl.meta.name = "wl";
  wl.meta.namespace_ = "ml";
  wl.controller_ref = api::TypedLocalObjectReference{"batch", "Job", "j"};
  api::PodGroupTemplate t;
  t.name = "t";
  t.scheduling_policy.gang = api::GangSchedulingPolicy{8};
  t.scheduling_constraints = api::SchedulingConstraints{{{"topology.kubernetes.io/zone"}}};
  t.disruption_mode = api::DisruptionMode{.all = true};
  t.resource_claims.push_back({"gpu", std::string("claim"), std::nullopt});
  wl.pod_group_templates.push_back(t);
  in.workloads.push_back(wl);
  api::PodGroup pg;
  pg.meta.name = "pg";
  pg.meta.namespace_ = "ml";
  pg.workload_ref = api::WorkloadReference{"wl", "t"};
  pg.scheduling_policy = t.scheduling_policy;
  pg.scheduling_constraints = t.scheduling_constraints;
  pg.disruption_mode = t.disruption_mode;
  pg.resource_claims = t.resource_claims;
  in.pod_groups.push_back(pg);
  const std::string yaml = EncodeObjectsYaml(in);
  auto loaded = LoadString(yaml, "gen.yaml");
  ASSERT_TRUE(loaded) << loaded.error().at(0).ToString() << "\n" << yaml;
  EXPECT_EQ(loaded->objects.workloads.at(0).pod_group_templates.at(0), t);
  EXPECT_EQ(loaded->objects.pod_groups.at(0).workload_ref, pg.workload_ref);
  EXPECT_EQ(loaded->objects.pod_groups.at(0).resource_claims, pg.resource_claims);
  const auto list = nlohmann::json::parse(EncodeObjectsJsonList(in));
  EXPECT_EQ(list["kind"], "List");
  EXPECT_EQ(list["items"].size(), 2u);
  EXPECT_EQ(list["items"][1]["spec"]["schedulingPolicy"]["gang"]["minCount"], 8);
  EXPECT_EQ(EncodeObjectsYaml({}), "");
}

TEST(GeneratedEncodingTest, ScheduleResultGenerated) {
  sched::ScheduleResult r;
  r.generated.pods.push_back(FullPod());
  const auto doc = nlohmann::json::parse(EncodeScheduleResultJson(r));
  ASSERT_EQ(doc["generated"].size(), 1u);
  EXPECT_EQ(doc["generated"][0]["metadata"]["labels"]["app"], "yes");
  const std::string yaml = EncodeScheduleResultYaml(r);
  EXPECT_NE(yaml.find("generated:\n  - apiVersion: \"v1\"\n    kind: \"Pod\""), std::string::npos) << yaml;
  EXPECT_NE(yaml.find("app: \"yes\""), std::string::npos) << yaml;
}

}  // namespace
}  // namespace wasched::codec
