// File: util/feature_gates.cc
//
// Parsing as component-base/featuregate's Set() (see util/feature_gates.h).
#include "util/feature_gates.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstddef>
#include <iterator>
#include <utility>

namespace wasched {
namespace {

// Gate: name and member of FeatureGates.
struct Gate {
  std::string_view name;
  bool FeatureGates::*member;
};

constexpr Gate kGates[] = {
    {"GenericWorkload", &FeatureGates::generic_workload},
    {"TopologyAwareWorkloadScheduling", &FeatureGates::topology_aware_workload_scheduling},
    {"DRAWorkloadResourceClaims", &FeatureGates::dra_workload_resource_claims},
    {"CompositePodGroup", &FeatureGates::composite_pod_group},
    {"WorkloadWithJob", &FeatureGates::workload_with_job},
    {"PodGroupPreemptionPolicy", &FeatureGates::pod_group_preemption_policy},
};

// kDependencies: spec/was-v1.37.md §11 (KEP-6012): CompositePodGroup depends on GenericWorkload
// and TopologyAwareWorkloadScheduling (upstream pkg/features defaultKubernetesFeatureGateDependencies,
// checked by component-base featuregate's SetFromMap). §11 lists no other v1.37 dependency.
struct Dependency {
  std::string_view gate;
  bool FeatureGates::*member;
  std::vector<std::pair<std::string_view, bool FeatureGates::*>> needs;
};

const std::vector<Dependency>& Dependencies() {
  static const std::vector<Dependency> deps = {
      {"CompositePodGroup",
       &FeatureGates::composite_pod_group,
       {{"GenericWorkload", &FeatureGates::generic_workload},
        {"TopologyAwareWorkloadScheduling", &FeatureGates::topology_aware_workload_scheduling}}},
  };
  return deps;
}

// kRemovedGates: gates of earlier releases that v1.37 no longer has, and the gate that took each
// over (docs/upstream.md "Workload-aware scheduling feature gates": the GangScheduling plugin and
// workload-aware preemption act under GenericWorkload in 1.37).
struct RemovedGate {
  std::string_view name;
  std::string_view successor;
};
constexpr RemovedGate kRemovedGates[] = {
    {"GangScheduling", "GenericWorkload"},
    {"WorkloadAwarePreemption", "GenericWorkload"},
};

// UnknownGateError: "unrecognized feature gate: X" (upstream's wording), then what to use
// instead: the successor of a gate removed in v1.37, and the accepted gates.
std::string UnknownGateError(std::string_view key) {
  std::string accepted;
  for (const Gate& g : kGates) {
    if (!accepted.empty()) accepted += ", ";
    accepted += g.name;
  }
  for (const RemovedGate& r : kRemovedGates) {
    if (r.name == key) {
      return fmt::format(
          "unrecognized feature gate: {} (removed in v1.37: {} took it over; accepted gates: {})",
          key, r.successor, accepted);
    }
  }
  return fmt::format("unrecognized feature gate: {} (accepted gates: {})", key, accepted);
}

std::string_view Trim(std::string_view s) {
  const char* ws = " \t\n\r";
  std::size_t b = s.find_first_not_of(ws);
  if (b == std::string_view::npos) return {};
  std::size_t e = s.find_last_not_of(ws);
  return s.substr(b, e - b + 1);
}

// ParseGoBool: strconv.ParseBool.
tl::expected<bool, std::string> ParseGoBool(std::string_view v) {
  for (std::string_view t : {"1", "t", "T", "TRUE", "true", "True"}) {
    if (v == t) return true;
  }
  for (std::string_view f : {"0", "f", "F", "FALSE", "false", "False"}) {
    if (v == f) return false;
  }
  return tl::unexpected(fmt::format("strconv.ParseBool: parsing \"{}\": invalid syntax", v));
}

}  // namespace

const std::vector<std::string_view>& KnownFeatureGates() {
  static const std::vector<std::string_view> names = [] {
    std::vector<std::string_view> out;
    for (const Gate& g : kGates) out.push_back(g.name);
    return out;
  }();
  return names;
}

tl::expected<FeatureGates, std::string> ParseFeatureGates(std::string_view spec) {
  FeatureGates gates;
  std::vector<bool FeatureGates::*> explicitly_set;
  while (!spec.empty()) {
    std::size_t comma = spec.find(',');
    std::string_view item = Trim(spec.substr(0, comma));
    spec = comma == std::string_view::npos ? std::string_view() : spec.substr(comma + 1);
    if (item.empty()) continue;
    std::size_t eq = item.find('=');
    std::string_view key = Trim(item.substr(0, eq));
    const Gate* gate = std::find_if(std::begin(kGates), std::end(kGates),
                                    [&](const Gate& g) { return g.name == key; });
    if (gate == std::end(kGates)) {
      return tl::unexpected(UnknownGateError(key));
    }
    if (eq == std::string_view::npos) {
      return tl::unexpected(fmt::format("missing bool value for {}", key));
    }
    std::string_view value = Trim(item.substr(eq + 1));
    auto parsed = ParseGoBool(value);
    if (!parsed) {
      return tl::unexpected(
          fmt::format("invalid value of {}={}, err: {}", key, value, parsed.error()));
    }
    gates.*(gate->member) = *parsed;
    explicitly_set.push_back(gate->member);
  }
  // Dependencies (component-base featuregate): an enabled gate whose dependency is disabled is
  // an error. wasched's all-on default is not upstream's (CompositePodGroup is alpha, off), so a
  // gate that is on only by that default follows its dependencies and turns off with them.
  for (const Dependency& d : Dependencies()) {
    if (!(gates.*(d.member))) continue;
    std::string disabled, joined;  // "A B" (upstream's %v of a slice), "A and B"
    for (const auto& [name, member] : d.needs) {
      if (gates.*member) continue;
      disabled += disabled.empty() ? "" : " ";
      disabled += name;
      joined += joined.empty() ? "" : " and ";
      joined += name;
    }
    if (disabled.empty()) continue;
    const bool is_explicit =
        std::find(explicitly_set.begin(), explicitly_set.end(), d.member) != explicitly_set.end();
    if (!is_explicit) {
      gates.*(d.member) = false;
      continue;
    }
    return tl::unexpected(fmt::format(
        "{} is enabled, but depends on features that are disabled: [{}] ({} depends on {}; "
        "turn {} off too)",
        d.gate, disabled, d.gate, joined, d.gate));
  }
  return gates;
}

std::string FormatFeatureGates(const FeatureGates& gates) {
  std::string out;
  for (const Gate& g : kGates) {
    if (!out.empty()) out += ',';
    out += fmt::format("{}={}", g.name, gates.*(g.member) ? "true" : "false");
  }
  return out;
}

}  // namespace wasched
