// File: live/informers.cc
#include "live/informers.h"

#include <algorithm>
#include <thread>

#include <fmt/format.h>

#include "kube/api_client.h"
#include "kube/backoff.h"
#include "kube/clock.h"
#include "kube/curl_transport.h"
#include "kube/list_watch.h"
#include "kube/rate_limiter.h"
#include "kube/resource_type.h"

namespace wasched::live {
namespace {

class StoreHandler final : public kube::WatchHandler {
 public:
  StoreHandler(ObjectStore* store, size_t type, std::function<void(const std::string&)> log)
      : store_(store), type_(type), log_(std::move(log)) {}
  void OnList(const kube::ListResult& list) override {
    if (lists_++ > 0 && log_) {
      log_(fmt::format("relisted {} ({} objects): the watch was lost or too old",
                       kube::SchedulingResources()[type_].resource, list.items));
    }
    store_->Replace(type_, list);
  }
  void OnEvent(kube::WatchEventType type, std::string_view object_json,
               const std::string&) override {
    store_->Apply(type_, type, object_json);
  }

 private:
  ObjectStore* store_;
  size_t type_;
  std::function<void(const std::string&)> log_;
  int64_t lists_ = 0;
};

void RunInformer(kube::RestConfig config, ObjectStore* store, size_t type,
                 InformerOptions options, std::function<void(const std::string&)> log) {
  const kube::ResourceType& resource = kube::SchedulingResources()[type];
  auto transport = kube::MakeCurlTransport(config);
  const kube::Clock clock = kube::SteadyClock();
  kube::RateLimiter limiter(options.qps, options.burst, clock);
  kube::ApiClient client(transport.get(), &limiter, config.server);
  kube::BackoffOptions backoff_options;
  backoff_options.seed = options.seed + type;
  kube::Backoff backoff(backoff_options);
  StoreHandler handler(store, type, std::move(log));
  kube::ListWatchOptions list_options;
  list_options.watch_timeout_seconds = options.watch_timeout_seconds;
  auto done = kube::RunListWatch(client, resource, handler, backoff, clock,
                                 [] { return false; }, list_options);
  if (done) return;
  if (done.error().kind == kube::KubeErrorKind::kNotFound && !resource.group.empty()) {
    store->MarkAbsent(type);
    return;
  }
  store->SetFatal(done.error());
}

}  // namespace

std::vector<size_t> WatchedTypes() {
  std::vector<size_t> types;
  const auto& resources = kube::SchedulingResources();
  for (size_t t = 0; t < resources.size(); ++t) {
    if (resources[t].kind != "Job") types.push_back(t);
  }
  return types;
}

void StartInformers(const kube::RestConfig& config, ObjectStore* store,
                    const InformerOptions& options,
                    std::function<void(const std::string& line)> log) {
  const std::vector<size_t> watched = WatchedTypes();
  const auto& resources = kube::SchedulingResources();
  for (size_t t = 0; t < resources.size(); ++t) {
    if (std::find(watched.begin(), watched.end(), t) == watched.end()) store->MarkAbsent(t);
  }
  for (size_t t : watched) {
    std::thread(RunInformer, config, store, t, options, log).detach();
  }
}

}  // namespace wasched::live
