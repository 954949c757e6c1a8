// File: examples/workloadbuilder/jobset_example.cc
//
// How a controller author uses wasched's workloadbuilder library (the C++ port of
// k8s.io/component-helpers/scheduling/schedulingv1/workloadbuilder): a JobSet-like controller
// describes its object as a tree — a composite root (the JobSet: both replicated jobs or
// nothing, minGroupCount 2) with a leader child (gang of 1) and a workers child (gang of 4,
// defaulted from the replica count by a callback) — validates it, builds the Workload,
// materializes the runtime CompositePodGroup and PodGroups, creates pods naming the PodGroups,
// and asks wasched's scheduler where they would go.
//
//   ./workloadbuilder_jobset_example            # prints the objects (YAML) and the bindings
//
// Exit code 0 when the tree is valid and every pod is bound, 1 otherwise.
#include <iostream>
#include <string>

#include "api/object_set.h"
#include "codec/generated_encoding.h"
#include "sched/scheduler.h"
#include "workloadbuilder/builder.h"

namespace wb = wasched::workloadbuilder;
namespace api = wasched::api;

namespace {

// JobSetTree: what a JobSet controller would derive from its spec. `path` tells Validate where
// each block came from, so a user's mistake is reported at the JobSet's own field path.
wb::WorkloadItem JobSetTree(int32_t workers) {
  wb::WorkloadItem root;
  root.name = "trainer";
  root.path = "spec.scheduling";
  api::WorkloadCompositePodGroupSchedulingPolicy all_or_nothing;
  all_or_nothing.gang = api::WorkloadCompositePodGroupGangSchedulingPolicy{2};
  root.input.policy = {std::nullopt, all_or_nothing, {"schedulingPolicy"}};

  wb::WorkloadItem leader;
  leader.name = "trainer-leader";
  leader.path = "spec.replicatedJobs[0].scheduling";
  leader.default_config.emplace().policy = wb::Gang(1);

  wb::WorkloadItem worker;
  worker.name = "trainer-workers";
  worker.path = "spec.replicatedJobs[1].scheduling";
  api::WorkloadPodGroupSchedulingPolicy gang_without_count;
  gang_without_count.gang = api::WorkloadPodGroupGangSchedulingPolicy{};  // user wrote `gang: {}`
  worker.input.policy = {gang_without_count, std::nullopt, {"schedulingPolicy"}};
  worker.callbacks.push_back([workers](wb::SchedulingConfig& c) {
    if (c.policy && c.policy->gang && !c.policy->gang->min_count) c.policy->gang->min_count = workers;
  });

  root.children = {leader, worker};
  return root;
}

api::Pod MemberPod(const std::string& name, const std::string& group) {
  api::Pod pod;
  pod.meta.name = name;
  pod.meta.namespace_ = "ml";
  api::Container main;
  main.name = "main";
  main.requests = {{"cpu", 1000}};
  pod.containers.push_back(main);
  pod.pod_group_name = group;
  pod.scheduling_group_set = true;
  return pod;
}

}  // namespace

int main() {
  constexpr int32_t kWorkers = 4;
  wb::BuildOptions opts;
  opts.name = "trainer-wl";
  opts.namespace_ = "ml";
  opts.owner = api::OwnerReference{"jobset.x-k8s.io/v1alpha2", "JobSet", "trainer", "js-uid", true, true};
  opts.allowed_policies = {wb::SchedulingPolicyOption::kBasicPolicy, wb::SchedulingPolicyOption::kGangPolicy};
  opts.allowed_disruption_modes = {wb::DisruptionModeOption::kSingleMode, wb::DisruptionModeOption::kAllMode};
  wb::Builder builder = wb::Builder::New(JobSetTree(kWorkers), opts);

  if (auto errors = builder.Validate(); !errors.empty()) {
    for (const auto& e : errors) std::cerr << "error: " << e.ToString() << '\n';
    return 1;
  }
  auto workload = builder.BuildWorkload();
  if (!workload) {
    std::cerr << "error: " << workload.error() << '\n';
    return 1;
  }

  api::ObjectSet objects;
  objects.workloads.push_back(**workload);
  auto root = builder.NewCompositePodGroup("trainer-root", "trainer");
  auto leader = builder.NewChildPodGroup("trainer-leader-0", "trainer-leader", "trainer-root");
  auto workers = builder.NewChildPodGroup("trainer-workers-0", "trainer-workers", "trainer-root");
  if (!root || !leader || !workers) {
    std::cerr << "error: " << (!root ? root.error() : !leader ? leader.error() : workers.error()) << '\n';
    return 1;
  }
  objects.composite_pod_groups.push_back(*root);
  objects.pod_groups.push_back(*leader);
  objects.pod_groups.push_back(*workers);
  objects.pods.push_back(MemberPod("trainer-leader-0-0", leader->meta.name));
  for (int i = 0; i < kWorkers; ++i) {
    objects.pods.push_back(MemberPod("trainer-workers-0-" + std::to_string(i), workers->meta.name));
  }
  std::cout << wasched::codec::EncodeObjectsYaml(objects);

  for (int i = 0; i < 6; ++i) {
    api::Node node;
    node.meta.name = "node-" + std::to_string(i);
    node.allocatable = {{"cpu", 1000}, {"memory", 4LL << 30}, {"pods", 110}};
    objects.nodes.push_back(node);
  }
  const wasched::sched::ScheduleResult result = wasched::sched::Schedule(objects, {});
  std::cout << "# bindings\n";
  for (const auto& b : result.bindings) std::cout << "# " << b.pod << " -> " << b.node << '\n';
  for (const auto& p : result.pending) std::cout << "# pending " << p.pod << ": " << p.message << '\n';
  return result.bindings.size() == objects.pods.size() ? 0 : 1;
}
