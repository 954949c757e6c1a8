// File: sched/framework/pod_info.h
//
// PodInfo: a pod as the scheduler core sees it, precomputed once when the pod enters the cache:
// effective requests as sparse (resource id, amount) pairs including `pods: 1`, upstream's
// non-zero cpu/memory for scoring, resolved priority, the equivalence class of its
// node-static constraints, and its PodGroup. Upstream counterpart: framework.PodInfo /
// QueuedPodInfo.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <span>
#include <string>
#include <vector>

#include "api/pod.h"
#include "sched/cache/node_table.h"
#include "sched/cache/resource_table.h"

namespace wasched::sched {

using PodIndex = int32_t;
using GroupIndex = int32_t;
using ClassIndex = int32_t;
inline constexpr NodeIndex kNoNode = -1;
inline constexpr GroupIndex kNoGroup = -1;

// PodFilters: bits of PodInfo::pod_filters, the pod-dependent plugins that apply to a pod
// (their verdict on a node depends on the pods placed there, so such pods take the Framework's
// scan path).
enum PodFilters : uint8_t {
  kHostPorts = 1,    // NodePorts: the pod holds host ports
  kPodAffinity = 2,  // InterPodAffinity: the pod has pod (anti-)affinity terms
  kSpread = 4,       // PodTopologySpread: the pod has topology spread constraints
};

struct PodInfo {
  const api::Pod* pod = nullptr;
  // requests: non-zero effective requests + {kPods, 1}; a view of the pod's template
  // (PodTemplates, or storage the caller keeps alive).
  std::span<const ResourceAmount> requests;
  int64_t nonzero_cpu = 0;                // milli-CPU, upstream scoring default when 0
  int64_t nonzero_memory = 0;             // bytes, upstream scoring default when 0
  int64_t request_cpu = 0;                // milli-CPU actually requested (0 when none)
  int64_t request_memory = 0;             // bytes actually requested (0 when none)
  int32_t priority = 0;                   // resolved (pod.priority, class, global default)
  int64_t creation = 0;                   // creation timestamp seconds (0 when unknown)
  // start: the start time preemption compares (seconds): status.startTime, else the run's "now"
  // (upstream pkg/scheduler/util GetPodStartTime: a pod not started yet started now;
  // PodStartTime below).
  int64_t start = 0;
  int32_t input_order = 0;                // position in the input, the final tie-break
  ClassIndex static_class = 0;            // equivalence class of node-static constraints
  int32_t signature = -1;                 // class + requests (Framework::SignatureOf), or -1
  int32_t affinity_signature = -1;        // the same for a pod whose only PodFilters bit is
                                          // kPodAffinity (Framework::AffinitySignatureOf), or -1
  int32_t template_id = -1;               // PodTemplates id (-1 when built by hand)
  GroupIndex group = kNoGroup;            // PodGroup it belongs to
  NodeIndex node = kNoNode;               // bound / assumed node
  bool running_at_input = false;          // arrived with spec.nodeName
  uint8_t pod_filters = 0;                // PodFilters bits (from the template)
};

// kStartedLast: the "now" of a run without a caller's clock: later than every recorded start
// time, as time.Now() is on a live cluster (start times lie in the past).
inline constexpr int64_t kStartedLast = std::numeric_limits<int64_t>::max();

// PodStartTime: upstream util.GetPodStartTime with an injected now: status.startTime when set,
// else `now` (seconds in the timestamps' epoch, or kStartedLast). O(1).
[[nodiscard]] inline int64_t PodStartTime(const api::Pod& pod, int64_t now) {
  return pod.start_time.value_or(now);
}

// PodKey: "ns/name" of the pod, as api::NamespacedName (built on demand: the cache keeps no
// string per pod). One allocation.
[[nodiscard]] inline std::string PodKey(const PodInfo& pi) {
  const api::ObjectMeta& m = pi.pod->meta;
  if (m.namespace_.empty()) return m.name;
  std::string key;
  key.reserve(m.namespace_.size() + 1 + m.name.size());
  key.append(m.namespace_).append(1, '/').append(m.name);
  return key;
}

// PodOrderLess: upstream queue sort (PrioritySort): higher priority first, then earlier
// creation, then input order (stable).
[[nodiscard]] inline bool PodOrderLess(const PodInfo& a, const PodInfo& b) {
  if (a.priority != b.priority) return a.priority > b.priority;
  if (a.creation != b.creation) return a.creation < b.creation;
  return a.input_order < b.input_order;
}

// SortInQueueOrder: `members` stably sorted by PodOrderLess; members are usually listed in
// that order already, which costs one pass. O(n) sorted, else O(n log n).
inline void SortInQueueOrder(std::vector<PodIndex>& members, const std::vector<PodInfo>& pods) {
  auto less = [&](PodIndex a, PodIndex b) { return PodOrderLess(pods[a], pods[b]); };
  if (!std::is_sorted(members.begin(), members.end(), less)) {
    std::stable_sort(members.begin(), members.end(), less);
  }
}

}  // namespace wasched::sched
