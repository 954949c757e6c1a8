// File: controller/job/names_test.cc
//
// The upstream naming functions (job_scheduling_manager.go computeWorkloadName /
// computePodGroupName and their upstream tests TestComputeWorkloadName /
// TestComputePodGroupName, described; spec/upstream-cases.md J16). Fixed values were computed
// with an independent implementation of Go's hash/fnv New32a, go-spew's "%#v" of a types.UID
// (`(types.UID)<uid>`) and rand.SafeEncodeString.
#include "controller/job/names.h"

#include <gtest/gtest.h>

#include <regex>
#include <string>

namespace wasched::controller::job {
namespace {

api::Job MakeJob(std::string name, std::string uid) {
  api::Job job;
  job.meta.name = std::move(name);
  job.meta.namespace_ = "default";
  job.meta.uid = std::move(uid);
  return job;
}

TEST(NamesTest, Fnv32aTestVectors) {
  EXPECT_EQ(Fnv32a(""), 2166136261u);   // offset basis
  EXPECT_EQ(Fnv32a("a"), 3826002220u);  // 0xe40c292c
  EXPECT_EQ(Fnv32a("b", Fnv32a("a")), Fnv32a("ab"));
}

TEST(NamesTest, SafeEncodeStringMapsDigits) {
  EXPECT_EQ(SafeEncodeString("0123456789"), "456789bcdf");
  EXPECT_EQ(SafeEncodeString(std::to_string(Fnv32a("a"))), "7d6b446664");
}

TEST(NamesTest, WorkloadNameHashesTheSpewFormOfTheUid) {
  EXPECT_EQ(ComputeWorkloadName(MakeJob("my-job", "uid-123")), "my-job-795ddf89fd");
  EXPECT_NE(ComputeWorkloadName(MakeJob("my-job", "uid-123")),
            ComputeWorkloadName(MakeJob("my-job", "different-uid")));
}

TEST(NamesTest, WorkloadNameTruncatesTo253) {
  const std::string name = ComputeWorkloadName(MakeJob(std::string(300, 'a'), "uid-long"));
  EXPECT_EQ(name.size(), 253u);
  EXPECT_EQ(name.substr(0, 5), "aaaaa");
  EXPECT_NE(name.find('-'), std::string::npos);
}

TEST(NamesTest, PodGroupName) {
  EXPECT_EQ(ComputePodGroupName("my-workload", "my-template"), "my-workload-my-template-67bd6bbcc4");
  EXPECT_NE(ComputePodGroupName("my-workload", "my-template"),
            ComputePodGroupName("my-workload", "other-template"));
}

TEST(NamesTest, J16_PodGroupNameTruncation) {
  const std::string w200(200, 'w'), t200(200, 't'), t250(250, 't'), w250(250, 'w');
  const std::string both = ComputePodGroupName(w200, t200);
  EXPECT_LE(both.size(), 253u);
  const size_t hash_len = both.size() - both.rfind('-') - 1;
  const size_t budget = 253 - hash_len - 2;
  EXPECT_EQ(both.find('t'), budget - budget / 2 + 1);  // workload part is B − floor(B/2)
  EXPECT_EQ(both.size(), 253u);
  EXPECT_EQ(ComputePodGroupName("wl", t250).substr(0, 3), "wl-");
  const std::string long_wl = ComputePodGroupName(w250, "tpl");
  EXPECT_NE(long_wl.find("-tpl-"), std::string::npos);
  EXPECT_LE(long_wl.size(), 253u);
}

TEST(NamesTest, DerivedUidIsDeterministicAndUuidShaped) {
  const std::string a = DerivedUid("Job", "ml", "train");
  EXPECT_EQ(a, DerivedUid("Job", "ml", "train"));
  EXPECT_NE(a, DerivedUid("Job", "ml", "train2"));
  EXPECT_NE(a, DerivedUid("Job", "m", "ltrain"));
  EXPECT_TRUE(std::regex_match(
      a, std::regex("[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}")))
      << a;
}

TEST(NamesTest, NameSuffix) {
  EXPECT_EQ(NameSuffix("x/0").size(), 5u);
  EXPECT_EQ(NameSuffix("x/0"), NameSuffix("x/0"));
  EXPECT_NE(NameSuffix("x/0"), NameSuffix("x/1"));
}

}  // namespace
}  // namespace wasched::controller::job
