// File: sim/cluster.cc
#include "sim/cluster.h"

#include <map>
#include <set>
#include <sstream>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "api/quantity.h"
#include "codec/loader.h"
#include "sim/csv.h"
#include "sim/trace.h"
#include "util/field_value.h"
#include "validation/names.h"
#include "validation/object_set_validation.h"

namespace wasched::sim {
namespace {

api::Node MakeNode(std::string name, int64_t cpu_milli, int64_t memory, const std::string& gpu_resource,
                   int64_t gpus) {
  api::Node n;
  n.meta.name = std::move(name);
  n.meta.uid = n.meta.name;
  n.allocatable[api::kResourceCPU] = cpu_milli;
  n.allocatable[api::kResourceMemory] = memory;
  n.allocatable[api::kResourcePods] = 110;
  if (gpus > 0) n.allocatable[gpu_resource] = gpus;
  return n;
}

}  // namespace

tl::expected<std::vector<api::Node>, std::string> GenerateCluster(const std::string& spec) {
  std::map<std::string, std::string> kv = {{"nodes", "64"}, {"gpus", "8"},  {"cpus", "96"},
                                           {"memory", "768Gi"}, {"zones", "2"}, {"racksPerZone", "4"}};
  std::set<std::string> given;
  std::stringstream ss(spec);
  std::string item;
  while (std::getline(ss, item, ',')) {
    if (item.empty()) continue;
    const size_t eq = item.find('=');
    const std::string key = item.substr(0, eq);
    if (eq == std::string::npos || !kv.contains(key)) {
      return tl::unexpected(fmt::format(
          "--generate-cluster: \"{}\": want key=value with keys nodes, gpus, cpus, memory, zones, racksPerZone", item));
    }
    if (!given.insert(key).second) {
      return tl::unexpected(fmt::format("--generate-cluster: {} given twice", key));
    }
    kv[key] = item.substr(eq + 1);
  }
  auto count = [&](const char* key, int64_t min, int64_t max) -> tl::expected<int64_t, std::string> {
    auto v = ParseInt(kv[key]);
    if (!v || *v < min || *v > max) {
      return tl::unexpected(fmt::format("--generate-cluster: {}={}: want an integer in [{}, {}]", key, kv[key], min, max));
    }
    return *v;
  };
  auto nodes = count("nodes", 1, 100000);
  if (!nodes) return tl::unexpected(nodes.error());
  auto gpus = count("gpus", 0, 1024);
  if (!gpus) return tl::unexpected(gpus.error());
  auto cpus = count("cpus", 1, 100000);
  if (!cpus) return tl::unexpected(cpus.error());
  // Defaults shrink to fit a small cluster (nodes=2 gives 2 zones of 1 rack); given values don't.
  if (!given.contains("zones")) kv["zones"] = std::to_string(std::min<int64_t>(2, *nodes));
  if (!given.contains("racksPerZone")) {
    const int64_t z = ParseInt(kv["zones"]).value_or(1);
    kv["racksPerZone"] = std::to_string(std::max<int64_t>(1, std::min<int64_t>(4, *nodes / std::max<int64_t>(1, z))));
  }
  auto zones = count("zones", 1, *nodes);
  if (!zones) return tl::unexpected(zones.error());
  auto racks = count("racksPerZone", 1, *nodes);
  if (!racks) return tl::unexpected(racks.error());
  auto quantity = api::Quantity::Parse(kv["memory"]);
  tl::expected<int64_t, std::string> memory = tl::unexpected(std::string());
  if (quantity && !quantity->IsNegative()) memory = quantity->Value();
  if (!memory) {
    return tl::unexpected(fmt::format("--generate-cluster: memory={}: want a quantity such as 768Gi", kv["memory"]));
  }
  std::vector<api::Node> out;
  out.reserve(*nodes);
  const int64_t per_zone = (*nodes + *zones - 1) / *zones;
  const int64_t per_rack = std::max<int64_t>(1, (per_zone + *racks - 1) / *racks);
  for (int64_t i = 0; i < *nodes; ++i) {
    api::Node n = MakeNode(fmt::format("node-{:03}", i), *cpus * 1000, *memory, kGpuResource, *gpus);
    const int64_t z = i / per_zone;
    const int64_t r = (i % per_zone) / per_rack;
    n.meta.labels[kZoneLabel] = fmt::format("zone-{}", z);
    n.meta.labels[kRackLabel] = fmt::format("zone-{}-rack-{}", z, r);
    n.meta.labels["kubernetes.io/hostname"] = n.meta.name;
    out.push_back(std::move(n));
  }
  return out;
}

tl::expected<std::vector<api::Node>, std::string> LoadOpenbNodes(const std::string& path) {
  auto text = ReadCsvFile(path, "node list");
  if (!text) return tl::unexpected(EscapeForTerminal(text.error()));
  auto parsed = CsvTable::Parse(*text, path);
  if (!parsed) return tl::unexpected(EscapeForTerminal(parsed.error()));
  const CsvTable& t = *parsed;
  const int sn = t.Column("sn"), cpu = t.Column("cpu_milli"), mem = t.Column("memory_mib"), gpu = t.Column("gpu"),
            model = t.Column("model");
  if (sn < 0 || cpu < 0 || mem < 0 || gpu < 0 || model < 0) {
    return tl::unexpected(fmt::format("{}:1: header: want columns sn,cpu_milli,memory_mib,gpu,model", path));
  }
  auto row_error = [&](int line, std::string_view column, std::string_view why) {
    return tl::unexpected(EscapeForTerminal(fmt::format("{}:{}: column {}: {}", path, line, column, why)));
  };
  std::vector<api::Node> out;
  std::map<std::string, int, std::less<>> names;  // sn → first line
  for (const CsvRow& row : t.rows) {
    if (row.fields.size() < t.header.size()) {
      return tl::unexpected(fmt::format("{}:{}: want {} fields, got {}", path, row.line, t.header.size(), row.fields.size()));
    }
    // The node name and model label get the checks a Node manifest gets (validation/names.h):
    // metadata.name a DNS-1123 subdomain, unique; the model a label value.
    const std::string_view name = row.fields[sn];
    if (const auto errors = validation::Dns1123SubdomainErrors(name); !errors.empty()) {
      return row_error(row.line, "sn", fmt::format("invalid value \"{}\": {}", name, errors.front()));
    }
    if (const auto [it, added] = names.try_emplace(std::string(name), row.line); !added) {
      return row_error(row.line, "sn", fmt::format("Duplicate value \"{}\" (also line {})", name, it->second));
    }
    if (const auto errors = validation::LabelValueErrors(row.fields[model]); !errors.empty()) {
      return row_error(row.line, "model", fmt::format("invalid value \"{}\": {}", row.fields[model], errors.front()));
    }
    auto c = ParseInt(row.fields[cpu]);
    auto m = ParseInt(row.fields[mem]);
    auto g = ParseInt(row.fields[gpu]);
    if (!c || *c < 0 || *c > (int64_t{1} << 40)) {
      return row_error(row.line, "cpu_milli", fmt::format("invalid value \"{}\": want millicores in [0, {}]", row.fields[cpu], int64_t{1} << 40));
    }
    if (!m || *m < 0 || *m > (int64_t{1} << 30)) {
      return row_error(row.line, "memory_mib", fmt::format("invalid value \"{}\": want MiB in [0, {}]", row.fields[mem], int64_t{1} << 30));
    }
    if (!g || *g < 0 || *g > 1024) {
      return row_error(row.line, "gpu", fmt::format("invalid value \"{}\": want a GPU count in [0, 1024]", row.fields[gpu]));
    }
    api::Node n = MakeNode(std::string(name), *c, *m * (int64_t{1} << 20), kGpuMilliResource, *g * 1000);
    if (!row.fields[model].empty()) n.meta.labels[kGpuModelLabel] = std::string(row.fields[model]);
    out.push_back(std::move(n));
  }
  if (out.empty()) return tl::unexpected(fmt::format("{}: the node list has no nodes", path));
  return out;
}

tl::expected<std::vector<api::Node>, std::string> LoadClusterNodes(const std::string& path,
                                                                   std::vector<std::string>* warnings) {
  if (path.ends_with(".csv")) return LoadOpenbNodes(path);
  std::istringstream no_stdin;
  auto loaded = codec::LoadPaths({path}, no_stdin);
  if (!loaded) {
    std::string msg;
    for (const auto& e : loaded.error()) msg += (msg.empty() ? "" : "\n") + e.ToString();
    return tl::unexpected(msg);
  }
  api::ObjectSet& objects = loaded->objects;
  if (objects.nodes.empty()) {
    return tl::unexpected(fmt::format("{}: --cluster: no Node objects found", EscapeForTerminal(path)));
  }
  // The same checks `schedule` runs on Nodes (QA2 #11: a negative allocatable used to run).
  api::ObjectSet only_nodes;
  only_nodes.nodes = std::move(objects.nodes);
  if (const InputErrors errors = validation::ValidateForSchedule(only_nodes); !errors.empty()) {
    std::string msg;
    for (const InputError& e : errors) msg += (msg.empty() ? "" : "\n") + e.ToString();
    return tl::unexpected(msg);
  }
  if (warnings != nullptr) {
    for (const std::string& w : loaded->warnings) warnings->push_back(EscapeForTerminal(w));
    std::vector<std::string> ignored;
    auto count = [&](size_t n, const char* kind) {
      if (n > 0) ignored.push_back(fmt::format("{} {}(s)", n, kind));
    };
    api::ForEachKind(objects, [&](const char* kind, bool, const auto& list) {
      if (std::string_view(kind) != "Node") count(list.size(), kind);
    });
    if (!ignored.empty()) {
      warnings->push_back(fmt::format("--cluster: ignored {} in {}; only Nodes are read (running pods' requests are "
                                      "not subtracted from the nodes)",
                                      fmt::join(ignored, ", "), EscapeForTerminal(path)));
    }
  }
  return std::move(only_nodes.nodes);
}

}  // namespace wasched::sim
