// File: kube/list_watch_test.cc
#include "kube/list_watch.h"

#include <gtest/gtest.h>

#include <deque>

#include "kube/cluster_snapshot.h"
#include "kube/rate_limiter.h"

namespace wasched::kube {
namespace {

// FakeTransport: answers requests in order from a script; records every request path.
class FakeTransport final : public Transport {
 public:
  struct Answer {
    std::string path_prefix;  // the request must start with it
    int status = 200;
    std::string body;         // whole body (Do) or the streamed body (Stream)
    bool unreachable = false;
  };
  std::deque<Answer> script;
  std::vector<std::string> requests;

  tl::expected<HttpResponse, TransportError> Do(const HttpRequest& r) override {
    Answer a = Next(r);
    if (a.unreachable) return tl::unexpected(TransportError{"https://x: Connection refused"});
    return HttpResponse{a.status, a.body};
  }
  tl::expected<HttpResponse, TransportError> Stream(
      const HttpRequest& r, const std::function<bool(std::string_view)>& on_data) override {
    Answer a = Next(r);
    if (a.unreachable) return tl::unexpected(TransportError{"https://x: Connection refused"});
    if (a.status != 200) return HttpResponse{a.status, a.body};
    // Deliver in 7-byte chunks: lines are split across chunks.
    for (size_t i = 0; i < a.body.size(); i += 7) {
      if (!on_data(std::string_view(a.body).substr(i, 7))) break;
    }
    return HttpResponse{200, ""};
  }

 private:
  Answer Next(const HttpRequest& r) {
    requests.push_back(r.path);
    if (script.empty()) return Answer{"", 500, "script exhausted"};
    Answer a = script.front();
    script.pop_front();
    EXPECT_EQ(r.path.rfind(a.path_prefix, 0), 0u) << r.path << " vs " << a.path_prefix;
    return a;
  }
};

struct FakeClock {
  double now = 0;
  std::vector<double> sleeps;
  Clock Get() {
    return Clock{[this] { return now; }, [this](double s) { sleeps.push_back(s); now += s; }};
  }
};

struct Recorder final : WatchHandler {
  std::vector<std::string> log;
  void OnList(const ListResult& list) override {
    log.push_back("list " + std::to_string(list.items) + " rv=" + list.resource_version);
  }
  void OnEvent(WatchEventType type, std::string_view object, const std::string& rv) override {
    const char* names[] = {"ADDED", "MODIFIED", "DELETED", "BOOKMARK"};
    log.push_back(std::string(names[int(type)]) + " rv=" + rv +
                  (object.empty() ? "" : " " + std::string(object.substr(0, 40))));
  }
};

const ResourceType kPods{"", "v1", "pods", "Pod", true};

TEST(ListAll, FollowsContinueTokens) {
  FakeTransport t;
  t.script.push_back({"/api/v1/pods?limit=2", 200,
                      R"({"kind":"PodList","metadata":{"resourceVersion":"10","continue":"a=/b"},"items":[{},{}]})"});
  t.script.push_back({"/api/v1/pods?limit=2&continue=a%3D%2Fb", 200,
                      R"({"kind":"PodList","metadata":{"resourceVersion":"11"},"items":[{}]})"});
  ApiClient client(&t, nullptr, "https://x");
  auto list = ListAll(client, kPods, 2);
  ASSERT_TRUE(list) << list.error().message;
  EXPECT_EQ(list->items, 3);
  EXPECT_EQ(list->pages.size(), 2u);
  EXPECT_EQ(list->resource_version, "11");
}

TEST(ListAll, ForbiddenCarriesTheServersMessage) {
  FakeTransport t;
  t.script.push_back({"/api/v1/pods", 403,
                      R"({"kind":"Status","status":"Failure","message":"pods is forbidden: User \"bob\" cannot list resource \"pods\" in API group \"\" at the cluster scope","reason":"Forbidden","code":403})"});
  ApiClient client(&t, nullptr, "https://x");
  auto list = ListAll(client, kPods, 500);
  ASSERT_FALSE(list);
  EXPECT_EQ(list.error().kind, KubeErrorKind::kForbidden);
  EXPECT_EQ(list.error().message,
            "GET /api/v1/pods?limit=500: HTTP 403 Forbidden: pods is forbidden: User \"bob\" "
            "cannot list resource \"pods\" in API group \"\" at the cluster scope");
}

TEST(RunListWatch, BookmarksAdvanceRelistOn410AndBackoffOnDisconnect) {
  FakeTransport t;
  t.script.push_back({"/api/v1/pods?limit=500", 200,
                      R"({"metadata":{"resourceVersion":"5"},"items":[{"metadata":{"name":"a"}}]})"});
  // First watch: an ADDED, a BOOKMARK, then the stream ends.
  t.script.push_back(
      {"/api/v1/pods?watch=1&allowWatchBookmarks=true&resourceVersion=5&timeoutSeconds=300", 200,
       "{\"type\":\"ADDED\",\"object\":{\"metadata\":{\"name\":\"b\",\"resourceVersion\":\"6\"}}}\n"
       "{\"type\":\"BOOKMARK\",\"object\":{\"metadata\":{\"resourceVersion\":\"9\"}}}\n"});
  // Rewatch from the bookmark: the connection fails; backoff; then 410 as an ERROR event.
  t.script.push_back({"/api/v1/pods?watch=1&allowWatchBookmarks=true&resourceVersion=9&", 0, "",
                      true});
  t.script.push_back({"/api/v1/pods?watch=1&allowWatchBookmarks=true&resourceVersion=9&", 200,
                      "{\"type\":\"ERROR\",\"object\":{\"kind\":\"Status\",\"code\":410}}\n"});
  // Relist, then a watch whose HTTP status is 410, relist again, then DELETED.
  t.script.push_back({"/api/v1/pods?limit=500", 200,
                      R"({"metadata":{"resourceVersion":"20"},"items":[]})"});
  t.script.push_back({"/api/v1/pods?watch=1&allowWatchBookmarks=true&resourceVersion=20&", 410,
                      R"({"kind":"Status","code":410,"message":"too old resource version"})"});
  t.script.push_back({"/api/v1/pods?limit=500", 200,
                      R"({"metadata":{"resourceVersion":"30"},"items":[{},{}]})"});
  t.script.push_back({"/api/v1/pods?watch=1&allowWatchBookmarks=true&resourceVersion=30&", 200,
                      "{\"type\":\"DELETED\",\"object\":{\"metadata\":{\"name\":\"a\",\"resourceVersion\":\"31\"}}}"});
  FakeClock clock;
  Backoff backoff({0.8, 2, 30, 1.0, 42});
  Recorder recorder;
  ApiClient client(&t, nullptr, "https://x");
  auto r = RunListWatch(client, kPods, recorder, backoff, clock.Get(),
                        [&] { return t.script.empty(); });
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(recorder.log, (std::vector<std::string>{
                              "list 1 rv=5",
                              "ADDED rv=6 {\"metadata\":{\"name\":\"b\",\"resourceVersion",
                              "BOOKMARK rv=9",
                              "list 0 rv=20",
                              "list 2 rv=30",
                              "DELETED rv=31 {\"metadata\":{\"name\":\"a\",\"resourceVersion",
                          }));
  ASSERT_EQ(clock.sleeps.size(), 1u);  // only the refused connection waited
  EXPECT_GE(clock.sleeps[0], 0.8);
  EXPECT_LT(clock.sleeps[0], 1.6);
}

TEST(RunListWatch, ForbiddenIsFatal) {
  FakeTransport t;
  t.script.push_back({"/api/v1/pods", 403, R"({"kind":"Status","message":"nope"})"});
  FakeClock clock;
  Backoff backoff;
  Recorder recorder;
  ApiClient client(&t, nullptr, "https://x");
  auto r = RunListWatch(client, kPods, recorder, backoff, clock.Get(), [] { return false; });
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().kind, KubeErrorKind::kForbidden);
}

TEST(Backoff, SeededJitteredAndCapped) {
  Backoff a({0.8, 2, 3, 1.0, 7});
  Backoff b({0.8, 2, 3, 1.0, 7});
  std::vector<double> da, db;
  for (int i = 0; i < 6; ++i) {
    da.push_back(a.Next());
    db.push_back(b.Next());
  }
  EXPECT_EQ(da, db);
  EXPECT_GE(da[0], 0.8);
  EXPECT_LT(da[0], 1.6);
  EXPECT_GE(da[5], 3.0);  // base capped at 3, jitter on top
  EXPECT_LT(da[5], 6.0);
  a.Reset();
  EXPECT_LT(a.Next(), 1.6);
}

TEST(RateLimiter, BurstThenQps) {
  FakeClock clock;
  RateLimiter limiter(10, 3, clock.Get());
  EXPECT_EQ(limiter.Wait(), 0);
  EXPECT_EQ(limiter.Wait(), 0);
  EXPECT_EQ(limiter.Wait(), 0);
  EXPECT_DOUBLE_EQ(limiter.Wait(), 0.1);  // the burst is spent: one token per 1/qps
  EXPECT_DOUBLE_EQ(limiter.Wait(), 0.1);
  clock.now += 10;                       // refills up to the burst only
  EXPECT_EQ(limiter.Wait(), 0);
  EXPECT_EQ(limiter.Wait(), 0);
  EXPECT_EQ(limiter.Wait(), 0);
  EXPECT_GT(limiter.Wait(), 0);
}

TEST(ReadCluster, MissingApiGroupIsAWarningCoreFailureIsAnError) {
  FakeTransport t;
  for (const ResourceType& type : SchedulingResources()) {
    if (type.resource == "compositepodgroups") {
      t.script.push_back({type.CollectionPath(), 404, R"({"kind":"Status","message":"the server could not find the requested resource"})"});
    } else {
      t.script.push_back({type.CollectionPath(), 200,
                          R"({"metadata":{"resourceVersion":"1"},"items":[]})"});
    }
  }
  ApiClient client(&t, nullptr, "https://x");
  auto snap = ReadCluster(client);
  ASSERT_TRUE(snap) << snap.error().message;
  EXPECT_EQ(snap->texts.size(), SchedulingResources().size() - 1);
  ASSERT_EQ(snap->warnings.size(), 1u);
  EXPECT_EQ(snap->warnings[0],
            "the API server https://x does not serve scheduling.k8s.io/v1alpha3 "
            "compositepodgroups; none read");

  FakeTransport down;
  down.script.push_back({"/api/v1/nodes", 0, "", true});
  ApiClient down_client(&down, nullptr, "https://x");
  auto failed = ReadCluster(down_client);
  ASSERT_FALSE(failed);
  EXPECT_EQ(failed.error().kind, KubeErrorKind::kUnreachable);
  EXPECT_EQ(failed.error().message, "cannot reach the API server https://x: Connection refused");
}

}  // namespace
}  // namespace wasched::kube
