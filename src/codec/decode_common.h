// File: codec/decode_common.h
//
// Decoders shared by every kind (internal to codec/): the top-level object frame (apiVersion,
// kind, metadata first), ObjectMeta, resource lists (quantities → canonical integers),
// PreemptionPolicy, metav1.Condition and RFC 3339 timestamps. Errors and warnings go to the
// Reader's Diagnostics; nothing throws.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <optional>
#include <string_view>
#include <vector>

#include "api/object_meta.h"
#include "api/pod.h"
#include "api/resource_list.h"
#include "codec/yaml_reader.h"

namespace wasched::codec::internal {

// ParseRfc3339: seconds since the Unix epoch of an RFC 3339 date-time
// (`2024-05-01T12:00:00Z`, `…T12:00:00.5+02:00`; fractions are truncated), as metav1.Time's
// `time.Parse(time.RFC3339, …)`; nullopt when malformed or out of range. O(length).
[[nodiscard]] std::optional<int64_t> ParseRfc3339(std::string_view text);

// DecodeTimestamp: an RFC 3339 string field; bad text → Invalid error (value quoted).
void DecodeTimestamp(const Reader& r, std::optional<int64_t>* out);

// DecodeObjectMeta: metadata.{name, generateName, namespace, uid, generation, labels,
// annotations, ownerReferences, creationTimestamp}. Server-maintained fields (resourceVersion,
// managedFields, finalizers, …) are ignored silently; other unknown fields warn.
// `namespaced`: a missing namespace becomes "default"; for cluster-scoped kinds the namespace is
// dropped. Neither name nor generateName is `Required metadata.name`; a generateName without a
// name is kept for the loader to derive the name from (codec/generated_names.h).
void DecodeObjectMeta(const Reader& metadata, bool namespaced, api::ObjectMeta* meta);

// DecodeResourceList: `{cpu: 500m, memory: 1Gi}` → canonical amounts (api::CanonicalAmount).
// A bad quantity is `Invalid <path>[<name>]: "<text>": <parse error>`. Negative amounts are
// kept (validation rejects them). When `non_integer` is given, every amount that is not a whole
// number of units (upstream `MilliValue() % 1000 != 0`) is recorded there as name → text, for
// validation's integer-resource rule (api::Container::non_integer_requests). O(entries).
void DecodeResourceList(const Reader& r, api::ResourceList* out,
                        std::map<std::string, std::string>* non_integer = nullptr);

// DecodePreemptionPolicy: "PreemptLowerPriority" | "Never"; anything else → NotSupported.
void DecodePreemptionPolicy(const Reader& r, std::optional<api::PreemptionPolicy>* out);

// DecodeCondition: metav1.Condition {type, status, reason, message, observedGeneration,
// lastTransitionTime}.
void DecodeCondition(const Reader& r, api::Condition* out);

// DecodeEmptyStruct: a union member of shape `{}` (`basic`, `single`, `all`): true when set.
// `basic:` with a null value is *unset* (as in Go's JSON decoding) and gets a warning saying so;
// fields inside warn as unknown.
[[nodiscard]] bool DecodeEmptyStruct(const Reader& r);

// IsOneOf: `key` is in `names` (lists of fields that are known but deliberately ignored).
template <size_t N>
[[nodiscard]] bool IsOneOf(std::string_view key, const std::string_view (&names)[N]) {
  for (std::string_view n : names) {
    if (n == key) return true;
  }
  return false;
}

// DecodeTopLevel: the frame of every object: decodes `metadata` first (so the object can be
// named in every later message), skips apiVersion / kind (already read by the loader), then
// calls `fn(key, value) -> bool` for each other top-level field in document order; false =
// unknown field (warned).
template <typename Fn>
void DecodeTopLevel(const Reader& root, bool namespaced, api::ObjectMeta* meta, Fn&& fn) {
  bool saw_metadata = false;
  root.ForEachField([&](std::string_view key, const Reader& value) {
    if (key == "metadata") {
      saw_metadata = true;
      DecodeObjectMeta(value, namespaced, meta);
      return true;
    }
    return true;  // every other field is visited by the second pass below
  });
  if (!saw_metadata) {
    const EventTape empty;
    DecodeObjectMeta(Reader(empty, kNoNode, root.ChildPath("metadata"), root.diagnostics()),
                     namespaced, meta);
  }
  root.ForEachField([&](std::string_view key, const Reader& value) -> bool {
    if (key == "metadata" || key == "apiVersion" || key == "kind") return true;
    return fn(key, value);
  });
}

// DecodeClaimReferences: `[{name, resourceClaimName | resourceClaimTemplateName}]`, appended to
// `out` (Pod spec.resourceClaims and PodGroup / template spec.resourceClaims share the shape;
// `Claim` has name, resource_claim_name, resource_claim_template_name). Unknown keys are left to
// the reader's unknown-field warning. O(entries).
template <class Claim>
void DecodeClaimReferences(const Reader& r, std::vector<Claim>* out) {
  r.ForEachItem([&](size_t, const Reader& item) {
    Claim& claim = out->emplace_back();
    item.ForEachField([&](std::string_view key, const Reader& f) {
      if (key == "name") f.Read(&claim.name);
      else if (key == "resourceClaimName") f.Read(&claim.resource_claim_name);
      else if (key == "resourceClaimTemplateName") f.Read(&claim.resource_claim_template_name);
      else return false;
      return true;
    });
  });
}

}  // namespace wasched::codec::internal
