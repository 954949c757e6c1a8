// File: sim/cluster.h
//
// The simulated cluster's Nodes: generated from a spec string (`--generate-cluster`), read from
// Node manifests (`--cluster PATH`, any file `wasched schedule` reads), or from an Alibaba openb
// node list CSV (`--cluster openb_node_list_*.csv`).
//
//   auto nodes = sim::GenerateCluster("nodes=64,gpus=8,cpus=96,memory=768Gi,zones=2,racksPerZone=4");
//
// Generated nodes are named node-000…; node i sits in zone i / (nodes/zones) and rack
// (i / nodesPerRack) with labels topology.kubernetes.io/zone=zone-<z> and
// topology.wasched.io/rack=zone-<z>-rack-<r> (rack values unique cluster-wide so a rack
// constraint never spans zones). Errors name the flag and key. Complexity: O(nodes).
#pragma once

#include <string>
#include <vector>

#include <tl/expected.hpp>

#include "api/node.h"

namespace wasched::sim {

inline constexpr const char* kZoneLabel = "topology.kubernetes.io/zone";
inline constexpr const char* kRackLabel = "topology.wasched.io/rack";

// GenerateCluster: keys nodes, gpus, cpus, memory (a Kubernetes quantity), zones, racksPerZone;
// missing keys default to nodes=64,gpus=8,cpus=96,memory=768Gi,zones=2,racksPerZone=4.
[[nodiscard]] tl::expected<std::vector<api::Node>, std::string> GenerateCluster(const std::string& spec);

// LoadOpenbNodes: openb node list CSV (sn,cpu_milli,memory_mib,gpu,model) → Nodes with
// alibabacloud.com/gpu-milli = gpu × 1000 and label alibabacloud.com/gpu-card-model = model
// (the names of the openb node YAML in tests/data/alibaba-openb/).
[[nodiscard]] tl::expected<std::vector<api::Node>, std::string> LoadOpenbNodes(const std::string& path);

// LoadClusterNodes: `path` ending in .csv → LoadOpenbNodes; otherwise manifests through the codec
// (only the Nodes are used; a file without Nodes is an error). The Nodes get the checks
// `wasched schedule` runs on them (validation::ValidateForSchedule on a set holding only the
// Nodes: names, labels, taints, non-negative allocatable, ...); its errors are the error, one per
// line (`<file>: document <n>: Node <name>: <field>: ...`). `warnings`, when given, receives the
// codec's warnings and one line naming the objects of other kinds that are ignored
// (`--cluster: ignored 1 Pod(s) in <path>; only Nodes are read`: their requests are not
// subtracted). O(objects).
[[nodiscard]] tl::expected<std::vector<api::Node>, std::string> LoadClusterNodes(
    const std::string& path, std::vector<std::string>* warnings = nullptr);

}  // namespace wasched::sim
