// File: live/object_store.cc
#include "live/object_store.h"

#include <chrono>
#include <memory>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "kube/resource_type.h"

namespace wasched::live {
namespace {

using nlohmann::json;

std::string StringAt(const json& object, const char* a, const char* b) {
  auto outer = object.find(a);
  if (outer == object.end() || !outer->is_object()) return {};
  auto inner = outer->find(b);
  if (inner == outer->end() || !inner->is_string()) return {};
  return inner->get<std::string>();
}

std::string KeyOf(const json& object) {
  const std::string name = StringAt(object, "metadata", "name");
  if (name.empty()) return {};
  const std::string ns = StringAt(object, "metadata", "namespace");
  return ns.empty() ? name : ns + "/" + name;
}

// StripServerBookkeeping: drops metadata.managedFields (often half of an object's bytes; nothing
// in scheduling reads it), so every snapshot decodes less.
void StripServerBookkeeping(json* object) {
  auto meta = object->find("metadata");
  if (meta != object->end() && meta->is_object()) meta->erase("managedFields");
}

// StampKind: sets apiVersion and kind from the resource type (a list response's items carry
// neither), so every stored object decodes on its own (live/decode_cache.h).
void StampKind(size_t type, json* object) {
  const auto& resources = kube::SchedulingResources();
  if (type >= resources.size()) return;
  (*object)["apiVersion"] = resources[type].ApiVersion();
  (*object)["kind"] = resources[type].kind;
}

ObjectFacts FactsOf(const json& object) {
  ObjectFacts facts;
  facts.uid = StringAt(object, "metadata", "uid");
  facts.resource_version = StringAt(object, "metadata", "resourceVersion");
  auto meta = object.find("metadata");
  facts.deleting = meta != object.end() && meta->is_object() &&
                   meta->contains("deletionTimestamp") && !(*meta)["deletionTimestamp"].is_null();
  facts.node_name = StringAt(object, "spec", "nodeName");
  facts.scheduler_name = StringAt(object, "spec", "schedulerName");
  facts.nominated_node_name = StringAt(object, "status", "nominatedNodeName");
  auto status = object.find("status");
  if (status != object.end() && status->is_object()) {
    auto allocation = status->find("allocation");
    facts.allocated = allocation != status->end() && allocation->is_object();
    auto claims = status->find("resourceClaimStatuses");
    if (claims != status->end() && claims->is_array()) {
      for (const json& c : *claims) {
        if (!c.is_object()) continue;
        std::string entry, name;
        if (auto it = c.find("name"); it != c.end() && it->is_string()) entry = *it;
        if (auto it = c.find("resourceClaimName"); it != c.end() && it->is_string()) name = *it;
        facts.resource_claim_statuses.emplace_back(std::move(entry), std::move(name));
      }
    }
    auto conditions = status->find("conditions");
    if (conditions != status->end() && conditions->is_array()) {
      for (const json& c : *conditions) {
        if (!c.is_object()) continue;
        StoredCondition sc;
        if (auto it = c.find("type"); it != c.end() && it->is_string()) sc.type = *it;
        if (auto it = c.find("status"); it != c.end() && it->is_string()) sc.status = *it;
        if (auto it = c.find("reason"); it != c.end() && it->is_string()) sc.reason = *it;
        if (auto it = c.find("message"); it != c.end() && it->is_string()) sc.message = *it;
        if (auto it = c.find("lastTransitionTime"); it != c.end() && it->is_string()) {
          sc.last_transition_time = *it;
        }
        facts.conditions.push_back(std::move(sc));
      }
    }
  }
  return facts;
}

}  // namespace

const StoredCondition* ObjectFacts::Condition(std::string_view type) const {
  for (const StoredCondition& c : conditions) {
    if (c.type == type) return &c;
  }
  return nullptr;
}

const std::string* ObjectFacts::ResourceClaimStatus(std::string_view entry) const {
  for (const auto& [name, claim] : resource_claim_statuses) {
    if (name == entry) return &claim;
  }
  return nullptr;
}

std::string KeyOfJson(std::string_view object_json) {
  const json doc = json::parse(object_json, nullptr, /*allow_exceptions=*/false);
  return doc.is_object() ? KeyOf(doc) : std::string();
}

ObjectStore::ObjectStore(size_t types) : types_(types) {}

void ObjectStore::ChangedLocked() {
  ++generation_;
  cv_.notify_all();
}

void ObjectStore::Replace(size_t type, const kube::ListResult& list) {
  std::map<std::string, Entry> objects;
  for (const std::string& page : list.pages) {
    const json doc = json::parse(page, nullptr, /*allow_exceptions=*/false);
    if (!doc.is_object()) continue;
    auto items = doc.find("items");
    if (items == doc.end() || !items->is_array()) continue;
    for (const json& item : *items) {
      if (!item.is_object()) continue;
      std::string key = KeyOf(item);
      if (key.empty()) continue;
      json copy = item;
      StripServerBookkeeping(&copy);
      StampKind(type, &copy);
      objects[std::move(key)] =
          Entry{std::make_shared<const std::string>(copy.dump()), FactsOf(copy)};
    }
  }
  std::lock_guard<std::mutex> lock(mu_);
  types_[type].objects = std::move(objects);
  types_[type].synced = true;
  ChangedLocked();
}

void ObjectStore::Apply(size_t type, kube::WatchEventType event, std::string_view object_json) {
  if (event == kube::WatchEventType::kBookmark) return;
  json doc = json::parse(object_json, nullptr, /*allow_exceptions=*/false);
  if (!doc.is_object()) return;
  std::string key = KeyOf(doc);
  if (key.empty()) return;
  StripServerBookkeeping(&doc);
  StampKind(type, &doc);
  ObjectFacts facts = FactsOf(doc);
  auto text = std::make_shared<const std::string>(
      event == kube::WatchEventType::kDeleted ? std::string() : doc.dump());
  std::lock_guard<std::mutex> lock(mu_);
  auto& objects = types_[type].objects;
  if (event == kube::WatchEventType::kDeleted) {
    objects.erase(key);
  } else {
    objects[std::move(key)] = Entry{std::move(text), std::move(facts)};
  }
  ChangedLocked();
}

void ObjectStore::MarkAbsent(size_t type) {
  std::lock_guard<std::mutex> lock(mu_);
  types_[type].objects.clear();
  types_[type].synced = true;
  ChangedLocked();
}

void ObjectStore::SetFatal(kube::KubeError error) {
  std::lock_guard<std::mutex> lock(mu_);
  if (!fatal_) fatal_ = std::move(error);
  ChangedLocked();
}

std::optional<kube::KubeError> ObjectStore::Fatal() const {
  std::lock_guard<std::mutex> lock(mu_);
  return fatal_;
}

bool ObjectStore::AllSynced() const {
  std::lock_guard<std::mutex> lock(mu_);
  for (const Type& t : types_) {
    if (!t.synced) return false;
  }
  return true;
}

uint64_t ObjectStore::Generation() const {
  std::lock_guard<std::mutex> lock(mu_);
  return generation_;
}

void ObjectStore::Poke() {
  std::lock_guard<std::mutex> lock(mu_);
  ChangedLocked();
}

uint64_t ObjectStore::WaitForChange(uint64_t seen, double timeout_seconds) {
  std::unique_lock<std::mutex> lock(mu_);
  cv_.wait_for(lock, std::chrono::duration<double>(timeout_seconds),
               [&] { return generation_ != seen; });
  return generation_;
}

std::optional<ObjectFacts> ObjectStore::Facts(size_t type, const std::string& key) const {
  std::lock_guard<std::mutex> lock(mu_);
  const auto& objects = types_[type].objects;
  auto it = objects.find(key);
  if (it == objects.end()) return std::nullopt;
  return it->second.facts;
}

size_t ObjectStore::CountUnbound(size_t type, const std::string& scheduler_name) const {
  std::lock_guard<std::mutex> lock(mu_);
  size_t n = 0;
  for (const auto& [key, entry] : types_[type].objects) {
    const ObjectFacts& f = entry.facts;
    n += f.scheduler_name == scheduler_name && f.node_name.empty() && !f.deleting ? 1 : 0;
  }
  return n;
}

size_t ObjectStore::Count(size_t type) const {
  std::lock_guard<std::mutex> lock(mu_);
  return types_[type].objects.size();
}

std::shared_ptr<const std::string> ObjectStore::Json(size_t type, const std::string& key) const {
  std::lock_guard<std::mutex> lock(mu_);
  const auto& objects = types_[type].objects;
  auto it = objects.find(key);
  return it == objects.end() ? nullptr : it->second.json;
}

std::vector<StoredObject> ObjectStore::Objects(size_t type) const {
  std::vector<StoredObject> out;
  std::lock_guard<std::mutex> lock(mu_);
  out.reserve(types_[type].objects.size());
  for (const auto& [key, entry] : types_[type].objects) {
    out.push_back(StoredObject{key, entry.json, entry.facts.node_name});
  }
  return out;
}


}  // namespace wasched::live
