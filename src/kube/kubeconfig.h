// File: kube/kubeconfig.h
//
// Where the API server is and how to authenticate: kubeconfig files (clusters, users, contexts,
// `current-context`, `--context`), the KUBECONFIG list merge, and the in-cluster service-account
// configuration. The result is a RestConfig with every credential already read into memory (PEM
// text, token), so the transport never touches files. Semantics follow client-go's
// tools/clientcmd (k8s.io/client-go v0.37.2: loader.go, client_config.go) and rest.InClusterConfig
// (rest/config.go):
//   - an explicit --kubeconfig file is the only file read (it must exist);
//   - otherwise KUBECONFIG is a ':'-separated list; files that do not exist are skipped; for
//     clusters / users / contexts the first file that defines a name wins, and the first
//     non-empty `current-context` wins;
//   - otherwise, when KUBERNETES_SERVICE_HOST and KUBERNETES_SERVICE_PORT are set, the
//     in-cluster config (token and ca.crt under /var/run/secrets/kubernetes.io/serviceaccount);
//   - otherwise $HOME/.kube/config.
// Relative certificate / key / token paths are relative to the kubeconfig file that names them.
// `*-data` fields are base64 PEM. A field and its `-data` twin both set is an error, as upstream.
// Refused (kConfig errors naming the file and field): `insecure-skip-tls-verify: true` unless the
// caller allows it explicitly (wasched's --insecure-skip-tls-verify flag), exec and auth-provider
// plugins, username/password, a context naming a missing cluster or user, a server that is not
// an http(s) URL.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <tl/expected.hpp>

#include "kube/kube_error.h"

namespace wasched::kube {

// RestConfig: one resolved connection. `server` has no trailing '/'. Empty PEM fields mean
// "not given" (no client certificate; the system trust store for the CA).
struct RestConfig {
  std::string server;            // e.g. "https://127.0.0.1:16443"
  std::string ca_pem;            // cluster CA bundle, PEM
  std::string client_cert_pem;   // client certificate, PEM
  std::string client_key_pem;    // its private key, PEM
  std::string bearer_token;      // static token, or the content of tokenFile / the SA token
  bool insecure_skip_tls_verify = false;  // only when the caller allowed it
  std::string origin;            // for messages: "kubeconfig FILE, context NAME" or "in-cluster"
};

// FileSystem: the I/O the loader needs, injectable for tests. `read` returns the content or
// nullopt with `*error` set (strerror text); `exists` says whether a path exists.
struct FileSystem {
  std::function<std::optional<std::string>(const std::string& path, std::string* error)> read;
  std::function<bool(const std::string& path)> exists;
  std::function<std::optional<std::string>(const std::string& name)> getenv;
};

// RealFileSystem: the process's files and environment.
[[nodiscard]] FileSystem RealFileSystem();

// ConfigRequest: what the command line asked for. `kubeconfig` empty: the KUBECONFIG / in-cluster
// / ~/.kube/config chain above. `context` empty: current-context.
struct ConfigRequest {
  std::string kubeconfig;
  std::string context;
  bool allow_insecure_skip_tls_verify = false;
};

// ResolveConfig: the RestConfig for `request` (see the file comment for the order). Errors are
// kConfig with a one-line message naming the file, context and field. O(size of the files).
// Thread-safe if `fs` is.
[[nodiscard]] tl::expected<RestConfig, KubeError> ResolveConfig(const ConfigRequest& request,
                                                              const FileSystem& fs);

// LoadKubeconfigFiles: the merge of `files` (in order, first definition wins; missing files are
// skipped when `skip_missing`, else an error), then the context `context` (or current-context).
[[nodiscard]] tl::expected<RestConfig, KubeError> LoadKubeconfigFiles(
    const std::vector<std::string>& files, bool skip_missing, const std::string& context,
    bool allow_insecure, const FileSystem& fs);

// InClusterConfig: https://$KUBERNETES_SERVICE_HOST:$KUBERNETES_SERVICE_PORT (IPv6 hosts
// bracketed), the service-account token and CA. Errors name the missing variable or file.
[[nodiscard]] tl::expected<RestConfig, KubeError> InClusterConfig(const FileSystem& fs);

}  // namespace wasched::kube
