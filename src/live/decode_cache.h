// File: live/decode_cache.h
//
// The scheduling loop's decoded copy of the cluster (`wasched run`, issue 17): every object of
// the ObjectStore decoded once per version and kept, so a cycle decodes only the objects that
// changed since the one before and copies the others (client-go's informers hand out decoded
// objects too; k8s.io/client-go tools/cache). The result is the ObjectSet that decoding
// ObjectStore::Snapshot with codec::LoadTextsAndPaths gives (LoadOptions::keep_valid_objects):
// the same objects in the same order (types in kube::SchedulingResources() order, objects in key
// order), the pods of the overlay on their assumed nodes, and one InputError per object left out;
// an error's field path starts at the object, not at a List's `items[i]`.
//
//   DecodeCache cache(load_options);
//   DecodedCluster c = cache.Decode(store, overlay, "https://127.0.0.1:6443");
//   sched::Schedule(c.objects, options);
//
// Differences from decoding a Snapshot: codec::kMaxObjects applies per object, not to the whole
// cluster, and the loader's warnings (skipped kinds, defaulted node pods) are not kept: the loop
// never printed them.
//
// Memory: one decoded copy of every object beside the store's JSON. Complexity: Decode is
// O(changed objects' size) to decode plus O(cluster) to copy. Thread-safety: one thread (the
// loop); the store may change meanwhile (Decode reads each type's objects under its lock once).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "api/object_set.h"
#include "codec/load_options.h"
#include "codec/loader.h"
#include "live/object_store.h"
#include "util/field_error.h"

namespace wasched::live {

// DecodedCluster: one cycle's objects, the errors of the objects left out, and how many objects
// were decoded this time (the rest came from the cache; for the -v 2 log and the tests).
struct DecodedCluster {
  api::ObjectSet objects;
  InputErrors object_errors;
  size_t decoded = 0;
};

class DecodeCache {
 public:
  // `options`: how each object is decoded (the loop: fields ignored, valid objects kept, unknown
  // kinds skipped).
  explicit DecodeCache(codec::LoadOptions options) : options_(options) {}

  // Decode: the store's objects now, decoded (from the cache when their JSON is the one decoded
  // before), with `overlay`'s pods given their assumed nodes; `source` names the objects in
  // errors ("<source> <apiVersion> <resource>", as Snapshot names its texts). Objects gone from
  // the store are dropped from the cache.
  [[nodiscard]] DecodedCluster Decode(const ObjectStore& store, const Overlay& overlay,
                                      const std::string& source);

 private:
  struct Cached {
    std::shared_ptr<const std::string> json;  // the version decoded
    api::ObjectSet objects;                    // what it decoded to (one object, or none)
    InputErrors errors;                        // why it was left out
    uint64_t cycle = 0;                        // the last Decode that saw it
  };
  codec::LoadOptions options_;
  std::vector<std::unordered_map<std::string, Cached>> types_;
  uint64_t cycle_ = 0;
};

}  // namespace wasched::live
