// File: live/object_store.cc
#include "live/object_store.h"

#include <chrono>

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
      objects[std::move(key)] = Entry{copy.dump(), FactsOf(copy)};
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
  ObjectFacts facts = FactsOf(doc);
  std::string text = event == kube::WatchEventType::kDeleted ? std::string() : doc.dump();
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

std::vector<codec::NamedText> ObjectStore::Snapshot(const Overlay& overlay,
                                                    const std::string& source) const {
  const auto& resources = kube::SchedulingResources();
  std::vector<codec::NamedText> texts;
  std::lock_guard<std::mutex> lock(mu_);
  for (size_t t = 0; t < types_.size() && t < resources.size(); ++t) {
    const kube::ResourceType& type = resources[t];
    std::string text = fmt::format(R"({{"apiVersion":"{}","kind":"{}List","items":[)",
                                   type.ApiVersion(), type.kind);
    bool first = true;
    for (const auto& [key, entry] : types_[t].objects) {
      if (!first) text.push_back(',');
      first = false;
      auto assumed = type.kind == "Pod" ? overlay.assumed_nodes.find(key)
                                        : overlay.assumed_nodes.end();
      if (assumed != overlay.assumed_nodes.end() && entry.facts.node_name.empty()) {
        json doc = json::parse(entry.json, nullptr, /*allow_exceptions=*/false);
        doc["spec"]["nodeName"] = assumed->second;
        text += doc.dump(-1, ' ', false, json::error_handler_t::replace);
      } else {
        text += entry.json;
      }
    }
    text += "]}";
    texts.push_back(codec::NamedText{
        fmt::format("{} {} {}", source, type.ApiVersion(), type.resource), std::move(text)});
  }
  return texts;
}

}  // namespace wasched::live
