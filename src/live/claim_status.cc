// File: live/claim_status.cc
#include "live/claim_status.h"

#include <algorithm>
#include <set>

#include <fmt/format.h>

#include "live/api_writer.h"

namespace wasched::live {
namespace {

using nlohmann::json;

const json* Field(const json& object, const char* key) {
  if (!object.is_object()) return nullptr;
  auto it = object.find(key);
  return it == object.end() || it->is_null() ? nullptr : &*it;
}

std::string StringField(const json& object, const char* key) {
  const json* v = Field(object, key);
  return v != nullptr && v->is_string() ? v->get<std::string>() : std::string();
}

// Results: the (request, driver, pool, device) tuples of an allocation's devices.results.
std::set<std::tuple<std::string, std::string, std::string, std::string>> Results(
    const json& allocation) {
  std::set<std::tuple<std::string, std::string, std::string, std::string>> out;
  const json* devices = Field(allocation, "devices");
  const json* results = devices != nullptr ? Field(*devices, "results") : nullptr;
  if (results == nullptr || !results->is_array()) return out;
  for (const json& r : *results) {
    out.emplace(StringField(r, "request"), StringField(r, "driver"), StringField(r, "pool"),
                StringField(r, "device"));
  }
  return out;
}

// ReservedFor: whether a status.reservedFor entry is `c` (upstream IsReservedForPod: a pod by
// uid, a PodGroup — whose uid pods do not know — by group, resource and name).
bool ReservedFor(const json& entry, const ClaimConsumer& c) {
  if (!c.uid.empty() && StringField(entry, "uid") == c.uid) return true;
  return c.resource == "podgroups" && StringField(entry, "resource") == c.resource &&
         StringField(entry, "apiGroup") == c.api_group && StringField(entry, "name") == c.name;
}

// AddNewRequirements: appends the requirements of `from` that `to` does not hold yet (upstream
// addNewNodeSelectorRequirements).
void AddNewRequirements(const json* from, json* to) {
  if (from == nullptr || !from->is_array()) return;
  for (const json& r : *from) {
    if (std::find(to->begin(), to->end(), r) == to->end()) to->push_back(r);
  }
}

// RequestChoice: a claim request and the name its devices were allocated under ("gpu", or
// "gpu/<subrequest>" for firstAvailable), with the DeviceClass of what was chosen.
struct RequestChoice {
  std::string name;
  std::string chosen;  // "" when nothing was allocated for a firstAvailable request
  std::string device_class;
};

std::vector<RequestChoice> Choices(const json& claim, const sched::ClaimAllocation& allocation) {
  std::vector<RequestChoice> out;
  const json* spec = Field(claim, "spec");
  const json* devices = spec != nullptr ? Field(*spec, "devices") : nullptr;
  const json* requests = devices != nullptr ? Field(*devices, "requests") : nullptr;
  if (requests == nullptr || !requests->is_array()) return out;
  for (const json& r : *requests) {
    RequestChoice& c = out.emplace_back();
    c.name = StringField(r, "name");
    if (const json* exactly = Field(r, "exactly")) {
      c.chosen = c.name;
      c.device_class = StringField(*exactly, "deviceClassName");
      continue;
    }
    const json* first = Field(r, "firstAvailable");
    if (first == nullptr || !first->is_array()) continue;
    const std::string prefix = c.name + "/";
    for (const sched::ClaimAllocation::Device& d : allocation.devices) {
      if (d.request.rfind(prefix, 0) != 0) continue;
      const std::string sub = d.request.substr(prefix.size());
      for (const json& s : *first) {
        if (StringField(s, "name") == sub) {
          c.chosen = d.request;
          c.device_class = StringField(s, "deviceClassName");
        }
      }
      break;
    }
  }
  return out;
}

bool Contains(const json& list, const std::string& name) {
  return list.is_array() && std::find(list.begin(), list.end(), json(name)) != list.end();
}

// Configs: devices.config as the allocator builds it (see AllocationJson).
json Configs(const json& claim, const std::vector<RequestChoice>& choices,
             const ClaimDevices& devices) {
  json out = json::array();
  std::map<std::string, std::pair<size_t, size_t>> class_ranges;  // class → [start, end)
  for (const RequestChoice& c : choices) {
    if (c.chosen.empty() || c.device_class.empty()) continue;
    auto range = class_ranges.find(c.device_class);
    if (range != class_ranges.end()) {
      for (size_t i = range->second.first; i < range->second.second; ++i) {
        out[i]["requests"].push_back(c.chosen);
      }
      continue;
    }
    const size_t start = out.size();
    if (const json* configs = devices.ClassConfig(c.device_class)) {
      for (const json& config : *configs) {
        json entry = config;
        entry["source"] = "FromClass";
        entry["requests"] = json::array({c.chosen});
        out.push_back(std::move(entry));
      }
    }
    class_ranges.emplace(c.device_class, std::make_pair(start, out.size()));
  }
  const json* spec = Field(claim, "spec");
  const json* claim_devices = spec != nullptr ? Field(*spec, "devices") : nullptr;
  const json* claim_configs = claim_devices != nullptr ? Field(*claim_devices, "config") : nullptr;
  if (claim_configs != nullptr && claim_configs->is_array()) {
    for (const json& config : *claim_configs) {
      const json* requests = Field(config, "requests");
      json entry = config;
      entry["source"] = "FromClaim";
      if (requests == nullptr || requests->empty()) {
        entry.erase("requests");
        out.push_back(std::move(entry));
        continue;
      }
      for (const RequestChoice& c : choices) {
        if (Contains(*requests, c.name) || (c.chosen != c.name && !c.chosen.empty() &&
                                            Contains(*requests, c.chosen))) {
          out.push_back(std::move(entry));
          break;
        }
      }
    }
  }
  // A config that names every request applies to all: its `requests` is dropped.
  for (json& entry : out) {
    const json* requests = Field(entry, "requests");
    if (requests == nullptr || requests->empty()) continue;
    const bool all = std::all_of(choices.begin(), choices.end(), [&](const RequestChoice& c) {
      return Contains(*requests, c.name) || (!c.chosen.empty() && Contains(*requests, c.chosen));
    });
    if (all) entry.erase("requests");
  }
  return out;
}

}  // namespace

ClaimConsumer ConsumerFor(const api::Pod& pod, const api::PodGroup* group,
                          const api::PodResourceClaim& entry) {
  if (group != nullptr) {
    for (const api::PodGroupResourceClaim& g : group->resource_claims) {
      if (g.name == entry.name && g.resource_claim_name == entry.resource_claim_name &&
          g.resource_claim_template_name == entry.resource_claim_template_name) {
        return ClaimConsumer{"scheduling.k8s.io", "podgroups", group->meta.name, group->meta.uid};
      }
    }
  }
  return ClaimConsumer{"", "pods", pod.meta.name, pod.meta.uid};
}

ClaimDevices ClaimDevices::Build(const std::vector<std::shared_ptr<const std::string>>& slices,
                                 const std::vector<std::shared_ptr<const std::string>>& classes) {
  ClaimDevices out;
  for (const auto& text : slices) {
    if (!text) continue;
    json doc = json::parse(*text, nullptr, /*allow_exceptions=*/false);
    const json* spec = Field(doc, "spec");
    if (spec == nullptr || !spec->is_object()) continue;
    const std::string driver = StringField(*spec, "driver");
    const json* pool = Field(*spec, "pool");
    const json* list = Field(*spec, "devices");
    if (pool == nullptr || list == nullptr || !list->is_array()) continue;
    const std::string pool_name = StringField(*pool, "name");
    const json* generation = Field(*pool, "generation");
    const int64_t gen = generation != nullptr && generation->is_number_integer()
                            ? generation->get<int64_t>()
                            : 0;
    const size_t index = out.slices_.size();
    bool used = false;
    for (const json& d : *list) {
      auto key = std::make_tuple(driver, pool_name, StringField(d, "name"));
      auto it = out.devices_.find(key);
      if (it != out.devices_.end() && it->second.first >= gen) continue;
      out.devices_[key] = {gen, index};
      used = true;
    }
    if (used) out.slices_.push_back(*spec);
  }
  for (const auto& text : classes) {
    if (!text) continue;
    json doc = json::parse(*text, nullptr, /*allow_exceptions=*/false);
    const json* meta = Field(doc, "metadata");
    const json* spec = Field(doc, "spec");
    const json* config = spec != nullptr ? Field(*spec, "config") : nullptr;
    if (meta == nullptr || config == nullptr || !config->is_array() || config->empty()) continue;
    out.classes_[StringField(*meta, "name")] = out.class_configs_.size();
    out.class_configs_.push_back(*config);
  }
  return out;
}

const json* ClaimDevices::SliceSpec(const std::string& driver, const std::string& pool,
                                    const std::string& device) const {
  auto it = devices_.find(std::make_tuple(driver, pool, device));
  return it == devices_.end() ? nullptr : &slices_[it->second.second];
}

const json* ClaimDevices::ClassConfig(const std::string& name) const {
  auto it = classes_.find(name);
  return it == classes_.end() ? nullptr : &class_configs_[it->second];
}

tl::expected<json, std::string> AllocationJson(const sched::ClaimAllocation& allocation,
                                               const json& claim, const ClaimDevices& devices,
                                               int64_t now_micros) {
  json results = json::array();
  json term = json::object();
  std::optional<std::string> node;
  for (const sched::ClaimAllocation::Device& d : allocation.devices) {
    results.push_back(
        {{"request", d.request}, {"driver", d.driver}, {"pool", d.pool}, {"device", d.device}});
    const json* slice = devices.SliceSpec(d.driver, d.pool, d.device);
    if (slice == nullptr) {
      return tl::unexpected(fmt::format("device {}/{}/{} of claim {} is not published by any "
                                        "ResourceSlice",
                                        d.driver, d.pool, d.device, allocation.claim));
    }
    if (const json* per_device = Field(*slice, "perDeviceNodeSelection");
        per_device != nullptr && per_device->is_boolean() && per_device->get<bool>()) {
      return tl::unexpected(fmt::format("device {}/{}/{}: perDeviceNodeSelection is not supported",
                                        d.driver, d.pool, d.device));
    }
    if (node) continue;  // one node-local device restricts the allocation to its node
    const std::string node_name = StringField(*slice, "nodeName");
    if (!node_name.empty()) {
      node = node_name;
      continue;
    }
    const json* selector = Field(*slice, "nodeSelector");
    const json* terms = selector != nullptr ? Field(*selector, "nodeSelectorTerms") : nullptr;
    if (terms == nullptr || !terms->is_array() || terms->empty()) continue;
    if (terms->size() > 1) {
      return tl::unexpected(fmt::format("unsupported ResourceSlice.NodeSelector with {} terms",
                                        terms->size()));
    }
    for (const char* key : {"matchFields", "matchExpressions"}) {
      const json* from = Field((*terms)[0], key);
      if (from == nullptr || !from->is_array() || from->empty()) continue;
      if (!term.contains(key)) term[key] = json::array();
      AddNewRequirements(from, &term[key]);
    }
  }
  json out = {{"devices", {{"results", std::move(results)}}},
              {"allocationTimestamp", FormatRfc3339(now_micros)}};
  json config = Configs(claim, Choices(claim, allocation), devices);
  if (!config.empty()) out["devices"]["config"] = std::move(config);
  if (node) {
    out["nodeSelector"] = {
        {"nodeSelectorTerms",
         json::array({{{"matchFields", json::array({{{"key", "metadata.name"},
                                                     {"operator", "In"},
                                                     {"values", json::array({*node})}}})}}})}};
  } else if (!term.empty()) {
    out["nodeSelector"] = {{"nodeSelectorTerms", json::array({std::move(term)})}};
  }
  return out;
}

tl::expected<ClaimStep, std::string> PrepareClaimStatus(const ClaimWrite& w, json* claim) {
  const std::string key = w.namespace_ + "/" + w.name;
  if (!claim->is_object()) return tl::unexpected("claim " + key + " is not an object");
  if (const json* meta = Field(*claim, "metadata"); meta != nullptr && Field(*meta, "deletionTimestamp")) {
    return tl::unexpected(fmt::format("claim {} got deleted in the meantime", key));
  }
  json status = claim->contains("status") && (*claim)["status"].is_object() ? (*claim)["status"]
                                                                            : json::object();
  const json* current = Field(status, "allocation");
  bool allocating = false;
  if (w.allocation) {
    if (current != nullptr) {
      // Written by another pod sharing the claim (same decision): only the reservation is left.
      if (Results(*current) != Results(*w.allocation)) {
        return tl::unexpected(fmt::format("claim {} got allocated elsewhere in the meantime", key));
      }
    } else {
      status["allocation"] = *w.allocation;
      allocating = true;
    }
  } else if (current == nullptr) {
    return tl::unexpected(fmt::format("claim {} is not allocated", key));
  }
  json& reserved = status["reservedFor"];
  if (!reserved.is_array()) reserved = json::array();
  const bool already = std::any_of(reserved.begin(), reserved.end(),
                                   [&](const json& e) { return ReservedFor(e, w.consumer); });
  if (already && !allocating) return ClaimStep::kNothingToDo;
  if (!already) {
    json entry = {{"resource", w.consumer.resource},
                  {"name", w.consumer.name},
                  {"uid", w.consumer.uid}};
    if (!w.consumer.api_group.empty()) entry["apiGroup"] = w.consumer.api_group;
    reserved.push_back(std::move(entry));
  }
  (*claim)["status"] = std::move(status);
  return ClaimStep::kWrite;
}

bool AddDeleteProtection(json* claim) {
  json& meta = (*claim)["metadata"];
  json& finalizers = meta["finalizers"];
  if (!finalizers.is_array()) finalizers = json::array();
  if (Contains(finalizers, kDeleteProtectionFinalizer)) return false;
  finalizers.push_back(kDeleteProtectionFinalizer);
  return true;
}

std::string UnreservePatch(const std::string& claim_uid, const std::string& pod_uid) {
  json patch = {{"metadata", {{"uid", claim_uid}}},
                {"status", {{"reservedFor", json::array({{{"$patch", "delete"}, {"uid", pod_uid}}})}}}};
  return patch.dump();
}

std::vector<api::DeviceRequestAllocationResult> AllocationResults(
    const sched::ClaimAllocation& allocation) {
  std::vector<api::DeviceRequestAllocationResult> out;
  out.reserve(allocation.devices.size());
  for (const sched::ClaimAllocation::Device& d : allocation.devices) {
    out.push_back({d.request, d.driver, d.pool, d.device});
  }
  return out;
}

}  // namespace wasched::live
