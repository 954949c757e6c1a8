// File: live/claim_status_test.cc
//
// The DRA PreBind payloads of `wasched run` (live/claim_status.h), each against what v1.37.2's
// DynamicResources plugin and structured allocator write for the same allocation.
#include "live/claim_status.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace wasched::live {
namespace {

using nlohmann::json;
using ::testing::HasSubstr;

std::shared_ptr<const std::string> Text(const json& j) {
  return std::make_shared<const std::string>(j.dump());
}

json Slice(const std::string& name, const json& where, std::vector<std::string> devices,
           int generation = 1) {
  json spec = {{"driver", "gpu.example.com"},
               {"pool", {{"name", "pool-a"}, {"generation", generation}, {"resourceSliceCount", 1}}},
               {"devices", json::array()}};
  for (const std::string& d : devices) spec["devices"].push_back({{"name", d}});
  spec.update(where);
  return {{"apiVersion", "resource.k8s.io/v1"},
          {"kind", "ResourceSlice"},
          {"metadata", {{"name", name}}},
          {"spec", spec}};
}

json Claim(json requests, json config = nullptr) {
  json c = {{"apiVersion", "resource.k8s.io/v1"},
            {"kind", "ResourceClaim"},
            {"metadata", {{"name", "c"}, {"namespace", "ns"}, {"uid", "uid-c"},
                          {"resourceVersion", "7"}}},
            {"spec", {{"devices", {{"requests", std::move(requests)}}}}}};
  if (!config.is_null()) c["spec"]["devices"]["config"] = std::move(config);
  return c;
}

json ExactlyRequest(const std::string& name, const std::string& cls) {
  return {{"name", name}, {"exactly", {{"deviceClassName", cls}}}};
}

sched::ClaimAllocation Allocation(std::vector<std::pair<std::string, std::string>> devices) {
  sched::ClaimAllocation a;
  a.claim = "ns/c";
  for (auto& [request, device] : devices) {
    a.devices.push_back({request, "gpu.example.com", "pool-a", device});
  }
  return a;
}

constexpr int64_t kNow = 1'700'000'000'000'000;  // 2023-11-14T22:13:20Z

TEST(AllocationJsonTest, NodeLocalDeviceGivesAMatchFieldsSelectorOnItsNode) {
  const ClaimDevices devices = ClaimDevices::Build(
      {Text(Slice("s1", {{"nodeName", "node-1"}}, {"gpu-0", "gpu-1"}))}, {});
  auto got = AllocationJson(Allocation({{"gpu", "gpu-1"}}),
                            Claim(json::array({ExactlyRequest("gpu", "gpu-class")})), devices,
                            kNow);
  ASSERT_TRUE(got.has_value()) << got.error();
  const json want = json::parse(R"({
    "devices": {"results": [{"request": "gpu", "driver": "gpu.example.com", "pool": "pool-a",
                             "device": "gpu-1"}]},
    "nodeSelector": {"nodeSelectorTerms": [{"matchFields": [
        {"key": "metadata.name", "operator": "In", "values": ["node-1"]}]}]},
    "allocationTimestamp": "2023-11-14T22:13:20Z"})");
  EXPECT_EQ(*got, want) << got->dump(2);
}

TEST(AllocationJsonTest, SliceSelectorsAreMergedAndAllNodesNeedsNoSelector) {
  const json zone = {{"nodeSelector",
                      {{"nodeSelectorTerms",
                        json::array({{{"matchExpressions",
                                       json::array({{{"key", "zone"},
                                                     {"operator", "In"},
                                                     {"values", {"a"}}}})}}})}}}};
  ClaimDevices devices = ClaimDevices::Build(
      {Text(Slice("s1", zone, {"net-0", "net-1"})),
       Text(Slice("s2", {{"allNodes", true}}, {"any-0"}))},
      {});
  // The same requirement from two devices is written once.
  auto got = AllocationJson(Allocation({{"a", "net-0"}, {"b", "net-1"}}),
                            Claim(json::array({ExactlyRequest("a", "x"), ExactlyRequest("b", "x")})),
                            devices, kNow);
  ASSERT_TRUE(got.has_value()) << got.error();
  EXPECT_EQ((*got)["nodeSelector"], zone["nodeSelector"]);
  auto everywhere = AllocationJson(Allocation({{"a", "any-0"}}),
                                   Claim(json::array({ExactlyRequest("a", "x")})), devices, kNow);
  ASSERT_TRUE(everywhere.has_value());
  EXPECT_FALSE(everywhere->contains("nodeSelector"));
}

TEST(AllocationJsonTest, OnlyTheNewestGenerationOfAPoolCounts) {
  ClaimDevices devices = ClaimDevices::Build(
      {Text(Slice("old", {{"nodeName", "old-node"}}, {"gpu-0"}, 1)),
       Text(Slice("new", {{"nodeName", "new-node"}}, {"gpu-0"}, 2))},
      {});
  auto got = AllocationJson(Allocation({{"gpu", "gpu-0"}}),
                            Claim(json::array({ExactlyRequest("gpu", "x")})), devices, kNow);
  ASSERT_TRUE(got.has_value());
  EXPECT_EQ((*got)["nodeSelector"]["nodeSelectorTerms"][0]["matchFields"][0]["values"][0],
            "new-node");
}

TEST(AllocationJsonTest, UnpublishedDeviceIsAnError) {
  auto got = AllocationJson(Allocation({{"gpu", "gpu-9"}}),
                            Claim(json::array({ExactlyRequest("gpu", "x")})),
                            ClaimDevices::Build({}, {}), kNow);
  ASSERT_FALSE(got.has_value());
  EXPECT_THAT(got.error(), HasSubstr("gpu.example.com/pool-a/gpu-9"));
}

// Configs as the structured allocator copies them: each class's configs once (source FromClass,
// the requests using that class), then the claim's (FromClaim) that name an allocated request
// or none; a config naming every request has its `requests` dropped.
TEST(AllocationJsonTest, ClassAndClaimConfigsAreCopiedWithTheirRequests) {
  const json opaque_class = {{"opaque", {{"driver", "gpu.example.com"}, {"parameters", {{"mode", "x"}}}}}};
  const json opaque_claim = {{"opaque", {{"driver", "gpu.example.com"}, {"parameters", {{"mig", 1}}}}}};
  json gpu_class = {{"apiVersion", "resource.k8s.io/v1"},
                    {"kind", "DeviceClass"},
                    {"metadata", {{"name", "gpu-class"}}},
                    {"spec", {{"config", json::array({opaque_class})}}}};
  ClaimDevices devices = ClaimDevices::Build(
      {Text(Slice("s1", {{"nodeName", "n"}}, {"gpu-0", "gpu-1", "gpu-2"}))}, {Text(gpu_class)});
  json first_available = {{"name", "c"},
                          {"firstAvailable",
                           json::array({{{"name", "big"}, {"deviceClassName", "other"}},
                                        {{"name", "small"}, {"deviceClassName", "gpu-class"}}})}};
  json claim_config_a = opaque_claim;
  claim_config_a["requests"] = {"a"};
  json claim_config_sub = opaque_claim;
  claim_config_sub["requests"] = {"c/small"};
  json claim_config_none = opaque_claim;
  claim_config_none["requests"] = {"zzz"};
  const json claim = Claim(json::array({ExactlyRequest("a", "gpu-class"),
                                        ExactlyRequest("b", "gpu-class"), first_available}),
                           json::array({claim_config_a, claim_config_sub, claim_config_none}));
  auto got = AllocationJson(Allocation({{"a", "gpu-0"}, {"b", "gpu-1"}, {"c/small", "gpu-2"}}),
                            claim, devices, kNow);
  ASSERT_TRUE(got.has_value()) << got.error();
  json class_entry = opaque_class;
  class_entry["source"] = "FromClass";  // every request uses gpu-class: applies to all
  json want_a = claim_config_a;
  want_a["source"] = "FromClaim";
  json want_sub = claim_config_sub;
  want_sub["source"] = "FromClaim";
  EXPECT_EQ((*got)["devices"]["config"], json::array({class_entry, want_a, want_sub}))
      << (*got)["devices"]["config"].dump(2);
}

TEST(ClaimStatusTest, AllocatingAddsTheAllocationAndReservesForThePod) {
  json claim = Claim(json::array({ExactlyRequest("gpu", "x")}));
  const json allocation = {{"devices", {{"results", json::array({{{"request", "gpu"},
                                                                  {"driver", "d"},
                                                                  {"pool", "p"},
                                                                  {"device", "g0"}}})}}}};
  ClaimWrite w{"ns", "c", allocation, ClaimConsumer{"", "pods", "p1", "uid-p1"}};
  auto step = PrepareClaimStatus(w, &claim);
  ASSERT_TRUE(step.has_value()) << step.error();
  EXPECT_EQ(*step, ClaimStep::kWrite);
  EXPECT_EQ(claim["status"]["allocation"], allocation);
  EXPECT_EQ(claim["status"]["reservedFor"],
            json::parse(R"([{"resource": "pods", "name": "p1", "uid": "uid-p1"}])"));
  EXPECT_EQ(claim["metadata"]["resourceVersion"], "7");  // the update's precondition
  // Done once: the same write again has nothing to do.
  EXPECT_EQ(PrepareClaimStatus(w, &claim).value(), ClaimStep::kNothingToDo);
  // Another pod sharing the claim after it was allocated the same way: only its reservation.
  ClaimWrite other{"ns", "c", allocation, ClaimConsumer{"", "pods", "p2", "uid-p2"}};
  ASSERT_EQ(PrepareClaimStatus(other, &claim).value(), ClaimStep::kWrite);
  EXPECT_EQ(claim["status"]["reservedFor"].size(), 2u);
  EXPECT_EQ(claim["status"]["reservedFor"][1]["name"], "p2");
}

TEST(ClaimStatusTest, RefusesADifferentAllocationADeletedClaimAndAMissingAllocation) {
  const json mine = {{"devices", {{"results", json::array({{{"request", "gpu"},
                                                            {"driver", "d"},
                                                            {"pool", "p"},
                                                            {"device", "g0"}}})}}}};
  json theirs = mine;
  theirs["devices"]["results"][0]["device"] = "g1";
  json claim = Claim(json::array({ExactlyRequest("gpu", "x")}));
  claim["status"]["allocation"] = theirs;
  ClaimWrite w{"ns", "c", mine, ClaimConsumer{"", "pods", "p1", "uid-p1"}};
  json before = claim;
  auto step = PrepareClaimStatus(w, &claim);
  ASSERT_FALSE(step.has_value());
  EXPECT_THAT(step.error(), HasSubstr("got allocated elsewhere in the meantime"));
  EXPECT_EQ(claim, before);

  json unallocated = Claim(json::array({ExactlyRequest("gpu", "x")}));
  ClaimWrite reserve_only{"ns", "c", std::nullopt, ClaimConsumer{"", "pods", "p1", "uid-p1"}};
  EXPECT_THAT(PrepareClaimStatus(reserve_only, &unallocated).error(), HasSubstr("not allocated"));

  json deleting = Claim(json::array({ExactlyRequest("gpu", "x")}));
  deleting["metadata"]["deletionTimestamp"] = "2026-12-03T10:00:00Z";
  EXPECT_THAT(PrepareClaimStatus(w, &deleting).error(), HasSubstr("got deleted"));
}

// A PodGroup's claim is reserved for the group; a later member finds it reserved by the group's
// name (pods do not know its uid) and writes nothing.
TEST(ClaimStatusTest, PodGroupReservationIsRecognisedByName) {
  json claim = Claim(json::array({ExactlyRequest("gpu", "x")}));
  claim["status"]["allocation"] = {{"devices", {{"results", json::array()}}}};
  claim["status"]["reservedFor"] = json::parse(
      R"([{"apiGroup": "scheduling.k8s.io", "resource": "podgroups", "name": "pg", "uid": "uid-pg"}])");
  ClaimWrite w{"ns", "c", std::nullopt,
               ClaimConsumer{"scheduling.k8s.io", "podgroups", "pg", ""}};
  EXPECT_EQ(PrepareClaimStatus(w, &claim).value(), ClaimStep::kNothingToDo);
  ClaimWrite other_group{"ns", "c", std::nullopt,
                         ClaimConsumer{"scheduling.k8s.io", "podgroups", "pg2", ""}};
  EXPECT_EQ(PrepareClaimStatus(other_group, &claim).value(), ClaimStep::kWrite);
  EXPECT_EQ(claim["status"]["reservedFor"][1],
            json::parse(R"({"apiGroup": "scheduling.k8s.io", "resource": "podgroups",
                            "name": "pg2", "uid": ""})"));
}

TEST(ClaimStatusTest, ConsumerIsThePodGroupOnlyForAnEntryTheGroupLists) {
  api::Pod pod;
  pod.meta.name = "p";
  pod.meta.uid = "uid-p";
  api::PodGroup group;
  group.meta.name = "pg";
  group.meta.uid = "uid-pg";
  group.resource_claims.push_back({"gpu", std::nullopt, std::string("tmpl")});
  const api::PodResourceClaim shared{"gpu", std::nullopt, std::string("tmpl")};
  const api::PodResourceClaim own{"gpu", std::nullopt, std::string("other-tmpl")};
  EXPECT_EQ(ConsumerFor(pod, &group, shared),
            (ClaimConsumer{"scheduling.k8s.io", "podgroups", "pg", "uid-pg"}));
  EXPECT_EQ(ConsumerFor(pod, &group, own), (ClaimConsumer{"", "pods", "p", "uid-p"}));
  // Gate DRAWorkloadResourceClaims off: no group is passed, the pod consumes the claim.
  EXPECT_EQ(ConsumerFor(pod, nullptr, shared), (ClaimConsumer{"", "pods", "p", "uid-p"}));
}

TEST(ClaimStatusTest, DeleteProtectionIsAddedOnceAndUnreserveDeletesByUid) {
  json claim = Claim(json::array());
  EXPECT_TRUE(AddDeleteProtection(&claim));
  EXPECT_FALSE(AddDeleteProtection(&claim));
  EXPECT_EQ(claim["metadata"]["finalizers"],
            json::array({"resource.kubernetes.io/delete-protection"}));
  EXPECT_EQ(json::parse(UnreservePatch("uid-c", "uid-p")),
            json::parse(R"({"metadata": {"uid": "uid-c"},
                            "status": {"reservedFor": [{"$patch": "delete", "uid": "uid-p"}]}})"));
}

}  // namespace
}  // namespace wasched::live
