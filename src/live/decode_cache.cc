// File: live/decode_cache.cc
#include "live/decode_cache.h"

#include <algorithm>
#include <cassert>
#include <string_view>
#include <type_traits>
#include <utility>

#include <fmt/format.h>

#include "kube/resource_type.h"

namespace wasched::live {
namespace {

// WithKind: calls f with the api::ObjectSet list a watched kind decodes into; false for a kind
// the set has no list for (its objects are then left out, as the loader skips unknown kinds).
template <typename F>
bool WithKind(std::string_view kind, F&& f) {
  using S = api::ObjectSet;
  if (kind == "Node") return f(&S::nodes), true;
  if (kind == "Pod") return f(&S::pods), true;
  if (kind == "PriorityClass") return f(&S::priority_classes), true;
  if (kind == "Workload") return f(&S::workloads), true;
  if (kind == "PodGroup") return f(&S::pod_groups), true;
  if (kind == "CompositePodGroup") return f(&S::composite_pod_groups), true;
  if (kind == "Job") return f(&S::jobs), true;
  if (kind == "PodDisruptionBudget") return f(&S::pod_disruption_budgets), true;
  if (kind == "DeviceClass") return f(&S::device_classes), true;
  if (kind == "ResourceSlice") return f(&S::resource_slices), true;
  if (kind == "ResourceClaim") return f(&S::resource_claims), true;
  if (kind == "ResourceClaimTemplate") return f(&S::resource_claim_templates), true;
  if (kind == "Deployment") return f(&S::deployments), true;
  if (kind == "ReplicaSet") return f(&S::replica_sets), true;
  if (kind == "StatefulSet") return f(&S::stateful_sets), true;
  if (kind == "JobSet") return f(&S::job_sets), true;
  if (kind == "LeaderWorkerSet") return f(&S::leader_worker_sets), true;
  return false;
}

}  // namespace

template <typename T>
void DecodeCache::Refresh(size_t type, std::vector<T> api::ObjectSet::*kind,
                          const std::vector<StoredObject>& now, const std::string& name,
                          size_t* decoded) {
  std::vector<Slot>& slots = slots_[type];
  std::vector<T>& list = objects_.*kind;
  // The same versions as last time (a JSON pointer names one version of one object): no work.
  if (now.size() == slots.size()) {
    size_t i = 0;
    while (i < now.size() && now[i].json == slots[i].json) ++i;
    if (i == now.size()) return;
  }
  std::vector<Slot> next_slots;
  std::vector<T> next_list;
  next_slots.reserve(now.size());
  next_list.reserve(now.size());
  size_t old = 0, at = 0;  // the next old slot, and its object's index in `list`
  auto skip_old = [&] {
    if (slots[old].present) ++at;
    ++old;
  };
  for (const StoredObject& o : now) {
    while (old < slots.size() && slots[old].key < o.key) skip_old();  // deleted
    if (old < slots.size() && slots[old].key == o.key) {
      if (slots[old].json == o.json) {  // unchanged: moved, not decoded
        if (slots[old].present) next_list.push_back(std::move(list[at]));
        next_slots.push_back(std::move(slots[old]));
        skip_old();
        continue;
      }
      skip_old();  // a new version
    }
    Slot s;
    s.key = o.key;
    s.json = o.json;
    auto loaded = codec::LoadString(*o.json, name, options_);
    if (loaded) {
      if (prepare_) prepare_(&loaded->objects);
      std::vector<T>& got = loaded->objects.*kind;
      assert(got.size() <= 1);
      if (!got.empty()) {
        s.present = true;
        if constexpr (std::is_same_v<T, api::Pod>) {
          s.unsupported = static_cast<uint32_t>(got.front().unsupported_constraints.size());
        }
        next_list.push_back(std::move(got.front()));
      }
      s.errors = std::move(loaded->object_errors);
    } else {
      s.errors = std::move(loaded.error());
    }
    ++*decoded;
    next_slots.push_back(std::move(s));
  }
  slots = std::move(next_slots);
  list = std::move(next_list);
}

void DecodeCache::UndoCallerChanges() {
  for (size_t p : overlaid_) objects_.pods[p].node_name.clear();
  overlaid_.clear();
  for (size_t c : overlaid_claims_) objects_.resource_claims[c].allocation.reset();
  overlaid_claims_.clear();
  const auto& resources = kube::SchedulingResources();
  for (size_t t = 0; t < slots_.size(); ++t) {
    if (resources[t].kind != "Pod") continue;
    size_t p = 0;
    for (const Slot& s : slots_[t]) {
      if (!s.present) continue;
      auto& marks = objects_.pods[p++].unsupported_constraints;
      if (marks.size() > s.unsupported) marks.resize(s.unsupported);
    }
  }
}

DecodedCluster DecodeCache::Decode(const ObjectStore& store, const Overlay& overlay,
                                   const std::string& source) {
  UndoCallerChanges();
  const auto& resources = kube::SchedulingResources();
  const size_t types = std::min(store.Types(), resources.size());
  if (slots_.size() < types) slots_.resize(types);
  DecodedCluster out;
  for (size_t t = 0; t < types; ++t) {
    const kube::ResourceType& type = resources[t];
    const std::vector<StoredObject> now = store.Objects(t);
    const std::string name = fmt::format("{} {} {}", source, type.ApiVersion(), type.resource);
    if (!WithKind(type.kind, [&](auto kind) { Refresh(t, kind, now, name, &out.decoded); })) {
      continue;
    }
    for (const Slot& s : slots_[t]) {
      out.object_errors.insert(out.object_errors.end(), s.errors.begin(), s.errors.end());
    }
    if (type.kind == "ResourceClaim" && !overlay.assumed_claims.empty()) {
      size_t c = 0;
      for (const Slot& s : slots_[t]) {
        if (!s.present) continue;
        api::ResourceClaim& claim = objects_.resource_claims[c];
        if (!claim.allocation) {
          auto assumed = overlay.assumed_claims.find(s.key);
          if (assumed != overlay.assumed_claims.end()) {
            claim.allocation = assumed->second;
            overlaid_claims_.push_back(c);
          }
        }
        ++c;
      }
      continue;
    }
    if (type.kind != "Pod" || overlay.assumed_nodes.empty()) continue;
    size_t p = 0;
    for (const Slot& s : slots_[t]) {
      if (!s.present) continue;
      api::Pod& pod = objects_.pods[p];
      if (pod.node_name.empty()) {
        auto assumed = overlay.assumed_nodes.find(s.key);
        if (assumed != overlay.assumed_nodes.end()) {
          pod.node_name = assumed->second;
          overlaid_.push_back(p);
        }
      }
      ++p;
    }
  }
  out.objects = &objects_;
  return out;
}

}  // namespace wasched::live
