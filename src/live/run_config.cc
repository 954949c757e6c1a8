// File: live/run_config.cc
#include "live/run_config.h"

#include <cmath>
#include <set>

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

namespace wasched::live {
namespace {

class Reader {
 public:
  explicit Reader(std::string file) : file_(std::move(file)) {}

  void Error(const std::string& path, const std::string& what) {
    errors_.push_back(fmt::format("{}: KubeSchedulerConfiguration: {}: {}", file_, path, what));
  }
  // Fields: reports every key of `node` not in `known`; false when `node` is not a map.
  bool Fields(const YAML::Node& node, const std::string& path, const std::set<std::string>& known) {
    if (!node.IsMap()) {
      Error(path.empty() ? "(document)" : path, "Invalid value: must be a mapping");
      return false;
    }
    for (const auto& kv : node) {
      const std::string key = kv.first.as<std::string>("");
      if (known.count(key) == 0) {
        Error(path.empty() ? key : path + "." + key, "unknown field \"" + key + "\"");
      }
    }
    return true;
  }
  std::string String(const YAML::Node& node, const std::string& path) {
    if (!node.IsScalar()) {
      Error(path, "Invalid value: must be a string");
      return {};
    }
    return node.as<std::string>();
  }
  bool Bool(const YAML::Node& node, const std::string& path, bool fallback) {
    const std::string s = node.IsScalar() ? node.as<std::string>() : "";
    if (s == "true") return true;
    if (s == "false") return false;
    Error(path, "Invalid value: \"" + s + "\": must be true or false");
    return fallback;
  }
  double Number(const YAML::Node& node, const std::string& path, double fallback, double min) {
    try {
      const double v = node.as<double>();
      if (!std::isfinite(v) || v < min) throw YAML::Exception(YAML::Mark(), "");
      return v;
    } catch (const YAML::Exception&) {
      Error(path, fmt::format("Invalid value: \"{}\": must be a number >= {}",
                              node.IsScalar() ? node.as<std::string>() : "", min));
      return fallback;
    }
  }
  double Duration(const YAML::Node& node, const std::string& path, double fallback) {
    auto d = ParseDuration(node.IsScalar() ? node.as<std::string>() : "");
    if (!d || *d <= 0) {
      Error(path, "Invalid value: must be a positive duration such as 15s");
      return fallback;
    }
    return *d;
  }

  std::string file_;
  std::vector<std::string> errors_;
};

}  // namespace

tl::expected<double, std::string> ParseDuration(const std::string& text) {
  if (text.empty()) return tl::unexpected(std::string("empty duration"));
  double total = 0;
  size_t i = 0;
  while (i < text.size()) {
    size_t j = i;
    while (j < text.size() && (std::isdigit(static_cast<unsigned char>(text[j])) || text[j] == '.')) ++j;
    if (j == i) return tl::unexpected("bad duration \"" + text + "\"");
    double value = 0;
    try {
      value = std::stod(text.substr(i, j - i));
    } catch (const std::exception&) {
      return tl::unexpected("bad duration \"" + text + "\"");
    }
    size_t k = j;
    while (k < text.size() && std::isalpha(static_cast<unsigned char>(text[k]))) ++k;
    const std::string unit = text.substr(j, k - j);
    double scale = 0;
    if (unit == "h") scale = 3600;
    else if (unit == "m") scale = 60;
    else if (unit == "s") scale = 1;
    else if (unit == "ms") scale = 1e-3;
    else if (unit == "us" || unit == "µs") scale = 1e-6;
    else if (unit == "ns") scale = 1e-9;
    else return tl::unexpected("bad duration \"" + text + "\" (units: h, m, s, ms, us, ns)");
    total += value * scale;
    i = k;
  }
  return total;
}

tl::expected<RunConfig, std::vector<std::string>> ParseRunConfig(const std::string& text,
                                                                 const std::string& file) {
  RunConfig config;
  Reader r(file);
  YAML::Node doc;
  try {
    doc = YAML::Load(text);
  } catch (const YAML::Exception& e) {
    return tl::unexpected(std::vector<std::string>{
        fmt::format("{}: line {}: malformed YAML: {}", file, e.mark.line + 1, e.msg)});
  }
  if (!r.Fields(doc, "", {"apiVersion", "kind", "clientConnection", "leaderElection", "profiles",
                          "percentageOfNodesToScore", "parallelism", "podInitialBackoffSeconds",
                          "podMaxBackoffSeconds", "healthzBindAddress", "metricsBindAddress",
                          "enableProfiling", "enableContentionProfiling"})) {
    return tl::unexpected(r.errors_);
  }
  const std::string api_version = doc["apiVersion"] ? r.String(doc["apiVersion"], "apiVersion") : "";
  if (api_version != "kubescheduler.config.k8s.io/v1") {
    r.Error("apiVersion", fmt::format("Unsupported value: \"{}\": supported values: "
                                      "\"kubescheduler.config.k8s.io/v1\"", api_version));
  }
  const std::string kind = doc["kind"] ? r.String(doc["kind"], "kind") : "";
  if (kind != "KubeSchedulerConfiguration") {
    r.Error("kind", fmt::format("Unsupported value: \"{}\": supported values: "
                                "\"KubeSchedulerConfiguration\"", kind));
  }
  if (const YAML::Node cc = doc["clientConnection"]) {
    if (r.Fields(cc, "clientConnection",
                 {"kubeconfig", "qps", "burst", "contentType", "acceptContentTypes"})) {
      if (cc["kubeconfig"]) config.kubeconfig = r.String(cc["kubeconfig"], "clientConnection.kubeconfig");
      if (cc["qps"]) config.qps = r.Number(cc["qps"], "clientConnection.qps", config.qps, 0);
      if (cc["burst"]) config.burst = int(r.Number(cc["burst"], "clientConnection.burst", config.burst, 0));
      if (cc["contentType"] || cc["acceptContentTypes"]) {
        config.notes.push_back("clientConnection content types: wasched always speaks JSON");
      }
    }
  }
  if (const YAML::Node le = doc["leaderElection"]) {
    if (r.Fields(le, "leaderElection",
                 {"leaderElect", "leaseDuration", "renewDeadline", "retryPeriod", "resourceLock",
                  "resourceName", "resourceNamespace"})) {
      if (le["leaderElect"]) config.leader_elect = r.Bool(le["leaderElect"], "leaderElection.leaderElect", true);
      if (le["leaseDuration"]) config.lease_duration = r.Duration(le["leaseDuration"], "leaderElection.leaseDuration", 15);
      if (le["renewDeadline"]) config.renew_deadline = r.Duration(le["renewDeadline"], "leaderElection.renewDeadline", 10);
      if (le["retryPeriod"]) config.retry_period = r.Duration(le["retryPeriod"], "leaderElection.retryPeriod", 2);
      if (le["resourceName"]) config.lease_name = r.String(le["resourceName"], "leaderElection.resourceName");
      if (le["resourceNamespace"]) config.lease_namespace = r.String(le["resourceNamespace"], "leaderElection.resourceNamespace");
      if (le["resourceLock"]) {
        const std::string lock = r.String(le["resourceLock"], "leaderElection.resourceLock");
        if (lock != "leases") {
          r.Error("leaderElection.resourceLock",
                  fmt::format("Unsupported value: \"{}\": supported values: \"leases\"", lock));
        }
      }
      if (config.renew_deadline >= config.lease_duration) {
        r.Error("leaderElection.renewDeadline", "Invalid value: must be less than leaseDuration");
      }
    }
  }
  if (const YAML::Node profiles = doc["profiles"]) {
    if (!profiles.IsSequence() || profiles.size() != 1) {
      r.Error("profiles", "Invalid value: wasched runs exactly one profile");
    } else {
      const YAML::Node p = profiles[0];
      if (p.IsMap() && p["plugins"]) {
        r.Error("profiles[0].plugins",
                "Forbidden: not supported by wasched (it runs the default profile's plugins; "
                "docs/known-gaps.md \"Live cluster\")");
      }
      if (r.Fields(p, "profiles[0]", {"schedulerName", "pluginConfig", "plugins"})) {
        if (p["schedulerName"]) config.scheduler_name = r.String(p["schedulerName"], "profiles[0].schedulerName");
        if (config.scheduler_name.empty()) r.Error("profiles[0].schedulerName", "Required value");
        if (const YAML::Node pcs = p["pluginConfig"]) {
          if (!pcs.IsSequence()) r.Error("profiles[0].pluginConfig", "Invalid value: must be a list");
          for (size_t i = 0; pcs.IsSequence() && i < pcs.size(); ++i) {
            const std::string path = fmt::format("profiles[0].pluginConfig[{}]", i);
            if (!r.Fields(pcs[i], path, {"name", "args"})) continue;
            const std::string name = pcs[i]["name"] ? r.String(pcs[i]["name"], path + ".name") : "";
            if (name != "NodeResourcesFit") {
              r.Error(path + ".name", fmt::format("Unsupported value: \"{}\": wasched configures "
                                                  "only \"NodeResourcesFit\"", name));
              continue;
            }
            const YAML::Node args = pcs[i]["args"];
            if (!args) continue;
            if (!r.Fields(args, path + ".args", {"apiVersion", "kind", "scoringStrategy"})) continue;
            const YAML::Node ss = args["scoringStrategy"];
            if (!ss) continue;
            if (!r.Fields(ss, path + ".args.scoringStrategy", {"type", "resources"})) continue;
            if (ss["resources"]) {
              config.notes.push_back("NodeResourcesFit scoringStrategy.resources: wasched weighs "
                                     "cpu and memory 1:1 as the default");
            }
            const std::string type = ss["type"] ? r.String(ss["type"], path + ".args.scoringStrategy.type") : "";
            if (type == "LeastAllocated") {
              config.scoring = sched::ScoringStrategy::kLeastAllocated;
            } else if (type == "MostAllocated") {
              config.scoring = sched::ScoringStrategy::kMostAllocated;
            } else {
              r.Error(path + ".args.scoringStrategy.type",
                      fmt::format("Unsupported value: \"{}\": supported values: \"LeastAllocated\", "
                                  "\"MostAllocated\"", type));
            }
          }
        }
      }
    }
  }
  const std::pair<const char*, const char*> accepted[] = {
      {"percentageOfNodesToScore", "wasched scores every node"},
      {"parallelism", "wasched's engine is single-threaded per cycle"},
      {"podInitialBackoffSeconds", "wasched keeps upstream's default backoff"},
      {"podMaxBackoffSeconds", "wasched keeps upstream's default backoff"},
      {"healthzBindAddress", "the endpoints are on --bind-address"},
      {"metricsBindAddress", "the endpoints are on --bind-address"},
      {"enableProfiling", "wasched serves no profiling endpoint"},
      {"enableContentionProfiling", "wasched serves no profiling endpoint"}};
  for (const auto& [field, why] : accepted) {
    if (doc[field]) config.notes.push_back(fmt::format("{}: accepted and not used ({})", field, why));
  }
  if (!r.errors_.empty()) return tl::unexpected(r.errors_);
  return config;
}

}  // namespace wasched::live
