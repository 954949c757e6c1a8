// File: codec/convert_gang.h
//
// `wasched convert` from third-party gang schedulers to the native v1.37 objects (issue 19;
// internal to codec/, driven by codec/convert.cc on the document trees). What has a native
// equivalent is rewritten; every field that has none is reported (a ConvertIssue naming it);
// the rest passes through.
//
// scheduler-plugins coscheduling (sigs.k8s.io/scheduler-plugins apis/scheduling/v1alpha1):
//   PodGroup scheduling.x-k8s.io/v1alpha1 {minMember}   → PodGroup {schedulingPolicy.gang.minCount}
//     (minMember 0 or absent: basic); minResources, scheduleTimeoutSeconds, status: reported.
//   pod / pod template label scheduling.x-k8s.io/pod-group: <pg> → spec.schedulingGroup.
// Volcano (volcano.sh/apis scheduling/v1beta1, batch/v1alpha1):
//   PodGroup scheduling.volcano.sh/v1beta1 {minMember, priorityClassName} → PodGroup
//     {gang.minCount, priorityClassName}; queue, minResources, minTaskMember, networkTopology,
//     status and other fields: reported.
//   pod / pod template annotation scheduling.k8s.io/group-name: <pg> → spec.schedulingGroup
//     (and schedulerName volcano dropped, reported).
//   Job batch.volcano.sh/v1alpha1 {minAvailable, tasks[] {name, replicas, minAvailable,
//     template}} → a Workload `<job>` whose compositePodGroupTemplate `<job>` (gang,
//     minGroupCount = tasks with a minimum) holds one podGroupTemplate per task (gang minCount =
//     the task's minAvailable, defaulted to replicas as Volcano's webhook does); a
//     CompositePodGroup `<job>` (scheduling.k8s.io/v1alpha3, the only version serving it);
//     a PodGroup `<job>-<task>` per task; and the pods Volcano's job controller creates,
//     `<job>-<task>-<index>` with its volcano.sh/* labels. Volcano's gang (gang plugin
//     CheckTaskValid) requires each task's minimum only when the job's minAvailable is at least
//     their sum, else only the total: with one task that total is the task's minCount; with
//     several the total is spread over the tasks in order (reported). queue, plugins,
//     policies, maxRetry, ttlSecondsAfterFinished, networkTopology, partitionPolicy, volumes,
//     minSuccess, dependsOn and the like: reported.
// Kueue plain pod groups (kueue.x-k8s.io): pods labelled kueue.x-k8s.io/pod-group-name with
//   the annotation kueue.x-k8s.io/pod-group-total-count → a PodGroup `<group name>` (gang,
//   minCount = total count; the TAS annotation kueue.x-k8s.io/podset-required-topology becomes
//   schedulingConstraints.topology) generated after the group's first pod, and the pods'
//   spec.schedulingGroup; kueue.x-k8s.io/queue-name and the other Kueue keys: reported.
#pragma once

#include <functional>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "codec/yaml_tree.h"

namespace wasched::codec::internal {

// GangObject: one object of the convert input (List items included).
struct GangObject {
  YamlTree* node = nullptr;
  std::string api_version;
  std::string kind;
  std::string name;
  std::string namespace_;  // metadata.namespace, "" when absent
  int index = 0;           // input order
};

// GangSink: how the conversion reports and adds objects (codec/convert.cc).
struct GangSink {
  std::function<void(const GangObject&, std::string_view rel, std::string reason)> issue;
  std::function<void(const GangObject&, std::string_view rel, const YamlTree& value,
                     std::string_view expected)>
      type_error;
  std::function<void(const GangObject&, YamlTree generated)> emit_after;
  std::function<void(const GangObject&)> changed;
};

// GangSchedulerConversion: Learn every object first (the groups), then Convert each.
class GangSchedulerConversion {
 public:
  // `target`: the apiVersion Workloads and PodGroups are written at (v1beta1 or v1alpha3).
  GangSchedulerConversion(std::string target, GangSink sink)
      : target_(std::move(target)), sink_(std::move(sink)) {}

  void Learn(const GangObject& o);
  void Convert(GangObject& o);
  // Finish: the PodGroups of Kueue pod groups (after their first pod). Call after Convert.
  void Finish();
  [[nodiscard]] int generated() const { return generated_; }

 private:
  struct KueueGroup {
    const GangObject* first = nullptr;
    std::string ns;
    std::string name;
    std::string total_count;
    std::string required_topology;
    bool topology_differs = false;
  };
  using Key = std::pair<std::string, std::string>;  // (namespace "default" filled, name)

  void ConvertCoschedulingPodGroup(GangObject& o);
  void ConvertVolcanoPodGroup(GangObject& o);
  void ConvertVolcanoJob(GangObject& o);
  // ConvertPodMembership: the pod labels / annotations of one pod (or template) → schedulingGroup.
  void ConvertPodMembership(GangObject& o, YamlTree* meta, YamlTree* spec, const std::string& rel);
  YamlTree GroupHeader(const std::string& kind, const std::string& api_version,
                       const std::string& name, const std::string& ns, const YamlTree* labels);
  // MinMember: an integer field as int64; nullopt when absent; reports a wrong type.
  std::optional<int64_t> ReadInt(const GangObject& o, std::string_view rel, const YamlTree& map,
                                 std::string_view key);
  void ReportOthers(const GangObject& o, std::string_view rel, const YamlTree& map,
                    std::initializer_list<std::string_view> handled, std::string_view what);

  std::string target_;
  GangSink sink_;
  std::set<Key> coscheduling_groups_;
  std::set<Key> volcano_groups_;
  std::map<Key, KueueGroup> kueue_groups_;
  std::vector<Key> kueue_order_;
  int generated_ = 0;
};

}  // namespace wasched::codec::internal
