// File: tests/support/builders.h
//
// Fluent test builders for api objects, in the style of kube-scheduler's
// pkg/scheduler/testing/wrappers.go. Each Make*() starts from a minimal valid object; every
// setter returns the builder; Obj() returns the finished value (the builder stays usable, so one
// builder can stamp out variants). Amounts are canonical integers: milli-CPU, bytes, counts.
//
//   api::Node n = MakeNode().Name("n1")
//                     .Capacity({{"cpu", 4000}, {"memory", 32LL << 30}, {"pods", 110}})
//                     .Label("zone", "a").Taint("gpu", "true", api::TaintEffect::kNoSchedule).Obj();
//   api::Pod p = MakePod().Name("p").Namespace("ns").Req({{"cpu", 1000}}).Priority(10)
//                    .Group("pg").Node("n1").CreationTimestamp(5).Obj();
//   api::PodGroup g = MakePodGroup().Name("pg").MinCount(3).Obj();     // gang
//   api::PodGroup b = MakePodGroup().Name("pg2").Basic().Obj();        // basic
//   api::PriorityClass c = MakePriorityClass().Name("high").Value(1000).Obj();
//
// Header-only so bench/ can use it without linking test support.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>

#include "api/node.h"
#include "api/object_set.h"
#include "api/pod.h"
#include "api/pod_group.h"
#include "api/priority_class.h"
#include "api/resource_list.h"

namespace wasched::test {

// Common amounts, canonical units.
inline constexpr int64_t kGi = int64_t{1} << 30;
inline constexpr int64_t kMi = int64_t{1} << 20;
// kPauseImage: the image of the containers built here (the API server requires one).
inline constexpr const char* kPauseImage = "registry.k8s.io/pause:3.10";

// NodeBuilder: builds an api::Node. Capacity() sets status.allocatable (the codec copies
// capacity to allocatable when only capacity is given, so tests need only one of them).
class NodeBuilder {
 public:
  NodeBuilder& Name(std::string name) {
    node_.meta.name = std::move(name);
    return *this;
  }
  // Capacity: replaces allocatable with `resources`.
  NodeBuilder& Capacity(api::ResourceList resources) {
    node_.allocatable = std::move(resources);
    return *this;
  }
  NodeBuilder& Allocatable(api::ResourceList resources) { return Capacity(std::move(resources)); }
  // Resource: sets one allocatable resource, keeping the others.
  NodeBuilder& Resource(const std::string& name, int64_t amount) {
    node_.allocatable[name] = amount;
    return *this;
  }
  NodeBuilder& Label(const std::string& key, std::string value) {
    node_.meta.labels[key] = std::move(value);
    return *this;
  }
  NodeBuilder& Taint(std::string key, std::string value, api::TaintEffect effect) {
    node_.taints.push_back(api::Taint{std::move(key), std::move(value), effect});
    return *this;
  }
  NodeBuilder& Unschedulable(bool unschedulable = true) {
    node_.unschedulable = unschedulable;
    return *this;
  }
  NodeBuilder& UID(std::string uid) {
    node_.meta.uid = std::move(uid);
    return *this;
  }
  [[nodiscard]] api::Node Obj() const { return node_; }

 private:
  api::Node node_;
};

// PodBuilder: builds an api::Pod in namespace "default" with one container named "c0" once any
// request is given (Obj() adds an empty "c0" when none was: a Pod needs a container). Req()
// merges into the first container; Container() appends another one.
class PodBuilder {
 public:
  PodBuilder() { pod_.meta.namespace_ = "default"; }

  PodBuilder& Name(std::string name) {
    pod_.meta.name = std::move(name);
    return *this;
  }
  PodBuilder& Namespace(std::string ns) {
    pod_.meta.namespace_ = std::move(ns);
    return *this;
  }
  PodBuilder& UID(std::string uid) {
    pod_.meta.uid = std::move(uid);
    return *this;
  }
  PodBuilder& Label(const std::string& key, std::string value) {
    pod_.meta.labels[key] = std::move(value);
    return *this;
  }
  // Req: requests of the first container (created when missing); later calls merge.
  PodBuilder& Req(const api::ResourceList& requests) {
    if (pod_.containers.empty()) AddContainer();
    for (const auto& [name, amount] : requests) pod_.containers.front().requests[name] = amount;
    return *this;
  }
  // Limits: limits of the first container (created when missing).
  PodBuilder& Limits(const api::ResourceList& limits) {
    if (pod_.containers.empty()) AddContainer();
    for (const auto& [name, amount] : limits) pod_.containers.front().limits[name] = amount;
    return *this;
  }
  // Container: appends a container with `requests`.
  PodBuilder& Container(api::ResourceList requests) {
    AddContainer().requests = std::move(requests);
    return *this;
  }
  // InitReq: appends an init container with `requests`; `sidecar` sets restartPolicy Always.
  PodBuilder& InitReq(api::ResourceList requests, bool sidecar = false) {
    api::Container c;
    c.name = "init" + std::to_string(pod_.init_containers.size());
    c.image = kPauseImage;
    c.requests = std::move(requests);
    c.restart_policy_always = sidecar;
    pod_.init_containers.push_back(std::move(c));
    return *this;
  }
  // HostPort: a port of the first container (created when missing) with hostPort `port`;
  // `protocol` "" keeps the TCP default, `ip` "" = every address.
  PodBuilder& HostPort(int32_t port, std::string protocol = "", std::string ip = "") {
    if (pod_.containers.empty()) AddContainer();
    api::ContainerPort p;
    p.container_port = port;
    p.host_port = port;
    if (!protocol.empty()) p.protocol = std::move(protocol);
    p.host_ip = std::move(ip);
    pod_.containers.front().ports.push_back(std::move(p));
    return *this;
  }
  // PodAffinity / PodAntiAffinity: a required term selecting pods labelled `key`=`value` (in the
  // pod's namespace) per `topology_key`.
  PodBuilder& PodAffinity(std::string key, std::string value, std::string topology_key) {
    if (!pod_.pod_affinity) pod_.pod_affinity.emplace();
    pod_.pod_affinity->required.push_back(
        Term(std::move(key), std::move(value), std::move(topology_key)));
    return *this;
  }
  PodBuilder& PodAntiAffinity(std::string key, std::string value, std::string topology_key) {
    if (!pod_.pod_anti_affinity) pod_.pod_anti_affinity.emplace();
    pod_.pod_anti_affinity->required.push_back(
        Term(std::move(key), std::move(value), std::move(topology_key)));
    return *this;
  }
  PodBuilder& Overhead(api::ResourceList overhead) {
    pod_.overhead = std::move(overhead);
    return *this;
  }
  PodBuilder& Priority(int32_t priority) {
    pod_.priority = priority;
    return *this;
  }
  PodBuilder& PriorityClassName(std::string name) {
    pod_.priority_class_name = std::move(name);
    return *this;
  }
  PodBuilder& PreemptionPolicy(api::PreemptionPolicy policy) {
    pod_.preemption_policy = policy;
    return *this;
  }
  // Group: spec.schedulingGroup.podGroupName.
  PodBuilder& Group(std::string pod_group_name) {
    pod_.pod_group_name = std::move(pod_group_name);
    return *this;
  }
  // Node: spec.nodeName, i.e. the pod is already running there.
  PodBuilder& Node(std::string node_name) {
    pod_.node_name = std::move(node_name);
    return *this;
  }
  // StartTime: status.startTime, seconds since the Unix epoch.
  PodBuilder& StartTime(int64_t seconds) {
    pod_.start_time = seconds;
    return *this;
  }
  PodBuilder& CreationTimestamp(int64_t seconds) {
    pod_.meta.creation_timestamp = seconds;
    return *this;
  }
  PodBuilder& NodeSelector(const std::string& key, std::string value) {
    pod_.node_selector[key] = std::move(value);
    return *this;
  }
  PodBuilder& Toleration(std::string key, std::string value,
                         std::optional<api::TaintEffect> effect = std::nullopt) {
    api::Toleration t;
    t.key = std::move(key);
    t.value = std::move(value);
    t.effect = effect;
    pod_.tolerations.push_back(std::move(t));
    return *this;
  }
  PodBuilder& SchedulerName(std::string name) {
    pod_.scheduler_name = std::move(name);
    return *this;
  }
  PodBuilder& Phase(std::string phase) {
    pod_.phase = std::move(phase);
    return *this;
  }
  [[nodiscard]] api::Pod Obj() const {
    api::Pod pod = pod_;
    if (pod.containers.empty()) {
      api::Container c;
      c.name = "c0";
      c.image = kPauseImage;
      pod.containers.push_back(std::move(c));
    }
    return pod;
  }

 private:
  static api::PodAffinityTerm Term(std::string key, std::string value, std::string topology_key) {
    api::PodAffinityTerm t;
    t.label_selector.emplace().match_labels[std::move(key)] = std::move(value);
    t.topology_key = std::move(topology_key);
    return t;
  }
  api::Container& AddContainer() {
    api::Container c;
    c.name = "c" + std::to_string(pod_.containers.size());
    c.image = kPauseImage;
    pod_.containers.push_back(std::move(c));
    return pod_.containers.back();
  }
  api::Pod pod_;
};

// PodGroupBuilder: builds a standalone scheduling.k8s.io/v1beta1 PodGroup in namespace
// "default" with the Basic policy until MinCount() makes it a gang.
class PodGroupBuilder {
 public:
  PodGroupBuilder() {
    group_.meta.namespace_ = "default";
    group_.api_version = "scheduling.k8s.io/v1beta1";
    group_.scheduling_policy.basic = api::BasicSchedulingPolicy{};
  }

  PodGroupBuilder& Name(std::string name) {
    group_.meta.name = std::move(name);
    return *this;
  }
  PodGroupBuilder& Namespace(std::string ns) {
    group_.meta.namespace_ = std::move(ns);
    return *this;
  }
  // MinCount: gang policy with `min_count`.
  PodGroupBuilder& MinCount(int32_t min_count) {
    group_.scheduling_policy.basic.reset();
    group_.scheduling_policy.gang = api::GangSchedulingPolicy{min_count};
    return *this;
  }
  // Basic: basic (non-gang) policy.
  PodGroupBuilder& Basic() {
    group_.scheduling_policy.gang.reset();
    group_.scheduling_policy.basic = api::BasicSchedulingPolicy{};
    return *this;
  }
  PodGroupBuilder& Priority(int32_t priority) {
    group_.priority = priority;
    return *this;
  }
  PodGroupBuilder& PriorityClassName(std::string name) {
    group_.priority_class_name = std::move(name);
    return *this;
  }
  PodGroupBuilder& CreationTimestamp(int64_t seconds) {
    group_.meta.creation_timestamp = seconds;
    return *this;
  }
  // TopologyKey: schedulingConstraints.topology = [{key}].
  PodGroupBuilder& TopologyKey(std::string key) {
    group_.scheduling_constraints = api::SchedulingConstraints{{api::TopologyConstraint{std::move(key)}}};
    return *this;
  }
  PodGroupBuilder& WorkloadRef(std::string workload_name, std::string template_name) {
    group_.workload_ref = api::WorkloadReference{std::move(workload_name), std::move(template_name)};
    return *this;
  }
  PodGroupBuilder& Parent(std::string composite_pod_group_name) {
    group_.parent_composite_pod_group_name = std::move(composite_pod_group_name);
    return *this;
  }
  PodGroupBuilder& DisruptionAll() {
    group_.disruption_mode = api::DisruptionMode{.single = false, .all = true};
    return *this;
  }
  // Condition: appends a status condition (e.g. PodGroupInitiallyScheduled True/Scheduled).
  PodGroupBuilder& Condition(std::string type, std::string status, std::string reason,
                             std::string message = {}, int64_t last_transition_time = 0) {
    api::Condition c;
    c.type = std::move(type);
    c.status = std::move(status);
    c.reason = std::move(reason);
    c.message = std::move(message);
    c.last_transition_time = last_transition_time;
    group_.conditions.push_back(std::move(c));
    return *this;
  }
  [[nodiscard]] api::PodGroup Obj() const { return group_; }

 private:
  api::PodGroup group_;
};

// CompositePodGroupBuilder: builds a scheduling.k8s.io/v1alpha3 CompositePodGroup in namespace
// "default" with the Basic policy until MinGroupCount() makes it a gang, workloadRef "wl"/name.
class CompositePodGroupBuilder {
 public:
  CompositePodGroupBuilder() {
    group_.meta.namespace_ = "default";
    group_.api_version = "scheduling.k8s.io/v1alpha3";
    group_.scheduling_policy.basic = api::BasicSchedulingPolicy{};
    group_.workload_ref = api::WorkloadReference{"wl", ""};
  }
  CompositePodGroupBuilder& Name(std::string name) {
    group_.meta.name = std::move(name);
    if (group_.workload_ref && group_.workload_ref->template_name.empty()) {
      group_.workload_ref->template_name = group_.meta.name;
    }
    return *this;
  }
  CompositePodGroupBuilder& Namespace(std::string ns) {
    group_.meta.namespace_ = std::move(ns);
    return *this;
  }
  // MinGroupCount: gang policy with `min_group_count`.
  CompositePodGroupBuilder& MinGroupCount(int32_t min_group_count) {
    group_.scheduling_policy.basic.reset();
    group_.scheduling_policy.gang = api::CompositeGangSchedulingPolicy{min_group_count};
    return *this;
  }
  CompositePodGroupBuilder& Basic() {
    group_.scheduling_policy.gang.reset();
    group_.scheduling_policy.basic = api::BasicSchedulingPolicy{};
    return *this;
  }
  CompositePodGroupBuilder& Parent(std::string composite_pod_group_name) {
    group_.parent_composite_pod_group_name = std::move(composite_pod_group_name);
    return *this;
  }
  // TopologyKey: schedulingConstraints.topology = [{key}].
  CompositePodGroupBuilder& TopologyKey(std::string key) {
    group_.scheduling_constraints = api::SchedulingConstraints{{api::TopologyConstraint{std::move(key)}}};
    return *this;
  }
  CompositePodGroupBuilder& WorkloadRef(std::string workload_name, std::string template_name) {
    group_.workload_ref = api::WorkloadReference{std::move(workload_name), std::move(template_name)};
    return *this;
  }
  CompositePodGroupBuilder& CreationTimestamp(int64_t seconds) {
    group_.meta.creation_timestamp = seconds;
    return *this;
  }
  CompositePodGroupBuilder& Priority(int32_t priority) {
    group_.priority = priority;
    return *this;
  }
  [[nodiscard]] api::CompositePodGroup Obj() const { return group_; }

 private:
  api::CompositePodGroup group_;
};

// PriorityClassBuilder: builds a scheduling.k8s.io/v1 PriorityClass.
class PriorityClassBuilder {
 public:
  PriorityClassBuilder& Name(std::string name) {
    class_.meta.name = std::move(name);
    return *this;
  }
  PriorityClassBuilder& Value(int32_t value) {
    class_.value = value;
    return *this;
  }
  PriorityClassBuilder& GlobalDefault(bool global_default = true) {
    class_.global_default = global_default;
    return *this;
  }
  PriorityClassBuilder& PreemptionPolicy(api::PreemptionPolicy policy) {
    class_.preemption_policy = policy;
    return *this;
  }
  [[nodiscard]] api::PriorityClass Obj() const { return class_; }

 private:
  api::PriorityClass class_;
};

[[nodiscard]] inline NodeBuilder MakeNode() { return {}; }
[[nodiscard]] inline PodBuilder MakePod() { return {}; }
[[nodiscard]] inline PodGroupBuilder MakePodGroup() { return {}; }
[[nodiscard]] inline CompositePodGroupBuilder MakeCompositePodGroup() { return {}; }
[[nodiscard]] inline PriorityClassBuilder MakePriorityClass() { return {}; }

}  // namespace wasched::test
