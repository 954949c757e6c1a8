// File: api/pod_test.cc
//
// EffectiveRequests (upstream resource.PodRequests) and the wire names of Pod/Node enums.
#include "api/pod.h"

#include <gtest/gtest.h>

#include <limits>

#include "api/node.h"

namespace wasched::api {
namespace {

Container MakeContainer(ResourceList requests, bool sidecar = false) {
  Container c;
  c.requests = std::move(requests);
  c.restart_policy_always = sidecar;
  return c;
}

TEST(EffectiveRequestsTest, EmptyPod) { EXPECT_TRUE(EffectiveRequests(Pod{}).empty()); }

TEST(EffectiveRequestsTest, SumsContainers) {
  Pod pod;
  pod.containers = {MakeContainer({{"cpu", 500}, {"memory", 1024}}),
                    MakeContainer({{"cpu", 250}, {"nvidia.com/gpu", 1}})};
  EXPECT_EQ(EffectiveRequests(pod),
            (ResourceList{{"cpu", 750}, {"memory", 1024}, {"nvidia.com/gpu", 1}}));
}

TEST(EffectiveRequestsTest, InitContainerMaxWins) {
  Pod pod;
  pod.containers = {MakeContainer({{"cpu", 500}, {"memory", 1024}})};
  pod.init_containers = {MakeContainer({{"cpu", 2000}}), MakeContainer({{"memory", 512}})};
  EXPECT_EQ(EffectiveRequests(pod), (ResourceList{{"cpu", 2000}, {"memory", 1024}}));
}

TEST(EffectiveRequestsTest, SidecarsAddToContainersAndToLaterInitContainers) {
  // Upstream's example: sidecar 100m runs alongside; a later init container of 1 CPU needs
  // 1 CPU + the sidecar; the app containers need their sum + the sidecar.
  Pod pod;
  pod.init_containers = {MakeContainer({{"cpu", 100}}, /*sidecar=*/true),
                         MakeContainer({{"cpu", 1000}}),
                         MakeContainer({{"cpu", 200}, {"memory", 64}}, /*sidecar=*/true),
                         MakeContainer({{"cpu", 50}, {"memory", 4096}})};
  pod.containers = {MakeContainer({{"cpu", 300}, {"memory", 128}})};
  // reqs = 300 + 100 + 200 = 600 cpu, 128 + 64 = 192 memory.
  // init candidates: 100 (sidecars); 1000+100 = 1100; 300 (sidecars); 50+300 = 350 cpu /
  // 4096+64 = 4160 memory. initMax = 1100 cpu, 4160 memory.
  EXPECT_EQ(EffectiveRequests(pod), (ResourceList{{"cpu", 1100}, {"memory", 4160}}));
}

TEST(EffectiveRequestsTest, SidecarOnlyPod) {
  Pod pod;
  pod.init_containers = {MakeContainer({{"cpu", 100}}, /*sidecar=*/true)};
  EXPECT_EQ(EffectiveRequests(pod), (ResourceList{{"cpu", 100}}));
}

TEST(EffectiveRequestsTest, OverheadIsAddedLast) {
  Pod pod;
  pod.containers = {MakeContainer({{"cpu", 500}})};
  pod.init_containers = {MakeContainer({{"cpu", 1000}})};
  pod.overhead = {{"cpu", 250}, {"memory", 100}};
  EXPECT_EQ(EffectiveRequests(pod), (ResourceList{{"cpu", 1250}, {"memory", 100}}));
}

TEST(EffectiveRequestsTest, SaturatesInsteadOfOverflowing) {
  Pod pod;
  const int64_t big = std::numeric_limits<int64_t>::max() - 1;
  pod.containers = {MakeContainer({{"cpu", big}}), MakeContainer({{"cpu", big}})};
  EXPECT_EQ(EffectiveRequests(pod).at("cpu"), std::numeric_limits<int64_t>::max());
}

// Pod-level requests (upstream PodRequests with PodLevelResources): each supported one
// (cpu, memory, hugepages-*) replaces the containers' aggregate of its resource, whatever that
// was (larger or smaller); other resources keep the containers' amounts; overhead is added
// after the replacement.
TEST(EffectiveRequestsTest, PodLevelRequestsReplaceTheContainersAggregate) {
  Pod pod;
  pod.containers = {MakeContainer({{"cpu", 500}, {"memory", 4096}, {"nvidia.com/gpu", 1}})};
  pod.init_containers = {MakeContainer({{"cpu", 2000}})};
  pod.pod_level_requests = {{"cpu", 3000}, {"memory", 1024}, {"hugepages-2Mi", 2097152}};
  pod.overhead = {{"cpu", 100}};
  EXPECT_EQ(
      EffectiveRequests(pod),
      (ResourceList{
          {"cpu", 3100}, {"memory", 1024}, {"hugepages-2Mi", 2097152}, {"nvidia.com/gpu", 1}}));
  EXPECT_EQ(AggregateContainerRequests(pod),
            (ResourceList{{"cpu", 2000}, {"memory", 4096}, {"nvidia.com/gpu", 1}}));
}

TEST(EffectiveRequestsTest, PodLevelRequestsWithoutContainerRequests) {
  // The breaker's case: containers request nothing, the pod 3 CPUs.
  Pod pod;
  pod.containers = {MakeContainer({})};
  pod.pod_level_requests = {{"cpu", 3000}};
  EXPECT_EQ(EffectiveRequests(pod), (ResourceList{{"cpu", 3000}}));
}

TEST(EffectiveRequestsTest, UnsupportedPodLevelResourcesAreNotApplied) {
  // The codec rejects them; should one get here, upstream's applyPodLevelResources skips it.
  Pod pod;
  pod.containers = {MakeContainer({{"nvidia.com/gpu", 1}})};
  pod.pod_level_requests = {{"nvidia.com/gpu", 8}, {"ephemeral-storage", 10}};
  EXPECT_EQ(EffectiveRequests(pod), (ResourceList{{"nvidia.com/gpu", 1}}));
  EXPECT_TRUE(IsSupportedPodLevelResource("cpu"));
  EXPECT_TRUE(IsSupportedPodLevelResource("memory"));
  EXPECT_TRUE(IsSupportedPodLevelResource("hugepages-1Gi"));
  EXPECT_FALSE(IsSupportedPodLevelResource("ephemeral-storage"));
  EXPECT_FALSE(IsSupportedPodLevelResource("pods"));
}

TEST(ApiEnumNamesTest, TaintEffectAndPreemptionPolicy) {
  EXPECT_STREQ(TaintEffectName(TaintEffect::kNoSchedule), "NoSchedule");
  EXPECT_STREQ(TaintEffectName(TaintEffect::kPreferNoSchedule), "PreferNoSchedule");
  EXPECT_STREQ(TaintEffectName(TaintEffect::kNoExecute), "NoExecute");
  EXPECT_STREQ(PreemptionPolicyName(PreemptionPolicy::kPreemptLowerPriority),
               "PreemptLowerPriority");
  EXPECT_STREQ(PreemptionPolicyName(PreemptionPolicy::kNever), "Never");
}

}  // namespace
}  // namespace wasched::api
