// File: codec/result_encoding_test.cc
//
// The ScheduleResult document: exact JSON bytes (key order, indent, trailing newline) and the
// same structure in YAML.
#include "codec/result_encoding.h"

#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

namespace wasched::codec {
namespace {

sched::ScheduleResult SampleResult() {
  sched::ScheduleResult r;
  r.bindings = {{"ml/a-0", "node-1"}, {"ml/a-1", "node-2"}};
  r.pending = {{"ml/b-0", "Unschedulable", "0/3 nodes are available: 3 Insufficient cpu."}};
  r.evictions = {{"ml/old", "node-2", "PodGroup ml/a"}};
  sched::GroupResult pg;
  pg.kind = "PodGroup";
  pg.name = "ml/a";
  pg.scheduled = 2;
  pg.min_count = 2;
  pg.conditions = {{"PodGroupInitiallyScheduled", "True", "Scheduled", "", 0, 0}};
  sched::GroupResult cpg;
  cpg.kind = "CompositePodGroup";
  cpg.name = "ml/root";
  cpg.scheduled = 0;
  cpg.min_group_count = 2;
  r.groups = {pg, cpg};
  return r;
}

TEST(ResultEncodingTest, EmptyResultJson) {
  EXPECT_EQ(EncodeScheduleResultJson({}),
            "{\n"
            "  \"apiVersion\": \"wasched.io/v1alpha1\",\n"
            "  \"kind\": \"ScheduleResult\",\n"
            "  \"bindings\": [],\n"
            "  \"pending\": [],\n"
            "  \"evictions\": [],\n"
            "  \"groups\": [],\n"
            "  \"generated\": []\n"
            "}\n");
}

TEST(ResultEncodingTest, FullResultJson) {
  EXPECT_EQ(EncodeScheduleResultJson(SampleResult()),
            R"({
  "apiVersion": "wasched.io/v1alpha1",
  "kind": "ScheduleResult",
  "bindings": [
    {
      "pod": "ml/a-0",
      "node": "node-1"
    },
    {
      "pod": "ml/a-1",
      "node": "node-2"
    }
  ],
  "pending": [
    {
      "pod": "ml/b-0",
      "reason": "Unschedulable",
      "message": "0/3 nodes are available: 3 Insufficient cpu."
    }
  ],
  "evictions": [
    {
      "pod": "ml/old",
      "node": "node-2",
      "preemptor": "PodGroup ml/a"
    }
  ],
  "groups": [
    {
      "kind": "PodGroup",
      "name": "ml/a",
      "scheduled": 2,
      "minCount": 2,
      "conditions": [
        {
          "type": "PodGroupInitiallyScheduled",
          "status": "True",
          "reason": "Scheduled",
          "message": ""
        }
      ]
    },
    {
      "kind": "CompositePodGroup",
      "name": "ml/root",
      "scheduled": 0,
      "minGroupCount": 2,
      "conditions": []
    }
  ],
  "generated": []
}
)");
}

TEST(ResultEncodingTest, JsonIsDeterministicAndSurvivesBadUtf8) {
  sched::ScheduleResult r = SampleResult();
  r.pending[0].message = "bad \xff byte";
  EXPECT_EQ(EncodeScheduleResultJson(r), EncodeScheduleResultJson(r));
}

TEST(ResultEncodingTest, YamlHasSameStructureAndOrder) {
  const std::string yaml = EncodeScheduleResultYaml(SampleResult());
  ASSERT_FALSE(yaml.empty());
  EXPECT_EQ(yaml.back(), '\n');
  const YAML::Node doc = YAML::Load(yaml);
  std::vector<std::string> keys;
  for (auto it = doc.begin(); it != doc.end(); ++it) keys.push_back(it->first.Scalar());
  EXPECT_EQ(keys, (std::vector<std::string>{"apiVersion", "kind", "bindings", "pending",
                                            "evictions", "groups", "generated"}));
  EXPECT_EQ(doc["bindings"][1]["node"].Scalar(), "node-2");
  EXPECT_EQ(doc["groups"][0]["minCount"].as<int>(), 2);
  EXPECT_EQ(doc["groups"][1]["minGroupCount"].as<int>(), 2);
  EXPECT_EQ(doc["groups"][1]["conditions"].size(), 0u);
  EXPECT_EQ(doc["generated"].size(), 0u);
  // "True" must stay a string, not become a YAML boolean.
  EXPECT_NE(yaml.find("status: \"True\""), std::string::npos) << yaml;
  EXPECT_EQ(doc["groups"][0]["conditions"][0]["message"].Scalar(), "");
}

TEST(ResultEncodingTest, EmptyResultYaml) {
  EXPECT_EQ(EncodeScheduleResultYaml({}),
            "apiVersion: wasched.io/v1alpha1\n"
            "kind: ScheduleResult\n"
            "bindings: []\n"
            "pending: []\n"
            "evictions: []\n"
            "groups: []\n"
            "generated: []\n");
}

}  // namespace
}  // namespace wasched::codec
