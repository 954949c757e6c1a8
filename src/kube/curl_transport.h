// File: kube/curl_transport.h
//
// The real Transport: libcurl (HTTP/1.1 and HTTP/2, TLS through the system's TLS library) with a
// RestConfig's credentials: the CA, client certificate and key passed as in-memory PEM blobs
// (CURLOPT_CAINFO_BLOB, CURLOPT_SSLCERT_BLOB, CURLOPT_SSLKEY_BLOB; no temporary files), the
// bearer token as an Authorization header. Server certificates are always verified unless
// RestConfig::insecure_skip_tls_verify (only set when the user asked for it explicitly).
#pragma once

#include <memory>

#include "kube/kubeconfig.h"
#include "kube/transport.h"

namespace wasched::kube {

// MakeCurlTransport: a Transport for `config`. It keeps one curl handle, so its connection (and
// TLS session) is reused from request to request; one request at a time: a thread that works in
// parallel (an informer, a binder) makes its own transport. The process must have called curl_global_init (done once,
// thread-safely, by the first MakeCurlTransport).
[[nodiscard]] std::unique_ptr<Transport> MakeCurlTransport(const RestConfig& config);

}  // namespace wasched::kube
