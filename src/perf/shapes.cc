// File: perf/shapes.cc
#include "perf/shapes.h"

#include <string>
#include <utility>

#include "api/pod_group.h"
#include "api/priority_class.h"
#include "perf/load_shapes.h"
#include "perf/sim_shapes.h"

namespace wasched::perf {
namespace {

constexpr int64_t kMi = int64_t{1} << 20;
constexpr int64_t kGi = int64_t{1} << 30;
constexpr const char* kNamespace = "sched-test";

api::Pod MakePod(std::string name, int64_t cpu_milli, int64_t memory_bytes) {
  api::Pod pod;
  pod.meta.name = std::move(name);
  pod.meta.namespace_ = kNamespace;
  api::Container c;
  c.name = "c0";
  c.image = "registry.k8s.io/pause:3.10";
  c.requests = {{"cpu", cpu_milli}, {"memory", memory_bytes}};
  pod.containers.push_back(std::move(c));
  return pod;
}

api::PodGroup MakeGang(std::string name, int32_t min_count) {
  api::PodGroup g;
  g.meta.name = std::move(name);
  g.meta.namespace_ = kNamespace;
  g.api_version = "scheduling.k8s.io/v1alpha3";
  g.scheduling_policy.gang = api::GangSchedulingPolicy{min_count};
  return g;
}

api::SchedulingConstraints Topology(const char* key) {
  return api::SchedulingConstraints{{api::TopologyConstraint{key}}};
}

}  // namespace

api::Node DefaultNode(int index) {
  api::Node n;
  n.meta.name = "node-" + std::to_string(index);
  n.allocatable = {{"cpu", 4000}, {"memory", 32 * kGi}, {"pods", 110}};
  return n;
}

api::Node TasNode(int index, int nodes_per_rack) {
  api::Node n = DefaultNode(index);
  n.meta.labels[kZoneKey] = "zone-" + std::to_string(index / 100);
  n.meta.labels[kRackKey] = "rack-" + std::to_string(index / nodes_per_rack);
  return n;
}

ShapeInput SchedulingBasicShape(int nodes, int existing, int pods) {
  ShapeInput in;
  in.objects.nodes.reserve(nodes);
  for (int i = 0; i < nodes; ++i) in.objects.nodes.push_back(DefaultNode(i));
  in.objects.pods.reserve(static_cast<size_t>(existing) + pods);
  for (int i = 0; i < existing; ++i) {
    api::Pod p = MakePod("init-pod-" + std::to_string(i), 100, 500 * kMi);
    p.node_name = "node-" + std::to_string(i % nodes);
    in.objects.pods.push_back(std::move(p));
  }
  for (int i = 0; i < pods; ++i) in.objects.pods.push_back(MakePod("pod-" + std::to_string(i), 100, 500 * kMi));
  in.units = pods;
  in.pods = pods;
  in.expected_bound = pods;
  in.scan_memory_bytes = 500 * kMi;
  return in;
}

ShapeInput GangShape(int nodes, int gangs, int per_gang) {
  ShapeInput in;
  in.objects.nodes.reserve(nodes);
  for (int i = 0; i < nodes; ++i) in.objects.nodes.push_back(DefaultNode(i));
  in.objects.pods.reserve(static_cast<size_t>(gangs) * per_gang);
  for (int g = 0; g < gangs; ++g) {
    const std::string group = "pg-" + std::to_string(g);
    in.objects.pod_groups.push_back(MakeGang(group, per_gang));
    for (int p = 0; p < per_gang; ++p) {
      api::Pod pod = MakePod(group + "-" + std::to_string(p), 100, 100 * kMi);
      pod.pod_group_name = group;
      in.objects.pods.push_back(std::move(pod));
    }
  }
  in.units = gangs;
  in.pods = static_cast<int64_t>(gangs) * per_gang;
  in.expected_bound = in.pods;
  in.scan_memory_bytes = 100 * kMi;
  return in;
}

ShapeInput RackGangShape(int nodes, int gangs, int per_gang, int nodes_per_rack) {
  ShapeInput in = GangShape(0, gangs, per_gang);
  in.objects.nodes.reserve(nodes);
  for (int i = 0; i < nodes; ++i) in.objects.nodes.push_back(TasNode(i, nodes_per_rack));
  for (api::PodGroup& g : in.objects.pod_groups) g.scheduling_constraints = Topology(kRackKey);
  return in;
}

ShapeInput CompositeShape(int nodes, int cpgs, int groups_per_cpg, int per_group) {
  ShapeInput in;
  in.objects.nodes.reserve(nodes);
  for (int i = 0; i < nodes; ++i) in.objects.nodes.push_back(TasNode(i, kNodesPerRack));
  for (int c = 0; c < cpgs; ++c) {
    const std::string root = "cpg-" + std::to_string(c);
    api::CompositePodGroup cpg;
    cpg.meta.name = root;
    cpg.meta.namespace_ = kNamespace;
    cpg.api_version = "scheduling.k8s.io/v1alpha3";
    cpg.workload_ref = api::WorkloadReference{root, "root"};
    cpg.scheduling_policy.gang = api::CompositeGangSchedulingPolicy{groups_per_cpg};
    cpg.scheduling_constraints = Topology(kZoneKey);
    in.objects.composite_pod_groups.push_back(std::move(cpg));
    for (int g = 0; g < groups_per_cpg; ++g) {
      const std::string group = root + "-pg-" + std::to_string(g);
      api::PodGroup pg = MakeGang(group, per_group);
      pg.parent_composite_pod_group_name = root;
      pg.workload_ref = api::WorkloadReference{root, "group-" + std::to_string(g)};
      pg.scheduling_constraints = Topology(kRackKey);
      in.objects.pod_groups.push_back(std::move(pg));
      for (int p = 0; p < per_group; ++p) {
        api::Pod pod = MakePod(group + "-" + std::to_string(p), 100, 100 * kMi);
        pod.pod_group_name = group;
        in.objects.pods.push_back(std::move(pod));
      }
    }
  }
  in.units = cpgs;
  in.pods = static_cast<int64_t>(cpgs) * groups_per_cpg * per_group;
  in.expected_bound = in.pods;
  in.scan_memory_bytes = 100 * kMi;
  return in;
}

ShapeInput PreemptionShape(int nodes, int running, int preemptors) {
  ShapeInput in;
  in.objects.nodes.reserve(nodes);
  for (int i = 0; i < nodes; ++i) in.objects.nodes.push_back(DefaultNode(i));
  api::PriorityClass low;
  low.meta.name = "low-priority";
  low.value = 1;
  api::PriorityClass high;
  high.meta.name = "high-priority";
  high.value = 100;
  in.objects.priority_classes = {low, high};
  for (int i = 0; i < running; ++i) {
    api::Pod p = MakePod("low-" + std::to_string(i), 900, 500 * kMi);
    p.priority_class_name = "low-priority";
    p.priority = 1;
    p.node_name = "node-" + std::to_string(i % nodes);
    in.objects.pods.push_back(std::move(p));
  }
  for (int i = 0; i < preemptors; ++i) {
    api::Pod p = MakePod("high-" + std::to_string(i), 3000, 500 * kMi);
    p.priority_class_name = "high-priority";
    p.priority = 100;
    in.objects.pods.push_back(std::move(p));
  }
  in.units = preemptors;
  in.pods = preemptors;
  in.expected_bound = preemptors;
  in.scan_cpu_milli = 3000;
  in.scan_memory_bytes = 500 * kMi;
  return in;
}

namespace {

int Pick(Scale s, int full, int tiny) { return s == Scale::kFull ? full : tiny; }

std::vector<Shape> MakeShapes() {
  std::vector<Shape> shapes;
  auto add = [&](Shape s) { shapes.push_back(std::move(s)); };
  add({"SchedulingBasic/5000Nodes_10000Pods",
       "node-default × 5000, 1000 pod-default running, 10000 pending", Measure::kThroughput, "pods/s", 1.0,
       Direction::kHigherIsBetter, 1250000.0,
       [](Scale s) { return SchedulingBasicShape(Pick(s, 5000, 50), Pick(s, 1000, 10), Pick(s, 10000, 100)); }, /*prepare=*/{}, /*load=*/{}});
  add({"GangScheduling/5000Nodes_1000Gangs_3000Pods", "1000 gangs × 3 gang-pods, minCount 3",
       Measure::kTimePerUnit, "µs/PodGroup", 1e6, Direction::kLowerIsBetter, 3.0,
       [](Scale s) { return GangShape(Pick(s, 5000, 50), Pick(s, 1000, 10), 3); }, /*prepare=*/{}, /*load=*/{}});
  add({"GangScheduling/5000Nodes_10Gangs_50000Pods_5000PerGroup", "10 gangs × 5000 gang-pods, minCount 5000",
       Measure::kTimePerUnit, "ms/PodGroup", 1e3, Direction::kLowerIsBetter, 1.5,
       [](Scale s) { return GangShape(Pick(s, 5000, 50), Pick(s, 10, 2), Pick(s, 5000, 50)); }, /*prepare=*/{}, /*load=*/{}});
  add({"TopologyAware/5000Nodes_2250Gangs_9000Pods", "2250 gangs × 4 pods, each in one rack (10 nodes/rack)",
       Measure::kTimePerUnit, "µs/gang", 1e6, Direction::kLowerIsBetter, 3.0,
       [](Scale s) { return RackGangShape(Pick(s, 5000, 200), Pick(s, 2250, 20), 4); }, /*prepare=*/{}, /*load=*/{}});
  add({"CompositePodGroup/5000Nodes_1500CPGs_2Groups_4Pods",
       "1500 CompositePodGroups (zone) × 2 PodGroups (rack) × 4 pods, minGroupCount 2",
       Measure::kTimePerUnit, "µs/CompositePodGroup", 1e6, Direction::kLowerIsBetter, 6.0,
       [](Scale s) { return CompositeShape(Pick(s, 5000, 200), Pick(s, 1500, 15), 2, 4); }, /*prepare=*/{}, /*load=*/{}});
  add({"Preemption/5000Nodes_20000Running", "20000 low-priority pods (4 per node), 5000 high-priority preemptors",
       Measure::kTimePerUnit, "µs/preemptor", 1e6, Direction::kLowerIsBetter, 25.0,
       [](Scale s) { return PreemptionShape(Pick(s, 5000, 50), Pick(s, 20000, 200), Pick(s, 5000, 50)); }, /*prepare=*/{}, /*load=*/{}});
  add({"Memory/5000Nodes_150000Pods", "resident memory of one Schedule run: 5000 nodes, 150000 running pods",
       Measure::kResidentBytes, "MiB", 1.0, Direction::kLowerIsBetter, 25.0, [](Scale s) {
         ShapeInput in = SchedulingBasicShape(Pick(s, 5000, 50), Pick(s, 150000, 1500), 0);
         in.units = static_cast<int64_t>(in.objects.pods.size());
         return in;
       }, /*prepare=*/{}, /*load=*/{}});
  for (int nodes : {500, 5000, 50000}) {
    const std::string n = std::to_string(nodes);
    add({"Scaling/" + n + "Nodes_" + std::to_string(2 * nodes) + "Pods",
         "SchedulingBasic at " + n + " nodes, 2 pending pods per node", Measure::kThroughput, "pods/s", 1.0,
         Direction::kHigherIsBetter, std::nullopt, [nodes](Scale s) {
           const int size = s == Scale::kFull ? nodes : nodes / 100;
           return SchedulingBasicShape(size, size / 5, 2 * size);
         }, /*prepare=*/{}, /*load=*/{}});
  }
  for (Shape& s : SimulationShapes()) add(std::move(s));
  for (Shape& s : LoadShapes()) add(std::move(s));
  return shapes;
}

}  // namespace

const std::vector<Shape>& Shapes() {
  static const std::vector<Shape> shapes = MakeShapes();
  return shapes;
}

const Shape* FindShape(const std::string& name) {
  for (const Shape& s : Shapes()) {
    if (s.name == name) return &s;
  }
  return nullptr;
}

}  // namespace wasched::perf
