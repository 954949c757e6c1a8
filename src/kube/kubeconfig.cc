// File: kube/kubeconfig.cc
#include "kube/kubeconfig.h"

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>
#include <sys/stat.h>

#include "kube/base64.h"

namespace wasched::kube {
namespace {

constexpr const char* kServiceAccountDir = "/var/run/secrets/kubernetes.io/serviceaccount";

KubeError ConfigError(std::string message) {
  return KubeError{KubeErrorKind::kConfig, std::move(message), 0};
}

// Entry: one named cluster / user / context mapping and the file that defined it.
struct Entry {
  YAML::Node body;
  std::string file;
};

struct Merged {
  std::map<std::string, Entry> clusters, users, contexts;
  std::string current_context;
};

std::string DirOf(const std::string& file) {
  const size_t slash = file.rfind('/');
  return slash == std::string::npos ? std::string(".") : file.substr(0, slash);
}

std::string Resolve(const std::string& file, const std::string& path) {
  if (path.empty() || path[0] == '/') return path;
  return DirOf(file) + "/" + path;
}

// Scalar: the string at `node[key]`, "" when absent; a non-scalar is an error.
tl::expected<std::string, KubeError> Scalar(const YAML::Node& node, const char* key,
                                            const std::string& where) {
  const YAML::Node v = node[key];
  if (!v || v.IsNull()) return std::string();
  if (!v.IsScalar()) return tl::unexpected(ConfigError(fmt::format("{}.{}: must be a string", where, key)));
  return v.Scalar();
}

tl::expected<void, KubeError> MergeFile(const std::string& file, const std::string& text,
                                        Merged* merged) {
  YAML::Node root;
  try {
    root = YAML::Load(text);
  } catch (const YAML::Exception& e) {
    return tl::unexpected(ConfigError(
        fmt::format("kubeconfig {}: not valid YAML: line {}: {}", file, e.mark.line + 1, e.msg)));
  }
  if (!root || root.IsNull()) return {};  // an empty file defines nothing (as client-go)
  if (!root.IsMap()) {
    return tl::unexpected(ConfigError(fmt::format("kubeconfig {}: not a mapping", file)));
  }
  auto list = [&](const char* key, const char* body_key,
                  std::map<std::string, Entry>* out) -> tl::expected<void, KubeError> {
    const YAML::Node items = root[key];
    if (!items || items.IsNull()) return {};
    if (!items.IsSequence()) {
      return tl::unexpected(ConfigError(fmt::format("kubeconfig {}: {}: must be a list", file, key)));
    }
    for (size_t i = 0; i < items.size(); ++i) {
      const std::string where = fmt::format("kubeconfig {}: {}[{}]", file, key, i);
      if (!items[i].IsMap()) return tl::unexpected(ConfigError(where + ": must be a mapping"));
      auto name = Scalar(items[i], "name", where);
      if (!name) return tl::unexpected(name.error());
      if (name->empty()) return tl::unexpected(ConfigError(where + ".name: Required value"));
      const YAML::Node body = items[i][body_key];
      if (body && !body.IsNull() && !body.IsMap()) {
        return tl::unexpected(ConfigError(fmt::format("{}.{}: must be a mapping", where, body_key)));
      }
      out->try_emplace(*name, Entry{body ? body : YAML::Node(YAML::NodeType::Map), file});
    }
    return {};
  };
  try {
    if (auto r = list("clusters", "cluster", &merged->clusters); !r) return r;
    if (auto r = list("users", "user", &merged->users); !r) return r;
    if (auto r = list("contexts", "context", &merged->contexts); !r) return r;
    if (merged->current_context.empty()) {
      auto cc = Scalar(root, "current-context", "kubeconfig " + file);
      if (!cc) return tl::unexpected(cc.error());
      merged->current_context = *cc;
    }
  } catch (const YAML::Exception& e) {
    return tl::unexpected(ConfigError(fmt::format("kubeconfig {}: {}", file, e.msg)));
  }
  return {};
}

// Credential: `<key>` (a path) or `<key>-data` (base64 content), read into `*out`.
tl::expected<void, KubeError> Credential(const Entry& entry, const std::string& where,
                                         const std::string& key, const FileSystem& fs,
                                         std::string* out) {
  auto path = Scalar(entry.body, key.c_str(), where);
  if (!path) return tl::unexpected(path.error());
  const std::string data_key = key + "-data";
  auto data = Scalar(entry.body, data_key.c_str(), where);
  if (!data) return tl::unexpected(data.error());
  if (!path->empty() && !data->empty()) {
    return tl::unexpected(ConfigError(fmt::format(
        "{}: {} and {} are both set; give one", where, key, data_key)));
  }
  if (!data->empty()) {
    auto decoded = DecodeBase64(*data);
    if (!decoded) {
      return tl::unexpected(ConfigError(fmt::format("{}.{}: not valid base64", where, data_key)));
    }
    *out = std::move(*decoded);
    return {};
  }
  if (!path->empty()) {
    const std::string full = Resolve(entry.file, *path);
    std::string error;
    auto content = fs.read(full, &error);
    if (!content) {
      return tl::unexpected(
          ConfigError(fmt::format("{}.{}: cannot read {}: {}", where, key, full, error)));
    }
    *out = std::move(*content);
  }
  return {};
}

std::string TrimToken(std::string token) {
  while (!token.empty() && (token.back() == '\n' || token.back() == '\r' || token.back() == ' ')) {
    token.pop_back();
  }
  return token;
}

tl::expected<RestConfig, KubeError> Build(const Merged& merged, const std::string& files_label,
                                          const std::string& context_flag, bool allow_insecure,
                                          const FileSystem& fs) {
  const std::string context_name = context_flag.empty() ? merged.current_context : context_flag;
  if (context_name.empty()) {
    return tl::unexpected(ConfigError(fmt::format(
        "kubeconfig {}: no current-context and no --context given", files_label)));
  }
  auto ctx = merged.contexts.find(context_name);
  if (ctx == merged.contexts.end()) {
    return tl::unexpected(ConfigError(fmt::format("kubeconfig {}: context \"{}\" not found{}",
                                                  files_label, context_name,
                                                  context_flag.empty() ? " (current-context)" : "")));
  }
  const std::string ctx_where =
      fmt::format("kubeconfig {}: contexts[\"{}\"].context", ctx->second.file, context_name);
  RestConfig config;
  config.origin = fmt::format("kubeconfig {}, context {}", files_label, context_name);
  try {
    auto cluster_name = Scalar(ctx->second.body, "cluster", ctx_where);
    if (!cluster_name) return tl::unexpected(cluster_name.error());
    auto user_name = Scalar(ctx->second.body, "user", ctx_where);
    if (!user_name) return tl::unexpected(user_name.error());
    auto cluster = merged.clusters.find(*cluster_name);
    if (cluster_name->empty() || cluster == merged.clusters.end()) {
      return tl::unexpected(ConfigError(fmt::format("{}.cluster: cluster \"{}\" not found",
                                                    ctx_where, *cluster_name)));
    }
    const std::string cl_where =
        fmt::format("kubeconfig {}: clusters[\"{}\"].cluster", cluster->second.file, *cluster_name);
    auto server = Scalar(cluster->second.body, "server", cl_where);
    if (!server) return tl::unexpected(server.error());
    if (server->empty()) return tl::unexpected(ConfigError(cl_where + ".server: Required value"));
    if (!server->starts_with("https://") && !server->starts_with("http://")) {
      return tl::unexpected(ConfigError(
          fmt::format("{}.server: \"{}\" is not an http(s) URL", cl_where, *server)));
    }
    config.server = *server;
    while (config.server.size() > 8 && config.server.back() == '/') config.server.pop_back();
    auto insecure = Scalar(cluster->second.body, "insecure-skip-tls-verify", cl_where);
    if (!insecure) return tl::unexpected(insecure.error());
    if (*insecure == "true") {
      if (!allow_insecure) {
        return tl::unexpected(ConfigError(fmt::format(
            "{}.insecure-skip-tls-verify: refused (the server's certificate would not be checked); "
            "pass --insecure-skip-tls-verify to accept it",
            cl_where)));
      }
      config.insecure_skip_tls_verify = true;
    } else if (!insecure->empty() && *insecure != "false") {
      return tl::unexpected(
          ConfigError(cl_where + ".insecure-skip-tls-verify: must be true or false"));
    }
    if (allow_insecure) config.insecure_skip_tls_verify = true;
    if (auto r = Credential(cluster->second, cl_where, "certificate-authority", fs, &config.ca_pem);
        !r) {
      return tl::unexpected(r.error());
    }

    if (!user_name->empty()) {
      auto user = merged.users.find(*user_name);
      if (user == merged.users.end()) {
        return tl::unexpected(ConfigError(
            fmt::format("{}.user: user \"{}\" not found", ctx_where, *user_name)));
      }
      const std::string us_where =
          fmt::format("kubeconfig {}: users[\"{}\"].user", user->second.file, *user_name);
      for (const char* unsupported : {"exec", "auth-provider", "username", "password"}) {
        if (user->second.body[unsupported]) {
          return tl::unexpected(ConfigError(fmt::format(
              "{}.{}: not supported by wasched (use a client certificate or a token)", us_where,
              unsupported)));
        }
      }
      if (auto r = Credential(user->second, us_where, "client-certificate", fs,
                              &config.client_cert_pem);
          !r) {
        return tl::unexpected(r.error());
      }
      if (auto r = Credential(user->second, us_where, "client-key", fs, &config.client_key_pem);
          !r) {
        return tl::unexpected(r.error());
      }
      if (config.client_cert_pem.empty() != config.client_key_pem.empty()) {
        return tl::unexpected(ConfigError(fmt::format(
            "{}: client-certificate and client-key must be given together", us_where)));
      }
      auto token = Scalar(user->second.body, "token", us_where);
      if (!token) return tl::unexpected(token.error());
      auto token_file = Scalar(user->second.body, "tokenFile", us_where);
      if (!token_file) return tl::unexpected(token_file.error());
      if (!token->empty()) {
        config.bearer_token = *token;  // upstream: a static token wins over tokenFile
      } else if (!token_file->empty()) {
        const std::string full = Resolve(user->second.file, *token_file);
        std::string error;
        auto content = fs.read(full, &error);
        if (!content) {
          return tl::unexpected(ConfigError(
              fmt::format("{}.tokenFile: cannot read {}: {}", us_where, full, error)));
        }
        config.bearer_token = TrimToken(std::move(*content));
      }
    }
  } catch (const YAML::Exception& e) {
    return tl::unexpected(ConfigError(fmt::format("kubeconfig {}: {}", files_label, e.msg)));
  }
  return config;
}

}  // namespace

FileSystem RealFileSystem() {
  FileSystem fs;
  fs.read = [](const std::string& path, std::string* error) -> std::optional<std::string> {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
      *error = std::strerror(errno);
      return std::nullopt;
    }
    std::ostringstream text;
    text << in.rdbuf();
    if (in.bad()) {
      *error = "read error";
      return std::nullopt;
    }
    return text.str();
  };
  fs.exists = [](const std::string& path) {
    struct stat st {};
    return ::stat(path.c_str(), &st) == 0;
  };
  fs.getenv = [](const std::string& name) -> std::optional<std::string> {
    const char* v = std::getenv(name.c_str());
    if (v == nullptr) return std::nullopt;
    return std::string(v);
  };
  return fs;
}

tl::expected<RestConfig, KubeError> LoadKubeconfigFiles(const std::vector<std::string>& files,
                                                        bool skip_missing,
                                                        const std::string& context,
                                                        bool allow_insecure, const FileSystem& fs) {
  Merged merged;
  std::string label;
  int read = 0;
  for (const std::string& file : files) {
    if (file.empty()) continue;
    if (skip_missing && !fs.exists(file)) continue;
    std::string error;
    auto text = fs.read(file, &error);
    if (!text) {
      return tl::unexpected(ConfigError(fmt::format("kubeconfig {}: cannot read: {}", file, error)));
    }
    if (auto r = MergeFile(file, *text, &merged); !r) return tl::unexpected(r.error());
    if (!label.empty()) label += ":";
    label += file;
    ++read;
  }
  if (read == 0) {
    std::string list;
    for (const std::string& f : files) list += (list.empty() ? "" : ":") + f;
    return tl::unexpected(ConfigError(fmt::format("no kubeconfig found (looked for {})", list)));
  }
  return Build(merged, label, context, allow_insecure, fs);
}

tl::expected<RestConfig, KubeError> InClusterConfig(const FileSystem& fs) {
  const auto host = fs.getenv("KUBERNETES_SERVICE_HOST");
  const auto port = fs.getenv("KUBERNETES_SERVICE_PORT");
  if (!host || host->empty() || !port || port->empty()) {
    return tl::unexpected(ConfigError(
        "in-cluster config: KUBERNETES_SERVICE_HOST and KUBERNETES_SERVICE_PORT must be set"));
  }
  RestConfig config;
  const bool ipv6 = host->find(':') != std::string::npos;
  config.server = fmt::format("https://{}{}{}:{}", ipv6 ? "[" : "", *host, ipv6 ? "]" : "", *port);
  std::string error;
  const std::string token_path = std::string(kServiceAccountDir) + "/token";
  auto token = fs.read(token_path, &error);
  if (!token) {
    return tl::unexpected(
        ConfigError(fmt::format("in-cluster config: cannot read {}: {}", token_path, error)));
  }
  config.bearer_token = TrimToken(std::move(*token));
  const std::string ca_path = std::string(kServiceAccountDir) + "/ca.crt";
  auto ca = fs.read(ca_path, &error);
  if (!ca) {
    return tl::unexpected(
        ConfigError(fmt::format("in-cluster config: cannot read {}: {}", ca_path, error)));
  }
  config.ca_pem = std::move(*ca);
  config.origin = "in-cluster service account";
  return config;
}

tl::expected<RestConfig, KubeError> ResolveConfig(const ConfigRequest& request,
                                                  const FileSystem& fs) {
  if (!request.kubeconfig.empty()) {
    return LoadKubeconfigFiles({request.kubeconfig}, /*skip_missing=*/false, request.context,
                               request.allow_insecure_skip_tls_verify, fs);
  }
  if (auto list = fs.getenv("KUBECONFIG"); list && !list->empty()) {
    std::vector<std::string> files;
    size_t start = 0;
    while (start <= list->size()) {
      const size_t colon = list->find(':', start);
      const size_t end = colon == std::string::npos ? list->size() : colon;
      files.push_back(list->substr(start, end - start));
      if (colon == std::string::npos) break;
      start = colon + 1;
    }
    return LoadKubeconfigFiles(files, /*skip_missing=*/true, request.context,
                               request.allow_insecure_skip_tls_verify, fs);
  }
  if (fs.getenv("KUBERNETES_SERVICE_HOST") && fs.getenv("KUBERNETES_SERVICE_PORT") &&
      request.context.empty()) {
    auto config = InClusterConfig(fs);
    if (config && request.allow_insecure_skip_tls_verify) config->insecure_skip_tls_verify = true;
    return config;
  }
  const auto home = fs.getenv("HOME");
  const std::string path = (home ? *home : std::string()) + "/.kube/config";
  return LoadKubeconfigFiles({path}, /*skip_missing=*/false, request.context,
                             request.allow_insecure_skip_tls_verify, fs);
}

}  // namespace wasched::kube
