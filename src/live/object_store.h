// File: live/object_store.h
//
// The live scheduler's copy of the cluster (`wasched run`, issue 17): every object of
// kube::SchedulingResources() as the watch last delivered it, kept as JSON text, as client-go's
// informer store keeps objects (k8s.io/client-go tools/cache/store.go, v0.37.2). Informer
// threads write (Replace on a list, Apply per watch event); the scheduling loop waits for a
// change and reads the objects, which live/decode_cache.h decodes as `schedule --kubeconfig`
// decodes list pages. A few fields the loop decides on (a pod's uid, node, deletion, PodScheduled
// condition; a group's conditions) are kept parsed beside the text.
//
//   ObjectStore store(kube::SchedulingResources().size());
//   store.Replace(type_index, list);            // informer thread
//   store.Apply(type_index, kModified, json);   // informer thread
//   uint64_t seen = store.WaitForChange(0, 1.0);
//   auto pods = store.Objects(type_index);      // scheduling loop (live/decode_cache.h)
//
// Thread-safety: every member may be called from any thread (one mutex). Complexity: Apply is
// O(object size + log n); Objects is O(objects of the type).
#pragma once

#include <condition_variable>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "api/dra/resource_claim.h"
#include "kube/kube_error.h"
#include "kube/list_watch.h"

namespace wasched::live {

// StoredCondition: one status condition as the server holds it (type, status, reason, message).
struct StoredCondition {
  std::string type;
  std::string status;
  std::string reason;
  std::string message;
  // Compared by type, status, reason and message only (the time is the server's bookkeeping).
  std::string last_transition_time;
  friend bool operator==(const StoredCondition& a, const StoredCondition& b) {
    return a.type == b.type && a.status == b.status && a.reason == b.reason &&
           a.message == b.message;
  }
};

// ObjectFacts: what the loop reads without decoding the object: metadata.uid,
// metadata.resourceVersion, whether metadata.deletionTimestamp is set, spec.nodeName and
// spec.schedulerName (pods), status.nominatedNodeName (pods), status.conditions,
// status.resourceClaimStatuses (pods: entry name → generated claim name, "" when the controller
// recorded none) and whether status.allocation is set (ResourceClaims).
struct ObjectFacts {
  std::string uid;
  std::string resource_version;
  bool deleting = false;
  std::string node_name;
  std::string scheduler_name;
  std::string nominated_node_name;
  std::vector<StoredCondition> conditions;
  std::vector<std::pair<std::string, std::string>> resource_claim_statuses;
  bool allocated = false;
  [[nodiscard]] const StoredCondition* Condition(std::string_view type) const;
  // ResourceClaimStatus: the claim name recorded for the pod's entry `entry`; nullptr when the
  // entry has no status (the resourceclaim controller has not made its claim yet).
  [[nodiscard]] const std::string* ResourceClaimStatus(std::string_view entry) const;
};

// StoredObject: one object as Objects() lists it: its key, its JSON (apiVersion and kind set,
// managedFields dropped; shared, immutable: a change stores a new string, so the pointer tells a
// reader whether the object changed) and its spec.nodeName.
struct StoredObject {
  std::string key;
  std::shared_ptr<const std::string> json;
  std::string node_name;
};

// Overlay: changes the loop applies to its decoded copy only (never to the store): pods it assumed
// on a node whose binding the watch has not shown yet ("ns/name" → node), as upstream's
// scheduler cache assumes a pod before its bind returns (pkg/scheduler/backend/cache).
// The claims it allocated whose status the watch has not shown yet ("ns/name" → the devices) are
// shown allocated, as upstream's assume cache holds a claim after its status update
// (pkg/scheduler/framework/plugins/dynamicresources, AssumeClaimAfterAPICall), so no later cycle
// gives their devices again.
struct Overlay {
  std::map<std::string, std::string> assumed_nodes;
  std::map<std::string, std::vector<api::DeviceRequestAllocationResult>> assumed_claims;
};

class ObjectStore {
 public:
  // `types`: the number of resource types (kube::SchedulingResources().size()); `type` indexes
  // below are positions in that list.
  explicit ObjectStore(size_t types);

  // Replace: the objects of a (re)list replace every object held for `type`; marks it synced.
  // Items that are not JSON objects with metadata.name are skipped.
  void Replace(size_t type, const kube::ListResult& list);
  // Apply: one watch event (ADDED and MODIFIED store the object, DELETED removes it).
  void Apply(size_t type, kube::WatchEventType event, std::string_view object_json);
  // MarkAbsent: the server does not serve `type` (404 on a non-core group): synced and empty.
  void MarkAbsent(size_t type);
  // SetFatal: an informer met an error retrying cannot fix (401, 403); wakes every waiter.
  void SetFatal(kube::KubeError error);
  [[nodiscard]] std::optional<kube::KubeError> Fatal() const;

  // AllSynced: every type has had its first list (or is absent).
  [[nodiscard]] bool AllSynced() const;
  // Generation: counts every change (Replace, Apply, MarkAbsent, SetFatal, Poke).
  [[nodiscard]] uint64_t Generation() const;
  // Poke: counts as a change (e.g. a bind failed: the loop must decide again).
  void Poke();
  // WaitForChange: blocks until Generation() != `seen` or `timeout_seconds` pass; returns the
  // generation then.
  uint64_t WaitForChange(uint64_t seen, double timeout_seconds);

  // Facts: the parsed fields of the object `key` ("ns/name", or "name" for cluster-scoped
  // kinds) of `type`; nullopt when it is not held.
  [[nodiscard]] std::optional<ObjectFacts> Facts(size_t type, const std::string& key) const;
  // CountUnbound: pods (objects of `type`) whose spec.schedulerName is `scheduler_name`, without
  // spec.nodeName and not being deleted. O(objects of `type`).
  [[nodiscard]] size_t CountUnbound(size_t type, const std::string& scheduler_name) const;
  // Count: objects held for `type`.
  [[nodiscard]] size_t Count(size_t type) const;

  // Json: the JSON of the object `key` of `type` (shared, not copied); nullptr when not held.
  [[nodiscard]] std::shared_ptr<const std::string> Json(size_t type, const std::string& key) const;
  // Objects: every object of `type` in key order; the JSON is shared, not copied. O(n).
  [[nodiscard]] std::vector<StoredObject> Objects(size_t type) const;
  // Types: the number of resource types.
  [[nodiscard]] size_t Types() const { return types_.size(); }


 private:
  struct Entry {
    std::shared_ptr<const std::string> json;  // shared with Objects() callers, never mutated
    ObjectFacts facts;
  };
  struct Type {
    std::map<std::string, Entry> objects;
    bool synced = false;
  };
  void ChangedLocked();

  mutable std::mutex mu_;
  std::condition_variable cv_;
  std::vector<Type> types_;
  uint64_t generation_ = 0;
  std::optional<kube::KubeError> fatal_;
};

// KeyOf: "ns/name" (or "name") of an object's metadata; empty when it has no name.
[[nodiscard]] std::string KeyOfJson(std::string_view object_json);

}  // namespace wasched::live
