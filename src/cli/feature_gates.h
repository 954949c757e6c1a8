// File: cli/feature_gates.h
//
// The v1.37 feature gates wasched understands, parsed from `--feature-gates K=V,...` (the syntax
// of kube-apiserver / kube-scheduler `--feature-gates`) and applied to the input the way the API
// server's "drop disabled fields" step would have stored it. A plain struct passed explicitly:
// there are no global gate registries. Source of the gate names: spec/was-v1.37.md §11.
//
//   auto gates = cli::ParseFeatureGates("CompositePodGroup=false,GenericWorkload=true");
//   if (!gates) { err << gates.error(); return 2; }          // "unrecognized feature gate: X"
//   std::vector<std::string> warnings = cli::ApplyFeatureGates(*gates, &objects);
#pragma once

#include <string>
#include <string_view>
#include <tl/expected.hpp>
#include <vector>

#include "api/object_set.h"

namespace wasched::cli {

// FeatureGates: every v1.37 workload-scheduling gate; wasched turns them all on by default
// (design.md "Every v1.37 gate is on unless --feature-gates turns it off").
struct FeatureGates {
  bool generic_workload = true;                    // GenericWorkload
  bool topology_aware_workload_scheduling = true;  // TopologyAwareWorkloadScheduling
  bool dra_workload_resource_claims = true;        // DRAWorkloadResourceClaims
  bool composite_pod_group = true;                 // CompositePodGroup
  bool workload_with_job = true;                   // WorkloadWithJob
  bool pod_group_preemption_policy = true;         // PodGroupPreemptionPolicy

  friend bool operator==(const FeatureGates&, const FeatureGates&) = default;
};

// KnownFeatureGates: the gate names in the order above.
[[nodiscard]] const std::vector<std::string_view>& KnownFeatureGates();

// ParseFeatureGates: `spec` is a comma-separated list of `Name=bool` (bool as Go's
// strconv.ParseBool: 1 t T TRUE true True 0 f F FALSE false False); empty items are ignored and
// later pairs win. Starts from the defaults. Errors (upstream's wording):
// "unrecognized feature gate: X", "missing bool value for X", "invalid value of X=V, err: ...".
// O(length of spec).
[[nodiscard]] tl::expected<FeatureGates, std::string> ParseFeatureGates(std::string_view spec);

// FormatFeatureGates: "Name=true,Name=false,..." for every gate, in KnownFeatureGates order.
[[nodiscard]] std::string FormatFeatureGates(const FeatureGates& gates);

// ApplyFeatureGates: drops from `objects` what a disabled gate makes the API server drop or
// refuse, and returns one warning per kind of thing dropped (deterministic order):
//   GenericWorkload off          → Workloads, PodGroups, CompositePodGroups removed; pods'
//                                  spec.schedulingGroup cleared (pods schedule one by one)
//   CompositePodGroup off        → CompositePodGroups removed; Workloads'
//                                  compositePodGroupTemplates and PodGroups'
//                                  parentCompositePodGroupName cleared
//   TopologyAwareWorkloadScheduling off → schedulingConstraints cleared
//   DRAWorkloadResourceClaims off → resourceClaims cleared
//   PodGroupPreemptionPolicy off → preemptionPolicy on groups and templates cleared
//   WorkloadWithJob              → no effect yet (Jobs are not read before the controllers issue)
// O(objects).
[[nodiscard]] std::vector<std::string> ApplyFeatureGates(const FeatureGates& gates,
                                                         api::ObjectSet* objects);

}  // namespace wasched::cli
