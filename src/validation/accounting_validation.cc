// File: validation/accounting_validation.cc
//
// The int64 accounting limit (see accounting_validation.h).
#include "validation/accounting_validation.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <limits>
#include <map>
#include <set>
#include <string>

#include "api/quantity.h"
#include "validation/field_errors.h"

namespace wasched::validation::internal {
namespace {

constexpr __int128 kMax = std::numeric_limits<int64_t>::max();

// Limit: INT64_MAX in the units a user writes (cores for cpu, whose canonical unit is milli).
std::string Limit(const std::string& resource) {
  return api::IsMilliResource(resource) ? "9.2e15" : "9.2e18";
}

std::string Detail(const std::string& resource) {
  return fmt::format(
      "the input's total requests of {} exceed what wasched can account ({}); its sums saturate "
      "at that bound",
      resource, Limit(resource));
}

// Source: the field of `pod` that holds its request of `resource`, and that field's amount.
struct Source {
  std::string path;
  int64_t amount = 0;
};

// RequestSource: where the pod's effective request of `resource` comes from: a supported
// pod-level request replaces the containers' (api::EffectiveRequests), else the container or
// init container asking the most (the first on ties, containers first), else the overhead.
Source RequestSource(const api::Pod& pod, const std::string& resource) {
  if (api::IsSupportedPodLevelResource(resource)) {
    if (auto it = pod.pod_level_requests.find(resource); it != pod.pod_level_requests.end()) {
      return {fmt::format("spec.resources.requests[{}]", resource), it->second};
    }
  }
  Source best;
  bool found = false;
  auto consider = [&](const std::vector<api::Container>& list, const char* name) {
    for (std::size_t i = 0; i < list.size(); ++i) {
      auto it = list[i].requests.find(resource);
      if (it == list[i].requests.end() || (found && it->second <= best.amount)) continue;
      best = {fmt::format("spec.{}[{}].resources.requests[{}]", name, i, resource), it->second};
      found = true;
    }
  };
  consider(pod.containers, "containers");
  consider(pod.init_containers, "initContainers");
  if (auto it = pod.overhead.find(resource);
      it != pod.overhead.end() && (!found || it->second > best.amount)) {
    best = {fmt::format("spec.overhead[{}]", resource), it->second};
  }
  return best;
}

}  // namespace

void AppendAccountingErrors(const api::ObjectSet& objects, ErrorCollector* out) {
  // The largest allocatable of each resource, and the node holding the largest `pods`.
  std::map<std::string, __int128> largest;
  std::size_t pods_node = 0;
  for (std::size_t n = 0; n < objects.nodes.size(); ++n) {
    for (const auto& [name, amount] : objects.nodes[n].allocatable) {
      __int128& l = largest[name];
      if (amount > l) {
        l = amount;
        if (name == api::kResourcePods) pods_node = n;
      }
    }
  }
  std::map<std::string, __int128> total;
  std::set<std::string> reported;
  __int128 pod_count = 0;
  for (std::size_t i = 0; i < objects.pods.size(); ++i) {
    const api::Pod& pod = objects.pods[i];
    if (pod.phase == "Succeeded" || pod.phase == "Failed") continue;  // hold no resources
    ++pod_count;
    for (const auto& [name, amount] : api::EffectiveRequests(pod)) {
      // `pods` is counted per pod (the scheduler ignores a `pods` request).
      if (amount <= 0 || name == api::kResourcePods) continue;
      __int128& t = total[name];
      t += amount;
      if (reported.count(name) > 0) continue;
      auto l = largest.find(name);
      if (t + (l == largest.end() ? 0 : l->second) <= kMax) continue;
      reported.insert(name);
      const Source source = RequestSource(pod, name);
      out->Add(pod.meta, ObjectLabel("Pod", pod.meta), kRankPod, i,
               Invalid(source.path, Quote(api::FormatAmount(name, source.amount)),
                       Detail(name)));
    }
  }
  if (auto l = largest.find(api::kResourcePods);
      l != largest.end() && pod_count > 0 && l->second + pod_count > kMax) {
    const api::Node& node = objects.nodes[pods_node];
    out->Add(node.meta, ObjectLabel("Node", node.meta), kRankNode, pods_node,
             Invalid("status.allocatable[pods]",
                     Quote(api::FormatAmount(api::kResourcePods,
                                             node.allocatable.at(api::kResourcePods))),
                     Detail(api::kResourcePods)));
  }
}

}  // namespace wasched::validation::internal
