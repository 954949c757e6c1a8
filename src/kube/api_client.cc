// File: kube/api_client.cc
#include "kube/api_client.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace wasched::kube {
namespace {

std::string OneLine(std::string_view text) {
  std::string out;
  for (char c : text) {
    if (c == '\n' || c == '\r') break;
    if (static_cast<unsigned char>(c) < 0x20) continue;
    out.push_back(c);
    if (out.size() >= 200) break;
  }
  return out;
}

}  // namespace

KubeError ErrorForStatus(const std::string& method, const std::string& path, int status,
                         std::string_view body) {
  KubeError error;
  error.http_status = status;
  switch (status) {
    case 401: error.kind = KubeErrorKind::kUnauthorized; break;
    case 403: error.kind = KubeErrorKind::kForbidden; break;
    case 404: error.kind = KubeErrorKind::kNotFound; break;
    case 410: error.kind = KubeErrorKind::kGone; break;
    case 409: error.kind = KubeErrorKind::kConflict; break;
    default: error.kind = KubeErrorKind::kServer; break;
  }
  std::string message;
  const nlohmann::json doc = nlohmann::json::parse(body, nullptr, /*allow_exceptions=*/false);
  if (doc.is_object() && doc.contains("message") && doc["message"].is_string()) {
    message = OneLine(doc["message"].get<std::string>());
  } else {
    message = OneLine(body);
  }
  std::string_view label;
  switch (error.kind) {
    case KubeErrorKind::kUnauthorized: label = "Unauthorized (the credentials were not accepted)"; break;
    case KubeErrorKind::kForbidden: label = "Forbidden"; break;
    case KubeErrorKind::kNotFound: label = "NotFound"; break;
    case KubeErrorKind::kGone: label = "Gone"; break;
    case KubeErrorKind::kConflict: label = "Conflict"; break;
    default: label = "error"; break;
  }
  error.message = fmt::format("{} {}: HTTP {} {}{}{}", method, path, status, label,
                              message.empty() ? "" : ": ", message);
  return error;
}

ApiClient::ApiClient(Transport* transport, RateLimiter* limiter, std::string server)
    : transport_(transport), limiter_(limiter), server_(std::move(server)) {}

tl::expected<std::string, KubeError> ApiClient::Get(const std::string& path) {
  return Send("GET", path, std::string());
}

tl::expected<std::string, KubeError> ApiClient::Send(const std::string& method,
                                                     const std::string& path, std::string body,
                                                     const std::string& content_type) {
  if (limiter_ != nullptr) limiter_->Wait();
  HttpRequest request;
  request.method = method;
  request.path = path;
  request.body = std::move(body);
  request.content_type = content_type;
  auto response = transport_->Do(request);
  if (!response) {
    return tl::unexpected(KubeError{KubeErrorKind::kUnreachable,
                                    "cannot reach the API server " + response.error().message, 0});
  }
  if (response->status < 200 || response->status >= 300) {
    return tl::unexpected(ErrorForStatus(method, path, response->status, response->body));
  }
  return std::move(response->body);
}

tl::expected<void, KubeError> ApiClient::StreamLines(
    const std::string& path, double timeout_seconds,
    const std::function<bool(std::string_view line)>& on_line) {
  if (limiter_ != nullptr) limiter_->Wait();
  HttpRequest request;
  request.path = path;
  request.timeout_seconds = timeout_seconds;
  std::string pending;
  bool stopped = false;
  auto response = transport_->Stream(request, [&](std::string_view chunk) {
    pending.append(chunk);
    size_t start = 0;
    for (size_t nl = pending.find('\n', start); nl != std::string::npos;
         nl = pending.find('\n', start)) {
      if (!on_line(std::string_view(pending).substr(start, nl - start))) {
        stopped = true;
        return false;
      }
      start = nl + 1;
    }
    pending.erase(0, start);
    return true;
  });
  if (!response) {
    return tl::unexpected(KubeError{KubeErrorKind::kUnreachable,
                                    "cannot reach the API server " + response.error().message, 0});
  }
  if (response->status < 200 || response->status >= 300) {
    return tl::unexpected(ErrorForStatus("GET", path, response->status, response->body));
  }
  if (!stopped && !pending.empty()) (void)on_line(pending);
  return {};
}

}  // namespace wasched::kube
