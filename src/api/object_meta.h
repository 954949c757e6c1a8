// File: api/object_meta.h
//
// ObjectMeta and the small shared types every Kubernetes object embeds (owner references,
// conditions), plus SourceRef: where wasched read the object from, so that every error can name
// file, document and object. Pure data; no I/O.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace wasched::api {

// SourceRef: origin of a decoded object (wasched-only, not a Kubernetes field).
// `document` is 1-based within `file`; `file` is "-" for stdin, empty for objects built in code.
struct SourceRef {
  std::string file;
  int document = 0;
};

// OwnerReference: metav1.OwnerReference (subset used by controllers and the scheduler).
struct OwnerReference {
  std::string api_version;
  std::string kind;
  std::string name;
  std::string uid;
  bool controller = false;
  bool block_owner_deletion = false;
};

// ObjectMeta: metav1.ObjectMeta, the fields wasched reads.
// `namespace_` defaults to "default" for namespaced kinds (set by the codec) and stays empty for
// cluster-scoped kinds (Node, PriorityClass). `creation_timestamp` is seconds since the Unix
// epoch, parsed from RFC 3339; absent means "unknown" and sorts as equal.
// `generate_name` is metadata.generateName as written; an object read with it and without a
// name gets a derived name when the input is loaded (codec/generated_names.h).
struct ObjectMeta {
  std::string name;
  std::string generate_name;
  std::string namespace_;
  std::string uid;
  int64_t generation = 0;
  std::map<std::string, std::string> labels;
  std::map<std::string, std::string> annotations;
  std::vector<OwnerReference> owner_references;
  std::optional<int64_t> creation_timestamp;
  SourceRef source;  // wasched-only: where the object was read from
};

// GetControllerOf: metav1.GetControllerOf: the owner reference with controller true, or nullptr.
// O(owner references).
[[nodiscard]] inline const OwnerReference* GetControllerOf(const ObjectMeta& meta) {
  for (const OwnerReference& o : meta.owner_references) {
    if (o.controller) return &o;
  }
  return nullptr;
}

// Condition: metav1.Condition. `status` is "True", "False" or "Unknown".
// `last_transition_time` is seconds since the Unix epoch (0 = unset).
struct Condition {
  std::string type;
  std::string status;
  std::string reason;
  std::string message;
  int64_t observed_generation = 0;
  int64_t last_transition_time = 0;
  friend bool operator==(const Condition&, const Condition&) = default;
};

// NamespacedName: "ns/name" as used in output and messages.
[[nodiscard]] inline std::string NamespacedName(const ObjectMeta& meta) {
  return meta.namespace_.empty() ? meta.name : meta.namespace_ + "/" + meta.name;
}

}  // namespace wasched::api
