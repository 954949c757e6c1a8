#include "sched/preemption/post_filter.h"

#include <algorithm>

#include <fmt/format.h>

#include "sched/preemption/preemption_policy.h"

namespace wasched::sched::preemption {

std::vector<GroupNode> BuildGroupNodes(const GroupTree& tree,
                                       const std::function<int32_t(TreeIndex)>& priority_of) {
  std::vector<GroupNode> out(static_cast<size_t>(tree.size()));
  for (TreeIndex t = 0; t < tree.size(); ++t) {
    const GroupTreeNode& n = tree.node(t);
    GroupNode& g = out[t];
    g.parent = n.parent;
    g.composite = n.is_composite;
    const api::ObjectMeta& meta = n.is_composite ? n.composite->meta : n.pod_group->meta;
    const auto& mode = n.is_composite ? n.composite->disruption_mode : n.pod_group->disruption_mode;
    g.disruption_all = mode && mode->all;
    g.priority = priority_of(t);
    g.uid = meta.uid;
    g.label = std::string(n.is_composite ? "CompositePodGroup " : "PodGroup ") + n.key;
    g.members = n.members;
    g.children = n.children;
  }
  return out;
}

PostFilter::PostFilter(Context context, std::vector<GroupNode> groups)
    : ctx_(context),
      groups_(std::move(groups)),
      units_(ctx_.pods, groups_),
      default_(ctx_.snapshot, ctx_.framework, ctx_.pods, ctx_.resources) {}

void PostFilter::OnBind(PodIndex p) {
  if (node_pods_.built()) {
    node_pods_.Add(p, ctx_.pods[p].node);
  } else {
    bind_log_.push_back(p);
  }
}

void PostFilter::OnRemove(PodIndex p) {
  const NodeIndex n = ctx_.pods[p].node;
  if (n != kNoNode) PodsPerNode().Remove(p, n);
}

NodePods& PostFilter::PodsPerNode() {
  if (node_pods_.built()) return node_pods_;
  // The same per-node order an eager build would have: pods running at input in pod order, then
  // the pods bound since, in bind order (nothing was removed before the first preemption).
  const std::vector<PodInfo>& pods = ctx_.pods;
  node_pods_ = NodePods(ctx_.snapshot.nodes().size());
  for (size_t p = 0; p < pods.size(); ++p) {
    if (pods[p].running_at_input && pods[p].node != kNoNode) {
      node_pods_.Add(static_cast<PodIndex>(p), pods[p].node);
    }
  }
  for (PodIndex p : bind_log_) {
    if (pods[p].node != kNoNode) node_pods_.Add(p, pods[p].node);
  }
  std::vector<PodIndex>().swap(bind_log_);
  return node_pods_;
}

std::optional<api::PreemptionPolicy> PostFilter::ClassPolicy(const std::string& name) const {
  const api::PriorityClass* chosen = nullptr;
  for (const api::PriorityClass& pc : ctx_.objects.priority_classes) {
    if (name.empty() ? pc.global_default : pc.meta.name == name) {
      chosen = &pc;
      break;
    }
  }
  return chosen != nullptr ? chosen->preemption_policy : std::nullopt;
}

api::PreemptionPolicy PostFilter::PodPolicy(PodIndex p) const {
  const api::Pod& pod = *ctx_.pods[p].pod;
  return PodPreemptionPolicy(pod.preemption_policy, ClassPolicy(pod.priority_class_name));
}

api::PreemptionPolicy PostFilter::OwnGroupPolicy(const std::optional<api::PreemptionPolicy>& field,
                                                 const std::string& class_name) const {
  return PodPreemptionPolicy(field, ClassPolicy(class_name));
}

api::PreemptionPolicy PostFilter::GroupPolicy(const std::optional<api::PreemptionPolicy>& field,
                                              const std::string& class_name,
                                              std::span<const PodIndex> members) const {
  std::vector<api::PreemptionPolicy> member_policies;
  if (!ctx_.pod_group_preemption_policy_gate) {
    for (PodIndex p : members) member_policies.push_back(PodPolicy(p));
  }
  std::optional<api::PreemptionPolicy> group = field;
  if (!group) group = ClassPolicy(class_name);
  return GroupPreemptionPolicy(ctx_.pod_group_preemption_policy_gate, group, member_policies);
}

Outcome PostFilter::PreemptForPod(PodIndex p) {
  units_.Refresh();
  if (!ctx_.objects.pod_disruption_budgets.empty()) {
    budgets_ = std::make_unique<PdbBudgets>(ctx_.objects.pod_disruption_budgets, ctx_.pods);
  }
  const PodInfo& pi = ctx_.pods[p];
  Preemptor who{"Pod " + PodKey(pi), pi.priority, PodPolicy(p), {p}, {}, false};
  return default_.Preempt(who, units_, PodsPerNode(), budgets_.get());
}

Outcome PostFilter::PreemptForGroup(const Preemptor& preemptor,
                                    const GroupSchedulingFn& schedule) {
  units_.Refresh();
  if (!ctx_.objects.pod_disruption_budgets.empty()) {
    budgets_ = std::make_unique<PdbBudgets>(ctx_.objects.pod_disruption_budgets, ctx_.pods);
  }
  PodGroupEvaluator evaluator(ctx_.snapshot, ctx_.framework, ctx_.pods);
  return evaluator.Preempt(preemptor, units_, budgets_.get(), schedule);
}

Evicted PostFilter::Evict(const Outcome& outcome, const Preemptor& preemptor) {
  Evicted out;
  const NodeTable& nodes = ctx_.snapshot.nodes();
  const bool group_preemptor = preemptor.pods.size() != 1 || preemptor.label.rfind("Pod ", 0) != 0;
  for (int32_t slot : outcome.victim_units) {
    const VictimUnit& u = units_.Unit(slot);
    std::string why = fmt::format("priority {} < {}", u.priority, preemptor.priority);
    if (u.whole_group) {
      why += fmt::format("; {} has disruptionMode all: its {} running pod(s) go together",
                         units_.Label(u), u.pods.size());
    } else if (u.group >= 0) {
      why += fmt::format("; {} has disruptionMode single: this pod alone", groups_[u.group].label);
    }
    why += group_preemptor
               ? "; not reprieved: the preemptor's placement does not fit with it back"
               : "; among the least important pods whose removal makes room on the node";
    if (u.group >= 0 && std::find(out.groups.begin(), out.groups.end(), u.group) == out.groups.end()) {
      out.groups.push_back(u.group);
    }
    for (PodIndex q : u.pods) {
      const PodInfo& pi = ctx_.pods[q];
      if (pi.node == kNoNode) continue;
      out.evictions.push_back({PodKey(pi), nodes.node(pi.node).meta.name, preemptor.label, why});
      PodsPerNode().Remove(q, pi.node);
      ctx_.snapshot.Remove(q);
    }
  }
  if (outcome.pdb_violations > 0 && !out.evictions.empty()) {
    for (Eviction& e : out.evictions) {
      // pdb_violations counts victims beyond their budgets' allowance (upstream's
      // numViolatingVictim), not budgets.
      e.reason += fmt::format(" (this preemption evicts {} pod(s) beyond what their "
                              "PodDisruptionBudgets allow: no cheaper choice avoided it)",
                              outcome.pdb_violations);
    }
  }
  units_.Refresh();
  return out;
}

}  // namespace wasched::sched::preemption
