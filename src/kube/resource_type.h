// File: kube/resource_type.h
//
// An API resource as the REST paths name it (group, version, plural resource) plus its kind, and
// the list of resources wasched's scheduling reads (the informers kube-scheduler v1.37.2 starts
// for the plugins wasched implements: pkg/scheduler/eventhandlers.go, plus batch/v1 Jobs, whose
// workload part wasched runs as the Job controller does).
#pragma once

#include <string>
#include <vector>

namespace wasched::kube {

// ResourceType: e.g. {"", "v1", "pods", "Pod", true}. Paths: /api/v1/pods for the core group,
// /apis/GROUP/VERSION/RESOURCE otherwise (all namespaces at once).
struct ResourceType {
  std::string group;
  std::string version;
  std::string resource;
  std::string kind;
  bool namespaced = true;

  // ApiVersion: "v1" or "group/version".
  [[nodiscard]] std::string ApiVersion() const;
  // CollectionPath: the cluster-wide collection, without a query.
  [[nodiscard]] std::string CollectionPath() const;
};

// SchedulingResources: Node, Pod, PriorityClass, Workload, PodGroup (scheduling.k8s.io/v1beta1),
// CompositePodGroup (v1alpha3), PodDisruptionBudget, DeviceClass, ResourceSlice, ResourceClaim,
// ResourceClaimTemplate (resource.k8s.io/v1), Job; in this fixed order (the order objects are
// decoded in). Required: the core kinds; the others may be absent from a server whose API group
// or version is off (see ReadCluster).
[[nodiscard]] const std::vector<ResourceType>& SchedulingResources();

}  // namespace wasched::kube
