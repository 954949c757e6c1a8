// File: controller/jobset/pod_webhook.cc
//
// Upstream: kubernetes-sigs/jobset pkg/webhooks/pod_webhook.go (Default, patchPod,
// setExclusiveAffinities, ValidateCreate), pkg/util/placement (IsLeaderPod).
#include "controller/jobset/pod_webhook.h"

#include "controller/controller.h"
#include "controller/jobset/names.h"

namespace wasched::controller::jobset {
namespace {

constexpr const char* kCompletionIndexAnnotation = "batch.kubernetes.io/job-completion-index";

api::LabelSelectorRequirement Requirement(const char* key, api::LabelSelectorOperator op,
                                          std::vector<std::string> values) {
  api::LabelSelectorRequirement r;
  r.key = key;
  r.op = op;
  r.op_text = op == api::LabelSelectorOperator::kIn      ? "In"
              : op == api::LabelSelectorOperator::kNotIn ? "NotIn"
                                                         : "Exists";
  r.values = std::move(values);
  return r;
}

void SetExclusiveAffinities(api::Pod* pod, const std::string& topology_key) {
  const std::string job_key = pod->meta.labels[kJobKey];
  const std::string priority = pod->meta.labels[kPriorityKey];
  api::PodAffinityTerm affinity;
  affinity.label_selector.emplace();
  affinity.label_selector->match_expressions.push_back(
      Requirement(kJobKey, api::LabelSelectorOperator::kIn, {job_key}));
  affinity.topology_key = topology_key;
  affinity.namespace_selector = api::LabelSelector{};
  api::PodAffinityTerm anti;
  anti.label_selector.emplace();
  anti.label_selector->match_expressions.push_back(
      Requirement(kJobKey, api::LabelSelectorOperator::kExists, {}));
  anti.label_selector->match_expressions.push_back(
      Requirement(kJobKey, api::LabelSelectorOperator::kNotIn, {job_key}));
  anti.label_selector->match_expressions.push_back(
      Requirement(kPriorityKey, api::LabelSelectorOperator::kIn, {priority}));
  anti.topology_key = topology_key;
  anti.namespace_selector = api::LabelSelector{};
  if (!pod->pod_affinity) pod->pod_affinity.emplace();
  if (!pod->pod_anti_affinity) pod->pod_anti_affinity.emplace();
  pod->pod_affinity->required.push_back(std::move(affinity));
  pod->pod_anti_affinity->required.push_back(std::move(anti));
}

}  // namespace

bool IsLeaderPod(const api::Pod& pod) {
  const auto it = pod.meta.annotations.find(kCompletionIndexAnnotation);
  return it != pod.meta.annotations.end() && it->second == "0";
}

WebhookResult AdmitPod(api::Pod* pod, int32_t priority) {
  WebhookResult r;
  const auto& annotations = pod->meta.annotations;
  if (annotations.count(kJobSetNameKey) == 0) return r;
  if (annotations.count(kNodeSelectorStrategyKey) > 0) return r;
  pod->meta.labels[kPriorityKey] = std::to_string(priority);
  const auto exclusive = annotations.find(kExclusiveKey);
  if (exclusive == annotations.end()) return r;
  const std::string topology_key = exclusive->second;
  if (IsLeaderPod(*pod)) {
    SetExclusiveAffinities(pod, topology_key);
    return r;
  }
  // A follower: Default sets no nodeSelector while the leader is unscheduled, so ValidateCreate
  // refuses it ("follower pod node selector not set").
  if (pod->node_selector.count(topology_key) == 0) {
    r.deferred = true;
    r.topology_key = topology_key;
  }
  return r;
}

}  // namespace wasched::controller::jobset
