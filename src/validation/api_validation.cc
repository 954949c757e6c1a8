// File: validation/api_validation.cc
//
// ValidateCreate / ValidateUpdate (see api_validation.h): pairing objects, kind gates, and the
// per-kind validators. PriorityClass update rules as pkg/apis/scheduling/validation
// ValidatePriorityClassUpdate.
#include "validation/api_validation.h"

#include <fmt/format.h>

#include <map>
#include <string>
#include <string_view>
#include <utility>

#include "validation/composite_pod_group_validation.h"
#include "validation/job_validation.h"
#include "validation/pod_disruption_budget_validation.h"
#include "validation/pod_group_validation.h"
#include "validation/pod_validation.h"
#include "validation/workload_controller_validation.h"
#include "validation/workload_validation.h"

namespace wasched::validation {
namespace internal {
namespace {

// OldIndex: objects of one kind of the old set by (namespace, name); first one wins.
template <typename T>
std::map<std::pair<std::string, std::string>, const T*> IndexByName(const std::vector<T>* old) {
  std::map<std::pair<std::string, std::string>, const T*> out;
  if (old == nullptr) return out;
  for (const T& o : *old) out.emplace(std::make_pair(o.meta.namespace_, o.meta.name), &o);
  return out;
}

// ForEachPaired: calls fn(object, old_or_null, index) for every object of `list`.
template <typename T, typename Fn>
void ForEachPaired(const std::vector<T>& list, const std::vector<T>* old, Fn&& fn) {
  const auto index = IndexByName(old);
  for (std::size_t i = 0; i < list.size(); ++i) {
    auto it = index.find({list[i].meta.namespace_, list[i].meta.name});
    fn(list[i], it == index.end() ? nullptr : it->second, i);
  }
}

// NotServed: the single error of an object whose kind a disabled gate removes from the API.
FieldError NotServed(const std::string& kind, const std::string& api_version, const char* gate) {
  return Forbidden("kind", fmt::format("{} ({}) is not served while feature gate {} is disabled",
                                       kind, api_version, gate));
}

ErrorList ValidatePriorityClassUpdate(const api::PriorityClass& pc,
                                      const api::PriorityClass& old) {
  ErrorList errs;
  if (pc.value != old.value) errs.push_back(Forbidden("value", "may not be changed in an update."));
  if (pc.preemption_policy != old.preemption_policy) {
    errs.push_back(Invalid("preemptionPolicy",
                           pc.preemption_policy ? Quote(api::PreemptionPolicyName(
                                                      *pc.preemption_policy))
                                                : kNullValue,
                           "field is immutable"));
  }
  return errs;
}

// AppendDuplicateUids: metadata.uid is unique cluster-wide (the API server assigns it), so two
// objects of one kind with the same uid cannot both exist (copy-pasted manifests): `Duplicate
// metadata.uid` at each later one, detail "also used by <Kind ns/name>". Objects without a uid
// are skipped. O(n log n).
template <typename T>
void AppendDuplicateUids(const std::vector<T>& list, const char* kind, KindRank rank,
                         ErrorCollector* out) {
  std::map<std::string_view, const T*> first;
  for (std::size_t i = 0; i < list.size(); ++i) {
    const api::ObjectMeta& meta = list[i].meta;
    if (meta.uid.empty()) continue;
    auto [it, inserted] = first.emplace(meta.uid, &list[i]);
    if (inserted) continue;
    FieldError e = Duplicate("metadata.uid", Quote(meta.uid));
    e.detail = "also used by " + ObjectLabel(kind, it->second->meta);
    out->Add(meta, ObjectLabel(kind, meta), rank, i, std::move(e));
  }
}

void AppendAllDuplicateUids(const api::ObjectSet& objects, ErrorCollector* out) {
  AppendDuplicateUids(objects.priority_classes, "PriorityClass", kRankPriorityClass, out);
  AppendDuplicateUids(objects.nodes, "Node", kRankNode, out);
  AppendDuplicateUids(objects.workloads, "Workload", kRankWorkload, out);
  AppendDuplicateUids(objects.composite_pod_groups, "CompositePodGroup", kRankCompositePodGroup,
                      out);
  AppendDuplicateUids(objects.pod_groups, "PodGroup", kRankPodGroup, out);
  AppendDuplicateUids(objects.pods, "Pod", kRankPod, out);
  AppendDuplicateUids(objects.jobs, "Job", kRankJob, out);
  AppendDuplicateUids(objects.pod_disruption_budgets, "PodDisruptionBudget",
                      kRankPodDisruptionBudget, out);
  AppendDuplicateUids(objects.device_classes, "DeviceClass", kRankDeviceClass, out);
  AppendDuplicateUids(objects.resource_slices, "ResourceSlice", kRankResourceSlice, out);
  AppendDuplicateUids(objects.resource_claims, "ResourceClaim", kRankResourceClaim, out);
  AppendDuplicateUids(objects.resource_claim_templates, "ResourceClaimTemplate",
                      kRankResourceClaimTemplate, out);
  AppendDuplicateUids(objects.deployments, "Deployment", kRankDeployment, out);
  AppendDuplicateUids(objects.replica_sets, "ReplicaSet", kRankReplicaSet, out);
  AppendDuplicateUids(objects.stateful_sets, "StatefulSet", kRankStatefulSet, out);
  AppendDuplicateUids(objects.job_sets, "JobSet", kRankJobSet, out);
  AppendDuplicateUids(objects.leader_worker_sets, "LeaderWorkerSet", kRankLeaderWorkerSet, out);
}

}  // namespace

void AppendApiErrors(const api::ObjectSet& objects, const api::ObjectSet* old,
                     const FeatureGates& gates, ErrorCollector* out) {
  ForEachPaired(objects.workloads, old != nullptr ? &old->workloads : nullptr,
                [&](const api::Workload& w, const api::Workload* prev, std::size_t i) {
                  const std::string label = ObjectLabel("Workload", w.meta);
                  if (!gates.generic_workload) {
                    out->Add(w.meta, label, kRankWorkload, i,
                             NotServed("Workload", w.api_version, "GenericWorkload"));
                    return;
                  }
                  out->AddAll(w.meta, label, kRankWorkload, i, ValidateWorkload(w, prev, gates));
                });
  ForEachPaired(
      objects.composite_pod_groups, old != nullptr ? &old->composite_pod_groups : nullptr,
      [&](const api::CompositePodGroup& g, const api::CompositePodGroup* prev, std::size_t i) {
        const std::string label = ObjectLabel("CompositePodGroup", g.meta);
        if (!gates.generic_workload || !gates.composite_pod_group) {
          out->Add(g.meta, label, kRankCompositePodGroup, i,
                   NotServed("CompositePodGroup", g.api_version,
                             gates.generic_workload ? "CompositePodGroup" : "GenericWorkload"));
          return;
        }
        out->AddAll(g.meta, label, kRankCompositePodGroup, i,
                    ValidateCompositePodGroup(g, prev, gates));
      });
  ForEachPaired(objects.pod_groups, old != nullptr ? &old->pod_groups : nullptr,
                [&](const api::PodGroup& g, const api::PodGroup* prev, std::size_t i) {
                  const std::string label = ObjectLabel("PodGroup", g.meta);
                  if (!gates.generic_workload) {
                    out->Add(g.meta, label, kRankPodGroup, i,
                             NotServed("PodGroup", g.api_version, "GenericWorkload"));
                    return;
                  }
                  out->AddAll(g.meta, label, kRankPodGroup, i, ValidatePodGroup(g, prev, gates));
                });
  ForEachPaired(objects.pods, old != nullptr ? &old->pods : nullptr,
                [&](const api::Pod& p, const api::Pod* prev, std::size_t i) {
                  out->AddAll(p.meta, ObjectLabel("Pod", p.meta), kRankPod, i,
                              ValidatePodSchedulingGroup(p, prev, gates));
                });
  ForEachPaired(objects.jobs, old != nullptr ? &old->jobs : nullptr,
                [&](const api::Job& j, const api::Job* prev, std::size_t i) {
                  out->AddAll(j.meta, ObjectLabel("Job", j.meta), kRankJob, i,
                              ValidateJob(j, prev, gates));
                });
  ForEachPaired(objects.pod_disruption_budgets,
                old != nullptr ? &old->pod_disruption_budgets : nullptr,
                [&](const api::PodDisruptionBudget& b, const api::PodDisruptionBudget*,
                    std::size_t i) {
                  out->AddAll(b.meta, ObjectLabel("PodDisruptionBudget", b.meta),
                              kRankPodDisruptionBudget, i, ValidatePodDisruptionBudget(b));
                });
  ForEachPaired(objects.priority_classes, old != nullptr ? &old->priority_classes : nullptr,
                [&](const api::PriorityClass& pc, const api::PriorityClass* prev, std::size_t i) {
                  if (prev == nullptr) return;  // create rules: pre-scheduling checks
                  out->AddAll(pc.meta, ObjectLabel("PriorityClass", pc.meta), kRankPriorityClass,
                              i, ValidatePriorityClassUpdate(pc, *prev));
                });
  // The workload controllers' kinds: create rules only (no update rules are modelled).
  const auto create_only = [&](const auto& list, const auto* old_list, const char* kind,
                               KindRank rank, auto validate) {
    ForEachPaired(list, old_list, [&](const auto& o, const auto* prev, std::size_t i) {
      if (prev != nullptr) return;
      out->AddAll(o.meta, ObjectLabel(kind, o.meta), rank, i, validate(o));
    });
  };
  create_only(objects.deployments, old != nullptr ? &old->deployments : nullptr, "Deployment",
              kRankDeployment, [&](const api::Deployment& d) { return ValidateDeployment(d, gates); });
  create_only(objects.replica_sets, old != nullptr ? &old->replica_sets : nullptr, "ReplicaSet",
              kRankReplicaSet, [&](const api::ReplicaSet& r) { return ValidateReplicaSet(r, gates); });
  create_only(objects.stateful_sets, old != nullptr ? &old->stateful_sets : nullptr, "StatefulSet",
              kRankStatefulSet,
              [&](const api::StatefulSet& s) { return ValidateStatefulSet(s, gates); });
  create_only(objects.job_sets, old != nullptr ? &old->job_sets : nullptr, "JobSet", kRankJobSet,
              [&](const api::JobSet& j) { return ValidateJobSet(j); });
  create_only(objects.leader_worker_sets, old != nullptr ? &old->leader_worker_sets : nullptr,
              "LeaderWorkerSet", kRankLeaderWorkerSet,
              [&](const api::LeaderWorkerSet& l) { return ValidateLeaderWorkerSet(l); });
  AppendAllDuplicateUids(objects, out);
}

}  // namespace internal

InputErrors ValidateCreate(const api::ObjectSet& objects, const FeatureGates& gates) {
  internal::ErrorCollector collector;
  internal::AppendApiErrors(objects, nullptr, gates, &collector);
  return std::move(collector).Finish(objects);
}

InputErrors ValidateUpdate(const api::ObjectSet& old, const api::ObjectSet& updated,
                           const FeatureGates& gates) {
  internal::ErrorCollector collector;
  internal::AppendApiErrors(updated, &old, gates, &collector);
  return std::move(collector).Finish(updated);
}

}  // namespace wasched::validation
