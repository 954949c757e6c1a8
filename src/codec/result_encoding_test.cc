// File: codec/result_encoding_test.cc
//
// The ScheduleResult document: exact JSON bytes (key order, indent, trailing newline) and the
// same structure in YAML.
#include "codec/result_encoding.h"

#include <gtest/gtest.h>
#include <yaml-cpp/yaml.h>

#include "codec/yaml_tree.h"
#include "codec/yaml_reader.h"

namespace wasched::codec {
namespace {

sched::ScheduleResult SampleResult() {
  sched::ScheduleResult r;
  r.bindings = {{"ml/a-0", "node-1"}, {"ml/a-1", "node-2"}};
  r.pending = {{"ml/b-0", "Unschedulable", "0/3 nodes are available: 3 Insufficient cpu."}};
  r.evictions = {{"ml/old", "node-2", "PodGroup ml/a", "priority 0 < 100"}};
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
      "preemptor": "PodGroup ml/a",
      "reason": "priority 0 < 100"
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

// A pod held at PreEnqueue has no condition: "reason" and "message" are "" and "held" (after
// them) says what it waits for; a pod with a condition has no "held" key. YAML the same.
TEST(ResultEncodingTest, HeldPodHasEmptyReasonAndHeldKey) {
  sched::ScheduleResult r = SampleResult();
  r.pending.push_back({"ml/c-0", "", "", "waiting for minCount pods (2 of minCount 3 pods exist)"});
  const std::string json = EncodeScheduleResultJson(r);
  EXPECT_NE(json.find(R"json({
      "pod": "ml/c-0",
      "reason": "",
      "message": "",
      "held": "waiting for minCount pods (2 of minCount 3 pods exist)"
    })json"),
            std::string::npos)
      << json;
  EXPECT_EQ(json.find("\"held\""), json.rfind("\"held\"")) << "only the held pod has the key";
  const YAML::Node doc = YAML::Load(EncodeScheduleResultYaml(r));
  EXPECT_FALSE(doc["pending"][0]["held"].IsDefined());
  EXPECT_EQ(doc["pending"][1]["reason"].Scalar(), "");
  EXPECT_EQ(doc["pending"][1]["message"].Scalar(), "");
  EXPECT_EQ(doc["pending"][1]["held"].Scalar(),
            "waiting for minCount pods (2 of minCount 3 pods exist)");
}

// A tree level carries "parent" after its count, before conditions; a root has no key at all
// (so results without trees encode as before). YAML has the same key, quoted.
TEST(ResultEncodingTest, ParentOfTreeLevels) {
  sched::ScheduleResult r = SampleResult();
  r.groups[0].parent = "ml/root";
  const std::string json = EncodeScheduleResultJson(r);
  EXPECT_NE(json.find("      \"minCount\": 2,\n      \"parent\": \"ml/root\",\n      \"conditions\""),
            std::string::npos)
      << json;
  EXPECT_EQ(json.find("\"parent\"", json.find("\"ml/root\",\n      \"scheduled\"")), std::string::npos)
      << "the root must not carry a parent key:\n" << json;
  const std::string yaml = EncodeScheduleResultYaml(r);
  const YAML::Node doc = YAML::Load(yaml);
  EXPECT_EQ(doc["groups"][0]["parent"].Scalar(), "ml/root");
  EXPECT_FALSE(doc["groups"][1]["parent"].IsDefined());
  EXPECT_NE(yaml.find("parent: \"ml/root\""), std::string::npos) << yaml;
}

// Issue 20 item 8: a placed group with a topology constraint carries "placement": {key: value}
// after its parent, before conditions; a group without one has no key (the contract only grows).
TEST(ResultEncodingTest, PlacementOfTopologyGroups) {
  sched::ScheduleResult r = SampleResult();
  r.groups[0].parent = "ml/root";
  r.groups[0].placement = sched::TopologyDomain{"topology.kubernetes.io/zone", "zone-a"};
  const std::string json = EncodeScheduleResultJson(r);
  EXPECT_NE(json.find("      \"parent\": \"ml/root\",\n"
                      "      \"placement\": {\n"
                      "        \"topology.kubernetes.io/zone\": \"zone-a\"\n"
                      "      },\n"
                      "      \"conditions\""),
            std::string::npos)
      << json;
  EXPECT_EQ(json.find("\"placement\"", json.find("\"ml/root\",\n      \"scheduled\"")),
            std::string::npos)
      << "a group without a domain must not carry the key:\n" << json;
  const YAML::Node doc = YAML::Load(EncodeScheduleResultYaml(r));
  EXPECT_EQ(doc["groups"][0]["placement"]["topology.kubernetes.io/zone"].Scalar(), "zone-a");
  EXPECT_FALSE(doc["groups"][1]["placement"].IsDefined());
}

// Names that a YAML reader would resolve to something else if written plain: integers in the
// core schema (0x1f, 0o17, 1e3), YAML 1.1 booleans and sexagesimals (yes, on, 1:30), null.
TEST(ResultEncodingTest, YamlStringsAreQuotedSoTheyReadBackAsStrings) {
  const std::vector<std::string> names = {
      "0x1f", "0o17", "1e3",  "yes", "No",   "on",   "OFF", "y",  "1:30",       "null",
      "~",    "",     "True", "007", ".inf", "a: b", "- x", "#x", "multi\nline"};
  sched::ScheduleResult r;
  for (const std::string& n : names) r.bindings.push_back({"default/" + n, n});
  const std::string yaml = EncodeScheduleResultYaml(r);
  EXPECT_NE(yaml.find("node: \"0x1f\"\n"), std::string::npos) << yaml;
  EXPECT_NE(yaml.find("node: \"yes\"\n"), std::string::npos) << yaml;
  // Read back with the codec's own core-schema reader: every node is a string with its text.
  std::string error;
  std::vector<internal::YamlTree> docs = internal::ParseTrees(yaml, &error);
  ASSERT_EQ(docs.size(), 1u) << error;
  const internal::YamlTree* items = docs[0].Find("bindings");
  ASSERT_NE(items, nullptr);
  ASSERT_EQ(items->children.size(), names.size());
  for (size_t i = 0; i < names.size(); ++i) {
    const internal::YamlTree& item = items->children[i];
    ASSERT_EQ(item.MapSize(), 2u);
    EXPECT_EQ(item.Value(1).Kind(), internal::ValueKind::kString) << names[i];
    EXPECT_EQ(item.Value(1).text, names[i]);
  }
  // And with yaml-cpp's own node API, which would read a plain 0x1f as an integer.
  const YAML::Node doc = YAML::Load(yaml);
  EXPECT_EQ(doc["bindings"][0]["node"].Tag(), "!");
}

TEST(ResultEncodingTest, EmptyResultYaml) {
  EXPECT_EQ(EncodeScheduleResultYaml({}),
            "apiVersion: \"wasched.io/v1alpha1\"\n"
            "kind: \"ScheduleResult\"\n"
            "bindings: []\n"
            "pending: []\n"
            "evictions: []\n"
            "groups: []\n"
            "generated: []\n");
}

}  // namespace
}  // namespace wasched::codec
