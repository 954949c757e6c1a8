// File: live/decode_cache.h
//
// The scheduling loop's decoded copy of the cluster (`wasched run`, issue 17): every object of
// the ObjectStore decoded once per version and kept in one api::ObjectSet that a cycle updates
// in place, so a cycle decodes only the objects that changed since the one before and moves the
// others (client-go's informers hand out decoded objects too; k8s.io/client-go tools/cache).
// The set equals what decoding the store's objects as one List per type with
// codec::LoadTextsAndPaths gives (LoadOptions::keep_valid_objects): the same objects in the same
// order (objects in key order), the pods of the overlay on their assumed nodes, the claims of
// the overlay (those without status.allocation) with their assumed devices, and one
// InputError per object left out; an error's field path starts at the object, not at a List's
// `items[i]`.
//
//   DecodeCache cache(load_options, prepare);
//   DecodedCluster c = cache.Decode(store, overlay, "https://127.0.0.1:6443");
//   sched::Schedule(*c.objects, options);
//
// Differences from decoding whole Lists: codec::kMaxObjects applies per object, not to the whole
// cluster, and the loader's warnings (skipped kinds, defaulted node pods) are not kept: the loop
// never printed them.
//
// Memory: one decoded copy of every object beside the store's JSON. Complexity: Decode is
// O(changed objects' size) to decode plus O(objects) moves for each type that changed and an
// O(pods) pass; a type with no change costs O(its objects) pointer compares. Thread-safety: one
// thread (the loop); the store may change meanwhile (Decode reads each type's objects under its
// lock once).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "api/object_set.h"
#include "codec/load_options.h"
#include "codec/loader.h"
#include "live/object_store.h"
#include "util/field_error.h"

namespace wasched::live {

// DecodedCluster: one cycle's objects, the errors of the objects left out, and how many objects
// were decoded this time (the rest came from the cache; for the -v 2 log and the tests).
// `objects` is the cache's own set, valid until the next Decode. Until then the caller may set a
// pod's node_name and append to a pod's unsupported_constraints (the loop's per-cycle marks) and
// nothing else: the next Decode undoes both. A caller that needs other changes copies the set.
struct DecodedCluster {
  api::ObjectSet* objects = nullptr;
  InputErrors object_errors;
  size_t decoded = 0;
};

class DecodeCache {
 public:
  // Prepare: applied to each object right after it is decoded (alone in its ObjectSet), e.g. the
  // feature gates' field drops (cli/feature_gates.h); it may drop the object.
  using Prepare = std::function<void(api::ObjectSet*)>;

  // `options`: how each object is decoded (the loop: fields ignored, valid objects kept, unknown
  // kinds skipped).
  explicit DecodeCache(codec::LoadOptions options, Prepare prepare = {})
      : options_(options), prepare_(std::move(prepare)) {}

  // Decode: the store's objects now, decoded (kept from the last Decode when their JSON is the
  // one decoded then), with `overlay`'s unbound pods given their assumed nodes; `source` names
  // the objects in errors ("<source> <apiVersion> <resource>"). Objects gone from the store are
  // dropped.
  [[nodiscard]] DecodedCluster Decode(const ObjectStore& store, const Overlay& overlay,
                                      const std::string& source);

 private:
  // Slot: one stored object in key order, and whether it decoded to an object of its type's kind
  // (the next one in that kind's list) or was left out (`errors` say why, if anything).
  struct Slot {
    std::string key;
    std::shared_ptr<const std::string> json;  // the version decoded
    bool present = false;
    uint32_t unsupported = 0;  // pods: unsupported_constraints.size() as decoded
    InputErrors errors;
  };
  template <typename T>
  void Refresh(size_t type, std::vector<T> api::ObjectSet::*kind,
               const std::vector<StoredObject>& now, const std::string& name, size_t* decoded);
  void UndoCallerChanges();

  codec::LoadOptions options_;
  Prepare prepare_;
  api::ObjectSet objects_;
  std::vector<std::vector<Slot>> slots_;  // per kube::SchedulingResources() type, key order
  std::vector<size_t> overlaid_;          // pods the last Decode gave an assumed node
  std::vector<size_t> overlaid_claims_;   // claims the last Decode gave an assumed allocation
};

}  // namespace wasched::live
