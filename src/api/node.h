// File: api/node.h
//
// core/v1 Node: the fields the scheduler reads (labels via ObjectMeta, taints,
// spec.unschedulable, status.allocatable). Source: kubernetes/api core/v1/types.go.
#pragma once

#include <string>
#include <vector>

#include "api/object_meta.h"
#include "api/resource_list.h"

namespace wasched::api {

// TaintEffect: core/v1 TaintEffect.
enum class TaintEffect { kNoSchedule, kPreferNoSchedule, kNoExecute };

// Taint: core/v1 Taint.
struct Taint {
  std::string key;
  std::string value;
  TaintEffect effect = TaintEffect::kNoSchedule;
};

// Node: core/v1 Node.
// `allocatable` is status.allocatable in canonical units; when the manifest has only
// status.capacity, the codec copies it (upstream's NodeStatus defaulting). When `pods` is absent
// the codec sets kubelet's default maxPods (110) and says so in a warning.
struct Node {
  ObjectMeta meta;
  bool unschedulable = false;
  std::vector<Taint> taints;
  ResourceList allocatable;
};

[[nodiscard]] const char* TaintEffectName(TaintEffect effect);

}  // namespace wasched::api
