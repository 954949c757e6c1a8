// File: codec/decode_core.h
//
// Decoders for the core kinds (internal to codec/): v1 Node, v1 Pod and
// scheduling.k8s.io/v1 PriorityClass, from a document's root Reader into api structs.
// Field names and defaults follow kubernetes/api core/v1 and scheduling/v1 types.go; fields that
// exist upstream but do not matter to scheduling are ignored silently, unknown fields warn.
// Host ports, pod (anti-)affinity and topology spread constraints are decoded (NodePorts,
// InterPodAffinity, PodTopologySpread); volume claims, which wasched does not model, warn that
// they are ignored.
#pragma once

#include "api/node.h"
#include "api/pod.h"
#include "api/priority_class.h"
#include "codec/yaml_reader.h"

namespace wasched::codec::internal {

// kDefaultMaxPods: kubelet's default --max-pods, used when a Node states no `pods` capacity.
inline constexpr int64_t kDefaultMaxPods = 110;

// DecodeNode: metadata, spec.{taints, unschedulable}, status.{allocatable, capacity}.
// status.allocatable falls back to status.capacity; when the result has no `pods`, it is set to
// kDefaultMaxPods and `*defaulted_pods` is set to true (the loader reports it once per input).
// O(fields).
void DecodeNode(const Reader& root, api::Node* node, bool* defaulted_pods);

// DecodePod: metadata, spec (containers, initContainers, overhead, nodeSelector,
// affinity.nodeAffinity, tolerations, priority, priorityClassName, preemptionPolicy,
// schedulerName, nodeName, schedulingGroup, resources) and status.phase. Container requests
// default to limits, pod-level requests as core/v1 defaultPodRequests (API defaulting).
// Pod-level resources other than cpu, memory and hugepages-* are NotSupported errors, negative
// ones Invalid (validation sees only the defaulted requests). O(fields).
void DecodePod(const Reader& root, api::Pod* pod);

// DecodePodSpec: a core/v1 PodSpec (the fields DecodePod reads under `spec`) into `pod`; shared
// with pod templates (Job spec.template.spec). O(fields).
void DecodePodSpec(const Reader& spec, api::Pod* pod);

// DecodeNodeSelectorTerms: a list of core/v1 NodeSelectorTerms (`nodeSelectorTerms`), appended;
// shared with the DRA decoders (ResourceSlice spec.nodeSelector). O(fields).
void DecodeNodeSelectorTerms(const Reader& r, std::vector<api::NodeSelectorTerm>* terms);

// DecodePriorityClass: metadata, value, globalDefault, preemptionPolicy. O(fields).
void DecodePriorityClass(const Reader& root, api::PriorityClass* pc);

}  // namespace wasched::codec::internal
