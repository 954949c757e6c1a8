// File: codec/generated_names_test.cc
//
// AssignGeneratedNames and the loader with metadata.generateName (issue 19): names derived from
// the input (stable across runs), one per object, colliding names derived again, the real
// Kueue pod-group sample and the AI-conformance Job with generateName.
#include "codec/generated_names.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "codec/loader.h"
#include "util/name_generation.h"

namespace wasched::codec {
namespace {

using ::testing::HasSubstr;
using ::testing::MatchesRegex;

std::string ReadFile(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

const std::string kData = std::string(WASCHED_TESTDATA_DIR) + "/data/manifests/";

TEST(GeneratedNamesTest, SuffixIsDerivedFromTheSeed) {
  EXPECT_EQ(DerivedNameSuffix("a"), DerivedNameSuffix("a"));
  EXPECT_NE(DerivedNameSuffix("a"), DerivedNameSuffix("b"));
  EXPECT_THAT(DerivedNameSuffix("x"), MatchesRegex("[bcdfghjklmnpqrstvwxz2456789]{5}"));
  // The prefix is cut to 58 characters (upstream maxGeneratedNameLength), the result is 63.
  const std::string name = GenerateName(std::string(70, 'a'), "s");
  EXPECT_EQ(name.size(), 63u);
  EXPECT_EQ(name.substr(0, 58), std::string(58, 'a'));
}

TEST(GeneratedNamesTest, KueuePodGroupSampleLoadsWithDerivedNames) {
  const std::string text = ReadFile(kData + "kueue/pods-kueue__kueue-pod-group.yaml");
  auto a = LoadString(text, "kueue-pod-group.yaml");
  ASSERT_TRUE(a);
  ASSERT_EQ(a->objects.pods.size(), 2u);
  EXPECT_THAT(a->objects.pods[0].meta.name, MatchesRegex("sample-leader-[b-z2-9]{5}"));
  EXPECT_THAT(a->objects.pods[1].meta.name, MatchesRegex("sample-worker-[b-z2-9]{5}"));
  EXPECT_EQ(a->objects.pods[0].meta.name,
            GenerateName("sample-leader-", "Pod/default/sample-leader-/0"));
  ASSERT_FALSE(a->warnings.empty());
  EXPECT_THAT(a->warnings.back(),
              HasSubstr("named 2 object(s) from metadata.generateName with a suffix derived from "
                        "the input"));
  // Stable across runs: a second load gives the same names.
  auto b = LoadString(text, "kueue-pod-group.yaml");
  ASSERT_TRUE(b);
  EXPECT_EQ(a->objects.pods[0].meta.name, b->objects.pods[0].meta.name);
  EXPECT_EQ(a->objects.pods[1].meta.name, b->objects.pods[1].meta.name);
}

TEST(GeneratedNamesTest, ConformanceJobWithGenerateNameIsNamed) {
  auto loaded = LoadString(ReadFile(kData + "k8s-ai-conformance/v1.36_vks_gang_scheduling__04.yaml"),
                           "job.yaml");
  ASSERT_TRUE(loaded);
  ASSERT_EQ(loaded->objects.jobs.size(), 1u);
  EXPECT_EQ(loaded->objects.jobs[0].meta.namespace_, "team-a");
  EXPECT_THAT(loaded->objects.jobs[0].meta.name, MatchesRegex("sample-job-team-a-[b-z2-9]{5}"));
}

TEST(GeneratedNamesTest, SameGenerateNameGivesDistinctNamesAndAvoidsTakenOnes) {
  api::ObjectSet objects;
  for (int i = 0; i < 3; ++i) {
    api::Pod p;
    p.meta.namespace_ = "ns";
    p.meta.generate_name = "w-";
    objects.pods.push_back(p);
  }
  // A pod already holds the name the first one would get: it is derived again.
  api::Pod taken;
  taken.meta.namespace_ = "ns";
  taken.meta.name = GenerateName("w-", "Pod/ns/w-/0");
  objects.pods.push_back(taken);
  // The same name in another namespace or of another kind does not collide.
  api::Pod other_ns = objects.pods[0];
  other_ns.meta.namespace_ = "other";
  objects.pods.push_back(other_ns);
  std::vector<std::string> warnings;
  AssignGeneratedNames(&objects, &warnings);
  EXPECT_EQ(objects.pods[0].meta.name, GenerateName("w-", "Pod/ns/w-/0#1"));
  EXPECT_EQ(objects.pods[1].meta.name, GenerateName("w-", "Pod/ns/w-/1"));
  EXPECT_EQ(objects.pods[2].meta.name, GenerateName("w-", "Pod/ns/w-/2"));
  EXPECT_EQ(objects.pods[4].meta.name, GenerateName("w-", "Pod/other/w-/0"));
  EXPECT_NE(objects.pods[1].meta.name, objects.pods[2].meta.name);
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_THAT(warnings[0], HasSubstr("named 4 object(s)"));
  EXPECT_THAT(warnings[0], HasSubstr("first: Pod ns/"));
}

TEST(GeneratedNamesTest, NamedObjectsAreLeftAlone) {
  api::ObjectSet objects;
  api::Pod p;
  p.meta.namespace_ = "ns";
  p.meta.name = "fixed";
  p.meta.generate_name = "w-";
  objects.pods.push_back(p);
  std::vector<std::string> warnings;
  AssignGeneratedNames(&objects, &warnings);
  EXPECT_EQ(objects.pods[0].meta.name, "fixed");
  EXPECT_TRUE(warnings.empty());
}

}  // namespace
}  // namespace wasched::codec
