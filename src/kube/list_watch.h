// File: kube/list_watch.h
//
// List and watch one resource, as client-go's reflector (k8s.io/client-go tools/cache/
// reflector.go, v0.37.2) does it:
//   - List in pages (`limit` + `continue`), taking the list's resourceVersion;
//   - Watch from that resourceVersion with `allowWatchBookmarks=true` and a server-side
//     `timeoutSeconds`; every event's object advances the resourceVersion; BOOKMARK events carry
//     only metadata.resourceVersion and advance it without an object change;
//   - when a watch ends normally, watch again from the last resourceVersion;
//   - 410 Gone (an HTTP status or an ERROR event with code 410): the resourceVersion is too old,
//     relist;
//   - a transport failure or a 5xx: wait Backoff::Next() (jittered, seeded) and retry; the
//     backoff resets after a watch that delivered events;
//   - 401, 403 and 404 are fatal: returned to the caller (retrying cannot fix them).
// Objects are handed over as JSON text (the codec decodes them), so this file has no api types.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include <tl/expected.hpp>

#include "kube/api_client.h"
#include "kube/backoff.h"
#include "kube/clock.h"
#include "kube/kube_error.h"
#include "kube/resource_type.h"

namespace wasched::kube {

// ListResult: the raw pages (each a *List JSON document as the server sent it), the list's
// resourceVersion and the number of items over all pages.
struct ListResult {
  std::vector<std::string> pages;
  std::string resource_version;
  int64_t items = 0;
};

// ListAll: every object of `type` over all namespaces, `page_size` per request (0: unpaged).
// Errors: as ApiClient::Get, plus kDecode for a page that is not a JSON list. O(objects).
[[nodiscard]] tl::expected<ListResult, KubeError> ListAll(ApiClient& client,
                                                          const ResourceType& type,
                                                          int64_t page_size = 500);

// WatchEventType: the watch event types (metav1.WatchEvent); ERROR events are handled inside.
enum class WatchEventType { kAdded, kModified, kDeleted, kBookmark };

// WatchHandler: receives a full list (replace everything held for this type), then events in
// the server's order. `object_json` is the event's object as JSON text.
class WatchHandler {
 public:
  virtual ~WatchHandler() = default;
  virtual void OnList(const ListResult& list) = 0;
  virtual void OnEvent(WatchEventType type, std::string_view object_json,
                       const std::string& resource_version) = 0;
};

// ListWatchOptions: `watch_timeout_seconds` is sent as timeoutSeconds (the reflector picks
// 5-10 minutes at random; a fixed value keeps runs reproducible).
struct ListWatchOptions {
  int64_t page_size = 500;
  int watch_timeout_seconds = 300;
};

// RunListWatch: lists, then watches, relisting and reconnecting as described above, until
// `stop()` returns true (checked before each request and after each event) — then returns
// success — or a fatal error. `clock.sleep` is the only wait. Not thread-safe.
[[nodiscard]] tl::expected<void, KubeError> RunListWatch(ApiClient& client,
                                                         const ResourceType& type,
                                                         WatchHandler& handler, Backoff& backoff,
                                                         const Clock& clock,
                                                         const std::function<bool()>& stop,
                                                         const ListWatchOptions& options = {});

}  // namespace wasched::kube
