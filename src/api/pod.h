// File: api/pod.h
//
// core/v1 Pod: the scheduling-relevant fields (containers' requests, init containers incl.
// sidecars, pod-level requests, overhead, nodeSelector, node affinity, tolerations, priority,
// preemptionPolicy, schedulerName, nodeName, schedulingGroup). Source: kubernetes/api
// core/v1/types.go; effective requests as `k8s.io/component-helpers/resource.PodRequests`.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "api/label_selector.h"
#include "api/node.h"
#include "api/object_meta.h"
#include "api/resource_list.h"

namespace wasched::api {

// NodeSelectorOperator: core/v1 NodeSelectorOperator.
enum class NodeSelectorOperator { kIn, kNotIn, kExists, kDoesNotExist, kGt, kLt };

// NodeSelectorRequirement: core/v1. For kGt/kLt `values` holds exactly one integer string.
struct NodeSelectorRequirement {
  std::string key;
  NodeSelectorOperator op = NodeSelectorOperator::kIn;
  std::vector<std::string> values;
};

// NodeSelectorTerm: requirements ANDed. `match_fields` supports only key `metadata.name`.
struct NodeSelectorTerm {
  std::vector<NodeSelectorRequirement> match_expressions;
  std::vector<NodeSelectorRequirement> match_fields;
};

// PreferredSchedulingTerm: core/v1; weight in [1, 100].
struct PreferredSchedulingTerm {
  int32_t weight = 0;
  NodeSelectorTerm preference;
};

// NodeAffinity: core/v1. `required` holds requiredDuringSchedulingIgnoredDuringExecution's
// nodeSelectorTerms (ORed); nullopt when the pod sets none.
struct NodeAffinity {
  std::optional<std::vector<NodeSelectorTerm>> required;
  std::vector<PreferredSchedulingTerm> preferred;
};

// TolerationOperator: core/v1. Empty operator means Equal.
enum class TolerationOperator { kEqual, kExists };

// Toleration: core/v1. `effect` nullopt tolerates every effect; empty `key` with kExists
// tolerates every taint.
struct Toleration {
  std::string key;
  TolerationOperator op = TolerationOperator::kEqual;
  std::string value;
  std::optional<TaintEffect> effect;
  std::optional<int64_t> toleration_seconds;
};

// ResourceClaimRequest: a container's `resources.claims[]` entry: the name of one of the
// pod's spec.resourceClaims, optionally narrowed to one `request` of that claim.
struct ResourceClaimRequest {
  std::string name;
  std::string request;
};

// Container: the resources of one container. `restart_policy_always` marks a sidecar init
// container (restartPolicy: Always). Requests default to limits where only limits are given
// (API defaulting, done by the codec).
// `non_integer_requests` / `non_integer_limits` (wasched-only): the amounts that are not a whole
// number of units (upstream `Quantity.MilliValue() % 1000 != 0`, e.g. `500m`), by resource name →
// the quantity as written; `requests` / `limits` hold them rounded up. Validation rejects them
// for integer resources (extended resources: "must be an integer"). A request defaulted from a
// limit inherits the limit's entry.
// ContainerPort: core/v1 ContainerPort, the fields NodePorts reads. `host_port` 0 = none;
// `protocol` "TCP" (default), "UDP" or "SCTP"; `host_ip` "" = every address (0.0.0.0).
struct ContainerPort {
  int32_t container_port = 0;
  int32_t host_port = 0;
  std::string protocol = "TCP";
  std::string host_ip;
  bool operator==(const ContainerPort&) const = default;
};

struct Container {
  std::string name;
  // image: required by the API server (validateContainerCommon); kept so that created pods and
  // compile's / convert's output carry it. Not used for scheduling.
  std::string image;
  std::vector<ContainerPort> ports;
  ResourceList requests;
  ResourceList limits;
  bool restart_policy_always = false;
  std::map<std::string, std::string> non_integer_requests;
  std::map<std::string, std::string> non_integer_limits;
  std::vector<ResourceClaimRequest> claims;  // resources.claims (DRA)
};

// PodResourceClaim: spec.resourceClaims[]: `name` plus exactly one of resourceClaimName (an
// existing ResourceClaim) / resourceClaimTemplateName (a claim made per pod, or shared with
// the pod's PodGroup when the PodGroup has the identical entry: KEP-5729).
struct PodResourceClaim {
  std::string name;
  std::optional<std::string> resource_claim_name;
  std::optional<std::string> resource_claim_template_name;
};

// PodAffinityTerm: core/v1. `label_selector` nullopt selects no pod; `namespaces` and
// `namespace_selector` both empty mean the pod's own namespace; `match_label_keys` /
// `mismatch_label_keys` add `key in / notin (the pod's value)` to the selector (KEP-3633).
struct PodAffinityTerm {
  std::optional<LabelSelector> label_selector;
  std::vector<std::string> namespaces;
  std::string topology_key;
  std::optional<LabelSelector> namespace_selector;
  std::vector<std::string> match_label_keys;
  std::vector<std::string> mismatch_label_keys;
  bool operator==(const PodAffinityTerm&) const = default;
};

// TopologySpreadConstraint: core/v1. `when_unsatisfiable` "DoNotSchedule" or "ScheduleAnyway"
// (core/v1 has no default: the codec leaves an omitted one "", which validation rejects; the
// "DoNotSchedule" initialiser serves objects built in code);
// `node_affinity_policy` / `node_taints_policy` "Honor" / "Ignore" ("" = the default: Honor for
// node affinity, Ignore for taints); `min_domains` nullopt = 1.
struct TopologySpreadConstraint {
  int32_t max_skew = 0;
  std::string topology_key;
  std::string when_unsatisfiable = "DoNotSchedule";
  std::optional<LabelSelector> label_selector;
  std::optional<int32_t> min_domains;
  std::string node_affinity_policy;
  std::string node_taints_policy;
  std::vector<std::string> match_label_keys;
  bool operator==(const TopologySpreadConstraint&) const = default;
};

// WeightedPodAffinityTerm: core/v1; weight in [1, 100].
struct WeightedPodAffinityTerm {
  int32_t weight = 0;
  PodAffinityTerm term;
  bool operator==(const WeightedPodAffinityTerm&) const = default;
};

// PodAffinity: core/v1 PodAffinity / PodAntiAffinity (same shape): `required` is
// requiredDuringSchedulingIgnoredDuringExecution, `preferred` preferredDuring….
struct PodAffinity {
  std::vector<PodAffinityTerm> required;
  std::vector<WeightedPodAffinityTerm> preferred;
  bool operator==(const PodAffinity&) const = default;
};

// PreemptionPolicy: core/v1 PreemptionPolicy.
enum class PreemptionPolicy { kPreemptLowerPriority, kNever };

// Pod: core/v1 Pod, scheduling-relevant subset.
// `node_name` non-empty means the pod is already bound (running) when input is read.
// `pod_group_name` is spec.schedulingGroup.podGroupName (v1.37, gate GenericWorkload): the
// PodGroup in the pod's namespace this pod belongs to.
struct Pod {
  ObjectMeta meta;
  std::vector<Container> containers;
  std::vector<Container> init_containers;
  ResourceList overhead;
  std::map<std::string, std::string> non_integer_overhead;  // as Container::non_integer_requests
  std::map<std::string, std::string> node_selector;
  std::optional<NodeAffinity> node_affinity;
  // spec.affinity.podAffinity / podAntiAffinity (InterPodAffinity).
  std::optional<PodAffinity> pod_affinity;
  std::optional<PodAffinity> pod_anti_affinity;
  // spec.topologySpreadConstraints (PodTopologySpread).
  std::vector<TopologySpreadConstraint> topology_spread_constraints;
  std::vector<Toleration> tolerations;
  std::optional<int32_t> priority;
  std::string priority_class_name;
  std::optional<PreemptionPolicy> preemption_policy;
  std::string scheduler_name = "default-scheduler";
  std::string node_name;
  std::optional<std::string> pod_group_name;
  // scheduling_group_set: spec.schedulingGroup was given (non-null), even as `{}` /
  // `{podGroupName: null}`, which validation rejects (one-member union).
  bool scheduling_group_set = false;
  std::vector<std::string> scheduling_gates;  // spec.schedulingGates[].name; non-empty = gated
  std::string phase;  // status.phase; "Succeeded"/"Failed" pods hold no resources
  // start_time: status.startTime (set by the kubelet when it accepts the pod), seconds since the
  // Unix epoch parsed from RFC 3339; nullopt when unset (a pod not started yet, or only assumed).
  // Preemption orders victims and picks nodes by it (upstream pkg/scheduler/util GetPodStartTime,
  // which counts an unset start as "now"; sched/framework/pod_info.h PodInfo::start).
  std::optional<int64_t> start_time;
  // pod_level_requests: spec.resources.requests (PodLevelResources, beta and on since 1.34)
  // after API defaulting (core/v1 defaultPodRequests: a pod-level limit without a request
  // requests the containers' aggregate when they request that resource, else the limit).
  // Empty when the pod sets no pod-level resources; only cpu, memory and hugepages-* count
  // (IsSupportedPodLevelResource).
  ResourceList pod_level_requests;
  // field paths of hard scheduling constraints wasched does not model; the scheduler leaves
  // such pods pending as Unsupported. E.g. a DRA claim whose CEL selector uses a construct
  // wasched cannot evaluate (validation/dra_validation.h).
  std::vector<std::string> unsupported_constraints;
  std::vector<PodResourceClaim> resource_claims;  // spec.resourceClaims (DRA)
};

// IsSupportedPodLevelResource: the resources pod-level requests and limits may name (upstream
// k8s.io/component-helpers/resource.IsSupportedPodLevelResource): cpu, memory, hugepages-*.
[[nodiscard]] bool IsSupportedPodLevelResource(const std::string& name);

// AggregateContainerRequests: upstream resource.AggregateContainerRequests: max(sum of
// containers + sidecars, largest init container including the sidecars started before it), per
// resource; no pod-level resources, no overhead. O(containers × resources).
[[nodiscard]] ResourceList AggregateContainerRequests(const Pod& pod);

// EffectiveRequests: the pod's resource requests as the scheduler accounts them (upstream
// `resource.PodRequests` with default options): AggregateContainerRequests, then each supported
// pod-level request (cpu, memory, hugepages-*) replaces the containers' amount of its resource,
// then overhead is added, per resource. O(containers × resources).
[[nodiscard]] ResourceList EffectiveRequests(const Pod& pod);

[[nodiscard]] const char* PreemptionPolicyName(PreemptionPolicy p);

}  // namespace wasched::api
