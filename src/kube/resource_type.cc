// File: kube/resource_type.cc
#include "kube/resource_type.h"

namespace wasched::kube {

std::string ResourceType::ApiVersion() const {
  return group.empty() ? version : group + "/" + version;
}

std::string ResourceType::CollectionPath() const {
  return (group.empty() ? "/api/" + version : "/apis/" + group + "/" + version) + "/" + resource;
}

const std::vector<ResourceType>& SchedulingResources() {
  static const std::vector<ResourceType> kResources = {
      {"", "v1", "nodes", "Node", false},
      {"scheduling.k8s.io", "v1", "priorityclasses", "PriorityClass", false},
      {"scheduling.k8s.io", "v1beta1", "workloads", "Workload", true},
      {"scheduling.k8s.io", "v1beta1", "podgroups", "PodGroup", true},
      {"scheduling.k8s.io", "v1alpha3", "compositepodgroups", "CompositePodGroup", true},
      {"resource.k8s.io", "v1", "deviceclasses", "DeviceClass", false},
      {"resource.k8s.io", "v1", "resourceslices", "ResourceSlice", false},
      {"resource.k8s.io", "v1", "resourceclaimtemplates", "ResourceClaimTemplate", true},
      {"resource.k8s.io", "v1", "resourceclaims", "ResourceClaim", true},
      {"policy", "v1", "poddisruptionbudgets", "PodDisruptionBudget", true},
      {"batch", "v1", "jobs", "Job", true},
      {"", "v1", "pods", "Pod", true},
  };
  return kResources;
}

}  // namespace wasched::kube
