// File: kube/curl_transport.cc
#include "kube/curl_transport.h"

#include <curl/curl.h>
#include <fmt/format.h>

#include <mutex>

namespace wasched::kube {
namespace {

constexpr const char* kUserAgent = "wasched/0.1.0";

struct StreamState {
  CURL* curl = nullptr;
  const std::function<bool(std::string_view)>* on_data = nullptr;
  std::string error_body;
  bool stopped = false;  // on_data said stop
};

size_t WriteWhole(char* ptr, size_t size, size_t n, void* user) {
  static_cast<std::string*>(user)->append(ptr, size * n);
  return size * n;
}

size_t WriteStream(char* ptr, size_t size, size_t n, void* user) {
  auto* state = static_cast<StreamState*>(user);
  long status = 0;
  curl_easy_getinfo(state->curl, CURLINFO_RESPONSE_CODE, &status);
  if (status < 200 || status >= 300) {
    state->error_body.append(ptr, size * n);
    return size * n;
  }
  if (!(*state->on_data)(std::string_view(ptr, size * n))) {
    state->stopped = true;
    return 0;  // makes curl end the transfer with CURLE_WRITE_ERROR
  }
  return size * n;
}

class CurlTransport final : public Transport {
 public:
  explicit CurlTransport(RestConfig config) : config_(std::move(config)) {
    static std::once_flag once;
    std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
  }
  ~CurlTransport() override {
    if (handle_ != nullptr) curl_easy_cleanup(handle_);
  }
  CurlTransport(const CurlTransport&) = delete;
  CurlTransport& operator=(const CurlTransport&) = delete;

  tl::expected<HttpResponse, TransportError> Do(const HttpRequest& request) override {
    HttpResponse response;
    return Perform(request, [&](CURL* curl) {
      curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, &WriteWhole);
      curl_easy_setopt(curl, CURLOPT_WRITEDATA, &response.body);
    }, nullptr, &response);
  }

  tl::expected<HttpResponse, TransportError> Stream(
      const HttpRequest& request, const std::function<bool(std::string_view)>& on_data) override {
    HttpResponse response;
    StreamState state;
    state.on_data = &on_data;
    auto result = Perform(request, [&](CURL* curl) {
      state.curl = curl;
      curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, &WriteStream);
      curl_easy_setopt(curl, CURLOPT_WRITEDATA, &state);
    }, &state, &response);
    if (result) result->body = std::move(state.error_body);
    return result;
  }

 private:
  template <typename Setup>
  tl::expected<HttpResponse, TransportError> Perform(const HttpRequest& request, Setup&& setup,
                                                     const StreamState* stream,
                                                     HttpResponse* response) {
    // One handle for the transport's life, reset between requests: libcurl keeps its
    // connections (and TLS sessions) alive, so consecutive requests reuse them as client-go's
    // keep-alive transport does (a new TLS handshake per bind capped the live scheduler).
    if (handle_ == nullptr) handle_ = curl_easy_init();
    if (handle_ == nullptr) return tl::unexpected(TransportError{"cannot create a curl handle"});
    CURL* curl = handle_;
    curl_easy_reset(curl);
    char error[CURL_ERROR_SIZE] = {0};
    const std::string url = config_.server + request.path;
    curl_easy_setopt(curl, CURLOPT_URL, url.c_str());
    curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, error);
    curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(curl, CURLOPT_USERAGENT, kUserAgent);
    curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT_MS, 10000L);
    curl_easy_setopt(curl, CURLOPT_ACCEPT_ENCODING, "");  // gzip when the server offers it
    if (request.timeout_seconds > 0) {
      curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS, long(request.timeout_seconds * 1000));
    }
    // libcurl honours the *_proxy environment variables, as client-go's ProxyFromEnvironment.
    curl_slist* headers = nullptr;
    headers = curl_slist_append(headers, "Accept: application/json");
    std::string auth;
    std::string content_type_header;
    if (!config_.bearer_token.empty()) {
      auth = "Authorization: Bearer " + config_.bearer_token;
      headers = curl_slist_append(headers, auth.c_str());
    }
    if (request.method != "GET") {
      curl_easy_setopt(curl, CURLOPT_CUSTOMREQUEST, request.method.c_str());
      if (!request.body.empty() || request.method == "POST" || request.method == "PUT" ||
          request.method == "PATCH") {
        content_type_header = "Content-Type: " + request.content_type;
        headers = curl_slist_append(headers, content_type_header.c_str());
        curl_easy_setopt(curl, CURLOPT_POSTFIELDS, request.body.c_str());
        curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE, long(request.body.size()));
      }
    }
    curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
    curl_blob ca{}, cert{}, key{};
    if (!config_.ca_pem.empty()) {
      ca = curl_blob{const_cast<char*>(config_.ca_pem.data()), config_.ca_pem.size(),
                     CURL_BLOB_NOCOPY};
      curl_easy_setopt(curl, CURLOPT_CAINFO_BLOB, &ca);
    }
    if (!config_.client_cert_pem.empty()) {
      cert = curl_blob{const_cast<char*>(config_.client_cert_pem.data()),
                       config_.client_cert_pem.size(), CURL_BLOB_NOCOPY};
      key = curl_blob{const_cast<char*>(config_.client_key_pem.data()),
                      config_.client_key_pem.size(), CURL_BLOB_NOCOPY};
      curl_easy_setopt(curl, CURLOPT_SSLCERT_BLOB, &cert);
      curl_easy_setopt(curl, CURLOPT_SSLCERTTYPE, "PEM");
      curl_easy_setopt(curl, CURLOPT_SSLKEY_BLOB, &key);
      curl_easy_setopt(curl, CURLOPT_SSLKEYTYPE, "PEM");
    }
    if (config_.insecure_skip_tls_verify) {
      curl_easy_setopt(curl, CURLOPT_SSL_VERIFYPEER, 0L);
      curl_easy_setopt(curl, CURLOPT_SSL_VERIFYHOST, 0L);
    }
    setup(curl);
    const CURLcode code = curl_easy_perform(curl);
    long status = 0;
    curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &status);
    curl_slist_free_all(headers);
    const bool stopped = stream != nullptr && stream->stopped;
    if (code != CURLE_OK && !stopped) {
      std::string detail = error[0] != '\0' ? error : curl_easy_strerror(code);
      while (!detail.empty() && detail.back() == '\n') detail.pop_back();
      return tl::unexpected(TransportError{fmt::format("{}: {}", config_.server, detail)});
    }
    response->status = int(status);
    return std::move(*response);
  }

  RestConfig config_;
  CURL* handle_ = nullptr;  // created on first use; one request at a time
};

}  // namespace

std::unique_ptr<Transport> MakeCurlTransport(const RestConfig& config) {
  return std::make_unique<CurlTransport>(config);
}

}  // namespace wasched::kube
