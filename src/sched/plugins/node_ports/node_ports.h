// File: sched/plugins/node_ports/node_ports.h
//
// NodePorts (upstream pkg/scheduler/framework/plugins/nodeports): a pod asking for host ports
// fits a node only when none of them is already taken there. The ports a pod holds are those of
// its regular containers and of its sidecars (init containers with restartPolicy Always) with
// hostPort > 0 (upstream util.GetHostPorts). Two ports conflict when they have the same port and
// protocol ("" = TCP) and their host IPs overlap: equal, or either one "" / "0.0.0.0" (every
// address; upstream HostPortInfo.CheckConflict).
//
// Usage-dependent: the Framework calls Fits on the pods placed on the node (Snapshot::PodsOn)
// for the pods that have host ports only; those pods take its scan path (no score index).
// Rejection: Unschedulable (preemption may free the port), reason kReason.
// Events that can make a rejected pod schedulable (upstream EventsToRegister): an assigned pod
// deleted, a node added.
#pragma once

#include <span>
#include <string_view>
#include <vector>

#include "api/pod.h"
#include "sched/framework/pod_info.h"

namespace wasched::sched::plugins {

inline constexpr std::string_view kNodePortsName = "NodePorts";
// kNodePortsReason: upstream nodeports.ErrReason.
inline constexpr std::string_view kNodePortsReason =
    "node(s) didn't have free ports for the requested pod ports";

// HasHostPorts: the pod holds at least one host port. O(containers × ports).
[[nodiscard]] bool HasHostPorts(const api::Pod& pod);

// PortsConflict: host ports `a` and `b` cannot both be bound on one node. O(1).
[[nodiscard]] bool PortsConflict(const api::ContainerPort& a, const api::ContainerPort& b);

// PortsFit: NodePorts Filter: none of `pod`'s host ports conflicts with a host port of the pods
// `on_node` (indices into `pods`). O(ports of pod × ports on node), no allocation.
[[nodiscard]] bool PortsFit(const api::Pod& pod, std::span<const PodIndex> on_node,
                            const std::vector<PodInfo>& pods);

}  // namespace wasched::sched::plugins
