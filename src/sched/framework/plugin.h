// File: sched/framework/plugin.h
//
// Plugin interfaces of the scheduling framework (upstream
// staging/src/k8s.io/kube-scheduler/framework/interface.go), specialised for speed:
//
//  * NodeStaticFilterPlugin / NodeStaticScorePlugin read only the pod's spec and the Node object
//    (labels, taints, unschedulable, name) — never usage — so the Framework evaluates them once per
//    (pod equivalence class, node) and caches the verdicts; the per-pod hot path never calls them.
//  * NodeResourcesFit, which depends on usage, is called directly on the NodeTable arrays
//    (plugins/node_resources_fit).
//
// Each plugin lives in sched/plugins/<name>/, exposes a `kName` constant, and documents the
// events that can make a rejected pod schedulable again (upstream EventsToRegister).
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

#include "api/node.h"
#include "api/pod.h"
#include "sched/framework/status.h"

namespace wasched::sched {

// NodeStaticFilterPlugin: Filter extension point for node-static constraints.
// Filter returns Success, or UnschedulableAndUnresolvable/Unschedulable with one reason in
// upstream's wording (e.g. "node(s) didn't match Pod's node affinity/selector").
class NodeStaticFilterPlugin {
 public:
  virtual ~NodeStaticFilterPlugin() = default;
  [[nodiscard]] virtual std::string_view Name() const = 0;
  [[nodiscard]] virtual Status Filter(const api::Pod& pod, const api::Node& node) const = 0;
};

// NodeStaticScorePlugin: Score + NormalizeScore for node-static preferences.
// Score returns the raw score; NormalizeScore maps the raw scores of all feasible nodes of one
// pod to [0, kMaxNodeScore] in place. `Weight` is the default-profile weight.
class NodeStaticScorePlugin {
 public:
  virtual ~NodeStaticScorePlugin() = default;
  [[nodiscard]] virtual std::string_view Name() const = 0;
  [[nodiscard]] virtual int64_t Weight() const = 0;
  [[nodiscard]] virtual int64_t Score(const api::Pod& pod, const api::Node& node) const = 0;
  virtual void NormalizeScore(std::span<int64_t> scores) const = 0;
};

// kMaxNodeScore: upstream framework.MaxNodeScore.
inline constexpr int64_t kMaxNodeScore = 100;

// DefaultNormalizeScore: upstream helper.DefaultNormalizeScore: scale to [0, max] by the
// maximum; `reverse` flips (max - score). All-zero input gives all 0 (or all max if reverse).
void DefaultNormalizeScore(int64_t max_priority, bool reverse, std::span<int64_t> scores);

}  // namespace wasched::sched
