// File: live/object_store_test.cc
#include "live/object_store.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "kube/resource_type.h"

namespace wasched::live {
namespace {

using ::testing::HasSubstr;

size_t PodType() {
  const auto& r = kube::SchedulingResources();
  for (size_t t = 0; t < r.size(); ++t) {
    if (r[t].kind == "Pod") return t;
  }
  return 0;
}

TEST(ObjectStore, ListThenEventsThenObjects) {
  ObjectStore store(kube::SchedulingResources().size());
  EXPECT_FALSE(store.AllSynced());
  for (size_t t = 0; t < kube::SchedulingResources().size(); ++t) {
    if (t != PodType()) store.MarkAbsent(t);
  }
  kube::ListResult list;
  list.pages.push_back(R"({"kind":"PodList","items":[
    {"metadata":{"name":"a","namespace":"ns","uid":"u1"},"spec":{"containers":[{"name":"c","image":"i"}]},
     "status":{"conditions":[{"type":"PodScheduled","status":"False","reason":"Unschedulable","message":"m"}]}}]})");
  store.Replace(PodType(), list);
  EXPECT_TRUE(store.AllSynced());
  store.Apply(PodType(), kube::WatchEventType::kAdded,
              R"({"metadata":{"name":"b","namespace":"ns","uid":"u2","deletionTimestamp":"2026-01-01T00:00:00Z"},"spec":{"schedulerName":"wasched","nodeName":"n1","containers":[{"name":"c","image":"i"}]}})");
  auto a = store.Facts(PodType(), "ns/a");
  ASSERT_TRUE(a.has_value());
  EXPECT_EQ(a->uid, "u1");
  ASSERT_NE(a->Condition("PodScheduled"), nullptr);
  EXPECT_EQ(a->Condition("PodScheduled")->reason, "Unschedulable");
  auto b = store.Facts(PodType(), "ns/b");
  ASSERT_TRUE(b.has_value());
  EXPECT_TRUE(b->deleting);
  EXPECT_EQ(b->node_name, "n1");
  EXPECT_EQ(b->scheduler_name, "wasched");

  // Objects: key order, apiVersion and kind set on list items too, the JSON shared.
  const auto objects = store.Objects(PodType());
  ASSERT_EQ(objects.size(), 2u);
  EXPECT_EQ(objects[0].key, "ns/a");
  EXPECT_EQ(objects[1].node_name, "n1");
  EXPECT_THAT(*objects[0].json, HasSubstr(R"("apiVersion":"v1")"));
  EXPECT_THAT(*objects[0].json, HasSubstr(R"("kind":"Pod")"));
  EXPECT_EQ(store.Objects(PodType())[0].json, objects[0].json);  // unchanged: the same string
  store.Apply(PodType(), kube::WatchEventType::kDeleted, R"({"metadata":{"name":"a","namespace":"ns"}})");
  EXPECT_FALSE(store.Facts(PodType(), "ns/a").has_value());
  EXPECT_EQ(store.Count(PodType()), 1u);
}

// The DRA facts the loop decides on: a pod's status.resourceClaimStatuses (an entry without a
// name: no claim was made), a claim's status.allocation; and Json hands out the stored text.
TEST(ObjectStore, ClaimFactsAndJson) {
  ObjectStore store(kube::SchedulingResources().size());
  store.Apply(PodType(), kube::WatchEventType::kAdded,
              R"({"metadata":{"name":"p","namespace":"ns","uid":"u"},"spec":{"containers":[]},
                  "status":{"resourceClaimStatuses":[{"name":"gpu","resourceClaimName":"p-gpu-abcde"},
                                                     {"name":"none"}]}})");
  auto p = store.Facts(PodType(), "ns/p");
  ASSERT_TRUE(p.has_value());
  ASSERT_NE(p->ResourceClaimStatus("gpu"), nullptr);
  EXPECT_EQ(*p->ResourceClaimStatus("gpu"), "p-gpu-abcde");
  ASSERT_NE(p->ResourceClaimStatus("none"), nullptr);
  EXPECT_EQ(*p->ResourceClaimStatus("none"), "");
  EXPECT_EQ(p->ResourceClaimStatus("other"), nullptr);
  EXPECT_FALSE(p->allocated);
  store.Apply(PodType(), kube::WatchEventType::kModified,
              R"({"metadata":{"name":"c","namespace":"ns"},"status":{"allocation":{"devices":{}}}})");
  EXPECT_TRUE(store.Facts(PodType(), "ns/c")->allocated);
  ASSERT_NE(store.Json(PodType(), "ns/c"), nullptr);
  EXPECT_THAT(*store.Json(PodType(), "ns/c"), HasSubstr(R"("allocation")"));
  EXPECT_EQ(store.Json(PodType(), "ns/missing"), nullptr);
}

TEST(ObjectStore, WaitForChangeWakesOnAChangeAndTimesOut) {
  ObjectStore store(1);
  const uint64_t g = store.Generation();
  EXPECT_EQ(store.WaitForChange(g, 0.01), g);  // nothing happened: times out
  store.Poke();
  EXPECT_NE(store.WaitForChange(g, 10), g);
  store.SetFatal(kube::KubeError{kube::KubeErrorKind::kForbidden, "forbidden", 403});
  ASSERT_TRUE(store.Fatal().has_value());
  EXPECT_THAT(store.Fatal()->message, HasSubstr("forbidden"));
}

}  // namespace
}  // namespace wasched::live
