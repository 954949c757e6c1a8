// Scheduling loop: builds the cache from the input objects, admits units through PreEnqueue,
// runs one cycle per popped unit (bare pod: Filter/Score/bind; PodGroup: validatePodGroup, the
// pod-group algorithm, all-or-nothing bind, PodGroupInitiallyScheduled) until the queue is
// empty, then assembles the sorted ScheduleResult. Upstream: pkg/scheduler/schedule_one.go,
// schedule_one_podgroup.go.
#include "sched/scheduler.h"

#include <algorithm>
#include <cassert>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <functional>
#include <map>
#include <set>
#include <type_traits>
#include <unordered_map>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "sched/cache/node_name_index.h"
#include "sched/cache/node_table.h"
#include "sched/cache/snapshot.h"
#include "sched/framework/framework.h"
#include "sched/framework/pod_template.h"
#include "sched/gang/group_tree.h"
#include "sched/gang/pod_group_algorithm.h"
#include "sched/gang/tree_algorithm.h"
#include "sched/plugins/dynamic_resources/dynamic_resources.h"
#include "sched/plugins/gang_scheduling/gang_scheduling.h"
#include "sched/plugins/inter_pod_affinity/inter_pod_affinity.h"
#include "sched/plugins/pod_topology_spread/pod_topology_spread.h"
#include "sched/preemption/fit_check.h"
#include "sched/preemption/post_filter.h"
#include "sched/queue/scheduling_queue.h"
#include "sched/verify/invariants.h"
#include "util/key_order.h"

namespace wasched::sched {
namespace {

// WithGroupPreemption: a group's failure message followed by its PostFilter's, as
// "<message>. pod group preemption: <post>" (a period closes the message when it has none).
std::string WithGroupPreemption(std::string message, const std::string& post) {
  if (!message.empty() && message.back() != '.') message += '.';
  return message + " " + preemption::kPodGroupPreemptionPrefix + post;
}

// kHeld: the internal pending reason of a pod held at PreEnqueue by GangScheduling; Assemble
// reports it as an empty reason and message with the explanation in PendingPod::held (v1.37.2
// writes no PodScheduled condition for such a pod).
constexpr std::string_view kHeld = "(held)";

// WithEndedMember: `message` of a gang one of whose members ended after it was scheduled, with
// the upstream issue that keeps it waiting under `--gang-satisfaction upstream`.
std::string WithEndedMember(const std::string& message) {
  return message +
         "; a member ended after the group was scheduled, upstream issue kubernetes#142330";
}

// HeldByEndedMember: the same, for the Unschedulable message of such a gang's failed cycle.
std::string HeldByEndedMember(const std::string& message) {
  return "held: " + WithEndedMember(message);
}

// PerPodLazy: a per-pod value that most pods never get (a pending reason or message): storage
// grows to the highest pod index written, so a run whose pods all bind or run keeps none (the
// Memory shape's 150,000 running pods held 7 MB of empty messages and reasons). operator[]
// grows (amortised O(1)); Get and Reset never do. Indexed by PodIndex.
template <typename T>
class PerPodLazy {
 public:
  T& operator[](size_t p) {
    if (p >= values_.size()) values_.resize(p + 1);
    return values_[p];
  }
  [[nodiscard]] const T& Get(size_t p) const { return p < values_.size() ? values_[p] : empty_; }
  void Reset(size_t p) {
    if (p < values_.size()) values_[p] = T{};
  }

 private:
  std::vector<T> values_;
  T empty_{};
};

// GroupState: one PodGroup during the run.
struct GroupState {
  const api::PodGroup* pod_group = nullptr;
  std::string key;
  int32_t min_count = 1;
  bool is_gang = false;
  int32_t priority = 0;
  std::vector<PodIndex> members;  // input order
  std::vector<api::Condition> conditions;
};

// PriorityResolver: Priority admission (plugin/pkg/admission/priority): explicit priority,
// else the named class, else the globalDefault class, else 0.
class PriorityResolver {
 public:
  explicit PriorityResolver(const std::vector<api::PriorityClass>& classes) {
    by_name_["system-cluster-critical"] = api::kSystemClusterCritical;
    by_name_["system-node-critical"] = api::kSystemNodeCritical;
    for (const auto& pc : classes) {
      by_name_[pc.meta.name] = pc.value;
      if (pc.global_default) default_ = pc.value;
    }
  }
  int32_t Resolve(const std::optional<int32_t>& explicit_priority,
                  const std::string& class_name) const {
    if (explicit_priority) return *explicit_priority;
    if (!class_name.empty()) {
      auto it = by_name_.find(class_name);
      if (it != by_name_.end()) return it->second;
    }
    return default_;
  }

 private:
  std::unordered_map<std::string, int32_t> by_name_;
  int32_t default_ = 0;
};

class Run {
 public:
  Run(const api::ObjectSet& objects, const SchedulerOptions& options)
      : objects_(objects),
        options_(options),
        queue_(options.clock != nullptr ? *options.clock : fixed_clock_),
        await_deletes_(options.evictions == EvictionActuation::kAwaitDelete) {}

  ScheduleResult Execute();

  // --- The long-lived engine's hooks (Scheduler, below) ---
  // Start: builds the cache, the groups and the queue from the objects. Once. O(P + N + G).
  void Start();
  // RunCycles: pops and schedules units until the queue is idle (Execute's loop).
  void RunCycles();
  // BeginCall: forgets the previous call's bindings and evictions (one call's decisions).
  void BeginCall() {
    call_bound_.clear();
    evictions_.clear();
  }
  // ForgetBinding: the caller could not bind p (upstream ForgetPod after a failed binding
  // cycle): p leaves its node and its unit goes to backoff (kRejectorError). O(requests +
  // log units). REQUIRES: p placed by this engine (bound now, or assumed before a rebuild).
  void ForgetBinding(PodIndex p);
  // DeletePod: the pod is gone from the cluster: its node is released, it is never scheduled
  // again (the slot is dead) and the queue gets an assigned-pod delete when it was placed.
  // O(requests + parked units' hints).
  void DeletePod(PodIndex p);
  // MarkTerminating: a victim whose deletion the caller has not reported yet (after a rebuild):
  // it keeps its node, is never a victim or a scheduled pod again. O(requests) + O(P) once.
  void MarkTerminating(PodIndex p);
  // AddPod: a pending pod added to the running engine (issue 16 stage 3): appended to every
  // per-pod vector, joined to its PodGroup, queued (a bare pod) or its group unit told (the
  // gang's Pod/Add hint, or queued when absent). O(requests + log units). `pod` must stay at its
  // address while the engine lives; `input_order` is its index in the objects the engine would be
  // rebuilt from. False (nothing changed) when the pod needs what only a rebuild sets up: a
  // running or ended pod, DRA claims, gates, unmodelled constraints, a resource name new to the
  // engine, a group whose hierarchy is incomplete or refused.
  [[nodiscard]] bool AddPod(const api::Pod& pod, int32_t input_order);
  // ExportState: writes what this engine decided into `store` (the objects it was built over,
  // by input index): assumed pods' spec.nodeName, the groups' conditions; adds to `lost` the
  // groups the caller took a placed member from (LostKey). O(P + G).
  void ExportState(api::ObjectSet& store, std::set<std::string>& lost) const;
  // MarkLost: after Start, the groups of `lost` (from an earlier engine) keep their exemption
  // from the gang atomicity check. O(|lost| log G).
  void MarkLost(const std::set<std::string>& lost);
  [[nodiscard]] const std::vector<PodInfo>& pods() const { return pods_; }
  [[nodiscard]] const NodeTable& nodes() const { return *nodes_; }
  [[nodiscard]] const std::vector<PodIndex>& call_bound() const { return call_bound_; }
  [[nodiscard]] const std::vector<PodIndex>& call_evicted() const { return call_evicted_; }
  [[nodiscard]] bool terminating(PodIndex p) const { return terminating_[p]; }
  [[nodiscard]] bool dead(PodIndex p) const { return dead_[p]; }
  [[nodiscard]] NodeIndex nominated(PodIndex p) const { return nominated_[p]; }
  // Assemble: the result, sorted. `final`: the last call (Execute): the groups' conditions
  // are moved out and bindings are every pod bound; otherwise they are copied and bindings
  // are this call's.
  ScheduleResult Assemble(bool final);

 private:
  void BuildCache();
  void BuildGroups();
  // Classify: a pending pod's static class and signatures, once per pod template.
  void Classify(PodIndex p);
  void Enqueue();
  void ScheduleBarePod(PodIndex p);
  void EnqueueTrees();
  // PreEnqueueRoot: GangScheduling PreEnqueue of the hierarchy rooted at `root`; false holds it
  // (its pending pods are held: no reason, the explanation in PendingPod::held). O(groups + pods
  // of the tree), not of the forest.
  [[nodiscard]] bool PreEnqueueRoot(TreeIndex root);
  // HoldTree: every pending, ungated member pod of the tree gets `reason` / `message`.
  // `reason` must be static (a literal or an api::kReason* constant): it is kept as a view.
  void HoldTree(TreeIndex root, std::string_view reason, const std::string& message);
  void ScheduleGroup(TreeIndex root);
  void ScheduleTree(TreeIndex root);
  void SetGroupCondition(GroupState& g, bool ok, const std::string& reason,
                         const std::string& message);
  // SetTreeCondition: the *InitiallyScheduled condition of tree node t (PodGroup or
  // CompositePodGroup); never regresses a True one.
  void SetTreeCondition(TreeIndex t, bool ok, const std::string& reason, const std::string& message);
  [[nodiscard]] int32_t TreePriority(TreeIndex t) const;
  void Bind(PodIndex p);
  // RequeueLeftover: after a successful group cycle that placed `placed` pods and left
  // `unplaced`: the unit goes straight back to active (SchedulingQueue::RequeueLeftover) when
  // both are non-zero.
  void RequeueLeftover(TreeIndex root, size_t placed, size_t unplaced);
  // GroupRejectors: the Rejector bits of a failed group unit: GangScheduling and the Filter
  // plugins, plus kRejectorInterPodAffinity / kRejectorPodTopologySpread when a pending member has
  // required pod affinity terms / DoNotSchedule spread constraints. O(groups + pods of the tree).
  [[nodiscard]] uint32_t GroupRejectors(TreeIndex root) const;
  // PodDependentHint: the queue's PodHintFn (SchedulingQueue::SetPodHint): InterPodAffinity's and
  // PodTopologySpread's hints for the assigned pod of `event`, over the unit's pending pods.
  // O(pending members × terms) for a group unit, O(terms) for a pod.
  [[nodiscard]] QueueingHint PodDependentHint(const ClusterEvent& event, const QueuedUnit& unit,
                                              uint32_t rejectors);
  // Preemption (issue 5, spec §4.3 step 5, §6). PreemptForBarePod / PreemptForGroup: the
  // PostFilter after a failed cycle; true when victims were evicted (the caller then runs the
  // preemptor's cycle again, without a second PostFilter). Otherwise `message` gets the
  // PostFilter's status message (empty when it did not run).
  bool PreemptForBarePod(PodIndex p, std::string* message);
  bool PreemptForGroup(TreeIndex root, const std::vector<PodIndex>& todo,
                       const preemption::GroupSchedulingFn& simulate, std::string* message);
  // ApplyEvictions: deletes the victims at once (snapshot, pods per node), records evictions,
  // marks the victims' groups disrupted (GroupResult::disrupted), queues the event.
  void ApplyEvictions(const preemption::Outcome& outcome, const preemption::Preemptor& who);
  void MarkDisrupted(TreeIndex t);
  // WaitsForVictims: kAwaitDelete, pod p's nominated node still holds a victim it preempted
  // (terminating): it does not preempt again (upstream PodEligibleToPreemptOthers). O(pods on
  // the node). GroupWaitsForVictims: any of `todo` waits. O(todo + their nodes' pods).
  [[nodiscard]] bool WaitsForVictims(PodIndex p) const;
  [[nodiscard]] bool GroupWaitsForVictims(const std::vector<PodIndex>& todo) const;
  // UnitOf: the queue unit pod p travels in (its bare-pod unit, or its hierarchy root's).
  [[nodiscard]] QueuedUnit UnitOf(PodIndex p) const;
  // MarkLostMember: the caller removed a placed member of p's groups: their gang atomicity is
  // no longer this engine's decision (verify skips it).
  void MarkLostMember(PodIndex p);
  // GroupUnit: the queue unit of a root: a standalone PodGroup (TreeIndex == GroupIndex) or a
  // root CompositePodGroup.
  [[nodiscard]] QueuedUnit GroupUnit(TreeIndex root) const;
  // Verify: verification mode after each cycle (sched/verify/invariants.h); prints every
  // violation and aborts, or appends them to options_.verify_violations.
  void Verify() const;
  // LeftoverRetryNote: for a pending member of a hierarchy whose root is already initially
  // scheduled (a member left beyond the quorum, issue 20 A.1), whether another attempt is coming:
  // from the queue state of its root unit at the end of the run; empty for every other pod.
  [[nodiscard]] std::string_view LeftoverRetryNote(PodIndex p) const;
  // TreeInitiallyScheduled: tree node t's *InitiallyScheduled condition is True.
  [[nodiscard]] bool TreeInitiallyScheduled(TreeIndex t) const;
  // SatisfiedOnce: PodGroup t counts as having its quorum because it was scheduled once
  // (GangSatisfaction::kOnceScheduled).
  [[nodiscard]] bool SatisfiedOnce(TreeIndex t) const;
  // MemberEndedAfterScheduled: upstream mode, PodGroup t is initially scheduled and a member of
  // it ended (Succeeded / Failed in the input) or was evicted in this run: a quorum hold is then
  // kubernetes/kubernetes#142330. O(members).
  [[nodiscard]] bool MemberEndedAfterScheduled(TreeIndex t) const;
  // DomainOf: the topology domain of tree node t's placed pods (its own members, or those of its
  // subtree): {key, value} when every one sits on a node with the same value of t's topology
  // key, nullopt when none is placed, a node lacks the label or the values differ. Output only
  // (Assemble), O(pods of the subtree), no allocation beyond the result.
  [[nodiscard]] std::optional<TopologyDomain> DomainOf(TreeIndex t);

  const api::ObjectSet& objects_;
  const SchedulerOptions& options_;
  ResourceTable resources_;
  PodTemplates templates_{resources_};  // per-pod setup once per template
  std::unique_ptr<NodeTable> nodes_;
  std::vector<PodInfo> pods_;
  std::vector<GroupState> groups_;
  std::unique_ptr<GroupTree> tree_;                         // PodGroup/CompositePodGroup hierarchy
  std::unique_ptr<TreeAlgorithm> tree_algorithm_;           // CPG trees and topology placement
  std::vector<std::vector<api::Condition>> composite_conditions_;  // per CompositePodGroup
  std::vector<int32_t> composite_priority_;                 // per CompositePodGroup, resolved
  std::unique_ptr<DynamicResources> dra_;  // DRA claims; nullptr when no pod has any
  std::unique_ptr<Framework> framework_;
  std::unique_ptr<Snapshot> snapshot_;
  FakeClock fixed_clock_;  // the queue's clock unless options_.clock is set; Execute steps it
                           // to the next backoff expiry when the active queue drains
  SchedulingQueue queue_;
  // pending_reason_: per pod, a static reason (literal, api::kReason* constant or kHeld), empty
  // while none; views (16 bytes a pod, never an allocation per pod). pending_message_: the message.
  // Both only as far as the highest pod given one (PerPodLazy): bound and running pods need none.
  PerPodLazy<std::string_view> pending_reason_;
  PerPodLazy<std::string> pending_message_;
  std::vector<bool> bound_now_;
  std::vector<uint8_t> bind_count_;       // Bind calls per pod (verify mode: double booking)
  int64_t cycle_ = 0;                     // cycles run (verify messages)
  std::vector<bool> in_scope_;            // handled by this scheduler
  std::vector<bool> gated_;               // spec.schedulingGates non-empty, or evicted
  std::vector<NodeIndex> overcommitted_at_input_;
  // Preemption state: the PostFilter step, pods evicted, eviction records, groups that lost
  // pods to preemption, each preemptor pod's nominatedNodeName, and the retry flag.
  std::unique_ptr<preemption::PostFilter> post_filter_;
  std::vector<bool> evicted_;
  std::vector<Eviction> evictions_;
  std::vector<bool> disrupted_group_;
  std::vector<NodeIndex> nominated_;
  bool preemption_retry_ = false;
  // The long-lived engine's state: victims whose deletion the caller reports
  // (SchedulerOptions::evictions == kAwaitDelete), pods deleted by the caller (dead slots, never
  // scheduled or reported again), and this call's bindings and evictions.
  bool await_deletes_ = false;
  std::vector<bool> terminating_;
  std::vector<bool> dead_;
  size_t terminating_count_ = 0;
  std::vector<PodIndex> call_bound_;
  std::vector<PodIndex> call_evicted_;
  std::vector<char> lost_member_;  // per tree node: the caller removed a placed member
  std::unique_ptr<PriorityResolver> priorities_;  // built once (BuildCache), for AddPod
  // PreEnqueueRoot scratch, sized to the forest once (BuildGroups).
  std::vector<TreeIndex> pre_enqueue_order_;
  std::vector<int32_t> pre_enqueue_count_;
  std::vector<char> pre_enqueue_ready_;
  std::vector<TreeIndex> hint_scratch_;  // PodDependentHint's preorder
  std::vector<TreeIndex> domain_scratch_;  // DomainOf's leaves
  std::vector<int32_t> ended_members_;   // per PodGroup: members Succeeded / Failed in the input
  std::vector<const api::Pod*> ended_pods_;  // input pods Succeeded / Failed (BuildCache skips them)
};

void Run::BuildCache() {
  // Nodes in name order (names are unique), ordered with mostly integer compares.
  std::vector<int32_t> order(objects_.nodes.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = static_cast<int32_t>(i);
  OrderByKey(order, [&](int32_t i) { return std::string_view(objects_.nodes[i].meta.name); });
  std::vector<const api::Node*> sorted;
  sorted.reserve(objects_.nodes.size());
  for (int32_t i : order) sorted.push_back(&objects_.nodes[i]);
  const bool dra = std::any_of(objects_.pods.begin(), objects_.pods.end(),
                               [](const api::Pod& p) { return !p.resource_claims.empty(); });
  if (dra) {
    // DynamicResources (issue 6): built before the node list moves into the NodeTable.
    FeatureGates gates;
    gates.dra_workload_resource_claims = options_.dra_workload_resource_claims;
    dra_ = std::make_unique<DynamicResources>(objects_, sorted, gates);
  }
  nodes_ = std::make_unique<NodeTable>(std::move(sorted), resources_);
  const NodeNameIndex node_index(*nodes_);  // spec.nodeName of the running pods
  framework_ = std::make_unique<Framework>(*nodes_, resources_, options_.scoring);
  snapshot_ = std::make_unique<Snapshot>(*nodes_, pods_);
  framework_->set_dynamic_resources(dra_.get());
  framework_->set_snapshot(snapshot_.get());
  framework_->set_objects(objects_);
  framework_->set_use_score_index(options_.score_index);
  snapshot_->set_dynamic_resources(dra_.get());

  priorities_ = std::make_unique<PriorityResolver>(objects_.priority_classes);
  const PriorityResolver& priorities = *priorities_;
  // The "now" of a pod without status.startTime (GetPodStartTime): the caller's clock, whose
  // epoch is the timestamps' (scheduler.h), else later than every recorded start. A caller's
  // clock does not move during a run.
  const int64_t start_now =
      options_.clock != nullptr
          ? std::chrono::duration_cast<std::chrono::seconds>(options_.clock->Now()).count()
          : kStartedLast;
  pods_.reserve(objects_.pods.size());
  for (size_t i = 0; i < objects_.pods.size(); ++i) {
    const api::Pod& pod = objects_.pods[i];
    if (pod.phase == "Succeeded" || pod.phase == "Failed") {  // hold no resources
      ended_pods_.push_back(&pod);
      continue;
    }
    PodInfo pi;
    pi.pod = &pod;
    pi.template_id = templates_.Intern(pod);
    const PodTemplate& t = templates_[pi.template_id];
    pi.requests = t.requests;
    pi.request_cpu = t.request_cpu;
    pi.request_memory = t.request_memory;
    pi.nonzero_cpu = t.nonzero_cpu;
    pi.nonzero_memory = t.nonzero_memory;
    pi.pod_filters = t.pod_filters;
    pi.priority = priorities.Resolve(pod.priority, pod.priority_class_name);
    pi.creation = pod.meta.creation_timestamp.value_or(0);
    // A bound pod of the input without status.startTime (a hand-written manifest: kubectl's
    // dumps carry it) is taken to have started when it was created, as a kubelet would have
    // started it and as the reference harness records it for kube-scheduler; a pod with
    // neither started "now" (GetPodStartTime).
    pi.start = !pod.start_time && !pod.node_name.empty() && pod.meta.creation_timestamp
                   ? *pod.meta.creation_timestamp
                   : PodStartTime(pod, start_now);
    pi.input_order = static_cast<int32_t>(i);
    pods_.push_back(std::move(pi));
  }
  nodes_->EnsureResources(resources_.size());
  const auto pod_count = pods_.size();
  bound_now_.assign(pod_count, false);
  bind_count_.assign(pod_count, 0);
  in_scope_.assign(pod_count, true);
  gated_.assign(pod_count, false);
  for (size_t p = 0; p < pod_count; ++p) {
    PodInfo& pi = pods_[p];
    if (!pi.pod->node_name.empty()) {
      const NodeIndex n = node_index.Find(pi.pod->node_name);
      pi.running_at_input = true;
      if (n != kNoNode) {
        snapshot_->Assume(static_cast<PodIndex>(p), n);
      } else {
        // Bound to a node the input does not hold (a warning says so): still assigned, so never
        // scheduled again, and with no node it cannot count as placed (fuzz finding: a gang
        // member on a missing node was bound a second time).
        gated_[p] = true;
      }
      continue;
    }
    Classify(static_cast<PodIndex>(p));
    if (!pi.pod->unsupported_constraints.empty()) {
      // A hard constraint wasched does not model (a DRA selector it cannot evaluate): placing
      // the pod without it could be wrong, so it waits.
      gated_[p] = true;
      in_scope_[p] = false;
      pending_reason_[p] = "Unsupported";
      pending_message_[p] = fmt::format(
          "not scheduled: wasched does not model the hard constraint(s) {}",
          fmt::join(pi.pod->unsupported_constraints, ", "));
      continue;
    }
    if (!pi.pod->scheduling_gates.empty()) {
      // SchedulingGates PreEnqueue (pkg/scheduler/framework/plugins/schedulinggates): never
      // queued until every gate is removed; the API server reports reason SchedulingGated.
      gated_[p] = true;
      in_scope_[p] = false;
      pending_reason_[p] = "SchedulingGated";
      pending_message_[p] = fmt::format(
          "Scheduling is blocked due to non-empty scheduling gates: [{}]",
          fmt::join(pi.pod->scheduling_gates, ", "));
    }
  }
  snapshot_->Commit();
  for (NodeIndex n = 0; n < nodes_->size(); ++n) {
    for (ResourceId r = 0; r < nodes_->resource_count(); ++r) {
      if (nodes_->Requested(r, n) > nodes_->Allocatable(r, n)) {
        overcommitted_at_input_.push_back(n);
        break;
      }
    }
  }
}

void Run::Classify(PodIndex p) {
  // Class and signature once per pod template (sched/framework/pod_template.h).
  PodInfo& pi = pods_[p];
  PodTemplate& t = templates_.at(pi.template_id);
  if (t.static_class < 0) {
    t.static_class = framework_->ClassOf(*pi.pod);
    pi.static_class = t.static_class;
    t.signature = framework_->SignatureOf(pi);
    t.affinity_signature = framework_->AffinitySignatureOf(pi);
  }
  pi.static_class = t.static_class;
  pi.signature = t.signature;
  pi.affinity_signature = t.affinity_signature;
}

void Run::BuildGroups() {
  PriorityResolver priorities(objects_.priority_classes);
  tree_ = std::make_unique<GroupTree>(objects_);
  for (const auto& pg : objects_.pod_groups) {
    GroupState g;
    g.pod_group = &pg;
    g.key = api::NamespacedName(pg.meta);
    g.is_gang = pg.scheduling_policy.gang.has_value();
    g.min_count = api::MinCount(pg.scheduling_policy);
    g.priority = priorities.Resolve(pg.priority, pg.priority_class_name);
    g.conditions = pg.conditions;
    groups_.push_back(std::move(g));
  }
  for (const auto& cpg : objects_.composite_pod_groups) {
    composite_conditions_.push_back(cpg.conditions);
    composite_priority_.push_back(priorities.Resolve(cpg.priority, cpg.priority_class_name));
  }
  // Members that ended (Succeeded / Failed: not in pods_) per PodGroup (issue 20 A.2).
  ended_members_.assign(objects_.pod_groups.size(), 0);
  for (const api::Pod* ended : ended_pods_) {
    const api::Pod& pod = *ended;
    if (!pod.pod_group_name) continue;
    const TreeIndex leaf = tree_->FindPodGroup(pod.meta.namespace_, *pod.pod_group_name);
    if (leaf >= 0 && !tree_->node(leaf).is_composite) ++ended_members_[static_cast<size_t>(leaf)];
  }
  const api::Pod* last_pod = nullptr;  // the last pod whose PodGroup was looked up
  TreeIndex last_leaf = kNoTreeNode;
  for (size_t p = 0; p < pods_.size(); ++p) {
    const api::Pod& pod = *pods_[p].pod;
    if (!pod.pod_group_name) continue;
    // The first PodGroup of that name in input order (GroupTree index == PodGroup index);
    // members of one group are usually listed together, so the previous answer is tried first.
    if (last_pod == nullptr || pod.meta.namespace_ != last_pod->meta.namespace_ ||
        *pod.pod_group_name != *last_pod->pod_group_name) {
      last_leaf = tree_->FindPodGroup(pod.meta.namespace_, *pod.pod_group_name);
      last_pod = &pod;
    }
    const TreeIndex leaf = last_leaf;
    if (leaf == kNoTreeNode) {
      // Upstream PreEnqueue holds the pod until its PodGroup appears.
      if (pods_[p].node == kNoNode) {
        Status s = plugins::PreEnqueue(false, *pod.pod_group_name, false, 0, 0);
        pending_reason_[p] = kHeld;
        pending_message_[p] = s.Message();
        in_scope_[p] = false;
      }
      continue;
    }
    pods_[p].group = leaf;
    groups_[leaf].members.push_back(static_cast<PodIndex>(p));
    tree_->AddMember(leaf, static_cast<PodIndex>(p));
  }
  tree_algorithm_ =
      std::make_unique<TreeAlgorithm>(*framework_, *snapshot_, pods_, *tree_, gated_,
                                      options_.placement);
  post_filter_ = std::make_unique<preemption::PostFilter>(
      preemption::Context{*snapshot_, *framework_, pods_, resources_, objects_,
                          options_.pod_group_preemption_policy},
      preemption::BuildGroupNodes(*tree_, [this](TreeIndex t) { return TreePriority(t); }));
  evicted_.assign(pods_.size(), false);
  nominated_.assign(pods_.size(), kNoNode);
  disrupted_group_.assign(static_cast<size_t>(tree_->size()), false);
  pre_enqueue_count_.assign(static_cast<size_t>(tree_->size()), 0);
  pre_enqueue_ready_.assign(static_cast<size_t>(tree_->size()), 0);
  terminating_.assign(pods_.size(), false);
  dead_.assign(pods_.size(), false);
  lost_member_.assign(static_cast<size_t>(tree_->size()), 0);
}

void Run::Enqueue() {
  // Queue entries only up to the last pod that can be queued: running pods never are (the
  // Memory shape's 150,000 running pods reserved 14 MB of entries and heap for nothing).
  size_t queueable = 0;
  for (size_t p = pods_.size(); p-- > 0;) {
    if (!pods_[p].running_at_input && pods_[p].node == kNoNode) {
      queueable = p + 1;
      break;
    }
  }
  queue_.Reserve(queueable, static_cast<size_t>(tree_->size()));
  for (size_t p = 0; p < pods_.size(); ++p) {
    const PodInfo& pi = pods_[p];
    if (pi.node != kNoNode || pi.running_at_input || !in_scope_[p]) continue;
    if (pi.group == kNoGroup && pi.pod->scheduler_name != options_.scheduler_name) {
      in_scope_[p] = false;
      pending_reason_[p] = "NotHandled";
      pending_message_[p] = fmt::format(
          "spec.schedulerName is \"{}\"; wasched schedules only pods of \"{}\"",
          pi.pod->scheduler_name, options_.scheduler_name);
      continue;
    }
    if (pi.group != kNoGroup) continue;
    queue_.Add({false, static_cast<int32_t>(p), pi.priority, pi.creation, pi.input_order});
  }
  EnqueueTrees();
}

bool Run::PreEnqueueRoot(TreeIndex root) {
  // GangScheduling PreEnqueue for a whole hierarchy (spec §4.2; upstream
  // preEnqueueWithHierarchies / isCPGTreeReady): a leaf is ready when its known pods (pending,
  // assumed and running; not those held by scheduling gates) reach minCount (basic: 1); a
  // CompositePodGroup when its ready children reach minGroupCount (basic: 1). Held pods get no
  // reason (v1.37.2 writes no PodScheduled condition) and upstream's message plus the counts as
  // PendingPod::held.
  // Only the root's subtree is touched: children come before their parent in reverse preorder,
  // so every count is written before it is read (no forest-sized reset per root).
  std::vector<TreeIndex>& order = pre_enqueue_order_;
  order.clear();
  tree_->Preorder(root, order);
  std::vector<int32_t>& count = pre_enqueue_count_;
  std::vector<char>& ready = pre_enqueue_ready_;
  for (auto it = order.rbegin(); it != order.rend(); ++it) {
    const GroupTreeNode& n = tree_->node(*it);
    count[*it] = 0;
    if (n.is_composite) {
      for (TreeIndex c : n.children) count[*it] += ready[c];
    } else {
      for (PodIndex p : n.members) count[*it] += gated_[p] ? 0 : 1;
    }
    // --gang-satisfaction once-scheduled: a PodGroup scheduled once needs one pod.
    const int32_t quorum = SatisfiedOnce(*it) ? std::min(n.quorum, 1) : n.quorum;
    ready[*it] = count[*it] >= quorum ? 1 : 0;
  }
  if (ready[root]) return true;
  bool ended = false;  // a leaf held for quorum lost a member after it was scheduled
  for (TreeIndex t : order) ended = ended || (!ready[t] && MemberEndedAfterScheduled(t));
  const GroupTreeNode& r = tree_->node(root);
  std::string message;
  if (r.is_composite) {
    message = fmt::format("{} ({} of minGroupCount {} child groups ready)",
                          plugins::TreeQuorumNotMet(r.composite->meta.name).Message(),
                          count[root], r.quorum);
  } else {
    const GroupState& gs = groups_[root];
    message = fmt::format(
        "{} ({} of minCount {} pods exist)",
        plugins::PreEnqueue(true, gs.pod_group->meta.name, gs.is_gang, count[root], gs.min_count)
            .Message(),
        count[root], gs.min_count);
  }
  if (ended) message = WithEndedMember(message);
  HoldTree(root, kHeld, message);
  return false;
}

void Run::HoldTree(TreeIndex root, std::string_view reason, const std::string& message) {
  std::vector<TreeIndex> leaves;
  tree_->Leaves(root, leaves);
  for (TreeIndex l : leaves) {
    for (PodIndex p : tree_->node(l).members) {
      if (pods_[p].node != kNoNode || gated_[p]) continue;
      pending_reason_[p] = reason;
      pending_message_[p] = message;
    }
  }
}

void Run::EnqueueTrees() {
  // Only the root of a hierarchy is queued (spec §4.1): a standalone PodGroup or a root
  // CompositePodGroup, once something under it is pending. A tree refused by runtime hierarchy
  // validation (§4.6) gets SchedulerError on every level and is not tried; a member pod with a
  // hard constraint wasched does not model holds its whole tree (Unsupported); otherwise the
  // queue runs PreEnqueueRoot (gated until the tree meets quorum).
  queue_.SetPreEnqueue([this](const QueuedUnit& u) { return !u.is_group || PreEnqueueRoot(u.index); });
  queue_.SetGangHint([](const ClusterEvent& e, const QueuedUnit& u) {
    return plugins::GangSchedulingHint(e, u.is_group ? u.index : -1);
  });
  queue_.SetPodHint([this](const ClusterEvent& e, const QueuedUnit& u, uint32_t rejectors) {
    return PodDependentHint(e, u, rejectors);
  });
  std::vector<TreeIndex> order;
  for (TreeIndex t : tree_->roots()) {
    const GroupTreeNode& node = tree_->node(t);
    order.clear();
    tree_->Preorder(t, order);
    bool any_pending = false;
    std::string unsupported;
    for (TreeIndex g : order) {
      for (PodIndex p : tree_->node(g).members) {
        if (pods_[p].node != kNoNode) continue;
        any_pending |= !gated_[p];
        // A member held for a hard constraint wasched does not model (gated_ is set for it)
        // holds its whole tree: placing the others without it could be wrong.
        if (unsupported.empty() && !pods_[p].pod->unsupported_constraints.empty()) {
          unsupported = fmt::format(
              "pod group {}: member pod {} has hard constraint(s) wasched does not model: {}",
              tree_->node(g).key, PodKey(pods_[p]),
              fmt::join(pods_[p].pod->unsupported_constraints, ", "));
        }
      }
    }
    if (!any_pending) continue;
    if (!node.problem.empty()) {
      for (TreeIndex g : order) SetTreeCondition(g, false, api::kReasonSchedulerError, node.problem);
      HoldTree(t, api::kReasonSchedulerError, node.problem);
      continue;
    }
    if (!unsupported.empty()) {
      HoldTree(t, "Unsupported", unsupported);
      continue;
    }
    queue_.Add(GroupUnit(t));
  }
  // Members of a chain that names an absent CompositePodGroup wait for it at PreEnqueue; groups
  // on (or under) a cycle are refused like any invalid hierarchy.
  for (TreeIndex t = 0; t < tree_->size(); ++t) {
    const GroupTreeNode& n = tree_->node(t);
    if (n.cyclic) SetTreeCondition(t, false, api::kReasonSchedulerError, n.problem);
    if (n.is_composite || (n.missing_parent.empty() && !n.cyclic)) continue;
    for (PodIndex p : n.members) {
      if (pods_[p].node != kNoNode || gated_[p]) continue;
      pending_reason_[p] = n.cyclic ? std::string_view(api::kReasonSchedulerError) : kHeld;
      pending_message_[p] =
          n.cyclic ? n.problem : plugins::CompositeSpecMissing(n.missing_parent).Message();
    }
  }
}

int32_t Run::TreePriority(TreeIndex t) const {
  const auto pg_count = static_cast<TreeIndex>(groups_.size());
  return t < pg_count ? groups_[t].priority : composite_priority_[t - pg_count];
}

QueuedUnit Run::GroupUnit(TreeIndex root) const {
  // A group is ordered by its own priority and creation time; input order is that of its
  // first member pod, so groups without timestamps keep the order users listed them in.
  const GroupTreeNode& node = tree_->node(root);
  const api::ObjectMeta& meta = node.is_composite ? node.composite->meta : node.pod_group->meta;
  int32_t first_order = INT32_MAX;
  if (!node.is_composite) {
    for (PodIndex p : groups_[root].members) first_order = std::min(first_order, pods_[p].input_order);
  } else {
    std::vector<TreeIndex> leaves;
    tree_->Leaves(root, leaves);
    for (TreeIndex l : leaves) {
      for (PodIndex p : tree_->node(l).members) first_order = std::min(first_order, pods_[p].input_order);
    }
  }
  return {true, root, TreePriority(root), meta.creation_timestamp.value_or(0), first_order};
}

void Run::Bind(PodIndex p) {
  if (post_filter_) post_filter_->OnBind(p);
  bound_now_[p] = true;
  call_bound_.push_back(p);
  if (bind_count_[p] < UINT8_MAX) ++bind_count_[p];
  pending_reason_.Reset(p);
  pending_message_.Reset(p);
  // The binding is an assigned-pod add for the queue (upstream: the informer's Pod/Add of an
  // assigned pod, pkg/scheduler/eventhandlers.go addPodToCache → AssignedPodAdded): the hints
  // of InterPodAffinity and PodTopologySpread may move pods they rejected (issue 19).
  const TreeIndex g = pods_[p].group;
  ClusterEvent added{EventKind::kAssignedPodAdd, g == kNoGroup ? -1 : tree_->node(g).root};
  added.pod = p;
  queue_.OnAssignedPodAdd(added);
}

void Run::RequeueLeftover(TreeIndex root, size_t placed, size_t unplaced) {
  if (unplaced == 0) return;  // done: nothing left of the unit
  if (placed == 0) {
    // Defensive: both algorithms turn a success that placed nothing into Unschedulable; a unit
    // that made no progress must not come straight back (the run would not end).
    queue_.AddUnschedulable(GroupUnit(root), GroupRejectors(root));
    return;
  }
  // Members beyond the quorum that did not fit are tried again at once, preemption included
  // (upstream AddAttemptedPodGroupIfNeeded, Success): every such retry binds a pod or fails.
  queue_.RequeueLeftover(GroupUnit(root));
}

uint32_t Run::GroupRejectors(TreeIndex root) const {
  // A group cycle does not diagnose every member: a member with required pod affinity terms or
  // DoNotSchedule spread constraints may have been rejected by those plugins (a superset of
  // upstream's UnschedulablePlugins; an extra retry changes nothing when the event did not help).
  uint32_t bits = kRejectorGang | kRejectorFilter;
  std::vector<TreeIndex> levels;
  tree_->Preorder(root, levels);
  for (TreeIndex t : levels) {
    for (PodIndex p : tree_->node(t).members) {
      if (pods_[p].node != kNoNode || gated_[p]) continue;
      const api::Pod& pod = *pods_[p].pod;
      if ((pods_[p].pod_filters & kPodAffinity) != 0 && !plugins::RequiredAffinityTerms(pod).empty()) {
        bits |= kRejectorInterPodAffinity;
      }
      if ((pods_[p].pod_filters & kSpread) != 0 && plugins::PodTopologySpread::HasHardConstraints(pod)) {
        bits |= kRejectorPodTopologySpread;
      }
    }
  }
  return bits;
}

QueueingHint Run::PodDependentHint(const ClusterEvent& event, const QueuedUnit& unit,
                                   uint32_t rejectors) {
  // Upstream asks the hint of each plugin that rejected the pod; a group unit is worth a retry
  // when the event helps one of its pending members.
  if (event.pod < 0) return QueueingHint::kQueue;
  const api::Pod& assigned = *pods_[event.pod].pod;
  auto helps = [&](PodIndex p) {
    const api::Pod& pod = *pods_[p].pod;
    return ((rejectors & kRejectorInterPodAffinity) != 0 &&
            plugins::AssignedPodMayHelp(pod, assigned)) ||
           ((rejectors & kRejectorPodTopologySpread) != 0 &&
            plugins::PodTopologySpread::AssignedPodMayHelp(pod, assigned));
  };
  if (!unit.is_group) return helps(unit.index) ? QueueingHint::kQueue : QueueingHint::kQueueSkip;
  hint_scratch_.clear();
  tree_->Preorder(unit.index, hint_scratch_);
  for (TreeIndex t : hint_scratch_) {
    for (PodIndex p : tree_->node(t).members) {
      if (pods_[p].node != kNoNode || gated_[p]) continue;
      if ((pods_[p].pod_filters & (kPodAffinity | kSpread)) != 0 && helps(p)) {
        return QueueingHint::kQueue;
      }
    }
  }
  return QueueingHint::kQueueSkip;
}

void Run::ScheduleBarePod(PodIndex p) {
  // A pod nominated by its own preemption tries that node first (upstream
  // evaluateNominatedNode), then every node.
  NodeIndex n = kNoNode;
  if (nominated_[p] != kNoNode &&
      preemption::FitsOn(*framework_, *nodes_, pods_[p], nominated_[p])) {
    n = nominated_[p];
  } else {
    n = framework_->FindNode(pods_[p]);
  }
  if (n == kNoNode) {
    // PostFilter runs when some node rejected the pod only for resources (Unschedulable, not
    // UnschedulableAndUnresolvable): its class has statically feasible nodes. The FitError
    // message (Diagnose, O(F × R)) is built only when the pod stays pending.
    std::string post;
    if (!framework_->StaticallyFeasible(pods_[p].static_class).empty() && !preemption_retry_ &&
        !WaitsForVictims(p)) {
      if (PreemptForBarePod(p, &post) && !await_deletes_) {
        queue_.ForgetInFlightEvents();  // the retry sees the victims gone
        preemption_retry_ = true;
        ScheduleBarePod(p);
        preemption_retry_ = false;
        return;
      }
    }
    std::string message = framework_->Diagnose(pods_[p]);
    if (!post.empty()) message += " " + post;
    pending_reason_[p] = "Unschedulable";
    pending_message_[p] = message;
    queue_.AddUnschedulable({false, p, pods_[p].priority, pods_[p].creation, pods_[p].input_order},
                            kRejectorFilter | framework_->PodDependentRejectors(pods_[p]));
    return;
  }
  snapshot_->Assume(p, n);
  snapshot_->Commit();
  Bind(p);
}

void Run::SetGroupCondition(GroupState& g, bool ok, const std::string& reason,
                            const std::string& message) {
  // PodGroupInitiallyScheduled is terminal once True: later failures never regress it.
  auto it = std::find_if(g.conditions.begin(), g.conditions.end(), [](const api::Condition& c) {
    return c.type == api::kPodGroupInitiallyScheduled;
  });
  if (it != g.conditions.end() && it->status == "True") return;
  api::Condition c{api::kPodGroupInitiallyScheduled, ok ? "True" : "False", reason, message,
                   g.pod_group->meta.generation, 0};
  if (it != g.conditions.end()) {
    *it = c;
  } else {
    g.conditions.push_back(c);
  }
}

void Run::SetTreeCondition(TreeIndex t, bool ok, const std::string& reason,
                           const std::string& message) {
  const auto pg_count = static_cast<TreeIndex>(groups_.size());
  if (t < pg_count) {
    SetGroupCondition(groups_[t], ok, reason, message);
    return;
  }
  // CompositePodGroupInitiallyScheduled: terminal once True, as for PodGroups.
  auto& conditions = composite_conditions_[t - pg_count];
  auto it = std::find_if(conditions.begin(), conditions.end(), [](const api::Condition& c) {
    return c.type == api::kCompositePodGroupInitiallyScheduled;
  });
  if (it != conditions.end() && it->status == "True") return;
  api::Condition c{api::kCompositePodGroupInitiallyScheduled, ok ? "True" : "False", reason,
                   message, tree_->node(t).composite->meta.generation, 0};
  if (it != conditions.end()) {
    *it = c;
  } else {
    conditions.push_back(c);
  }
}

void Run::ScheduleGroup(TreeIndex root) {
  const GroupTreeNode& root_node = tree_->node(root);
  // A standalone PodGroup without topology keeps the leaf algorithm; trees and topology
  // constraints go through the placement (tree) algorithm (spec §4.4, §5).
  const bool flat = !root_node.is_composite && root_node.topology_key.empty();
  std::vector<TreeIndex> groups;
  tree_->Preorder(root, groups);
  std::vector<PodIndex> todo;
  int32_t scheduled = 0;
  for (TreeIndex t : groups) {
    for (PodIndex p : tree_->node(t).members) {
      if (pods_[p].node != kNoNode) {
        ++scheduled;
      } else if (!gated_[p]) {
        todo.push_back(p);
      }
    }
  }
  if (todo.empty()) return;
  SortInQueueOrder(todo, pods_);

  // validatePodGroup (pkg/scheduler/schedule_one_podgroup.go, v1.37.2): every pod of the
  // hierarchy has the first pod's schedulerName and the root group's priority; gate
  // PodGroupPreemptionPolicy on, the root group's own preemptionPolicy (PreemptLowerPriority when
  // unset), gate off, the first pod's policy. Other groups of the tree are not compared with the
  // root (observed on v1.37.2: scenario p19-tree-mixed-group-policy binds). Messages as upstream's.
  const int32_t priority = TreePriority(root);
  std::string invalid;
  const bool gate = options_.pod_group_preemption_policy;
  // The root's policy as admission stored it (its own, else its PriorityClass's).
  const api::PreemptionPolicy root_policy =
      !gate ? post_filter_->PodPolicy(todo.front())
      : root_node.is_composite
          ? post_filter_->OwnGroupPolicy(root_node.composite->preemption_policy,
                                         root_node.composite->priority_class_name)
          : post_filter_->OwnGroupPolicy(root_node.pod_group->preemption_policy,
                                         root_node.pod_group->priority_class_name);
  const std::string& scheduler_name = pods_[todo.front()].pod->scheduler_name;
  for (PodIndex p : todo) {
    const PodInfo& pi = pods_[p];
    if (pi.pod->scheduler_name != scheduler_name) {
      invalid = fmt::format(
          "all pods in a single pod group should have the same .spec.schedulerName set, got: "
          "\"{}\" and \"{}\"",
          pi.pod->scheduler_name, scheduler_name);
      break;
    }
    if (pi.priority != priority) {
      invalid = fmt::format(
          "all pods in a single pod group should have the same priority as the pod group's "
          "priority, got {} and {}",
          pi.priority, priority);
      break;
    }
    const api::PreemptionPolicy own = post_filter_->PodPolicy(p);
    if (own != root_policy) {
      invalid = gate ? fmt::format(
                           "all pods in a single pod group should have the same preemption policy "
                           "as the pod group's preemption policy, got {} and {}",
                           api::PreemptionPolicyName(own), api::PreemptionPolicyName(root_policy))
                     : fmt::format(
                           "all pods in a single pod group should have the same preemption "
                           "policy, got {} and {}",
                           api::PreemptionPolicyName(own), api::PreemptionPolicyName(root_policy));
      break;
    }
  }
  if (invalid.empty() && pods_[todo.front()].pod->scheduler_name != options_.scheduler_name) {
    for (PodIndex p : todo) {
      in_scope_[p] = false;
      pending_reason_[p] = "NotHandled";
      pending_message_[p] =
          fmt::format("spec.schedulerName is \"{}\"; wasched schedules only pods of \"{}\"",
                      pods_[p].pod->scheduler_name, options_.scheduler_name);
    }
    return;
  }
  if (!invalid.empty()) {
    for (PodIndex p : todo) {
      pending_reason_[p] = api::kReasonSchedulerError;
      pending_message_[p] = invalid;
    }
    for (TreeIndex t : groups) SetTreeCondition(t, false, api::kReasonSchedulerError, invalid);
    return;
  }
  if (!flat) {
    ScheduleTree(root);
    return;
  }

  GroupState& g = groups_[root];
  // --gang-satisfaction once-scheduled: a PodGroup scheduled once places its pods one by one.
  const int32_t min_count = SatisfiedOnce(root) ? std::min(g.min_count, 1) : g.min_count;
  PodGroupAlgorithm algorithm(*framework_, *snapshot_, pods_, options_.placement);
  GroupAttempt a = algorithm.Run(todo, scheduled, min_count);
  if (a.code == Code::kSuccess) {
    snapshot_->Commit();
    for (PodIndex p : a.placed) Bind(p);
    for (PodIndex p : a.unplaced) {
      pending_reason_[p] = "Unschedulable";
      pending_message_[p] = framework_->Diagnose(pods_[p]);
    }
    SetGroupCondition(g, true, api::kReasonScheduled, "");
    RequeueLeftover(root, a.placed.size(), a.unplaced.size());
    return;
  }
  std::string post;
  if (a.code == Code::kUnschedulable && !preemption_retry_ && !GroupWaitsForVictims(todo)) {
    // PodGroupPostFilter: the simulation re-runs the same algorithm on the snapshot without the
    // candidate victims and reports its placements (reverted).
    auto simulate = [&] {
      preemption::SimulationResult r;
      const size_t mark = snapshot_->Mark();
      PodGroupAlgorithm again(*framework_, *snapshot_, pods_, options_.placement);
      GroupAttempt s = again.Run(todo, scheduled, min_count);
      if (s.code != Code::kSuccess) {
        r.status = Status(s.code, {GroupFailureMessage(
                                      s, g.key, scheduled,
                                      static_cast<int32_t>(todo.size()) + scheduled, g.min_count,
                                      g.is_gang)});
        return r;
      }
      for (PodIndex q : s.placed) r.placements.push_back({q, pods_[q].node});
      snapshot_->RevertTo(mark);
      return r;
    };
    if (PreemptForGroup(root, todo, simulate, &post) && !await_deletes_) {
      queue_.ForgetInFlightEvents();  // the retry sees the victims gone
      preemption_retry_ = true;
      ScheduleGroup(root);
      preemption_retry_ = false;
      return;
    }
  }
  // Upstream fails every pod of an unschedulable group with the group's status.
  std::string group_message = GroupFailureMessage(
      a, g.key, scheduled, static_cast<int32_t>(todo.size()) + scheduled, g.min_count, g.is_gang);
  if (!post.empty()) group_message = WithGroupPreemption(std::move(group_message), post);
  if (a.code == Code::kUnschedulable && MemberEndedAfterScheduled(root)) {
    group_message = HeldByEndedMember(group_message);
  }
  for (PodIndex p : todo) {
    pending_reason_[p] = "Unschedulable";
    pending_message_[p] = group_message;
  }
  SetGroupCondition(g, false, api::kReasonUnschedulable, group_message);
  queue_.AddUnschedulable(GroupUnit(root), GroupRejectors(root));
}

void Run::ScheduleTree(TreeIndex root) {
  TreeAttempt a = tree_algorithm_->Run(root);
  std::string post;  // the group PostFilter's message, when it ran and evicted nothing
  if (a.code == Code::kUnschedulable && !preemption_retry_) {
    std::vector<TreeIndex> levels;
    tree_->Preorder(root, levels);
    std::vector<PodIndex> todo;
    for (TreeIndex t : levels) {
      for (PodIndex p : tree_->node(t).members) {
        if (pods_[p].node == kNoNode && !gated_[p]) todo.push_back(p);
      }
    }
    const bool waits = GroupWaitsForVictims(todo);  // kAwaitDelete: no second preemption
    auto simulate = [&] {
      preemption::SimulationResult r;
      const size_t mark = snapshot_->Mark();
      TreeAttempt s = tree_algorithm_->Run(root);
      if (s.code != Code::kSuccess) {
        r.status = Status(s.code, {s.message});
        return r;
      }
      for (PodIndex q : s.placed) r.placements.push_back({q, pods_[q].node});
      snapshot_->RevertTo(mark);
      return r;
    };
    const bool evicted = !waits && PreemptForGroup(root, todo, simulate, &post);
    if (evicted && !await_deletes_) {
      queue_.ForgetInFlightEvents();  // the retry sees the victims gone
      preemption_retry_ = true;
      ScheduleTree(root);
      preemption_retry_ = false;
      return;
    }
    if (evicted) {
      a = tree_algorithm_->Run(root);  // the victims still hold their nodes: the outcomes again
    } else if (!post.empty()) {
      a = tree_algorithm_->Run(root);  // the simulation replaced the outcomes: run once more
      a.message = WithGroupPreemption(std::move(a.message), post);
    }
  }
  if (a.code == Code::kSuccess) {
    snapshot_->Commit();
    for (PodIndex p : a.placed) Bind(p);
    // Every level gets its own condition; a sub-group that failed (its parent still reached
    // minGroupCount) stays pending with its own message.
    for (TreeIndex t : a.groups) {
      const TreeNodeOutcome& o = tree_algorithm_->Outcome(t);
      if (o.code == Code::kSuccess) {
        SetTreeCondition(t, true, api::kReasonScheduled, "");
      } else {
        SetTreeCondition(t, false, api::kReasonUnschedulable, o.message);
      }
    }
    std::vector<NodeIndex> placement_nodes;
    std::string placement;
    TreeIndex placement_leaf = kNoTreeNode;  // the leaf placement_nodes were computed for
    bool has_placement = false;
    for (PodIndex p : a.unplaced) {
      const TreeIndex leaf = tree_->LeafOf(pods_[p].group);
      const TreeNodeOutcome& o = tree_algorithm_->Outcome(leaf);
      pending_reason_[p] = "Unschedulable";
      if (o.code != Code::kSuccess) {
        pending_message_[p] = o.message;
        continue;
      }
      // A pod of a group pinned to a topology placement: the FitError counts every node, those
      // outside the chosen domain(s) with their own reason (upstream's FitError is "0/N").
      if (leaf != placement_leaf) {  // once per leaf: O(N × levels)
        placement_leaf = leaf;
        has_placement = tree_algorithm_->PlacementOf(leaf, placement_nodes, placement);
        if (has_placement) {
          placement = fmt::format("node(s) didn't match the pod group's topology placement ({})",
                                  placement);
        }
      }
      if (has_placement) {
        ScopedRestriction restrict(*framework_, placement_nodes, false);
        pending_message_[p] = framework_->Diagnose(pods_[p], nullptr, placement);
      } else {
        pending_message_[p] = framework_->Diagnose(pods_[p]);
      }
    }
    RequeueLeftover(root, a.placed.size(), a.unplaced.size());
    return;
  }
  // Upstream fails every pod of the hierarchy with the root's status; each level's condition
  // carries its own reason where it has one.
  for (TreeIndex t : a.groups) {
    const TreeNodeOutcome& o = tree_algorithm_->Outcome(t);
    const bool own = t != root && o.code != Code::kSuccess && o.code != Code::kSkip &&
                     !o.message.empty();
    SetTreeCondition(t, false, api::kReasonUnschedulable, own ? o.message : a.message);
  }
  // A retry of the members left after the tree was scheduled (RequeueLeftover) that placed
  // nothing: each pod keeps the reason its last cycle diagnosed at its own level (the FitError
  // over every node, a sub-group's quorum), with this attempt's PostFilter message, rather than
  // the root's bare "no pods were schedulable".
  const bool leftover_retry = TreeInitiallyScheduled(root);
  for (TreeIndex t : a.groups) {
    for (PodIndex p : tree_->node(t).members) {
      if (pods_[p].node != kNoNode || gated_[p]) continue;
      pending_reason_[p] = "Unschedulable";
      std::string& message = pending_message_[p];
      if (!leftover_retry || message.empty()) {
        message = a.message;
        continue;
      }
      const size_t cut = message.find(std::string(". ") + preemption::kPodGroupPreemptionPrefix);
      if (cut != std::string::npos) message.resize(cut + 1);
      if (!post.empty()) message = WithGroupPreemption(std::move(message), post);
    }
  }
  queue_.AddUnschedulable(GroupUnit(root), GroupRejectors(root));
}

bool Run::SatisfiedOnce(TreeIndex t) const {
  return options_.gang_satisfaction == GangSatisfaction::kOnceScheduled &&
         !tree_->node(t).is_composite && TreeInitiallyScheduled(t);
}

bool Run::MemberEndedAfterScheduled(TreeIndex t) const {
  if (options_.gang_satisfaction != GangSatisfaction::kUpstream || tree_->node(t).is_composite ||
      !TreeInitiallyScheduled(t)) {
    return false;
  }
  if (ended_members_[static_cast<size_t>(t)] > 0) return true;
  const std::vector<PodIndex>& members = tree_->node(t).members;
  return std::any_of(members.begin(), members.end(), [&](PodIndex p) { return evicted_[p]; });
}

bool Run::TreeInitiallyScheduled(TreeIndex t) const {
  const auto pg_count = static_cast<TreeIndex>(groups_.size());
  const bool composite = t >= pg_count;
  const std::vector<api::Condition>& conditions =
      composite ? composite_conditions_[t - pg_count] : groups_[t].conditions;
  const std::string_view type =
      composite ? api::kCompositePodGroupInitiallyScheduled : api::kPodGroupInitiallyScheduled;
  return std::any_of(conditions.begin(), conditions.end(), [&](const api::Condition& c) {
    return c.type == type && c.status == "True";
  });
}

bool Run::PreemptForBarePod(PodIndex p, std::string* message) {
  preemption::Outcome o = post_filter_->PreemptForPod(p);
  if (!o.status.IsSuccess() || o.victims.empty()) {
    *message = o.status.Message();
    return false;
  }
  const PodInfo& pi = pods_[p];
  preemption::Preemptor who{"Pod " + PodKey(pi), pi.priority, post_filter_->PodPolicy(p), {p}, {}, false};
  ApplyEvictions(o, who);
  nominated_[p] = o.nominations.front().node;
  return true;
}

bool Run::PreemptForGroup(TreeIndex root, const std::vector<PodIndex>& todo,
                          const preemption::GroupSchedulingFn& simulate, std::string* message) {
  const GroupTreeNode& node = tree_->node(root);
  const auto& policy = node.is_composite ? node.composite->preemption_policy
                                         : node.pod_group->preemption_policy;
  const std::string& class_name = node.is_composite ? node.composite->priority_class_name
                                                    : node.pod_group->priority_class_name;
  preemption::Preemptor who;
  who.label = std::string(node.is_composite ? "CompositePodGroup " : "PodGroup ") + node.key;
  who.priority = TreePriority(root);
  who.policy = post_filter_->GroupPolicy(policy, class_name, todo);
  who.pods = todo;
  preemption::Outcome o = post_filter_->PreemptForGroup(who, simulate);
  if (!o.status.IsSuccess() || o.victims.empty()) {
    *message = o.status.Message();
    return false;
  }
  ApplyEvictions(o, who);
  for (const preemption::Placement& pl : o.nominations) nominated_[pl.pod] = pl.node;
  return true;
}

void Run::MarkDisrupted(TreeIndex t) { disrupted_group_[t] = true; }

void Run::ApplyEvictions(const preemption::Outcome& outcome, const preemption::Preemptor& who) {
  std::vector<NodeIndex> victim_nodes;
  if (await_deletes_) {
    for (PodIndex q : outcome.victims) victim_nodes.push_back(pods_[q].node);
  }
  preemption::Evicted ev = post_filter_->Evict(outcome, who);
  for (size_t i = 0; i < victim_nodes.size(); ++i) {
    // The caller deletes the victim (kAwaitDelete): until its Delete it keeps its node (Evict
    // released it: put back), is never a victim again (Evict took it off the pods per node) nor
    // scheduled (gated).
    const PodIndex q = outcome.victims[i];
    if (victim_nodes[i] != kNoNode && pods_[q].node == kNoNode) snapshot_->Restore(q, victim_nodes[i]);
    if (!terminating_[q]) {
      terminating_[q] = true;
      ++terminating_count_;
    }
    gated_[q] = true;
    pending_reason_.Reset(q);
    pending_message_.Reset(q);
    call_evicted_.push_back(q);
    for (TreeIndex t = pods_[q].group; t >= 0; t = tree_->node(t).parent) MarkDisrupted(t);
  }
  for (PodIndex q : outcome.victims) {
    if (await_deletes_) break;
    evicted_[q] = true;
    // Actuation deletes the victim (spec §6.3 step 5): a deleted pod is never scheduled again,
    // so it leaves every later cycle like a held pod (group todo lists, PreEnqueue member
    // counts, the tree algorithm, which reads gated_).
    gated_[q] = true;
    bound_now_[q] = false;
    pending_reason_.Reset(q);
    pending_message_.Reset(q);
    // The victim's own PodGroup and every ancestor up to the unit's group lost a pod.
    for (TreeIndex t = pods_[q].group; t >= 0; t = tree_->node(t).parent) MarkDisrupted(t);
  }
  for (int32_t g : ev.groups) MarkDisrupted(g);
  for (Eviction& e : ev.evictions) evictions_.push_back(std::move(e));
  if (!await_deletes_) queue_.OnEvent(ClusterEvent{EventKind::kAssignedPodDelete});
}

void Run::Verify() const {
  std::vector<char> once(static_cast<size_t>(tree_->size()), 0);
  // A group the caller took a placed member from (a failed binding, a deletion) is no longer as
  // this engine decided it: its atomicity is skipped, as a group satisfied once.
  for (TreeIndex t = 0; t < tree_->size(); ++t) {
    once[static_cast<size_t>(t)] = SatisfiedOnce(t) || lost_member_[static_cast<size_t>(t)] != 0 ? 1 : 0;
  }
  const verify::RunView view{*nodes_,   resources_, pods_,       *tree_,
                             bound_now_, evicted_,   bind_count_, overcommitted_at_input_,
                             once};
  std::vector<std::string> violations;
  if (terminating_count_ == 0) {
    verify::CheckRun(view, violations);
  } else {
    // Victims whose deletion the caller has not reported yet still hold their nodes: a whole
    // `all` unit is gone only once every Delete arrived, so gang atomicity waits for that.
    verify::CheckUsage(view, violations);
    verify::CheckNoOvercommit(view, violations);
    verify::CheckBindings(view, violations);
    verify::CheckTopology(view, violations);
  }
  for (const verify::DomainSumsView& sums : tree_algorithm_->CachedDomainSums()) {
    verify::CheckDomainSums(*nodes_, sums, violations);
  }
  if (dra_) {
    if (!dra_->Verify()) {
      violations.push_back("dra: incremental free device counts differ from recomputation");
    }
    std::vector<verify::DeviceUse> uses;
    for (const ClaimAllocation& a : dra_->Allocations()) {
      for (const auto& d : a.devices) uses.push_back({a.claim, d.driver + "/" + d.pool + "/" + d.device});
    }
    for (const api::ResourceClaim& c : objects_.resource_claims) {
      if (!c.allocation) continue;
      for (const auto& d : *c.allocation) {
        uses.push_back({api::NamespacedName(c.meta), d.driver + "/" + d.pool + "/" + d.device});
      }
    }
    verify::CheckDevices(std::move(uses), violations);
  }
  if (violations.empty()) return;
  if (options_.verify_violations != nullptr) {
    for (const std::string& v : violations) {
      options_.verify_violations->push_back(fmt::format("cycle {}: {}", cycle_, v));
    }
    return;
  }
  for (const std::string& v : violations) {
    std::fprintf(stderr, "wasched verify: cycle %lld: %s\n", static_cast<long long>(cycle_), v.c_str());
  }
  std::abort();
}

ScheduleResult Run::Execute() {
  Start();
  RunCycles();
  return Assemble(true);
}

void Run::Start() {
  BuildCache();
  BuildGroups();
  Enqueue();
}

void Run::RunCycles() {
  // Units that failed are parked in the unschedulable pool; an event whose hint says kQueue
  // (a binding matching a pod affinity term or spread selector, an eviction) moves one to
  // backoff. When the active queue drains, a run on its own clock steps the clock to the
  // earliest backoff expiry, as upstream pops the backoff queue when active is empty
  // (SchedulerPopFromBackoffQ, beta and on in v1.37; pkg/scheduler/backend/queue/
  // scheduling_queue.go Pop) or waits the backoff out. Every move to backoff needs an event
  // after the unit's last failure, and a static input has finitely many (each pod binds or is
  // evicted at most once), so the run ends; a unit nothing helps stays pending. A caller's clock
  // (the simulator) is never stepped: it moves time itself.
  for (;;) {
    while (auto unit = queue_.Pop()) {
      if (!unit->is_group && dead_[static_cast<size_t>(unit->index)]) {  // deleted while queued
        queue_.Done(*unit);
        continue;
      }
      if (unit->is_group) {
        ScheduleGroup(unit->index);
      } else {
        ScheduleBarePod(unit->index);
      }
      // A unit that did not go back to the queue is done (bound).
      if (queue_.StateOf(*unit) == UnitQueueState::kInFlight) queue_.Done(*unit);
      ++cycle_;
      if (options_.verify) Verify();
    }
    const std::optional<Duration> next = queue_.NextBackoffExpiry();
    if (options_.clock != nullptr || !next) break;
    fixed_clock_.SetTime(*next);
  }
}

bool Run::WaitsForVictims(PodIndex p) const {
  const NodeIndex n = nominated_[p];
  if (terminating_count_ == 0 || n == kNoNode) return false;
  for (PodIndex q : snapshot_->PodsOn(n)) {
    if (terminating_[q]) return true;
  }
  return false;
}

bool Run::GroupWaitsForVictims(const std::vector<PodIndex>& todo) const {
  if (terminating_count_ == 0) return false;
  return std::any_of(todo.begin(), todo.end(), [&](PodIndex p) { return WaitsForVictims(p); });
}

QueuedUnit Run::UnitOf(PodIndex p) const {
  const PodInfo& pi = pods_[p];
  if (pi.group == kNoGroup) return {false, p, pi.priority, pi.creation, pi.input_order};
  return GroupUnit(tree_->node(pi.group).root);
}

void Run::MarkLostMember(PodIndex p) {
  for (TreeIndex t = pods_[p].group; t >= 0; t = tree_->node(t).parent) lost_member_[t] = 1;
}

void Run::ForgetBinding(PodIndex p) {
  PodInfo& pi = pods_[p];
  if (pi.node == kNoNode || dead_[p] || terminating_[p]) return;
  const NodeIndex n = pi.node;
  post_filter_->OnRemove(p);
  snapshot_->Remove(p);
  bound_now_[p] = false;
  if (bind_count_[p] > 0) --bind_count_[p];  // the binding did not happen
  if (pi.running_at_input) {  // assumed before a rebuild: pending again, classified as such
    pi.running_at_input = false;
    Classify(p);
  }
  MarkLostMember(p);
  // Upstream handleBindingCycleError: ForgetPod, an AssignedPodDelete for the others, and the pod
  // back to the queue with no rejector plugin: backoff.
  ClusterEvent deleted{EventKind::kAssignedPodDelete};
  deleted.pod = p;
  queue_.OnEvent(deleted);
  pending_reason_[p] = api::kReasonSchedulerError;
  pending_message_[p] = fmt::format("binding rejected: the pod's binding to node {} failed; retried after backoff",
                                    nodes_->node(n).meta.name);
  queue_.AddUnschedulable(UnitOf(p), kRejectorError);
}

void Run::DeletePod(PodIndex p) {
  if (dead_[p]) return;
  PodInfo& pi = pods_[p];
  const bool placed = pi.node != kNoNode;
  if (terminating_[p]) {
    // A victim's deletion: it was taken off the pods per node when it was chosen.
    terminating_[p] = false;
    --terminating_count_;
    evicted_[p] = true;
  } else if (placed) {
    post_filter_->OnRemove(p);
    MarkLostMember(p);
  }
  if (placed) snapshot_->Remove(p);
  dead_[p] = true;
  gated_[p] = true;
  in_scope_[p] = false;
  bound_now_[p] = false;
  nominated_[p] = kNoNode;
  pending_reason_.Reset(p);
  pending_message_.Reset(p);
  if (placed) {
    ClusterEvent deleted{EventKind::kAssignedPodDelete};
    deleted.pod = p;
    queue_.OnEvent(deleted);
  }
}

void Run::MarkTerminating(PodIndex p) {
  if (terminating_[p] || dead_[p] || pods_[p].node == kNoNode) return;
  post_filter_->OnRemove(p);
  terminating_[p] = true;
  ++terminating_count_;
  gated_[p] = true;
}

bool Run::AddPod(const api::Pod& pod, int32_t input_order) {
  if (dra_ || !pod.node_name.empty() || pod.phase == "Succeeded" || pod.phase == "Failed" ||
      !pod.resource_claims.empty() || !pod.scheduling_gates.empty() ||
      !pod.unsupported_constraints.empty()) {
    return false;
  }
  TreeIndex leaf = kNoTreeNode;
  if (pod.pod_group_name) {
    leaf = tree_->FindPodGroup(pod.meta.namespace_, *pod.pod_group_name);
    if (leaf != kNoTreeNode) {
      const GroupTreeNode& n = tree_->node(leaf);
      if (n.is_composite || n.root < 0 || !tree_->node(n.root).problem.empty()) return false;
    }
  }
  const size_t resources = resources_.size();
  PodInfo pi;
  pi.pod = &pod;
  pi.template_id = templates_.Intern(pod);
  if (resources_.size() != resources) return false;  // the node table would need a new column
  const PodTemplate& t = templates_[pi.template_id];
  pi.requests = t.requests;
  pi.request_cpu = t.request_cpu;
  pi.request_memory = t.request_memory;
  pi.nonzero_cpu = t.nonzero_cpu;
  pi.nonzero_memory = t.nonzero_memory;
  pi.pod_filters = t.pod_filters;
  pi.priority = priorities_->Resolve(pod.priority, pod.priority_class_name);
  pi.creation = pod.meta.creation_timestamp.value_or(0);
  pi.start = PodStartTime(
      pod, options_.clock != nullptr
               ? std::chrono::duration_cast<std::chrono::seconds>(options_.clock->Now()).count()
               : kStartedLast);
  pi.input_order = input_order;
  const auto p = static_cast<PodIndex>(pods_.size());
  pods_.push_back(pi);
  bound_now_.push_back(false);
  bind_count_.push_back(0);
  in_scope_.push_back(true);
  gated_.push_back(false);
  evicted_.push_back(false);
  nominated_.push_back(kNoNode);
  terminating_.push_back(false);
  dead_.push_back(false);
  Classify(p);
  if (!pod.pod_group_name) {
    if (pod.scheduler_name != options_.scheduler_name) {
      in_scope_[p] = false;
      pending_reason_[p] = "NotHandled";
      pending_message_[p] = fmt::format(
          "spec.schedulerName is \"{}\"; wasched schedules only pods of \"{}\"",
          pod.scheduler_name, options_.scheduler_name);
      return true;
    }
    queue_.Add({false, p, pods_[p].priority, pods_[p].creation, pods_[p].input_order});
    return true;
  }
  if (leaf == kNoTreeNode) {  // PreEnqueue holds it until its PodGroup appears (a rebuild)
    pending_reason_[p] = kHeld;
    pending_message_[p] = plugins::PreEnqueue(false, *pod.pod_group_name, false, 0, 0).Message();
    in_scope_[p] = false;
    return true;
  }
  pods_[p].group = leaf;
  groups_[leaf].members.push_back(p);
  tree_->AddMember(leaf, p);
  post_filter_->OnAddMember(leaf, p);
  const TreeIndex root = tree_->node(leaf).root;
  const QueuedUnit unit = GroupUnit(root);
  if (queue_.StateOf(unit) == UnitQueueState::kAbsent) {
    queue_.Add(unit);
  } else {
    queue_.OnEvent(ClusterEvent{EventKind::kUnscheduledPodAdd, root});
  }
  return true;
}

// LostKey: a tree node's key in ExportState's `lost` set (kinds may share names).
std::string LostKey(const GroupTreeNode& n) { return (n.is_composite ? "C " : "P ") + n.key; }

void Run::MarkLost(const std::set<std::string>& lost) {
  if (lost.empty()) return;
  for (TreeIndex t = 0; t < tree_->size(); ++t) {
    if (lost.count(LostKey(tree_->node(t))) != 0) lost_member_[static_cast<size_t>(t)] = 1;
  }
}

void Run::ExportState(api::ObjectSet& store, std::set<std::string>& lost) const {
  for (TreeIndex t = 0; t < tree_->size(); ++t) {
    if (lost_member_[static_cast<size_t>(t)] != 0) lost.insert(LostKey(tree_->node(t)));
  }
  for (const PodInfo& pi : pods_) {
    if (pi.node == kNoNode || pi.running_at_input) continue;
    store.pods[static_cast<size_t>(pi.input_order)].node_name = nodes_->node(pi.node).meta.name;
  }
  for (size_t g = 0; g < groups_.size(); ++g) store.pod_groups[g].conditions = groups_[g].conditions;
  for (size_t c = 0; c < composite_conditions_.size(); ++c) {
    store.composite_pod_groups[c].conditions = composite_conditions_[c];
  }
}

std::string_view Run::LeftoverRetryNote(PodIndex p) const {
  const TreeIndex leaf = pods_[p].group;
  if (leaf == kNoGroup || pending_reason_.Get(p) != "Unschedulable") return {};
  // A quorum hold of a gang that lost a member (HeldByEndedMember) already says what it waits for.
  if (pending_message_.Get(p).rfind("held: ", 0) == 0) return {};
  const TreeIndex root = tree_->node(leaf).root;
  if (root < 0 || !TreeInitiallyScheduled(root)) return {};
  switch (queue_.StateOf(QueuedUnit{true, root})) {
    case UnitQueueState::kUnschedulable:
      return "No retry pending: the group is scheduled and these members wait for a cluster "
             "event that may help (upstream also retries them after backoff, with the same "
             "result while nothing changes).";
    case UnitQueueState::kBackoff:
      return "Retry pending: after backoff.";
    case UnitQueueState::kActive:
      return "Retry pending.";
    case UnitQueueState::kGated:
      return "No retry pending: held at PreEnqueue.";
    default:
      return {};
  }
}

std::optional<TopologyDomain> Run::DomainOf(TreeIndex t) {
  const std::string& key = tree_->node(t).topology_key;
  std::vector<TreeIndex>& leaves = domain_scratch_;
  leaves.clear();
  tree_->Leaves(t, leaves);
  const std::string* value = nullptr;  // the first placed pod's node's value
  NodeIndex last = kNoNode;            // members often share a node: its label is read once
  for (TreeIndex leaf : leaves) {
    for (PodIndex p : tree_->node(leaf).members) {
      const NodeIndex n = pods_[p].node;
      if (n == kNoNode || evicted_[p] || n == last) continue;
      last = n;
      const auto& labels = nodes_->node(n).meta.labels;
      auto it = labels.find(key);
      if (it == labels.end() || (value != nullptr && *value != it->second)) return std::nullopt;
      value = &it->second;
    }
  }
  if (value == nullptr) return std::nullopt;
  return TopologyDomain{key, *value};
}

ScheduleResult Run::Assemble(bool final) {
  ScheduleResult r;
  // Bindings and pending pods by pod key (keys are unique): the indices are ordered with mostly
  // integer compares (util/key_order.h), then each entry is built once, in place.
  std::vector<int32_t> bound, pending;
  if (!final) {
    for (PodIndex p : call_bound_) {
      // A pod bound and then chosen as a victim in the same call is reported as evicted only.
      if (bound_now_[p] && !dead_[p] && !terminating_[p] && pods_[p].node != kNoNode) bound.push_back(p);
    }
    std::sort(bound.begin(), bound.end());
    bound.erase(std::unique(bound.begin(), bound.end()), bound.end());
  }
  for (size_t p = 0; p < pods_.size(); ++p) {
    const PodInfo& pi = pods_[p];
    if (bound_now_[p]) {
      if (final) bound.push_back(static_cast<int32_t>(p));
    } else if (pi.node == kNoNode && !pi.running_at_input && !evicted_[p] && !dead_[p]) {
      pending.push_back(static_cast<int32_t>(p));
    }
  }
  // Each key is built once and moved into its entry. When every pod shares one namespace (the
  // usual case) "ns/name" orders as the name does: the names are ordered in place and each key
  // is built straight into its entry (`keys` stays empty).
  auto ordered = [&](const std::vector<int32_t>& which, std::vector<std::string>& keys) {
    keys.clear();
    std::vector<int32_t> order(which.size());
    for (size_t i = 0; i < which.size(); ++i) order[i] = static_cast<int32_t>(i);
    const bool one_namespace =
        which.empty() || std::all_of(which.begin(), which.end(), [&](int32_t p) {
          return pods_[p].pod->meta.namespace_ == pods_[which.front()].pod->meta.namespace_;
        });
    if (one_namespace) {
      OrderByKey(order, [&](int32_t i) { return std::string_view(pods_[which[i]].pod->meta.name); });
      return order;
    }
    keys.resize(which.size());
    for (size_t i = 0; i < which.size(); ++i) keys[i] = PodKey(pods_[which[i]]);
    OrderByKey(order, [&](int32_t i) { return std::string_view(keys[i]); });
    return order;
  };
  auto key_of = [&](std::vector<std::string>& keys, const std::vector<int32_t>& which, int32_t i) {
    return keys.empty() ? PodKey(pods_[which[i]]) : std::move(keys[i]);
  };
  std::vector<std::string> keys;
  const std::vector<int32_t> bound_order = ordered(bound, keys);
  r.bindings.reserve(bound.size());
  for (int32_t i : bound_order) {
    r.bindings.push_back({key_of(keys, bound, i), nodes_->node(pods_[bound[i]].node).meta.name});
  }
  const std::vector<int32_t> pending_order = ordered(pending, keys);
  r.pending.reserve(pending.size());
  for (int32_t i : pending_order) {
    const int32_t p = pending[i];
    std::string message = pending_message_.Get(p);
    const std::string_view retry = LeftoverRetryNote(p);
    if (!retry.empty()) {
      if (!message.empty() && message.back() != '.') message += '.';
      message += ' ';
      message += retry;
    }
    if (pending_reason_.Get(p) == kHeld) {
      r.pending.push_back({key_of(keys, pending, i), {}, {}, std::move(message)});
      continue;
    }
    r.pending.push_back({key_of(keys, pending, i),
                         std::string(pending_reason_.Get(p).empty() ? "Unschedulable" : pending_reason_.Get(p)),
                         std::move(message), {}});
  }
  // Evictions by pod (a pod is evicted at most once; ties would keep eviction order).
  std::vector<int32_t> eviction_order(evictions_.size());
  for (size_t i = 0; i < eviction_order.size(); ++i) eviction_order[i] = static_cast<int32_t>(i);
  OrderByKey(eviction_order, [&](int32_t i) { return std::string_view(evictions_[i].pod); });
  r.evictions.reserve(evictions_.size());
  for (int32_t i : eviction_order) r.evictions.push_back(evictions_[i]);
  // Every level of every tree (and every standalone PodGroup) is one GroupResult. A
  // CompositePodGroup's `scheduled` counts children that meet their own quorum (a PodGroup with
  // ≥ minCount members placed, a CompositePodGroup with ≥ minGroupCount such children); the
  // depth guard keeps a cyclic chain finite (nothing on a cycle counts).
  std::function<bool(TreeIndex, int)> satisfied = [&](TreeIndex t, int depth) -> bool {
    const GroupTreeNode& n = tree_->node(t);
    if (depth > api::kWorkloadMaxTreeDepth + 1 || n.cyclic) return false;
    int32_t count = 0;
    if (n.is_composite) {
      for (TreeIndex c : n.children) count += satisfied(c, depth + 1) ? 1 : 0;
    } else {
      for (PodIndex p : n.members) count += pods_[p].node != kNoNode ? 1 : 0;
    }
    return count >= n.quorum;
  };
  const auto pg_count = static_cast<TreeIndex>(groups_.size());
  // Groups by kind ("CompositePodGroup" before "PodGroup"), then name (unique per kind).
  std::vector<int32_t> composites, pod_groups;
  for (TreeIndex t = 0; t < tree_->size(); ++t) (tree_->node(t).is_composite ? composites : pod_groups).push_back(t);
  auto group_key = [&](int32_t t) { return std::string_view(tree_->node(t).key); };
  OrderByKey(composites, group_key);
  OrderByKey(pod_groups, group_key);
  composites.insert(composites.end(), pod_groups.begin(), pod_groups.end());
  r.groups.reserve(composites.size());
  for (TreeIndex t : composites) {
    const GroupTreeNode& n = tree_->node(t);
    GroupResult gr;
    gr.kind = n.is_composite ? "CompositePodGroup" : "PodGroup";
    gr.name = n.key;
    const api::ObjectMeta& meta = n.is_composite ? n.composite->meta : n.pod_group->meta;
    const auto& parent = n.is_composite ? n.composite->parent_composite_pod_group_name
                                        : n.pod_group->parent_composite_pod_group_name;
    if (parent) gr.parent = meta.namespace_ + "/" + *parent;
    if (n.is_composite) {
      for (TreeIndex c : n.children) gr.scheduled += !n.cyclic && satisfied(c, 2) ? 1 : 0;
      gr.min_group_count = n.quorum;
      // The subtree's decision is the outcome; the status keeps only what the input carried.
      gr.conditions = n.composite->conditions;
      for (api::Condition& c : composite_conditions_[t - pg_count]) {
        if (c.type != api::kCompositePodGroupInitiallyScheduled) continue;
        if (final) {
          gr.outcome = std::move(c);
        } else {
          gr.outcome = c;
        }
      }
      gr.conditions.erase(std::remove_if(gr.conditions.begin(), gr.conditions.end(),
                                         [](const api::Condition& c) {
                                           return c.type == api::kCompositePodGroupInitiallyScheduled;
                                         }),
                          gr.conditions.end());
    } else {
      for (PodIndex p : groups_[t].members) gr.scheduled += pods_[p].node != kNoNode ? 1 : 0;
      gr.min_count = groups_[t].min_count;
      gr.policy = groups_[t].is_gang ? "gang" : "basic";
      if (final) {
        gr.conditions = std::move(groups_[t].conditions);
      } else {
        gr.conditions = groups_[t].conditions;
      }
    }
    gr.disrupted = disrupted_group_[t];
    if (!n.topology_key.empty() && !n.cyclic && satisfied(t, 1)) gr.placement = DomainOf(t);
    r.groups.push_back(std::move(gr));
  }
  if (dra_) r.allocations = dra_->Allocations();
  return r;
}

// ObjectsOf: the store's vector of T's. ObjectKey: "ns/name" (cluster-scoped: "name").
template <typename T>
std::vector<T>& ObjectsOf(api::ObjectSet& s);
template <> std::vector<api::Node>& ObjectsOf<api::Node>(api::ObjectSet& s) { return s.nodes; }
template <> std::vector<api::Pod>& ObjectsOf<api::Pod>(api::ObjectSet& s) { return s.pods; }
template <> std::vector<api::PriorityClass>& ObjectsOf<api::PriorityClass>(api::ObjectSet& s) { return s.priority_classes; }
template <> std::vector<api::Workload>& ObjectsOf<api::Workload>(api::ObjectSet& s) { return s.workloads; }
template <> std::vector<api::PodGroup>& ObjectsOf<api::PodGroup>(api::ObjectSet& s) { return s.pod_groups; }
template <> std::vector<api::CompositePodGroup>& ObjectsOf<api::CompositePodGroup>(api::ObjectSet& s) { return s.composite_pod_groups; }
template <> std::vector<api::PodDisruptionBudget>& ObjectsOf<api::PodDisruptionBudget>(api::ObjectSet& s) { return s.pod_disruption_budgets; }
template <> std::vector<api::DeviceClass>& ObjectsOf<api::DeviceClass>(api::ObjectSet& s) { return s.device_classes; }
template <> std::vector<api::ResourceSlice>& ObjectsOf<api::ResourceSlice>(api::ObjectSet& s) { return s.resource_slices; }
template <> std::vector<api::ResourceClaim>& ObjectsOf<api::ResourceClaim>(api::ObjectSet& s) { return s.resource_claims; }
template <> std::vector<api::ResourceClaimTemplate>& ObjectsOf<api::ResourceClaimTemplate>(api::ObjectSet& s) { return s.resource_claim_templates; }

bool SameName(const api::ObjectMeta& m, std::string_view ns, std::string_view name) {
  return m.name == name && m.namespace_ == ns;
}

template <typename T>
int64_t FindObject(const std::vector<T>& v, std::string_view ns, std::string_view name) {
  for (size_t i = 0; i < v.size(); ++i) {
    if (SameName(v[i].meta, ns, name)) return static_cast<int64_t>(i);
  }
  return -1;
}

}  // namespace

// Scheduler::Impl: the store (the cache of objects as the events delivered them) and the engine
// built over it. While `run` is alive the store's vectors never reallocate (the engine points
// into them): a deleted pod is a tombstone (`store_dead`), and every event that would change a
// vector first exports the engine's decisions into the store and drops the engine (Invalidate).
struct Scheduler::Impl {
  explicit Impl(SchedulerOptions o) : options(std::move(o)) {}

  SchedulerOptions options;
  api::ObjectSet store;
  const api::ObjectSet* borrowed = nullptr;  // Schedule's input (one shot), else nullptr
  std::unique_ptr<Run> run;
  // added: pods added while `run` is alive (AddPod): a deque keeps their addresses; pod slot
  // store.pods.size() + k is added[k]; a rebuild appends them to store.pods.
  std::deque<api::Pod> added;
  std::vector<char> store_dead;  // per pod slot while `run` is alive: deleted
  size_t dead_count = 0;
  // pod_slot: "ns/name" → store index, built on first lookup, dropped when store.pods changes.
  std::unordered_map<std::string, int32_t> pod_slot;
  bool pod_slot_valid = false;
  std::vector<PodIndex> pod_index;  // store index → the engine's PodIndex (-1: not in it)
  std::map<std::string, std::string, std::less<>> terminating;  // victims awaiting Delete → node
  std::set<std::string> lost_groups;  // groups the caller took a placed member from (verify)

  api::Pod& PodAt(int32_t slot) {
    const auto i = static_cast<size_t>(slot);
    return i < store.pods.size() ? store.pods[i] : added[i - store.pods.size()];
  }
  size_t PodSlots() const { return store.pods.size() + added.size(); }

  void Invalidate() {
    if (!run) return;
    // The engine is dropped: its pointers into the store may dangle from here on.
    for (api::Pod& pod : added) store.pods.push_back(std::move(pod));
    added.clear();
    run->ExportState(store, lost_groups);
    run.reset();
    pod_index.clear();
  }

  // Compact: drops the tombstones. REQUIRES: no engine (it points into the store). O(P).
  void Compact() {
    if (dead_count > 0) {
      size_t out = 0;
      for (size_t i = 0; i < store.pods.size(); ++i) {
        if (store_dead[i] != 0) continue;
        if (out != i) store.pods[out] = std::move(store.pods[i]);
        ++out;
      }
      store.pods.resize(out);
      pod_slot_valid = false;
    }
    store_dead.assign(store.pods.size(), 0);
    dead_count = 0;
  }

  int32_t FindPod(std::string_view ns, std::string_view name) {
    if (!pod_slot_valid) {
      pod_slot.clear();
      for (size_t i = 0; i < PodSlots(); ++i) {
        if (i < store_dead.size() && store_dead[i] != 0) continue;
        pod_slot[api::NamespacedName(PodAt(static_cast<int32_t>(i)).meta)] = static_cast<int32_t>(i);
      }
      pod_slot_valid = true;
    }
    std::string key = ns.empty() ? std::string(name) : std::string(ns) + "/" + std::string(name);
    auto it = pod_slot.find(key);
    return it == pod_slot.end() ? -1 : it->second;
  }

  // EnginePod: the engine's index of store pod `slot` (-1 without an engine or for an ended pod).
  PodIndex EnginePod(int32_t slot) const {
    if (!run || slot < 0 || static_cast<size_t>(slot) >= pod_index.size()) return -1;
    return pod_index[static_cast<size_t>(slot)];
  }

  void AddPod(api::Pod obj) {
    if (FindPod(obj.meta.namespace_, obj.meta.name) >= 0) return;  // already known
    const auto slot = static_cast<int32_t>(PodSlots());
    std::string key = api::NamespacedName(obj.meta);
    store_dead.resize(PodSlots(), 0);
    store_dead.push_back(0);
    pod_slot[std::move(key)] = slot;
    if (!run) {
      store.pods.push_back(std::move(obj));
      return;
    }
    added.push_back(std::move(obj));
    if (run->AddPod(added.back(), slot)) {
      pod_index.push_back(static_cast<PodIndex>(run->pods().size()) - 1);
      return;
    }
    Invalidate();  // the engine cannot take it incrementally: the rebuild will
  }

  void UpdatePod(api::Pod obj) {
    const int32_t slot = FindPod(obj.meta.namespace_, obj.meta.name);
    if (slot < 0) return;
    const PodIndex p = EnginePod(slot);
    api::Pod& old = PodAt(slot);
    if (p >= 0) {
      if (obj.phase == "Succeeded" || obj.phase == "Failed") {
        // The pod ended: it releases its node now; the store keeps it as an ended pod.
        run->DeletePod(p);
        terminating.erase(api::NamespacedName(old.meta));
        old = std::move(obj);
        return;
      }
      if (!old.node_name.empty() && old.node_name == obj.node_name && old.meta.labels == obj.meta.labels) {
        return;  // confirms the binding (or a status change of a running pod): nothing to redo
      }
    }
    Invalidate();  // slots stay: `added` moves to the end of store.pods, in order
    PodAt(slot) = std::move(obj);
  }

  void DeletePod(std::string_view ns, std::string_view name) {
    const int32_t slot = FindPod(ns, name);
    if (slot < 0) return;
    api::Pod& pod = PodAt(slot);
    terminating.erase(api::NamespacedName(pod.meta));
    pod_slot.erase(api::NamespacedName(pod.meta));
    const PodIndex p = EnginePod(slot);
    if (p >= 0) run->DeletePod(p);
    // A tombstone while the engine lives (it points at the object) and until the next rebuild
    // compacts the store, which it does once tombstones outnumber live pods (amortised O(1)).
    store_dead.resize(PodSlots(), 0);
    store_dead[static_cast<size_t>(slot)] = 1;
    ++dead_count;
    if (2 * dead_count > PodSlots()) Invalidate();
  }

  void BindFailed(std::string_view ns, std::string_view name) {
    const int32_t slot = FindPod(ns, name);
    if (slot < 0) return;
    const PodIndex p = EnginePod(slot);
    if (p >= 0) run->ForgetBinding(p);
    PodAt(slot).node_name.clear();
  }

  void Build() {
    const api::ObjectSet& objects = borrowed != nullptr ? *borrowed : store;
    if (borrowed == nullptr) Compact();
    run = std::make_unique<Run>(objects, options);
    run->Start();
    if (borrowed != nullptr) return;
    run->MarkLost(lost_groups);
    pod_index.assign(store.pods.size(), -1);
    const std::vector<PodInfo>& pods = run->pods();
    for (size_t p = 0; p < pods.size(); ++p) pod_index[static_cast<size_t>(pods[p].input_order)] = static_cast<PodIndex>(p);
    for (auto it = terminating.begin(); it != terminating.end();) {
      const size_t slash = it->first.find('/');
      const std::string_view key = it->first;
      const int32_t slot = slash == std::string::npos ? FindPod("", key)
                                                      : FindPod(key.substr(0, slash), key.substr(slash + 1));
      const PodIndex p = EnginePod(slot);
      if (p < 0) {
        it = terminating.erase(it);
        continue;
      }
      run->MarkTerminating(p);
      ++it;
    }
  }

  template <typename T>
  void AddObject(T obj) {
    Invalidate();
    auto& v = ObjectsOf<T>(store);
    if (FindObject(v, obj.meta.namespace_, obj.meta.name) >= 0) return;
    v.push_back(std::move(obj));
    if constexpr (std::is_same_v<T, api::Pod>) pod_slot_valid = false;
  }

  template <typename T>
  void UpdateObject(T obj) {
    Invalidate();
    auto& v = ObjectsOf<T>(store);
    const int64_t i = FindObject(v, obj.meta.namespace_, obj.meta.name);
    if (i >= 0) v[static_cast<size_t>(i)] = std::move(obj);
  }

  template <typename T>
  void DeleteObject(std::string_view ns, std::string_view name) {
    Invalidate();
    auto& v = ObjectsOf<T>(store);
    const int64_t i = FindObject(v, ns, name);
    if (i >= 0) v.erase(v.begin() + i);
  }

  Decisions ScheduleUntilIdle() {
    if (!run) Build();
    run->BeginCall();
    run->RunCycles();
    Decisions d;
    d.result = run->Assemble(false);
    const std::vector<PodInfo>& pods = run->pods();
    const NodeTable& nodes = run->nodes();
    // The assumed bindings are the cache's: spec.nodeName, as upstream's assumed pods.
    for (PodIndex p : run->call_bound()) {
      if (pods[p].node == kNoNode || run->dead(p) || run->terminating(p)) continue;
      PodAt(pods[p].input_order).node_name = nodes.node(pods[p].node).meta.name;
    }
    for (PodIndex p : run->call_evicted()) {
      if (run->terminating(p)) terminating[PodKey(pods[p])] = nodes.node(pods[p].node).meta.name;
    }
    for (size_t p = 0; p < pods.size(); ++p) {
      const NodeIndex n = run->nominated(static_cast<PodIndex>(p));
      if (n == kNoNode || pods[p].node != kNoNode || run->dead(static_cast<PodIndex>(p))) continue;
      d.nominations.push_back({PodKey(pods[p]), nodes.node(n).meta.name});
    }
    std::sort(d.nominations.begin(), d.nominations.end(),
              [](const Nomination& a, const Nomination& b) { return a.pod < b.pod; });
    return d;
  }
};

Scheduler::Scheduler(SchedulerOptions options) : impl_(std::make_unique<Impl>(std::move(options))) {}

Scheduler::Scheduler(api::ObjectSet objects, SchedulerOptions options)
    : impl_(std::make_unique<Impl>(std::move(options))) {
  impl_->store = std::move(objects);
}

Scheduler::~Scheduler() = default;

void Scheduler::Add(api::Node obj) { impl_->AddObject(std::move(obj)); }
void Scheduler::Add(api::Pod obj) { impl_->AddPod(std::move(obj)); }
void Scheduler::Add(api::PriorityClass obj) { impl_->AddObject(std::move(obj)); }
void Scheduler::Add(api::Workload obj) { impl_->AddObject(std::move(obj)); }
void Scheduler::Add(api::PodGroup obj) { impl_->AddObject(std::move(obj)); }
void Scheduler::Add(api::CompositePodGroup obj) { impl_->AddObject(std::move(obj)); }
void Scheduler::Add(api::PodDisruptionBudget obj) { impl_->AddObject(std::move(obj)); }
void Scheduler::Add(api::DeviceClass obj) { impl_->AddObject(std::move(obj)); }
void Scheduler::Add(api::ResourceSlice obj) { impl_->AddObject(std::move(obj)); }
void Scheduler::Add(api::ResourceClaim obj) { impl_->AddObject(std::move(obj)); }
void Scheduler::Add(api::ResourceClaimTemplate obj) { impl_->AddObject(std::move(obj)); }
void Scheduler::Update(api::Node obj) { impl_->UpdateObject(std::move(obj)); }
void Scheduler::Update(api::Pod obj) { impl_->UpdatePod(std::move(obj)); }
void Scheduler::Update(api::PriorityClass obj) { impl_->UpdateObject(std::move(obj)); }
void Scheduler::Update(api::Workload obj) { impl_->UpdateObject(std::move(obj)); }
void Scheduler::Update(api::PodGroup obj) { impl_->UpdateObject(std::move(obj)); }
void Scheduler::Update(api::CompositePodGroup obj) { impl_->UpdateObject(std::move(obj)); }
void Scheduler::Update(api::PodDisruptionBudget obj) { impl_->UpdateObject(std::move(obj)); }
void Scheduler::Update(api::DeviceClass obj) { impl_->UpdateObject(std::move(obj)); }
void Scheduler::Update(api::ResourceSlice obj) { impl_->UpdateObject(std::move(obj)); }
void Scheduler::Update(api::ResourceClaim obj) { impl_->UpdateObject(std::move(obj)); }
void Scheduler::Update(api::ResourceClaimTemplate obj) { impl_->UpdateObject(std::move(obj)); }

void Scheduler::Delete(ObjectKind kind, std::string_view namespace_, std::string_view name) {
  Impl& i = *impl_;
  switch (kind) {
    case ObjectKind::kNode: i.DeleteObject<api::Node>(namespace_, name); return;
    case ObjectKind::kPod: i.DeletePod(namespace_, name); return;
    case ObjectKind::kPriorityClass: i.DeleteObject<api::PriorityClass>(namespace_, name); return;
    case ObjectKind::kWorkload: i.DeleteObject<api::Workload>(namespace_, name); return;
    case ObjectKind::kPodGroup: i.DeleteObject<api::PodGroup>(namespace_, name); return;
    case ObjectKind::kCompositePodGroup: i.DeleteObject<api::CompositePodGroup>(namespace_, name); return;
    case ObjectKind::kPodDisruptionBudget: i.DeleteObject<api::PodDisruptionBudget>(namespace_, name); return;
    case ObjectKind::kDeviceClass: i.DeleteObject<api::DeviceClass>(namespace_, name); return;
    case ObjectKind::kResourceSlice: i.DeleteObject<api::ResourceSlice>(namespace_, name); return;
    case ObjectKind::kResourceClaim: i.DeleteObject<api::ResourceClaim>(namespace_, name); return;
    case ObjectKind::kResourceClaimTemplate: i.DeleteObject<api::ResourceClaimTemplate>(namespace_, name); return;
  }
}

void Scheduler::BindSucceeded(std::string_view /*namespace_*/, std::string_view /*name*/) {
  // The assumed pod already holds its node in the cache and the engine: nothing changes
  // (upstream FinishBinding only ends the assumed pod's expiry, which wasched does not model).
}

void Scheduler::BindFailed(std::string_view namespace_, std::string_view name) {
  impl_->BindFailed(namespace_, name);
}

Decisions Scheduler::ScheduleUntilIdle() { return impl_->ScheduleUntilIdle(); }

const api::Pod* Scheduler::FindPod(std::string_view namespace_, std::string_view name) const {
  const int32_t slot = impl_->FindPod(namespace_, name);
  return slot < 0 ? nullptr : &impl_->PodAt(slot);
}

ScheduleResult Schedule(const api::ObjectSet& objects, const SchedulerOptions& options) {
  // The one shot is the engine over the borrowed input (no copy of the objects), run to idle
  // once; its report is the whole run's (every binding, the groups' conditions moved out).
  Scheduler::Impl engine(options);
  engine.borrowed = &objects;
  engine.Build();
  engine.run->RunCycles();
  return engine.run->Assemble(true);
}

}  // namespace wasched::sched
