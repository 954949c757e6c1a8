// File: live/decode_cache.cc
#include "live/decode_cache.h"

#include <fmt/format.h>

#include "kube/resource_type.h"

namespace wasched::live {
namespace {

// AppendObjects: copies every object of `in` to the end of the same kind's list in `out`.
void AppendObjects(const api::ObjectSet& in, api::ObjectSet* out) {
  static_assert(sizeof(api::ObjectSet) == 17 * sizeof(std::vector<int>),
                "a kind was added to api::ObjectSet: append it here");
  auto add = [](auto& to, const auto& from) {
    if (!from.empty()) to.insert(to.end(), from.begin(), from.end());
  };
  add(out->nodes, in.nodes);
  add(out->pods, in.pods);
  add(out->priority_classes, in.priority_classes);
  add(out->workloads, in.workloads);
  add(out->pod_groups, in.pod_groups);
  add(out->composite_pod_groups, in.composite_pod_groups);
  add(out->jobs, in.jobs);
  add(out->pod_disruption_budgets, in.pod_disruption_budgets);
  add(out->device_classes, in.device_classes);
  add(out->resource_slices, in.resource_slices);
  add(out->resource_claims, in.resource_claims);
  add(out->resource_claim_templates, in.resource_claim_templates);
  add(out->deployments, in.deployments);
  add(out->replica_sets, in.replica_sets);
  add(out->stateful_sets, in.stateful_sets);
  add(out->job_sets, in.job_sets);
  add(out->leader_worker_sets, in.leader_worker_sets);
}

}  // namespace

DecodedCluster DecodeCache::Decode(const ObjectStore& store, const Overlay& overlay,
                                   const std::string& source) {
  const auto& resources = kube::SchedulingResources();
  const size_t types = std::min(store.Types(), resources.size());
  if (types_.size() < types) types_.resize(types);
  ++cycle_;
  DecodedCluster out;
  for (size_t t = 0; t < types; ++t) {
    const kube::ResourceType& type = resources[t];
    const bool pods = type.kind == "Pod";
    const std::string name = fmt::format("{} {} {}", source, type.ApiVersion(), type.resource);
    auto& cache = types_[t];
    for (const StoredObject& object : store.Objects(t)) {
      Cached& c = cache[object.key];
      c.cycle = cycle_;
      if (c.json != object.json) {
        c.json = object.json;
        c.objects = {};
        c.errors.clear();
        auto loaded = codec::LoadString(*object.json, name, options_);
        if (loaded) {
          c.objects = std::move(loaded->objects);
          c.errors = std::move(loaded->object_errors);
        } else {
          c.errors = std::move(loaded.error());
        }
        ++out.decoded;
      }
      const size_t pods_before = out.objects.pods.size();
      AppendObjects(c.objects, &out.objects);
      out.object_errors.insert(out.object_errors.end(), c.errors.begin(), c.errors.end());
      if (pods && out.objects.pods.size() == pods_before + 1 && object.node_name.empty()) {
        auto assumed = overlay.assumed_nodes.find(object.key);
        if (assumed != overlay.assumed_nodes.end()) out.objects.pods.back().node_name = assumed->second;
      }
    }
    // Objects the store no longer holds.
    for (auto it = cache.begin(); it != cache.end();) {
      it = it->second.cycle == cycle_ ? std::next(it) : cache.erase(it);
    }
  }
  return out;
}

}  // namespace wasched::live
