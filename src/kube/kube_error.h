// File: kube/kube_error.h
//
// What can go wrong talking to a Kubernetes API server, as one value: the kind of failure (for
// the exit code and for retry decisions) and a one-line message for people. Every function of
// kube/ that can fail returns tl::expected<T, KubeError>; nothing in kube/ throws.
#pragma once

#include <string>

namespace wasched::kube {

// KubeErrorKind: the failure classes callers act on.
//   kConfig       the kubeconfig / in-cluster config is missing, malformed or refused (fix it);
//   kUnreachable  no HTTP answer: DNS, connect, TLS handshake, timeout (retry or fix the URL/CA);
//   kUnauthorized HTTP 401: the credentials were not accepted;
//   kForbidden    HTTP 403: authenticated, but RBAC denies the verb on the resource;
//   kNotFound     HTTP 404: the object, or the API group/version, is not served;
//   kGone         HTTP 410 (or a watch ERROR event with code 410): the resourceVersion is too
//                 old, relist (upstream client-go reflector semantics);
//   kConflict     HTTP 409: a write lost a race (resourceVersion or UID precondition, or the pod
//                 is already bound); re-read and decide again;
//   kServer       any other non-2xx status (5xx, 429 after retries, ...);
//   kDecode       the server answered 2xx with a body that is not the expected JSON.
enum class KubeErrorKind { kConfig, kUnreachable, kUnauthorized, kForbidden, kNotFound, kGone,
                           kConflict, kServer, kDecode };

// KubeError: `message` is one line without a trailing newline and without the "error: " prefix;
// `http_status` is 0 when there was no HTTP answer.
struct KubeError {
  KubeErrorKind kind = KubeErrorKind::kServer;
  std::string message;
  int http_status = 0;
};

}  // namespace wasched::kube
