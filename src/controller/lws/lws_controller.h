// File: controller/lws/lws_controller.h
//
// The LeaderWorkerSet controllers' creating part (kubernetes-sigs/lws pkg/controllers
// leaderworkerset_controller.go constructLeaderStatefulSetApplyConfiguration, pod_controller.go
// constructWorkerStatefulSetApplyConfiguration, pkg/webhooks/pod_webhook.go Default, and the
// KEP-666 "kubernetes" scheduler provider pkg/schedulerprovider/kubernetes_provider.go):
//   - the leader StatefulSet `<lws>` (replicas = spec.replicas, Parallel, the leader template —
//     or the worker template when there is none — with the labels worker-index "0", name and
//     template-revision-hash, the annotations size and exclusive-topology);
//   - for every leader pod `<lws>-<i>` a worker StatefulSet `<lws>-<i>` (size − 1 replicas,
//     ordinals from 1, Parallel, owned by the leader pod, the worker template with the labels
//     group-index, name, group-key and template-revision-hash); with startupPolicy LeaderReady,
//     or exclusive placement, it is created only once the leader runs (exclusive placement
//     also gives it nodeSelector[topology key] = the leader's domain);
//   - the pod webhook (AdmitPod): leader pods get group-index (their ordinal) and group-key
//     (SHA-1 of `<namespace>/<pod>`), exclusive placement's podAffinity / podAntiAffinity on
//     group-key, worker pods worker-index; subgroup labels and subgroup exclusive placement;
//     and the pods' `schedulingGroup` (below).
// Workload-aware scheduling, KEP-666 (the published integration, alpha): an LWS with
// `spec.scheduling` gets one Workload `<lws>` with one podGroupTemplate `replica` (default gang,
// minCount = size; the LWS's blocks; the common priorityClassName) and one PodGroup per group,
// `<lws>-<group index>-<revision>`, which all the group's pods name. With the wasched option
// `lws_composite_groups` (CLI `--lws-composite-groups`; not published upstream: KEP-666 leaves
// CompositePodGroup trees to future work), every LWS instead gets a Workload whose
// compositePodGroupTemplate `replica` (gang, minGroupCount 2: leader and workers; 1 for size 1)
// holds the podGroupTemplates `leader` (gang 1) and `workers` (gang size − 1), and per group a
// CompositePodGroup `<lws>-<i>-<revision>` with the PodGroups `…-leader` and `…-workers`.
// The revision hash is wasched's stand-in (controller/template_hash.h). Not thread-safe; no I/O.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "api/leader_worker_set.h"
#include "api/object_set.h"
#include "controller/controller.h"
#include "util/field_error.h"

namespace wasched::controller::lws {

inline constexpr const char* kApiVersion = "leaderworkerset.x-k8s.io/v1";
inline constexpr const char* kKind = "LeaderWorkerSet";
inline constexpr const char* kSetNameKey = "leaderworkerset.sigs.k8s.io/name";
inline constexpr const char* kGroupIndexKey = "leaderworkerset.sigs.k8s.io/group-index";
inline constexpr const char* kWorkerIndexKey = "leaderworkerset.sigs.k8s.io/worker-index";
inline constexpr const char* kSizeKey = "leaderworkerset.sigs.k8s.io/size";
inline constexpr const char* kReplicasKey = "leaderworkerset.sigs.k8s.io/replicas";
inline constexpr const char* kGroupKeyKey = "leaderworkerset.sigs.k8s.io/group-key";
inline constexpr const char* kLeaderNameKey = "leaderworkerset.sigs.k8s.io/leader-name";
inline constexpr const char* kRevisionKey = "leaderworkerset.sigs.k8s.io/template-revision-hash";
inline constexpr const char* kExclusiveKey = "leaderworkerset.sigs.k8s.io/exclusive-topology";
inline constexpr const char* kSubGroupExclusiveKey = "leaderworkerset.sigs.k8s.io/subgroup-exclusive-topology";
inline constexpr const char* kSubGroupIndexKey = "leaderworkerset.sigs.k8s.io/subgroup-index";
inline constexpr const char* kSubGroupSizeKey = "leaderworkerset.sigs.k8s.io/subgroup-size";
inline constexpr const char* kSubGroupKeyKey = "leaderworkerset.sigs.k8s.io/subgroup-key";
inline constexpr const char* kSubGroupPolicyTypeKey = "leaderworkerset.sigs.k8s.io/subgroup-policy-type";
inline constexpr const char* kSubdomainPolicyKey = "leaderworkerset.sigs.k8s.io/subdomainPolicy";
inline constexpr const char* kWorkloadSchedulingKey = "leaderworkerset.sigs.k8s.io/workload-aware-scheduling";
// kCompositeGroupsKey: wasched-only pod template annotation of the composite mode (the webhook
// then points leaders and workers at their own PodGroups).
inline constexpr const char* kCompositeGroupsKey = "wasched.io/lws-composite-groups";

struct LwsOptions {
  bool composite_groups = false;
};

// LwsSyncResult: the leader StatefulSet (when missing) and the scheduling objects; `errors` are
// the workloadbuilder's validation errors at spec.scheduling (LWS's webhook refuses the LWS).
struct LwsSyncResult {
  std::optional<api::StatefulSet> leader_stateful_set;
  std::optional<api::Workload> workload;
  std::vector<api::CompositePodGroup> composite_pod_groups;
  std::vector<api::PodGroup> pod_groups;
  std::vector<FieldError> errors;
  std::vector<ControllerEvent> events;
};

// RevisionKey: the template-revision-hash (stand-in) of `lws`.
[[nodiscard]] std::string RevisionKey(const api::LeaderWorkerSet& lws);

// Sync: the leader StatefulSet and the Workload / groups of `lws` (metadata.uid set); objects
// already in `cluster` (by name) are not created again. O(replicas).
[[nodiscard]] LwsSyncResult Sync(const api::LeaderWorkerSet& lws, const api::ObjectSet& cluster,
                                 const LwsOptions& options);

// WorkerStatefulSet: the worker StatefulSet of `leader` (a leader pod of `lws`, after AdmitPod),
// nullopt when size is 1. `wait_for_leader`: startupPolicy LeaderReady or exclusive placement
// (then `topology_key` is the exclusive topology key).
struct WorkerSet {
  api::StatefulSet stateful_set;
  bool wait_for_leader = false;
  std::string topology_key;
};
[[nodiscard]] std::optional<WorkerSet> WorkerStatefulSet(const api::LeaderWorkerSet& lws,
                                                         const api::Pod& leader);

// AdmitPod: the pod webhook's Default on `pod` (mutated in place); a pod without the
// leaderworkerset.sigs.k8s.io/name label is left alone.
void AdmitPod(api::Pod* pod);

}  // namespace wasched::controller::lws
