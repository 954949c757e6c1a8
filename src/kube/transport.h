// File: kube/transport.h
//
// The HTTP I/O of the API client as an interface, so that tests inject a fake server and the
// real one (kube/curl_transport.h) is the only code that touches the network. Requests are
// relative to the RestConfig's server ("/api/v1/pods?limit=500").
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <tl/expected.hpp>

namespace wasched::kube {

// HttpRequest: `path` includes the query string. `timeout_seconds` 0 = no overall limit (watches
// end by the server's timeoutSeconds instead).
struct HttpRequest {
  std::string method = "GET";
  std::string path;
  std::string body;                                          // sent as `content_type`
  std::string content_type = "application/json";
  double timeout_seconds = 60;
};

// HttpResponse: the status and the whole body (for Stream: the body only when status is not 2xx).
struct HttpResponse {
  int status = 0;
  std::string body;
};

// TransportError: no HTTP answer (connect refused, DNS, TLS, timeout); one line for people.
struct TransportError {
  std::string message;
};

// Transport: one HTTP exchange at a time per call; implementations say whether calls from several
// threads at once are allowed.
class Transport {
 public:
  virtual ~Transport() = default;
  // Do: sends the request and reads the whole response.
  virtual tl::expected<HttpResponse, TransportError> Do(const HttpRequest& request) = 0;
  // Stream: sends the request; on a 2xx answer passes the body to `on_data` chunk by chunk as it
  // arrives (chunk boundaries are arbitrary) until the server ends it or `on_data` returns false
  // (the connection is then closed, and that is not an error). Non-2xx bodies are collected
  // into the returned response instead.
  virtual tl::expected<HttpResponse, TransportError> Stream(
      const HttpRequest& request, const std::function<bool(std::string_view)>& on_data) = 0;
};

}  // namespace wasched::kube
