// File: sched/verify/invariants.h
//
// Verification mode (issue 10; SchedulerOptions::verify): the invariants the scheduling loop must
// keep after every cycle, as pure checks over a small read-only view of one run's state, so that
// each can be unit-tested on a deliberately broken state. Each check appends readable sentences
// to `out` (empty = it holds); the scheduler prints them all and aborts (or hands them to the
// caller, SchedulerOptions::verify_violations).
//
//   RunView v{nodes, resources, pods, tree, bound_now, evicted, bind_count, overcommitted};
//   std::vector<std::string> out;
//   verify::CheckRun(v, out);
//
// The invariants (bug-scenarios.md "Cross-cutting invariants", spec/was-v1.37.md §4–§7):
//  * CheckUsage: NodeTable requested / non-zero requested equal a recomputation from the pods
//    with a node (the incremental accounting of Assume / RevertTo / Remove).
//  * CheckNoOvercommit: no node beyond allocatable on any resource (pods counted) unless it
//    already was at input (kubelet-admitted running pods may exceed).
//  * CheckBindings: no double booking — a pod is bound at most once in a run, an evicted pod is
//    never bound nor placed, a bound pod has a node and did not arrive running.
//  * CheckGangAtomicity: for every PodGroup whose members this run bound or evicted, placed
//    members (running + bound) ∈ {0} ∪ [minCount, size]; for every CompositePodGroup with a pod
//    bound in its subtree, started children ≥ 1 ⇒ satisfied children ≥ minGroupCount. Upstream
//    exemption: a victim of a `single` group (no `disruptionMode: all` at or above it) is its own
//    victim unit (KEP-5710 getCrossNodesVictims), so such a group may be left below quorum by
//    preemption; under an `all` ancestor the highest one is the unit and is evicted whole: no pod
//    that arrived running under it may stay placed after one of its pods was evicted.
//  * CheckTopology: every group with schedulingConstraints.topology and a pod bound in its
//    subtree has all its placed subtree pods on nodes carrying the key with one value (so a
//    parent CompositePodGroup's constraint holds across its children's pods, KEP-5732 §5.3).
//  * CheckDevices: no device is allocated to two claims (DRA, spec §7).
//  * CheckDomainSums: TreeAlgorithm's per-domain sums equal a recomputation from the NodeTable.
// Cost per CheckRun: O(P × depth + G + N × R) (each group's subtree pods are listed once per
// level above them, depth ≤ 4) plus O(P × R + N × R) for the usage recomputation; verify mode
// only, never on a production hot path.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "sched/cache/node_table.h"
#include "sched/cache/resource_table.h"
#include "sched/framework/pod_info.h"
#include "sched/gang/group_tree.h"
#include "sched/plugins/topology_placement/topology_placement.h"

namespace wasched::sched::verify {

// RunView: what the checks read (all references outlive the view; none is written).
//  * pods: every pod of the run (PodInfo::node = placed now, running or bound).
//  * tree: the group hierarchy with members filled (GroupTree::AddMember).
//  * bound_now[p]: p was bound by this run and is still bound (cleared on eviction).
//  * evicted[p]: p was deleted by preemption in this run.
//  * bind_count[p]: how many times this run bound p (Run::Bind calls).
//  * overcommitted_at_input: nodes already beyond allocatable at input (exempt from over-commit).
struct RunView {
  const NodeTable& nodes;
  const ResourceTable& resources;
  const std::vector<PodInfo>& pods;
  const GroupTree& tree;
  const std::vector<bool>& bound_now;
  const std::vector<bool>& evicted;
  const std::vector<uint8_t>& bind_count;
  std::span<const NodeIndex> overcommitted_at_input;
  // satisfied_once: per tree node, non-zero when its gang atomicity check is skipped: a PodGroup
  // that counts as satisfied once scheduled (GangSatisfaction::kOnceScheduled), or a group (or
  // CompositePodGroup) the caller of a long-lived engine took a placed member from (a failed
  // binding, a deletion: sched::Scheduler). Empty: none.
  std::span<const char> satisfied_once = {};
};

void CheckUsage(const RunView& v, std::vector<std::string>& out);
void CheckNoOvercommit(const RunView& v, std::vector<std::string>& out);
void CheckBindings(const RunView& v, std::vector<std::string>& out);
void CheckGangAtomicity(const RunView& v, std::vector<std::string>& out);
void CheckTopology(const RunView& v, std::vector<std::string>& out);
// CheckRun: the five checks above, in that order.
void CheckRun(const RunView& v, std::vector<std::string>& out);

// DeviceUse: one device held by one claim: `device` = "driver/pool/device".
struct DeviceUse {
  std::string claim;
  std::string device;
};
// CheckDevices: every device appears under at most one claim. O(U log U).
void CheckDevices(std::vector<DeviceUse> uses, std::vector<std::string>& out);

// DomainSumsView: one label key's cached per-domain sums (TreeAlgorithm::DomainSums, brought
// current): per domain d, allocatable and non-zero requested cpu / memory, and free[d × resources
// + r] = Σ over its nodes of max(0, allocatable − requested) of resource r.
struct DomainSumsView {
  const plugins::TopologyKeyIndex& index;
  std::span<const int64_t> alloc_cpu, alloc_mem, req_cpu, req_mem, free;
  int32_t resources = 0;
};
// CheckDomainSums: `sums` equals a recomputation from `nodes`. O(N × R).
void CheckDomainSums(const NodeTable& nodes, const DomainSumsView& sums, std::vector<std::string>& out);

}  // namespace wasched::sched::verify
