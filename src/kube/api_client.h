// File: kube/api_client.h
//
// Requests to the API server with the client's rate limit, and HTTP failures turned into
// KubeErrors with the server's own Status message (metav1.Status `message`, as kubectl prints
// it): 401 kUnauthorized, 403 kForbidden (the RBAC denial text names user, verb and resource),
// 404 kNotFound, 409 kConflict, 410 kGone, other non-2xx kServer; no answer at all is kUnreachable.
#pragma once

#include <functional>
#include <string>
#include <string_view>

#include <tl/expected.hpp>

#include "kube/kube_error.h"
#include "kube/rate_limiter.h"
#include "kube/transport.h"

namespace wasched::kube {

// ApiClient: borrows the transport and the limiter (both must outlive it). Not thread-safe
// (the limiter is not); use one client per thread.
class ApiClient {
 public:
  ApiClient(Transport* transport, RateLimiter* limiter, std::string server);

  // Get: the body of a 2xx answer to GET `path`. O(response size).
  [[nodiscard]] tl::expected<std::string, KubeError> Get(const std::string& path);

  // Send: a write — `method` (POST, PUT, PATCH, DELETE) on `path` with `body` sent as
  // `content_type` (PATCH: "application/strategic-merge-patch+json" or
  // "application/merge-patch+json"); the body of the 2xx answer. Errors as Get, plus kConflict
  // for 409. The request is not retried here: the caller knows whether it is idempotent.
  [[nodiscard]] tl::expected<std::string, KubeError> Send(
      const std::string& method, const std::string& path, std::string body,
      const std::string& content_type = "application/json");

  // StreamLines: GET `path` as a stream (a watch), calling `on_line` for every complete
  // newline-terminated line (without the newline; a final unterminated line is passed too) until
  // the server closes the stream or `on_line` returns false. `timeout_seconds` bounds the whole
  // request (0: none). Errors as Get.
  [[nodiscard]] tl::expected<void, KubeError> StreamLines(
      const std::string& path, double timeout_seconds,
      const std::function<bool(std::string_view line)>& on_line);

  const std::string& server() const { return server_; }

 private:
  Transport* transport_;
  RateLimiter* limiter_;
  std::string server_;
};

// ErrorForStatus: the KubeError for a non-2xx answer to `method path`: the Status object's
// message when the body is one, else the body's first line (at most 200 bytes).
[[nodiscard]] KubeError ErrorForStatus(const std::string& method, const std::string& path,
                                       int status, std::string_view body);

}  // namespace wasched::kube
