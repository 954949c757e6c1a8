// File: sched/preemption/post_filter.h
//
// PostFilter: the scheduler's preemption step for one `schedule` run — kube-scheduler's
// DefaultPreemption PostFilter for a bare pod and the PodGroupPostFilter for a group root
// (spec/was-v1.37.md §4.3 step 5, §6) — plus actuation: the victims are deleted at once (their
// nodes freed in the snapshot) and each eviction is recorded with its preemptor and why it was
// chosen. It owns what preemption keeps between attempts: the pods per node, the victim-unit
// index, the group table and the DefaultPreemption search offset.
//
//   PostFilter pf(context, BuildGroupNodes(...));
//   Outcome o = pf.PreemptForPod(p);                 // after FindNode failed
//   if (o.status.IsSuccess()) auto ev = pf.Evict(o, preemptor);
//   ...
//   pf.OnBind(p);                                    // every binding, to keep NodePods current
//
// Policies: a bare pod's preemptionPolicy is its own, else its PriorityClass's; a group's as
// preemption_policy.h (gate PodGroupPreemptionPolicy). PodDisruptionBudgets are re-counted from
// the current pods at every attempt (pdb_budgets.h).
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "api/object_set.h"
#include "sched/cache/resource_table.h"
#include "sched/cache/snapshot.h"
#include "sched/framework/framework.h"
#include "sched/gang/group_tree.h"
#include "sched/preemption/default_preemption.h"
#include "sched/preemption/node_pods.h"
#include "sched/preemption/pod_group_evaluator.h"
#include "sched/preemption/preemption_types.h"
#include "sched/preemption/victim_unit.h"
#include "sched/schedule_result.h"

namespace wasched::sched::preemption {

// Context: what the scheduler lends the PostFilter (all must outlive it).
struct Context {
  Snapshot& snapshot;
  const Framework& framework;
  std::vector<PodInfo>& pods;
  const ResourceTable& resources;
  const api::ObjectSet& objects;
  bool pod_group_preemption_policy_gate = true;
};

// Evicted: the actuation of one successful preemption.
//  * evictions: one record per victim pod (pod, node, preemptor, reason), victim order.
//  * groups: GroupNode indices whose pods were evicted (each once): they get the
//    DisruptionTarget condition.
struct Evicted {
  std::vector<Eviction> evictions;
  std::vector<int32_t> groups;
};

// BuildGroupNodes: the group table preemption needs, one row per GroupTree node in tree-index
// order (so a PodInfo::group indexes it): parent, kind, disruptionMode all, resolved priority
// (`priority_of(tree index)`), uid and label, members and children. O(groups + pods).
[[nodiscard]] std::vector<GroupNode> BuildGroupNodes(
    const GroupTree& tree, const std::function<int32_t(TreeIndex)>& priority_of);

class PostFilter {
 public:
  PostFilter(Context context, std::vector<GroupNode> groups);

  // OnBind: pod p was just placed (PodInfo::node set). O(1) amortised.
  void OnBind(PodIndex p);
  // OnRemove: placed pod p leaves its node outside preemption (a deletion, a failed binding, a
  // victim awaiting its deletion): it is no longer a candidate victim. Call before the snapshot
  // releases it (PodInfo::node still set). Builds the pods per node (O(P) once), then O(pods on
  // the node).
  void OnRemove(PodIndex p);
  // OnAddMember: pod p (just appended to the pods) joined PodGroup `group` (a GroupNode index).
  // O(1) amortised.
  void OnAddMember(int32_t group, PodIndex p) { groups_[group].members.push_back(p); }

  // PodPolicy: a pod's preemptionPolicy (own, else its PriorityClass's, else
  // PreemptLowerPriority). O(classes).
  [[nodiscard]] api::PreemptionPolicy PodPolicy(PodIndex p) const;
  // OwnGroupPolicy: a PodGroup's or CompositePodGroup's own resolved preemptionPolicy (its
  // field, else its PriorityClass's, else PreemptLowerPriority), whatever the gate. O(classes).
  [[nodiscard]] api::PreemptionPolicy OwnGroupPolicy(
      const std::optional<api::PreemptionPolicy>& field, const std::string& class_name) const;
  // GroupPolicy: §6.1 for a root group with `field` / `class_name` and unscheduled `members`.
  [[nodiscard]] api::PreemptionPolicy GroupPolicy(const std::optional<api::PreemptionPolicy>& field,
                                                  const std::string& class_name,
                                                  std::span<const PodIndex> members) const;

  // PreemptForPod: DefaultPreemption for bare pod p (dry run). See default_preemption.h.
  [[nodiscard]] Outcome PreemptForPod(PodIndex p);
  // PreemptForGroup: the pod-group evaluator (dry run). See pod_group_evaluator.h.
  [[nodiscard]] Outcome PreemptForGroup(const Preemptor& preemptor,
                                        const GroupSchedulingFn& schedule);

  // Evict: deletes the outcome's victims (Snapshot::Remove, pods per node) and describes each
  // eviction. REQUIRES: `outcome` is the last successful Preempt* result, nothing changed since.
  // O(victims).
  Evicted Evict(const Outcome& outcome, const Preemptor& preemptor);

  [[nodiscard]] const std::vector<GroupNode>& groups() const { return groups_; }
  [[nodiscard]] const VictimUnitIndex& units() const { return units_; }

 private:
  [[nodiscard]] std::optional<api::PreemptionPolicy> ClassPolicy(const std::string& name) const;

  Context ctx_;
  std::vector<GroupNode> groups_;
  // PodsPerNode: node_pods_, built on first use (only preemption walks pods per node); until
  // then OnBind only logs. O(P) once.
  NodePods& PodsPerNode();

  NodePods node_pods_;
  std::vector<PodIndex> bind_log_;  // pods bound before node_pods_ was built
  VictimUnitIndex units_;
  DefaultPreemption default_;
  std::unique_ptr<PdbBudgets> budgets_;  // rebuilt per attempt when the input has PDBs
};

}  // namespace wasched::sched::preemption
