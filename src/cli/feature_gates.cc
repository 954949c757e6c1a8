// File: cli/feature_gates.cc
//
// Parsing as component-base/featuregate's Set(); dropping as the registry strategies'
// dropDisabledFields (pkg/api/pod, pkg/registry/scheduling/*).
#include "cli/feature_gates.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstddef>
#include <utility>

namespace wasched::cli {
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

bool ClearTemplates(std::vector<api::PodGroupTemplate>& templates, bool constraints, bool claims,
                    bool preemption) {
  bool changed = false;
  for (api::PodGroupTemplate& t : templates) {
    if (constraints && t.scheduling_constraints) {
      t.scheduling_constraints.reset();
      changed = true;
    }
    if (claims && !t.resource_claims.empty()) {
      t.resource_claims.clear();
      changed = true;
    }
    if (preemption && t.preemption_policy) {
      t.preemption_policy.reset();
      changed = true;
    }
  }
  return changed;
}

bool ClearCompositeTemplates(std::vector<api::CompositePodGroupTemplate>& templates,
                             bool constraints, bool claims, bool preemption) {
  bool changed = false;
  for (api::CompositePodGroupTemplate& t : templates) {
    if (constraints && t.scheduling_constraints) {
      t.scheduling_constraints.reset();
      changed = true;
    }
    if (preemption && t.preemption_policy) {
      t.preemption_policy.reset();
      changed = true;
    }
    changed |= ClearTemplates(t.pod_group_templates, constraints, claims, preemption);
    changed |=
        ClearCompositeTemplates(t.composite_pod_group_templates, constraints, claims, preemption);
  }
  return changed;
}

// ClearGroupField: drops the chosen gated fields of every object (workload templates included) and
// returns how many objects changed.
int ClearGroupField(api::ObjectSet* objects, bool constraints, bool claims, bool preemption) {
  int changed_objects = 0;
  for (api::Workload& w : objects->workloads) {
    bool a = ClearTemplates(w.pod_group_templates, constraints, claims, preemption);
    bool b =
        ClearCompositeTemplates(w.composite_pod_group_templates, constraints, claims, preemption);
    changed_objects += (a || b) ? 1 : 0;
  }
  for (api::PodGroup& g : objects->pod_groups) {
    bool changed = false;
    if (constraints && g.scheduling_constraints) {
      g.scheduling_constraints.reset();
      changed = true;
    }
    if (claims && !g.resource_claims.empty()) {
      g.resource_claims.clear();
      changed = true;
    }
    if (preemption && g.preemption_policy) {
      g.preemption_policy.reset();
      changed = true;
    }
    changed_objects += changed ? 1 : 0;
  }
  for (api::CompositePodGroup& g : objects->composite_pod_groups) {
    bool changed = false;
    if (constraints && g.scheduling_constraints) {
      g.scheduling_constraints.reset();
      changed = true;
    }
    if (preemption && g.preemption_policy) {
      g.preemption_policy.reset();
      changed = true;
    }
    changed_objects += changed ? 1 : 0;
  }
  return changed_objects;
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
      return tl::unexpected(fmt::format("unrecognized feature gate: {}", key));
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

std::vector<std::string> ApplyFeatureGates(const FeatureGates& gates, api::ObjectSet* objects) {
  std::vector<std::string> warnings;
  if (!gates.generic_workload) {
    int pods = 0;
    for (api::Pod& p : objects->pods) {
      if (p.pod_group_name) {
        p.pod_group_name.reset();
        ++pods;
      }
    }
    const std::size_t groups = objects->workloads.size() + objects->pod_groups.size() +
                               objects->composite_pod_groups.size();
    if (groups > 0) {
      warnings.push_back(fmt::format(
          "feature gate GenericWorkload is off: ignored {} Workload(s), {} PodGroup(s) and {} "
          "CompositePodGroup(s)",
          objects->workloads.size(), objects->pod_groups.size(),
          objects->composite_pod_groups.size()));
    }
    if (pods > 0) {
      warnings.push_back(fmt::format(
          "feature gate GenericWorkload is off: dropped spec.schedulingGroup of {} pod(s); they "
          "are scheduled one by one",
          pods));
    }
    objects->workloads.clear();
    objects->pod_groups.clear();
    objects->composite_pod_groups.clear();
  }
  if (!gates.composite_pod_group) {
    int changed = 0;
    for (api::Workload& w : objects->workloads) {
      if (!w.composite_pod_group_templates.empty()) {
        w.composite_pod_group_templates.clear();
        ++changed;
      }
    }
    for (api::PodGroup& g : objects->pod_groups) {
      if (g.parent_composite_pod_group_name) {
        g.parent_composite_pod_group_name.reset();
        ++changed;
      }
    }
    if (!objects->composite_pod_groups.empty()) {
      warnings.push_back(
          fmt::format("feature gate CompositePodGroup is off: ignored {} CompositePodGroup(s)",
                      objects->composite_pod_groups.size()));
      objects->composite_pod_groups.clear();
    }
    if (changed > 0) {
      warnings.push_back(
          fmt::format("feature gate CompositePodGroup is off: dropped compositePodGroupTemplates / "
                      "parentCompositePodGroupName from {} object(s)",
                      changed));
    }
  }
  if (!gates.topology_aware_workload_scheduling) {
    int n = ClearGroupField(objects, /*constraints=*/true, false, false);
    if (n > 0) {
      warnings.push_back(fmt::format(
          "feature gate TopologyAwareWorkloadScheduling is off: dropped schedulingConstraints "
          "from {} object(s)",
          n));
    }
  }
  if (!gates.dra_workload_resource_claims) {
    int n = ClearGroupField(objects, false, /*claims=*/true, false);
    if (n > 0) {
      warnings.push_back(fmt::format(
          "feature gate DRAWorkloadResourceClaims is off: dropped resourceClaims from {} "
          "object(s)",
          n));
    }
  }
  if (!gates.pod_group_preemption_policy) {
    int n = ClearGroupField(objects, false, false, /*preemption=*/true);
    if (n > 0) {
      warnings.push_back(fmt::format(
          "feature gate PodGroupPreemptionPolicy is off: dropped preemptionPolicy from {} "
          "object(s)",
          n));
    }
  }
  return warnings;
}

}  // namespace wasched::cli
