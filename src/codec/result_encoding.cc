// File: codec/result_encoding.cc
//
// ScheduleResult → the `wasched.io/v1alpha1 ScheduleResult` document (design.md "schedule JSON
// output"): JSON through nlohmann::ordered_json (keys in contract order, 2-space indent, trailing
// newline) and YAML through yaml-cpp's Emitter with the same structure and key order (keys
// plain, every string value double-quoted, numbers plain).
#include "codec/result_encoding.h"

#include <nlohmann/json.hpp>
#include <yaml-cpp/yaml.h>

#include "codec/generated_encoding.h"

namespace wasched::codec {
namespace {

using Json = nlohmann::ordered_json;

constexpr const char* kApiVersion = "wasched.io/v1alpha1";
constexpr const char* kKind = "ScheduleResult";

Json ConditionJson(const api::Condition& c) {
  Json j = Json::object();
  j["type"] = c.type;
  j["status"] = c.status;
  j["reason"] = c.reason;
  j["message"] = c.message;
  return j;
}

// EmitString: every string is double-quoted, so it reads back as a string under any YAML
// schema: plain `0x1f` is an integer in YAML 1.2's core schema and `yes` / `on` are booleans in
// YAML 1.1 (PyYAML, go-yaml v2, sigs.k8s.io/yaml), while node and pod names may be either.
void EmitString(YAML::Emitter& out, const std::string& s) { out << YAML::DoubleQuoted << s; }

void EmitKeyString(YAML::Emitter& out, const char* key, const std::string& value) {
  out << YAML::Key << key << YAML::Value;
  EmitString(out, value);
}

// EmitList: `key: []` when empty, else a block sequence of maps built by `item`.
template <typename T, typename ItemFn>
void EmitList(YAML::Emitter& out, const char* key, const std::vector<T>& list, ItemFn&& item) {
  out << YAML::Key << key << YAML::Value;
  if (list.empty()) {
    out << YAML::Flow << YAML::BeginSeq << YAML::EndSeq;
    return;
  }
  out << YAML::BeginSeq;
  for (const T& element : list) {
    out << YAML::BeginMap;
    item(element);
    out << YAML::EndMap;
  }
  out << YAML::EndSeq;
}

}  // namespace

std::string EncodeScheduleResultJson(const sched::ScheduleResult& result) {
  Json doc = Json::object();
  doc["apiVersion"] = kApiVersion;
  doc["kind"] = kKind;
  Json bindings = Json::array();
  for (const sched::Binding& b : result.bindings) {
    bindings.push_back(Json{{"pod", b.pod}, {"node", b.node}});
  }
  doc["bindings"] = std::move(bindings);
  Json pending = Json::array();
  for (const sched::PendingPod& p : result.pending) {
    Json entry{{"pod", p.pod}, {"reason", p.reason}, {"message", p.message}};
    if (!p.held.empty()) entry["held"] = p.held;
    pending.push_back(std::move(entry));
  }
  doc["pending"] = std::move(pending);
  Json evictions = Json::array();
  for (const sched::Eviction& e : result.evictions) {
    evictions.push_back(Json{
        {"pod", e.pod}, {"node", e.node}, {"preemptor", e.preemptor}, {"reason", e.reason}});
  }
  doc["evictions"] = std::move(evictions);
  Json groups = Json::array();
  for (const sched::GroupResult& g : result.groups) {
    Json group = Json::object();
    group["kind"] = g.kind;
    group["name"] = g.name;
    group["scheduled"] = g.scheduled;
    if (!g.policy.empty()) group["policy"] = g.policy;
    if (g.min_count) group["minCount"] = *g.min_count;
    if (g.min_group_count) group["minGroupCount"] = *g.min_group_count;
    if (g.parent) group["parent"] = *g.parent;
    if (g.placement) {
      Json placement = Json::object();
      placement[g.placement->key] = g.placement->value;
      group["placement"] = std::move(placement);
    }
    Json conditions = Json::array();
    for (const api::Condition& c : g.conditions) conditions.push_back(ConditionJson(c));
    group["conditions"] = std::move(conditions);
    if (g.outcome) {
      group["outcome"] = Json{
          {"status", g.outcome->status}, {"reason", g.outcome->reason}, {"message", g.outcome->message}};
    }
    if (g.disrupted) group["disrupted"] = true;
    groups.push_back(std::move(group));
  }
  doc["groups"] = std::move(groups);
  if (!result.allocations.empty()) {  // DRA (issue 6): only when a claim was allocated
    Json allocations = Json::array();
    for (const sched::ClaimAllocation& a : result.allocations) {
      Json devices = Json::array();
      for (const sched::ClaimAllocation::Device& d : a.devices) {
        devices.push_back(Json{{"request", d.request}, {"driver", d.driver}, {"pool", d.pool},
                               {"device", d.device}});
      }
      Json item = Json{{"claim", a.claim}};
      if (!a.owner.empty()) item["owner"] = a.owner;
      item["devices"] = std::move(devices);
      allocations.push_back(std::move(item));
    }
    doc["allocations"] = std::move(allocations);
  }
  if (!result.notes.empty()) doc["notes"] = result.notes;  // issue 20 item 12
  doc["generated"] = Json::parse(internal::GeneratedJsonText(result.generated));
  // Invalid UTF-8 in messages is replaced rather than thrown on (never crash on input).
  return doc.dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
}

std::string EncodeScheduleResultYaml(const sched::ScheduleResult& result) {
  YAML::Emitter out;
  out << YAML::BeginMap;
  EmitKeyString(out, "apiVersion", kApiVersion);
  EmitKeyString(out, "kind", kKind);
  EmitList(out, "bindings", result.bindings, [&](const sched::Binding& b) {
    EmitKeyString(out, "pod", b.pod);
    EmitKeyString(out, "node", b.node);
  });
  EmitList(out, "pending", result.pending, [&](const sched::PendingPod& p) {
    EmitKeyString(out, "pod", p.pod);
    EmitKeyString(out, "reason", p.reason);
    EmitKeyString(out, "message", p.message);
    if (!p.held.empty()) EmitKeyString(out, "held", p.held);
  });
  EmitList(out, "evictions", result.evictions, [&](const sched::Eviction& e) {
    EmitKeyString(out, "pod", e.pod);
    EmitKeyString(out, "node", e.node);
    EmitKeyString(out, "preemptor", e.preemptor);
    EmitKeyString(out, "reason", e.reason);
  });
  EmitList(out, "groups", result.groups, [&](const sched::GroupResult& g) {
    EmitKeyString(out, "kind", g.kind);
    EmitKeyString(out, "name", g.name);
    out << YAML::Key << "scheduled" << YAML::Value << g.scheduled;
    if (!g.policy.empty()) EmitKeyString(out, "policy", g.policy);
    if (g.min_count) out << YAML::Key << "minCount" << YAML::Value << *g.min_count;
    if (g.min_group_count) out << YAML::Key << "minGroupCount" << YAML::Value << *g.min_group_count;
    if (g.parent) EmitKeyString(out, "parent", *g.parent);
    if (g.placement) {
      out << YAML::Key << "placement" << YAML::Value << YAML::BeginMap;
      EmitKeyString(out, g.placement->key.c_str(), g.placement->value);
      out << YAML::EndMap;
    }
    EmitList(out, "conditions", g.conditions, [&](const api::Condition& c) {
      EmitKeyString(out, "type", c.type);
      EmitKeyString(out, "status", c.status);
      EmitKeyString(out, "reason", c.reason);
      EmitKeyString(out, "message", c.message);
    });
    if (g.outcome) {
      out << YAML::Key << "outcome" << YAML::Value << YAML::BeginMap;
      EmitKeyString(out, "status", g.outcome->status);
      EmitKeyString(out, "reason", g.outcome->reason);
      EmitKeyString(out, "message", g.outcome->message);
      out << YAML::EndMap;
    }
    if (g.disrupted) out << YAML::Key << "disrupted" << YAML::Value << true;
  });
  if (!result.allocations.empty()) {
    EmitList(out, "allocations", result.allocations, [&](const sched::ClaimAllocation& a) {
      EmitKeyString(out, "claim", a.claim);
      if (!a.owner.empty()) EmitKeyString(out, "owner", a.owner);
      EmitList(out, "devices", a.devices, [&](const sched::ClaimAllocation::Device& d) {
        EmitKeyString(out, "request", d.request);
        EmitKeyString(out, "driver", d.driver);
        EmitKeyString(out, "pool", d.pool);
        EmitKeyString(out, "device", d.device);
      });
    });
  }
  if (!result.notes.empty()) {
    out << YAML::Key << "notes" << YAML::Value << YAML::BeginSeq;
    for (const std::string& note : result.notes) EmitString(out, note);
    out << YAML::EndSeq;
  }
  internal::EmitGeneratedYaml(out, result.generated);
  out << YAML::EndMap;
  return std::string(out.c_str()) + "\n";
}

}  // namespace wasched::codec
