// File: util/feature_gates.h
//
// The v1.37 workload-scheduling feature gates, as an explicit value: parsed from
// `--feature-gates K=V,...` (the syntax of kube-apiserver / kube-scheduler `--feature-gates`,
// component-base/featuregate) and passed to whatever depends on them — validation (a disabled
// gate forbids its fields), the CLI's "drop disabled fields" step, the scheduler. There is no
// global gate registry. Source of the gate names: spec/was-v1.37.md §11.
//
//   auto gates = ParseFeatureGates("CompositePodGroup=false,GenericWorkload=true");
//   if (!gates) { err << gates.error(); return 2; }  // "unrecognized feature gate: X (…)"
//   auto errors = validation::ValidateCreate(objects, *gates);
#pragma once

#include <string>
#include <string_view>
#include <tl/expected.hpp>
#include <vector>

namespace wasched {

// FeatureGates: every v1.37 workload-scheduling gate; wasched turns them all on by default
// (design.md "Every v1.37 gate is on unless --feature-gates turns it off"). Choice for spec §12
// item 6 (upstream's 1.37 defaults of GenericWorkload, TopologyAwareWorkloadScheduling and
// DRAWorkloadResourceClaims are not confirmed): all on, so every v1.37 field is accepted unless
// the user turns its gate off; see README "Choices".
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
// "unrecognized feature gate: X", "missing bool value for X", "invalid value of X=V, err: ...";
// an unrecognized gate's error goes on to list the accepted gates and, for a gate removed in
// v1.37 (GangScheduling, WorkloadAwarePreemption), the gate that took it over (GenericWorkload).
// Dependencies (spec §11, KEP-6012; upstream defaultKubernetesFeatureGateDependencies):
// CompositePodGroup depends on GenericWorkload and TopologyAwareWorkloadScheduling. Setting
// CompositePodGroup=true explicitly while one of them is false is an error ("CompositePodGroup is
// enabled, but depends on features that are disabled: [TopologyAwareWorkloadScheduling]
// (CompositePodGroup depends on TopologyAwareWorkloadScheduling; ...)"); left at wasched's
// default it turns off with them (upstream's default for it is off, so upstream never sees the
// conflict from defaults alone). O(length of spec).
[[nodiscard]] tl::expected<FeatureGates, std::string> ParseFeatureGates(std::string_view spec);

// FormatFeatureGates: "Name=true,Name=false,..." for every gate, in KnownFeatureGates order.
[[nodiscard]] std::string FormatFeatureGates(const FeatureGates& gates);

}  // namespace wasched
