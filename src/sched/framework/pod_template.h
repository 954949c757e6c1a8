// File: sched/framework/pod_template.h
//
// PodTemplates: the per-pod setup of the scheduler cache done once per pod TEMPLATE instead of
// once per pod. Pods of one Job, ReplicaSet or gang share their scheduling-relevant spec
// (containers' and init containers' requests, overhead, pod-level requests, nodeSelector, node
// affinity, tolerations; not spec.nodeName: a pod that has one is running and needs no class); the effective requests (upstream
// `resource.PodRequests`), upstream's non-zero scoring requests, the equivalence class and the
// score-index signature depend on nothing else, so they are computed for the first pod of a
// template and shared, under an integer id, by every later one (upstream keeps the same facts
// per pod in framework.PodInfo; the sharing is wasched's).
//
//   PodTemplates templates(resources);
//   const int32_t t = templates.Intern(pod);     // hash + one spec compare; no allocation when known
//   std::span<const ResourceAmount> r = templates[t].requests;
//
// A template stores a copy of the spec fields it stands for (the first pod's), so it does not
// depend on the lifetime of the pods. Requests keep their storage for the table's life: spans
// into them stay valid after later Intern calls. Not thread-safe.
#pragma once

#include <cstdint>
#include <unordered_map>
#include <vector>

#include "api/pod.h"
#include "sched/cache/resource_table.h"

namespace wasched::sched {

// PodTemplate: what every pod of the template shares.
//  * requests: non-zero effective requests in resource-name order, then {kPods, 1};
//  * request_cpu / request_memory: what is requested (0 when nothing), milli-CPU / bytes;
//  * nonzero_cpu / nonzero_memory: the same with upstream's scoring defaults for 0;
//  * static_class / signature / affinity_signature: the Framework's class and signatures, -1
//    until a pending pod of the template asked (running pods never need them).
struct PodTemplate {
  std::vector<ResourceAmount> requests;
  int64_t request_cpu = 0;
  int64_t request_memory = 0;
  int64_t nonzero_cpu = 0;
  int64_t nonzero_memory = 0;
  int32_t static_class = -1;
  int32_t signature = -1;
  int32_t affinity_signature = -1;  // Framework::AffinitySignatureOf
  uint8_t pod_filters = 0;  // PodFilters bits
  api::Pod spec;  // the template's fields only (see SameSchedulingSpec)
};

// SameSchedulingSpec: a and b have the same containers' and init containers' requests (and
// sidecar flags) and ports, overhead, pod-level requests, nodeSelector, node affinity, pod
// (anti-)affinity, topology spread constraints and tolerations
// (not spec.nodeName: only pending pods, whose nodeName is empty, get a class). O(size of those fields), no allocation.
[[nodiscard]] bool SameSchedulingSpec(const api::Pod& a, const api::Pod& b);

class PodTemplates {
 public:
  // PodTemplates: new resource names met in pod requests are interned into `resources` (in pod
  // order, so ids stay deterministic); it must outlive the table.
  explicit PodTemplates(ResourceTable& resources) : resources_(resources) {}

  // Intern: the template of `pod`, creating it when new (O(requests) + one copy of the spec).
  // Known template: a hash of the spec fields and one SameSchedulingSpec compare (the previous
  // pod's template is tried first, without hashing). O(spec size), no allocation.
  [[nodiscard]] int32_t Intern(const api::Pod& pod);

  [[nodiscard]] const PodTemplate& operator[](int32_t t) const { return templates_[t]; }
  [[nodiscard]] PodTemplate& at(int32_t t) { return templates_[t]; }
  [[nodiscard]] int32_t size() const { return static_cast<int32_t>(templates_.size()); }

 private:
  ResourceTable& resources_;
  std::vector<PodTemplate> templates_;
  std::unordered_multimap<uint64_t, int32_t> by_hash_;
  int32_t last_ = -1;
};

}  // namespace wasched::sched
