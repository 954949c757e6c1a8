// File: kube/list_watch.cc
#include "kube/list_watch.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace wasched::kube {
namespace {

// UrlEscape: percent-encodes everything outside RFC 3986's unreserved set (continue tokens are
// base64 and hold '=' and '/').
std::string UrlEscape(std::string_view text) {
  std::string out;
  for (unsigned char c : text) {
    if ((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' ||
        c == '_' || c == '.' || c == '~') {
      out.push_back(char(c));
    } else {
      out += fmt::format("%{:02X}", c);
    }
  }
  return out;
}

std::string StringAt(const nlohmann::json& doc, const char* a, const char* b) {
  if (!doc.is_object() || !doc.contains(a) || !doc[a].is_object()) return "";
  const nlohmann::json& inner = doc[a];
  if (!inner.contains(b) || !inner[b].is_string()) return "";
  return inner[b].get<std::string>();
}

bool Fatal(const KubeError& e) {
  return e.kind == KubeErrorKind::kUnauthorized || e.kind == KubeErrorKind::kForbidden ||
         e.kind == KubeErrorKind::kNotFound || e.kind == KubeErrorKind::kConfig;
}

}  // namespace

tl::expected<ListResult, KubeError> ListAll(ApiClient& client, const ResourceType& type,
                                            int64_t page_size) {
  ListResult result;
  std::string continue_token;
  do {
    std::string path = type.CollectionPath();
    std::string sep = "?";
    if (page_size > 0) {
      path += fmt::format("{}limit={}", sep, page_size);
      sep = "&";
    }
    if (!continue_token.empty()) path += sep + "continue=" + UrlEscape(continue_token);
    auto body = client.Get(path);
    if (!body) return tl::unexpected(body.error());
    const nlohmann::json doc = nlohmann::json::parse(*body, nullptr, /*allow_exceptions=*/false);
    if (!doc.is_object() || !doc.contains("items") ||
        !(doc["items"].is_array() || doc["items"].is_null())) {
      return tl::unexpected(KubeError{
          KubeErrorKind::kDecode,
          fmt::format("GET {}: the answer is not a {}List", path, type.kind), 0});
    }
    if (doc["items"].is_array()) result.items += int64_t(doc["items"].size());
    result.resource_version = StringAt(doc, "metadata", "resourceVersion");
    continue_token = StringAt(doc, "metadata", "continue");
    result.pages.push_back(std::move(*body));
  } while (!continue_token.empty());
  return result;
}

tl::expected<void, KubeError> RunListWatch(ApiClient& client, const ResourceType& type,
                                           WatchHandler& handler, Backoff& backoff,
                                           const Clock& clock, const std::function<bool()>& stop,
                                           const ListWatchOptions& options) {
  std::string resource_version;
  bool need_list = true;
  while (!stop()) {
    if (need_list) {
      auto list = ListAll(client, type, options.page_size);
      if (!list) {
        if (Fatal(list.error())) return tl::unexpected(list.error());
        clock.sleep(backoff.Next());
        continue;
      }
      resource_version = list->resource_version;
      handler.OnList(*list);
      need_list = false;
      if (stop()) break;
    }
    const std::string path = fmt::format(
        "{}?watch=1&allowWatchBookmarks=true&resourceVersion={}&timeoutSeconds={}",
        type.CollectionPath(), UrlEscape(resource_version), options.watch_timeout_seconds);
    bool gone = false;
    bool delivered = false;
    std::string decode_error;
    auto watched = client.StreamLines(
        path, options.watch_timeout_seconds + 30, [&](std::string_view line) {
          if (line.empty()) return true;
          const nlohmann::json event = nlohmann::json::parse(line, nullptr, false);
          if (!event.is_object() || !event.contains("type") || !event["type"].is_string() ||
              !event.contains("object") || !event["object"].is_object()) {
            decode_error = fmt::format("watch {}: an event is not {{type, object}} JSON",
                                       type.CollectionPath());
            return false;
          }
          const std::string kind = event["type"].get<std::string>();
          const nlohmann::json& object = event["object"];
          if (kind == "ERROR") {
            // A metav1.Status; code 410 means the resourceVersion is too old.
            if (object.contains("code") && object["code"].is_number_integer() &&
                object["code"].get<int>() == 410) {
              gone = true;
            } else {
              decode_error = fmt::format("watch {}: ERROR event: {}", type.CollectionPath(),
                                         object.dump());
            }
            return false;
          }
          const std::string rv = StringAt(object, "metadata", "resourceVersion");
          if (!rv.empty()) resource_version = rv;
          WatchEventType t;
          if (kind == "ADDED") t = WatchEventType::kAdded;
          else if (kind == "MODIFIED") t = WatchEventType::kModified;
          else if (kind == "DELETED") t = WatchEventType::kDeleted;
          else if (kind == "BOOKMARK") t = WatchEventType::kBookmark;
          else return true;  // unknown event types are skipped, as the reflector logs and skips
          delivered = true;
          const std::string object_json =
              t == WatchEventType::kBookmark ? std::string() : object.dump();
          handler.OnEvent(t, object_json, resource_version);
          return !stop();
        });
    if (!watched) {
      if (watched.error().kind == KubeErrorKind::kGone) {
        need_list = true;
        continue;
      }
      if (Fatal(watched.error())) return tl::unexpected(watched.error());
      clock.sleep(backoff.Next());
      continue;
    }
    if (gone) {
      need_list = true;
      continue;
    }
    if (!decode_error.empty()) {
      // A broken stream: back off and relist (the reflector restarts its ListAndWatch).
      need_list = true;
      clock.sleep(backoff.Next());
      continue;
    }
    if (delivered) {
      backoff.Reset();
    } else {
      clock.sleep(backoff.Next());  // a stream closed at once must not become a busy loop
    }
  }
  return {};
}

}  // namespace wasched::kube
