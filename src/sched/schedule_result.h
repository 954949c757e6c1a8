// File: sched/schedule_result.h
//
// ScheduleResult: what one `schedule` run decided: bindings made, pods left pending (with
// upstream-style reasons), evictions, and every group's status. The JSON encoding (codec/) is the
// fixed contract of design.md; every list here is already sorted (pod, then node; groups by
// kind then name) so the output is byte-identical across runs.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "api/object_meta.h"
#include "api/object_set.h"

namespace wasched::sched {

// Binding: `pod` ("ns/name") was placed on `node` by this run.
struct Binding {
  std::string pod;
  std::string node;
};

// PendingPod: a pod left unbound. `reason` is the PodScheduled condition reason upstream would
// set: "Unschedulable" (tried, no fit), "SchedulerError" (the group failed validatePodGroup),
// "SchedulingGated" (the pod has spec.schedulingGates: the API server writes it,
// pkg/registry/core/pod/strategy.go), "NotHandled" (spec.schedulerName names another scheduler)
// or "Unsupported" (needs a feature this version does not schedule yet); `message` explains it,
// e.g. "0/12 nodes are available: 4 Insufficient nvidia.com/gpu, 8 node(s) had untolerated taint
// {gpu: reserved}."
// A pod held at PreEnqueue by GangScheduling (its PodGroup or a parent CompositePodGroup is
// missing, the group has fewer than minCount pods, a tree is below its quorum) is never tried,
// and kube-scheduler v1.37.2 writes no PodScheduled condition for it (observed on the control
// plane: 142 differential rows): `reason` and `message` are empty and `held` says what it waits
// for, e.g. "waiting for minCount pods from a gang to appear in scheduling queue (2 of minCount 3
// pods exist)". Exactly one of `reason` / `held` is set. JSON / YAML key `held`, written only
// when non-empty (`reason` and `message` keep their keys, as "").
struct PendingPod {
  std::string pod;
  std::string reason;
  std::string message;
  std::string held = {};  // defaulted: `{pod, reason, message}` initialises a pod with a condition
};

// ShownPending: how a pending pod reads in the table, explain and the HTML page: its condition's
// reason and message, or "held" and `held` for a pod held at PreEnqueue (no condition). The views
// point into `p`. O(1).
struct PendingShown {
  std::string_view label;
  std::string_view text;
};
[[nodiscard]] inline PendingShown ShownPending(const PendingPod& p) {
  if (!p.held.empty()) return {"held", p.held};
  return {p.reason, p.message};
}

// Eviction: a running pod deleted by preemption in favour of `preemptor` ("PodGroup ns/name" or
// "Pod ns/name").
struct Eviction {
  std::string pod;
  std::string node;
  std::string preemptor;
  // reason: why this pod was chosen (the victim's priority against the preemptor's, its
  // disruptionMode unit, PDBs), as the table prints it; JSON / YAML key `reason` (issue 20
  // item 9).
  std::string reason;
};

// TopologyDomain: one topology domain, the label `key` (schedulingConstraints.topology[0].key,
// e.g. "topology.kubernetes.io/zone") and its `value` ("zone-a").
struct TopologyDomain {
  std::string key;
  std::string value;
};

// GroupResult: final state of one PodGroup or CompositePodGroup (every level of a
// CompositePodGroup tree has its own entry).
// `scheduled` counts member pods bound at the end of the run (already running + bound now);
// for a CompositePodGroup it counts children that meet their own quorum (a PodGroup with
// ≥ minCount members placed, a CompositePodGroup with ≥ minGroupCount such children). Exactly
// one of `min_count` (PodGroup) / `min_group_count` (CompositePodGroup) is set. `parent` is the
// "ns/name" of spec.parentCompositePodGroupName when set (JSON key omitted for roots, so output
// without trees is unchanged). `conditions` holds what kube-scheduler v1.37.2 writes to the
// group's status: PodGroupInitiallyScheduled on a PodGroup once the scheduler decided
// (pkg/scheduler/schedule_one_podgroup.go), plus any condition the input carried. v1.37.2 writes
// no condition on a CompositePodGroup and no DisruptionTarget on a group (observed on the
// control plane; the API defines both types), so those go to `outcome` and `disrupted`.
struct GroupResult {
  std::string kind;
  std::string name;
  int32_t scheduled = 0;
  std::optional<int32_t> min_count;
  std::optional<int32_t> min_group_count;
  // policy: a PodGroup's scheduling policy, "gang" or "basic" (issue 20 item 10: a basic group
  // has no quorum; its `min_count` is the placeholder 1 and the table shows `basic` instead);
  // empty for a CompositePodGroup (JSON key omitted).
  std::string policy;
  std::optional<std::string> parent;
  std::vector<api::Condition> conditions;
  // outcome: a CompositePodGroup's decision for its subtree, shaped as the API's
  // CompositePodGroupInitiallyScheduled condition (status "True"/"False", reason Scheduled,
  // Unschedulable, SchedulerError or Invalid, message), terminal once True. wasched reports it
  // but, as v1.37.2, never writes it to the cluster. JSON `"outcome": {status, reason, message}`,
  // omitted for PodGroups and undecided trees.
  std::optional<api::Condition> outcome;
  // disrupted: preemption evicted pods of this group or of its subtree (v1.37.2 marks only the
  // victim pods with DisruptionTarget). JSON `"disrupted": true`, omitted when false.
  bool disrupted = false;
  // placement: the topology domain a group with a `schedulingConstraints.topology` constraint
  // was placed in (issue 20 item 8): set only when the group meets its quorum with placed pods
  // (bound by this run or running) and all its placed pods — every level's own, a
  // CompositePodGroup's those of its subtree — sit on nodes with one value of its key. Each level
  // of a tree shows its own key. JSON / YAML `"placement": {"<key>": "<value>"}`, omitted when
  // unset (a pending group, a group without a constraint).
  std::optional<TopologyDomain> placement;
};

// MainCondition: the group's decision as one condition: its `outcome` (a CompositePodGroup),
// else its *InitiallyScheduled condition, else its first condition, else nullptr. O(conditions).
[[nodiscard]] inline const api::Condition* MainCondition(const GroupResult& g) {
  if (g.outcome) return &*g.outcome;
  for (const api::Condition& c : g.conditions) {
    if (std::string_view(c.type).ends_with("InitiallyScheduled")) return &c;
  }
  return g.conditions.empty() ? nullptr : &g.conditions.front();
}

// ClaimAllocation: a ResourceClaim this run allocated (DRA, issue 6): `claim` "ns/name" (claims
// made from templates are named `<pod>-<entry>` / `<podgroup>-<entry>`), `owner` "Pod ns/p" or
// "PodGroup ns/g" for those ("" for a ResourceClaim of the input), and each device as
// claim → driver/pool/device with the request it serves ("gpu" or "gpu/<subrequest>").
struct ClaimAllocation {
  struct Device {
    std::string request;
    std::string driver;
    std::string pool;
    std::string device;
  };
  std::string claim;
  std::string owner;
  std::vector<Device> devices;
};

// ScheduleResult: see design.md "schedule JSON output".
struct ScheduleResult {
  std::vector<Binding> bindings;
  std::vector<PendingPod> pending;
  std::vector<Eviction> evictions;
  std::vector<GroupResult> groups;
  api::ObjectSet generated;  // objects controllers created (filled from issue 7 on)
  // allocations: DRA claims allocated by this run, sorted by claim (the JSON key is written only
  // when non-empty, so output without DRA is unchanged).
  std::vector<ClaimAllocation> allocations;
  // notes: informational lines about the input that explain a result without being a problem
  // (issue 20 item 12: "Job ns/j is suspended (spec.suspend: true): …"), in input order; JSON /
  // YAML key `notes` written only when non-empty, the table prints `note: …` lines.
  std::vector<std::string> notes;
};

}  // namespace wasched::sched
