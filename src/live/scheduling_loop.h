// File: live/scheduling_loop.h
//
// The live scheduler's loop (`wasched run`, issue 17): whenever the watched cluster changed, it
// takes the ObjectStore's objects (with the pods it assumed but whose binding the watch has not
// shown yet placed on their nodes), decoded as `schedule --kubeconfig` decodes them (each object
// once per version, live/decode_cache.h), runs the
// engine (sched::Schedule) over it and turns the decisions into API writes:
//   - bindings of this scheduler's pods → assumed at once, bound in the background
//     (WriteQueue); a failed bind forgets the assumption and decides again, so no member of a
//     gang stays stuck (upstream: assume → bind → forget on failure);
//   - evictions → the victims are deleted (UID precondition), Preempted events; the preemptor's
//     pods get status.nominatedNodeName, and no binding is made until every victim is gone from
//     the watch (or `victim_wait_seconds` pass), as upstream's preemptor waits for its victims'
//     termination before it binds;
//   - pending pods of this scheduler (Unschedulable, SchedulerError; Unsupported is written as
//     SchedulerError) → PodScheduled=False with the message, and a FailedScheduling event, only
//     when that differs from what the pod shows in more than its counts;
//   - DRA: before a pod with claims is bound, each claim gets what upstream's DynamicResources
//     PreBind writes (live/claim_status.h): the allocation the engine made (with the
//     delete-protection finalizer) and the pod — or its PodGroup, for a PodGroup's claim — in
//     status.reservedFor, through resourceclaims/status with conflict handling; a failed claim
//     write fails the binding as a refused bind does (forgotten, reported, backoff; the pod's own
//     reservations removed again). Claims allocated but not yet shown by the watch count as
//     allocated in later cycles (Overlay::assumed_claims). A pod whose claim cannot be written
//     waits, Unschedulable with upstream's reason: a claim from a template the resourceclaim
//     controller has not made yet (no status.resourceClaimStatuses entry, or one without a
//     name), a claim that does not exist, or one being deleted;
//   - a binding whose node the watch no longer shows fails without being sent;
//   - PodGroupInitiallyScheduled → the PodGroup's /status, only when it differs (v1.37.2 writes
//     no CompositePodGroup condition and no group DisruptionTarget, so neither does `run`).
// Every decision is recomputed from the whole cluster: the loop keeps no scheduling state but the
// assumed pods and the victims it waits for, so a restart (after a crash, or a new leader) starts
// from what the API server holds and never binds a pod twice (the server refuses a second
// binding). Objects that fail decoding or the pre-scheduling checks are left out with one log
// line each (a live cluster is never refused as a whole).
//
// Not the long-lived engine of issue 16: each cycle rebuilds the engine from the decoded objects
// (O(cluster) per cycle; cycles batch every change that arrived while the previous one ran).
//
// Thread-safety: Run on one thread; the object store and the metrics are shared (thread-safe).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>
#include <tl/expected.hpp>

#include "api/object_set.h"
#include "kube/kubeconfig.h"
#include "live/claim_status.h"
#include "live/decode_cache.h"
#include "live/metrics.h"
#include "live/object_store.h"
#include "live/write_queue.h"
#include "sched/scheduler.h"

namespace wasched::live {

// Logger: `level` as klog's -v (0 always shown, 2 per-decision detail, 4 per request).
using Logger = std::function<void(int level, const std::string& line)>;

struct LoopOptions {
  sched::SchedulerOptions scheduler;  // scheduler.scheduler_name: the pods this loop binds
  // prepare: applied to every object once, when it is decoded, before the checks (the feature
  // gates' field drops, cli/feature_gates.h; DecodeCache::Prepare); may be empty.
  std::function<void(api::ObjectSet*)> prepare;
  double victim_wait_seconds = 30;
  bool events = true;
  std::string source = "cluster";  // names the snapshot's texts in log lines (the server URL)
};

// LoadOptionsForCluster: how the loop decodes cluster objects: fields it does not read are
// ignored (the server validated them), an object that fails is left out, unknown kinds skipped.
[[nodiscard]] codec::LoadOptions LoadOptionsForCluster();

class SchedulingLoop {
 public:
  // Borrowed: store, writes, metrics (must outlive the loop).
  SchedulingLoop(ObjectStore* store, WriteQueue* writes, Metrics* metrics, LoopOptions options,
                 Logger log, WallClock clock);

  // Run: cycles until `stop()`; a cycle runs when the store changed, every informer has synced
  // and `active()` (the leader, or no leader election). Waits on the store, at most 1 s at a
  // time (backoff and victim deadlines are checked then).
  void Run(const std::function<bool()>& stop, const std::function<bool()>& active);

  // Cycle: one cycle now (tests; Run calls it). Returns false when it waited for victims instead.
  bool Cycle();

  // InFlight: pods assumed whose binding has not been confirmed by the watch yet.
  [[nodiscard]] size_t InFlight() const;

 private:
  struct Assumed {
    std::string node;
    std::string uid;
  };
  struct Seen {
    int64_t first_seen = 0;  // unix µs
    int attempts = 0;
  };
  void Prune();
  // CycleAfterPrune: Cycle without its Prune (Run has just pruned to decide whether to cycle).
  bool CycleAfterPrune();
  void LogOnce(const std::string& line);
  // PlannedClaim: a claim a pod uses ("ns/name") and who it is reserved for.
  struct PlannedClaim {
    std::string key;
    std::string namespace_;
    std::string name;
    ClaimConsumer consumer;
  };
  // ClaimToWrite: one claim write of a binding, with the claim as the watch holds it.
  struct ClaimToWrite {
    ClaimWrite write;
    std::string uid;
    std::shared_ptr<const std::string> cached;
  };
  // AssumedClaim: a claim whose allocation was sent (or is about to be) and not yet watched.
  struct AssumedClaim {
    std::string uid;
    nlohmann::json allocation;
    std::vector<api::DeviceRequestAllocationResult> results;
  };
  // PlanClaims: the claims of this scheduler's unbound pods (claim_plans_: the name as upstream's
  // resourceclaim.Name resolves it, the consumer as BindTo), and the pods that must wait for
  // theirs (marked unsupported for the engine; claim_waits_ holds upstream's reason). O(pods)
  // compares, plus two store lookups per claim of a pod with claims.
  void PlanClaims(api::ObjectSet* objects);
  // ClaimWrites: what binding `pod` writes first (its planned claims; the allocation for those the
  // engine allocated now or an earlier binding still in flight did); an error when an allocation
  // cannot be expressed. `devices` is built on first need, once per cycle (O(slices' devices)).
  tl::expected<std::vector<ClaimToWrite>, std::string> ClaimWrites(
      const std::string& pod, const std::map<std::string, const sched::ClaimAllocation*>& allocs,
      std::optional<ClaimDevices>* devices, int64_t now);
  void Bind(const std::string& key, const std::string& uid, const std::string& node,
            tl::expected<std::vector<ClaimToWrite>, std::string> claims);
  // BackoffDue: some pod's bind backoff has expired (a cycle must retry it). Locks mu_.
  bool BackoffDue();

  ObjectStore* store_;
  WriteQueue* writes_;
  Metrics* metrics_;
  LoopOptions options_;
  Logger log_;
  WallClock clock_;
  size_t pod_type_, pod_group_type_, composite_type_, node_type_, claim_type_, slice_type_,
      class_type_;

  mutable std::mutex mu_;                 // guards assumed_ and seen_ (bind workers write)
  std::map<std::string, Assumed> assumed_;  // "ns/name" → node
  std::map<std::string, Seen> seen_;        // this scheduler's pending pods
  std::set<std::string> binding_;           // bindings sent whose answer has not come back
  // backoff_: pods whose binding was refused: "ns/name" → (consecutive failures, not before µs);
  // upstream's backoff queue (1 s doubling to 10 s, pkg/scheduler/backend/queue).
  std::map<std::string, std::pair<int, int64_t>> backoff_;
  std::map<std::string, std::pair<std::string, int64_t>> victims_;  // key → (uid, deadline µs)
  std::map<std::string, std::string> written_status_;  // key → reason\nmessage last written
  std::map<std::string, AssumedClaim> assumed_claims_;  // "ns/claim" (guarded by mu_)
  // This cycle's claims of unbound pods ("ns/pod" → claims) and pods waiting for a claim (→ why).
  std::map<std::string, std::vector<PlannedClaim>> claim_plans_;
  std::map<std::string, std::string> claim_waits_;
  std::set<std::string> logged_;
  DecodeCache decode_;
};

}  // namespace wasched::live
