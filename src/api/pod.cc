// File: api/pod.cc
//
// core/v1 Pod helpers: effective resource requests as the scheduler accounts them (upstream
// `k8s.io/component-helpers/resource.PodRequests` with default options: pod-level resources
// applied, no in-place resize status) and the wire names of PreemptionPolicy.
#include "api/pod.h"

#include <algorithm>
#include <limits>

#include "util/saturating.h"

namespace wasched::api {
namespace {

// AddResourceList: upstream addResourceList: into[r] += from[r] for every r in `from`.
void AddResourceList(ResourceList& into, const ResourceList& from) {
  for (const auto& [name, amount] : from) {
    auto [it, inserted] = into.try_emplace(name, amount);
    if (!inserted) it->second = SaturatingAdd(it->second, amount);
  }
}

// MaxResourceList: upstream maxResourceList: into[r] = max(into[r], from[r]) for r in `from`.
void MaxResourceList(ResourceList& into, const ResourceList& from) {
  for (const auto& [name, amount] : from) {
    auto [it, inserted] = into.try_emplace(name, amount);
    if (!inserted) it->second = std::max(it->second, amount);
  }
}

}  // namespace

bool IsSupportedPodLevelResource(const std::string& name) {
  return name == kResourceCPU || name == kResourceMemory || name.starts_with("hugepages-");
}

ResourceList EffectiveRequests(const Pod& pod) {
  ResourceList reqs = AggregateContainerRequests(pod);
  for (const auto& [name, amount] : pod.pod_level_requests) {
    if (IsSupportedPodLevelResource(name)) reqs[name] = amount;
  }
  AddResourceList(reqs, pod.overhead);
  return reqs;
}

ResourceList AggregateContainerRequests(const Pod& pod) {
  ResourceList reqs;
  for (const Container& c : pod.containers) AddResourceList(reqs, c.requests);
  ResourceList sidecars;   // cumulative requests of restartable (sidecar) init containers so far
  ResourceList init_max;   // largest init-time footprint seen so far, per resource
  for (const Container& c : pod.init_containers) {
    if (c.restart_policy_always) {
      AddResourceList(reqs, c.requests);
      AddResourceList(sidecars, c.requests);
      MaxResourceList(init_max, sidecars);
    } else {
      ResourceList candidate = c.requests;
      AddResourceList(candidate, sidecars);
      MaxResourceList(init_max, candidate);
    }
  }
  MaxResourceList(reqs, init_max);
  return reqs;
}

const char* PreemptionPolicyName(PreemptionPolicy p) {
  switch (p) {
    case PreemptionPolicy::kPreemptLowerPriority: return "PreemptLowerPriority";
    case PreemptionPolicy::kNever: return "Never";
  }
  return "PreemptLowerPriority";
}

}  // namespace wasched::api
