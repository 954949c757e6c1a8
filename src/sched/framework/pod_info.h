// File: sched/framework/pod_info.h
//
// PodInfo: a pod as the scheduler core sees it, precomputed once when the pod enters the cache:
// effective requests as sparse (resource id, amount) pairs including `pods: 1`, upstream's
// non-zero cpu/memory for scoring, resolved priority, the equivalence class of its
// node-static constraints, and its PodGroup. Upstream counterpart: framework.PodInfo /
// QueuedPodInfo.
#pragma once

#include <cstdint>
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

struct PodInfo {
  const api::Pod* pod = nullptr;
  std::string key;                        // "ns/name"
  std::vector<ResourceAmount> requests;   // non-zero effective requests + {kPods, 1}
  int64_t nonzero_cpu = 0;                // milli-CPU, upstream scoring default when 0
  int64_t nonzero_memory = 0;             // bytes, upstream scoring default when 0
  int64_t request_cpu = 0;                // milli-CPU actually requested (0 when none)
  int64_t request_memory = 0;             // bytes actually requested (0 when none)
  int32_t priority = 0;                   // resolved (pod.priority, class, global default)
  int64_t creation = 0;                   // creation timestamp seconds (0 when unknown)
  int32_t input_order = 0;                // position in the input, the final tie-break
  ClassIndex static_class = 0;            // equivalence class of node-static constraints
  int32_t signature = -1;                 // class + requests (Framework::SignatureOf), or -1
  GroupIndex group = kNoGroup;            // PodGroup it belongs to
  NodeIndex node = kNoNode;               // bound / assumed node
  bool running_at_input = false;          // arrived with spec.nodeName
};

// PodOrderLess: upstream queue sort (PrioritySort): higher priority first, then earlier
// creation, then input order (stable).
[[nodiscard]] inline bool PodOrderLess(const PodInfo& a, const PodInfo& b) {
  if (a.priority != b.priority) return a.priority > b.priority;
  if (a.creation != b.creation) return a.creation < b.creation;
  return a.input_order < b.input_order;
}

}  // namespace wasched::sched
