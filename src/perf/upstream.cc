// File: perf/upstream.cc
#include "perf/upstream.h"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <utility>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "api/pod_group.h"
#include "perf/cpu_time.h"
#include "sched/scheduler.h"

#ifndef WASCHED_SOURCE_DIR
#define WASCHED_SOURCE_DIR "."
#endif

namespace wasched::perf {
namespace {

constexpr int64_t kMi = int64_t{1} << 20;
constexpr const char* kHostnameKey = "kubernetes.io/hostname";
// Upstream's pods name the priority in spec.priority (no PriorityClass); these are its values
// (workload_preemption/templates).
constexpr int32_t kGangPriority = 8888888;
constexpr int32_t kAnchorPriority = 9999999;
constexpr int32_t kHighGroupPriority = 9999999;  // GangPreemptionPodGroups' preemptors
constexpr int32_t kLowGroupPriority = 1000;

api::Pod MakePod(std::string name, std::string ns, int64_t cpu_milli, int64_t memory_bytes) {
  api::Pod pod;
  pod.meta.name = std::move(name);
  pod.meta.namespace_ = std::move(ns);
  api::Container c;
  c.name = "pause";
  c.image = "registry.k8s.io/pause:3.10";
  c.requests = {{"cpu", cpu_milli}, {"memory", memory_bytes}};
  c.limits = c.requests;
  pod.containers.push_back(std::move(c));
  return pod;
}

void AddHostPort(api::Pod* pod, int32_t port) {
  api::ContainerPort p;
  p.container_port = 80;
  p.host_port = port;
  pod->containers[0].ports.push_back(p);
}

api::PodGroup MakeGroup(std::string name, std::string ns, int32_t min_count, int32_t priority) {
  api::PodGroup g;
  g.meta.name = std::move(name);
  g.meta.namespace_ = std::move(ns);
  g.api_version = "scheduling.k8s.io/v1beta1";
  g.scheduling_policy.gang = api::GangSchedulingPolicy{min_count};
  g.priority = priority;
  return g;
}

// The labels of workload_preemption's low-priority and anchor pods (and the gang pods' selector).
std::map<std::string, std::string> BlueLabels() {
  return {{"app", "blue"}, {"label1", "value1"}, {"label2", "value2"}, {"label3", "value3"}, {"label4", "value4"}};
}

// AddLowPriorityPods: workload_preemption's pod-low-priority template, placed as upstream's
// host ports spread it: init_pods / nodes per node, pod i on port 8000 + i mod that.
void AddLowPriorityPods(ShapeInput* in, int nodes, int init_pods) {
  const int per_node = std::max(1, init_pods / std::max(1, nodes));
  for (int i = 0; i < init_pods; ++i) {
    api::Pod p = MakePod("pod-low-priority-" + std::to_string(i), "gang-preempt-1", 40, 100 * kMi);
    p.meta.labels = BlueLabels();
    p.priority = 0;
    AddHostPort(&p, 8000 + i % per_node);
    p.node_name = "node-" + std::to_string((i / per_node) % nodes);
    in->objects.pods.push_back(std::move(p));
  }
}

void AddGangs(ShapeInput* in, const std::string& ns, int gangs, int per_gang, int32_t priority,
              const std::function<api::Pod(int index)>& pod) {
  for (int g = 0; g < gangs; ++g) {
    in->objects.pod_groups.push_back(MakeGroup("gang-" + std::to_string(g), ns, per_gang, priority));
    for (int j = 0; j < per_gang; ++j) {
      api::Pod p = pod(g * per_gang + j);
      p.pod_group_name = "gang-" + std::to_string(g);
      in->objects.pods.push_back(std::move(p));
    }
  }
}

void Expect(ShapeInput* in, int64_t pods, int64_t cpu_milli, int64_t memory_bytes) {
  in->units = pods;
  in->pods = pods;
  in->expected_bound = pods;
  in->scan_cpu_milli = cpu_milli;
  in->scan_memory_bytes = memory_bytes;
}

std::vector<UpstreamWorkload> MakeWorkloads() {
  std::vector<UpstreamWorkload> out;
  auto add = [&](std::string suite, std::string test_case, std::string workload, int64_t pods,
                 std::function<ShapeInput()> build, std::string shape, std::string note = "") {
    out.push_back({std::move(suite), std::move(test_case), std::move(workload), pods, std::move(build),
                   std::move(shape), std::move(note)});
  };
  // misc/performance-config.yaml SchedulingBasic: node-default, pod-default (100m / 500Mi).
  struct Basic {
    const char* name;
    int nodes, init, pods;
  };
  for (const Basic b : {Basic{"500Nodes", 500, 500, 1000}, Basic{"5000Nodes", 5000, 1000, 1000},
                        Basic{"5000Nodes_10000Pods", 5000, 1000, 10000}, Basic{"5000Nodes_50000Pods", 5000, 5000, 50000},
                        Basic{"5000Nodes_50000Pods_AsyncAPICallsEnabled", 5000, 5000, 50000}}) {
    add("misc", "SchedulingBasic", b.name, b.pods,
        [b] { return SchedulingBasicShape(b.nodes, b.init, b.pods); },
        b.pods == 10000 ? "SchedulingBasic/5000Nodes_10000Pods" : "",
 std::string(b.name).find("AsyncAPICalls") != std::string::npos
            ? "SchedulerAsyncAPICalls only changes upstream's API calls; the engine makes none"
            : "");
  }
  // podgroup/{gangscheduling,tas,basicscheduling}: 5000 nodes, groups × pods per group.
  struct Groups {
    int groups, per_group;
  };
  for (const Groups g : {Groups{1000, 3}, Groups{2000, 3}, Groups{3000, 3}, Groups{3, 1000}, Groups{6, 1000},
                         Groups{9, 1000}}) {
    const int64_t pods = static_cast<int64_t>(g.groups) * g.per_group;
    const std::string suffix = g.per_group == 1000 ? fmt::format("_{}PerGroup", g.per_group) : "";
    add("gangscheduling", "GangScheduling", fmt::format("5000Nodes_{}Gangs_{}Pods{}", g.groups, pods, suffix), pods,
        [g] { return GangShape(5000, g.groups, g.per_group); },
        g.groups == 1000 ? "GangScheduling/5000Nodes_1000Gangs_3000Pods" : "");
    add("podgroupbasic", "BasicScheduling", fmt::format("5000Nodes_{}Groups_{}Pods{}", g.groups, pods, suffix), pods,
        [g] { return BasicPodGroupShape(5000, g.groups, g.per_group); }, "");
  }
  // TAS: 4 pods per group for the many-groups rows (upstream's file), 100 nodes per rack.
  for (const Groups g : {Groups{750, 4}, Groups{1500, 4}, Groups{2250, 4}, Groups{3, 1000}, Groups{6, 1000},
                         Groups{9, 1000}}) {
    const int64_t pods = static_cast<int64_t>(g.groups) * g.per_group;
    const std::string suffix = g.per_group == 1000 ? "_1000PerGroup" : "";
    add("tas", "TopologyAwareScheduling", fmt::format("5000Nodes_{}Gangs_{}Pods{}", g.groups, pods, suffix), pods,
        [g] { return RackGangShape(5000, g.groups, g.per_group, 100); }, "",
        "racks of 100 nodes as upstream's TAS node template (wasched's TopologyAware target row uses 10)");
  }
  // workload_preemption/performance-config.yaml.
  add("workloadpreemption", "GangPreemptionBasic", "100Nodes_1PreemptorGang_100Pods_Evicting_1000InitPods", 100,
      [] { return GangPreemptionBasicShape(100, 1000, 1, 100, 3970); }, "");
  add("workloadpreemption", "GangPreemptionBasic", "100Nodes_10PreemptorGangs_10Pods_Evicting_1000InitPods", 100,
      [] { return GangPreemptionBasicShape(100, 1000, 10, 10, 3970); }, "");
  add("workloadpreemption", "GangPreemptionPodGroups", "100Nodes_1PreemptorGang_100Pods_Evicting_5LowPriorityGangs",
      100, [] { return GangPreemptionPodGroupsShape(100, 5, 1, 100, 600, 3500); }, "");
  add("workloadpreemption", "GangPreemptionPodGroups",
      "100Nodes_10PreemptorGangs_10Pods_Evicting_50LowPriorityGangs", 100,
      [] { return GangPreemptionPodGroupsShape(100, 50, 10, 10, 600, 3500); }, "");
  add("workloadpreemption", "GangPreemptionAffinity", "100Nodes_1PreemptorGang_100Pods_Evicting_1000InitPods", 100,
      [] { return GangPreemptionAffinityShape(100, 1000, 1, 100); }, "");
  add("workloadpreemption", "GangPreemptionAffinity", "100Nodes_10PreemptorGangs_10Pods_Evicting_1000InitPods", 100,
      [] { return GangPreemptionAffinityShape(100, 1000, 10, 10); }, "");
  // wasched rows without an upstream workload.
  add("", "CompositePodGroup", "5000Nodes_1500CPGs_2Groups_4Pods", 12000, {},
      "CompositePodGroup/5000Nodes_1500CPGs_2Groups_4Pods",
      "upstream v1.37.2 scheduler_perf has no CompositePodGroup workload (its ops create PodGroups only: "
      "createPodGroups in operations.go); wasched-only shape, see wasched bench");
  return out;
}

}  // namespace

ShapeInput BasicPodGroupShape(int nodes, int groups, int per_group) {
  ShapeInput in = GangShape(nodes, groups, per_group);
  for (api::PodGroup& g : in.objects.pod_groups) {
    g.scheduling_policy.gang.reset();
    g.scheduling_policy.basic = api::BasicSchedulingPolicy{};
  }
  return in;
}

ShapeInput GangPreemptionBasicShape(int nodes, int init_pods, int gangs, int per_gang, int64_t gang_cpu_milli) {
  ShapeInput in;
  for (int i = 0; i < nodes; ++i) in.objects.nodes.push_back(DefaultNode(i));
  AddLowPriorityPods(&in, nodes, init_pods);
  AddGangs(&in, "gang-preempt-0", gangs, per_gang, kGangPriority, [&](int index) {
    api::Pod p = MakePod("pod-gang-" + std::to_string(index), "gang-preempt-0", gang_cpu_milli, 100 * kMi);
    p.priority = kGangPriority;
    return p;
  });
  Expect(&in, static_cast<int64_t>(gangs) * per_gang, gang_cpu_milli, 100 * kMi);
  return in;
}

ShapeInput GangPreemptionPodGroupsShape(int nodes, int low_groups, int high_groups, int per_group,
                                        int64_t low_cpu_milli, int64_t high_cpu_milli) {
  ShapeInput in;
  for (int i = 0; i < nodes; ++i) in.objects.nodes.push_back(DefaultNode(i));
  // The low-priority gangs run: gang g's pods on distinct nodes (its host port), spread evenly.
  AddGangs(&in, "gang-preempt-1", low_groups, per_group, kLowGroupPriority, [&](int index) {
    api::Pod p = MakePod("pod-gang-" + std::to_string(index), "gang-preempt-1", low_cpu_milli, 100 * kMi);
    p.priority = kLowGroupPriority;
    AddHostPort(&p, 8000 + index / per_group);
    p.node_name = "node-" + std::to_string(index % nodes);
    return p;
  });
  AddGangs(&in, "gang-preempt-0", high_groups, per_group, kHighGroupPriority, [&](int index) {
    api::Pod p = MakePod("pod-gang-" + std::to_string(index), "gang-preempt-0", high_cpu_milli, 100 * kMi);
    p.priority = kHighGroupPriority;
    AddHostPort(&p, 9000 + index / per_group);
    return p;
  });
  Expect(&in, static_cast<int64_t>(high_groups) * per_group, high_cpu_milli, 100 * kMi);
  return in;
}

ShapeInput GangPreemptionAffinityShape(int nodes, int init_pods, int gangs, int per_gang) {
  ShapeInput in;
  for (int i = 0; i < nodes; ++i) {
    api::Node n = DefaultNode(i);
    n.meta.labels[kHostnameKey] = n.meta.name;
    in.objects.nodes.push_back(std::move(n));
  }
  for (int i = 0; i < nodes; ++i) {  // pod-anchor-high-priority: one per node (host port 7000)
    api::Pod p = MakePod("pod-anchor-" + std::to_string(i), "gang-preempt-2", 10, 100 * kMi);
    p.meta.labels = BlueLabels();
    p.priority = kAnchorPriority;
    AddHostPort(&p, 7000);
    p.node_name = "node-" + std::to_string(i);
    in.objects.pods.push_back(std::move(p));
  }
  AddLowPriorityPods(&in, nodes, init_pods);
  AddGangs(&in, "gang-preempt-0", gangs, per_gang, kGangPriority, [&](int index) {
    api::Pod p = MakePod("pod-gang-" + std::to_string(index), "gang-preempt-0", 3970, 500 * kMi);
    p.priority = kGangPriority;
    api::PodAffinityTerm term;
    term.label_selector.emplace().match_labels = BlueLabels();
    term.topology_key = kHostnameKey;
    term.namespace_selector.emplace();  // {}: every namespace
    p.pod_affinity.emplace().required.push_back(std::move(term));
    return p;
  });
  Expect(&in, static_cast<int64_t>(gangs) * per_gang, 3970, 500 * kMi);
  return in;
}

const std::vector<UpstreamWorkload>& UpstreamWorkloads() {
  static const std::vector<UpstreamWorkload> workloads = MakeWorkloads();
  return workloads;
}

tl::expected<std::vector<UpstreamResult>, std::string> ParseUpstreamResults(const std::string& text) {
  nlohmann::json j = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) return tl::unexpected(std::string("not JSON"));
  if (!j.is_array()) return tl::unexpected(std::string("not a JSON list"));
  std::vector<UpstreamResult> out;
  for (size_t i = 0; i < j.size(); ++i) {
    const nlohmann::json& row = j[i];
    if (!row.is_object() || !row.contains("testCase") || !row["testCase"].is_string() ||
        !row.contains("workload") || !row["workload"].is_string()) {
      return tl::unexpected(fmt::format("row {}: no testCase / workload", i));
    }
    UpstreamResult r;
    r.suite = row.value("suite", "");
    r.test_case = row["testCase"].get<std::string>();
    r.workload = row["workload"].get<std::string>();
    r.status = row.value("status", "");
    if (row.contains("throughputAverage") && row["throughputAverage"].is_number()) {
      r.throughput_average = row["throughputAverage"].get<double>();
    }
    if (row.contains("threshold") && row["threshold"].is_number()) r.threshold = row["threshold"].get<double>();
    if (row.contains("schedulingSeconds") && row["schedulingSeconds"].is_number()) {
      r.scheduling_seconds = row["schedulingSeconds"].get<double>();
    }
    if (row.contains("wallSeconds") && row["wallSeconds"].is_number()) r.wall_seconds = row["wallSeconds"].get<double>();
    r.log = row.value("log", "");
    r.error = row.value("error", "");
    out.push_back(std::move(r));
  }
  return out;
}

EngineReading MeasureEngine(const UpstreamWorkload& w, int repetitions) {
  const ShapeInput in = w.build();
  EngineReading r;
  r.expected_bound = in.expected_bound;
  std::vector<double> cpu;
  std::vector<double> wall;
  for (int i = 0; i < std::max(1, repetitions); ++i) {
    const double cpu0 = ThreadCpuSeconds();
    const auto wall0 = std::chrono::steady_clock::now();
    const sched::ScheduleResult result = sched::Schedule(in.objects, sched::SchedulerOptions{});
    cpu.push_back(ThreadCpuSeconds() - cpu0);
    wall.push_back(std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count());
    r.bound = static_cast<int64_t>(result.bindings.size());
  }
  std::sort(cpu.begin(), cpu.end());
  std::sort(wall.begin(), wall.end());
  r.seconds = cpu[cpu.size() / 2];
  r.wall_seconds = wall[wall.size() / 2];
  r.pods_per_second = static_cast<double>(w.measured_pods) / std::max(r.seconds, 1e-9);
  return r;
}

std::string UpstreamScriptPath() {
  return (std::filesystem::path(WASCHED_SOURCE_DIR) / "scripts" / "bench-upstream.sh").string();
}

}  // namespace wasched::perf
