// File: live/decode_cache_test.cc
#include "live/decode_cache.h"

#include <sstream>

#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "codec/loader.h"
#include "codec/result_encoding.h"
#include "kube/resource_type.h"
#include "live/scheduling_loop.h"
#include "sched/scheduler.h"

namespace wasched::live {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

size_t TypeOf(std::string_view kind) {
  const auto& r = kube::SchedulingResources();
  for (size_t t = 0; t < r.size(); ++t) {
    if (r[t].kind == kind) return t;
  }
  ADD_FAILURE() << "no resource type " << kind;
  return 0;
}

std::string Node(int i) {
  return fmt::format(
      R"({{"metadata":{{"name":"node-{}","uid":"n{}","labels":{{"kubernetes.io/hostname":"node-{}"}}}},)"
      R"("status":{{"allocatable":{{"cpu":"4","memory":"8Gi","pods":"110"}}}}}})",
      i, i, i);
}

std::string Pod(const std::string& name, const std::string& cpu, const std::string& node = "",
                const std::string& group = "") {
  std::string spec = fmt::format(
      R"("schedulerName":"wasched","containers":[{{"name":"c","image":"i","resources":{{"requests":{{"cpu":"{}"}}}}}}])",
      cpu);
  if (!node.empty()) spec += fmt::format(R"(,"nodeName":"{}")", node);
  if (!group.empty()) spec += fmt::format(R"(,"schedulingGroup":{{"podGroupName":"{}"}})", group);
  return fmt::format(R"({{"metadata":{{"name":"{}","namespace":"ns","uid":"u-{}","creationTimestamp":"2026-01-01T00:00:00Z"}},"spec":{{{}}}}})",
                     name, name, spec);
}

// The reference the cache must equal: the store's objects as one List per type, decoded by the
// codec as the loop decoded them before the cache (overlay applied to the text).
api::ObjectSet DecodeLists(const ObjectStore& store, const Overlay& overlay,
                           InputErrors* errors) {
  const auto& resources = kube::SchedulingResources();
  std::vector<codec::NamedText> texts;
  for (size_t t = 0; t < resources.size(); ++t) {
    std::string text = fmt::format(R"({{"apiVersion":"{}","kind":"{}List","items":[)",
                                   resources[t].ApiVersion(), resources[t].kind);
    bool first = true;
    for (const StoredObject& o : store.Objects(t)) {
      if (!first) text += ",";
      first = false;
      std::string json = *o.json;
      auto assumed = overlay.assumed_nodes.find(o.key);
      if (resources[t].kind == "Pod" && assumed != overlay.assumed_nodes.end() &&
          o.node_name.empty()) {
        const auto spec = json.find("\"spec\":{");
        json.insert(spec + 8, fmt::format(R"("nodeName":"{}",)", assumed->second));
      }
      text += json;
    }
    text += "]}";
    texts.push_back({"list", std::move(text)});
  }
  std::istringstream none;
  auto loaded = codec::LoadTextsAndPaths(texts, {}, none, LoadOptionsForCluster());
  EXPECT_TRUE(loaded.has_value());
  if (!loaded) return {};
  *errors = loaded->object_errors;
  return std::move(loaded->objects);
}

std::string Names(const api::ObjectSet& objects) {
  std::string out;
  api::ForEachKind(objects, [&](const char* kind, bool, const auto& list) {
    for (const auto& o : list) out += fmt::format("{} {}\n", kind, api::NamespacedName(o.meta));
  });
  for (const api::Pod& p : objects.pods) out += fmt::format("{} on '{}'\n", p.meta.name, p.node_name);
  return out;
}

std::string Scheduled(const api::ObjectSet& objects) {
  sched::SchedulerOptions options;
  options.scheduler_name = "wasched";
  return codec::EncodeScheduleResultJson(sched::Schedule(objects, options));
}

class DecodeCacheTest : public ::testing::Test {
 protected:
  DecodeCacheTest() : store_(kube::SchedulingResources().size()) {
    for (size_t t = 0; t < kube::SchedulingResources().size(); ++t) store_.MarkAbsent(t);
  }
  void Add(std::string_view kind, const std::string& json) {
    store_.Apply(TypeOf(kind), kube::WatchEventType::kAdded, json);
  }
  ObjectStore store_;
  DecodeCache cache_{LoadOptionsForCluster()};
};

TEST_F(DecodeCacheTest, EqualsDecodingTheWholeClusterAndDecodesOnlyWhatChanged) {
  // Nodes from a list (items without apiVersion / kind), pods from watch events.
  kube::ListResult nodes;
  nodes.pages.push_back(fmt::format(R"({{"kind":"NodeList","items":[{},{},{}]}})", Node(2), Node(0),
                                    Node(1)));
  store_.Replace(TypeOf("Node"), nodes);
  Add("PodGroup", R"({"apiVersion":"scheduling.k8s.io/v1beta1","kind":"PodGroup","metadata":{"name":"g","namespace":"ns","uid":"g1"},"spec":{"schedulerName":"wasched","schedulingPolicy":{"gang":{"minCount":2}}}})");
  Add("Pod", Pod("b", "1", "node-1"));
  Add("Pod", Pod("a", "1"));
  Add("Pod", Pod("m1", "2", "", "g"));
  Add("Pod", Pod("m2", "2", "", "g"));
  Add("Pod", Pod("bad", "1x"));  // not a quantity: left out with its error
  Overlay overlay;
  overlay.assumed_nodes["ns/a"] = "node-2";

  InputErrors list_errors;
  const api::ObjectSet expected = DecodeLists(store_, overlay, &list_errors);
  DecodedCluster first = cache_.Decode(store_, overlay, "https://x");
  EXPECT_EQ(first.decoded, 9u);  // 3 nodes, 1 PodGroup, 5 pods
  const std::string first_names = Names(*first.objects);
  EXPECT_EQ(first_names, Names(expected));
  EXPECT_EQ(Scheduled(*first.objects), Scheduled(expected));
  ASSERT_EQ(first.object_errors.size(), 1u);
  ASSERT_EQ(list_errors.size(), 1u);
  EXPECT_EQ(first.object_errors[0].object, "Pod ns/bad");
  EXPECT_EQ(first.object_errors[0].object, list_errors[0].object);
  EXPECT_THAT(first.object_errors[0].ToString(), HasSubstr("https://x v1 pods"));
  EXPECT_EQ(first.objects->pods.size(), 4u);

  // Nothing changed: nothing decoded, the same objects.
  DecodedCluster again = cache_.Decode(store_, overlay, "https://x");
  EXPECT_EQ(again.decoded, 0u);
  EXPECT_EQ(Names(*again.objects), first_names);
  EXPECT_EQ(again.object_errors.size(), 1u);

  // One pod bound (the watch shows it), one deleted, a node added: only the changed decode.
  store_.Apply(TypeOf("Pod"), kube::WatchEventType::kModified, Pod("a", "1", "node-2"));
  store_.Apply(TypeOf("Pod"), kube::WatchEventType::kDeleted, Pod("m2", "2", "", "g"));
  store_.Apply(TypeOf("Node"), kube::WatchEventType::kAdded, Node(3));
  overlay.assumed_nodes.clear();
  overlay.assumed_nodes["ns/m1"] = "node-3";
  DecodedCluster third = cache_.Decode(store_, overlay, "https://x");
  EXPECT_EQ(third.decoded, 2u);
  const api::ObjectSet expected3 = DecodeLists(store_, overlay, &list_errors);
  EXPECT_EQ(Names(*third.objects), Names(expected3));
  EXPECT_EQ(Scheduled(*third.objects), Scheduled(expected3));
  EXPECT_THAT(Names(*third.objects), HasSubstr("m1 on 'node-3'"));
  EXPECT_THAT(Names(*third.objects), Not(HasSubstr("m2")));
}

TEST_F(DecodeCacheTest, AnAssumedPodIsPlacedOnlyForOneDecode) {
  Add("Pod", Pod("a", "1"));
  Overlay overlay;
  overlay.assumed_nodes["ns/a"] = "node-9";
  EXPECT_EQ(cache_.Decode(store_, overlay, "s").objects->pods.at(0).node_name, "node-9");
  // Without the overlay the pod is unbound again, and nothing is decoded.
  DecodedCluster plain = cache_.Decode(store_, {}, "s");
  EXPECT_EQ(plain.decoded, 0u);
  EXPECT_EQ(plain.objects->pods.at(0).node_name, "");
}

TEST_F(DecodeCacheTest, TheCallersMarksAreUndoneByTheNextDecode) {
  Add("Pod", Pod("a", "1"));
  Add("Pod", Pod("b", "1"));
  api::ObjectSet* objects = cache_.Decode(store_, {}, "s").objects;
  ASSERT_EQ(objects->pods.size(), 2u);
  objects->pods[1].unsupported_constraints.push_back("marked this cycle");
  DecodedCluster next = cache_.Decode(store_, {}, "s");
  EXPECT_EQ(next.decoded, 0u);
  EXPECT_TRUE(next.objects->pods[1].unsupported_constraints.empty());
}

TEST_F(DecodeCacheTest, ChangedAndDeletedObjectsKeepTheOthersInKeyOrder) {
  for (const char* n : {"d", "b", "a", "c"}) Add("Pod", Pod(n, "1"));
  (void)cache_.Decode(store_, {}, "s");
  store_.Apply(TypeOf("Pod"), kube::WatchEventType::kDeleted, Pod("b", "1"));
  store_.Apply(TypeOf("Pod"), kube::WatchEventType::kModified, Pod("c", "2"));
  Add("Pod", Pod("bb", "3"));
  DecodedCluster next = cache_.Decode(store_, {}, "s");
  EXPECT_EQ(next.decoded, 2u);  // c's new version and bb
  std::string got;
  for (const api::Pod& p : next.objects->pods) got += p.meta.name + " ";
  EXPECT_EQ(got, "a bb c d ");
  InputErrors errors;
  EXPECT_EQ(Names(*next.objects), Names(DecodeLists(store_, {}, &errors)));
}

TEST_F(DecodeCacheTest, PrepareIsAppliedOnceToEachDecodedObject) {
  int calls = 0;
  DecodeCache cache(LoadOptionsForCluster(), [&calls](api::ObjectSet* one) {
    ++calls;
    for (api::Pod& p : one->pods) p.priority_class_name = "prepared";
  });
  Add("Pod", Pod("a", "1"));
  Add("Pod", Pod("b", "1"));
  EXPECT_EQ(cache.Decode(store_, {}, "s").objects->pods.at(1).priority_class_name, "prepared");
  (void)cache.Decode(store_, {}, "s");
  EXPECT_EQ(calls, 2);
}

}  // namespace
}  // namespace wasched::live
