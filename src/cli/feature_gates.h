// File: cli/feature_gates.h
//
// Applying the feature gates (util/feature_gates.h) to the input of `schedule` the way the API
// server's "drop disabled fields" step (the registry strategies' PrepareForCreate) would have
// stored it, with a warning per kind of thing dropped.
//
//   std::vector<std::string> warnings = cli::ApplyFeatureGates(gates, &objects);
#pragma once

#include <string>
#include <vector>

#include "api/object_set.h"
#include "util/feature_gates.h"

namespace wasched::cli {

// ApplyFeatureGates: drops from `objects` what a disabled gate makes the API server drop or
// refuse, and returns one warning per kind of thing dropped (deterministic order):
//   GenericWorkload off          → Workloads, PodGroups, CompositePodGroups removed; pods'
//                                  spec.schedulingGroup cleared (pods schedule one by one)
//   CompositePodGroup off        → CompositePodGroups removed; Workloads'
//                                  compositePodGroupTemplates and PodGroups'
//                                  parentCompositePodGroupName cleared
//   TopologyAwareWorkloadScheduling off → schedulingConstraints cleared (CompositePodGroup, which
//                                  depends on it, is then off too unless set, which is an error:
//                                  see ParseFeatureGates)
//   DRAWorkloadResourceClaims off → resourceClaims cleared
//   PodGroupPreemptionPolicy off → preemptionPolicy on groups and templates cleared
//   WorkloadWithJob off          → Jobs' spec.scheduling cleared (pkg/api/job dropDisabledFields)
// O(objects).
[[nodiscard]] std::vector<std::string> ApplyFeatureGates(const FeatureGates& gates,
                                                         api::ObjectSet* objects);

}  // namespace wasched::cli
