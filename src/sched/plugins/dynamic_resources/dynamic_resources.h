// File: sched/plugins/dynamic_resources/dynamic_resources.h
//
// DynamicResources: the DRA plugin of the scheduler. Upstream:
// kubernetes/kubernetes pkg/scheduler/framework/plugins/dynamicresources/dynamicresources.go
// (PreFilter: resolve the pod's claims; Filter: an allocated claim must be reachable from the
// node — "resourceclaim not available on the node" — and the unallocated ones must be
// allocatable there — "cannot allocate all claims"; Reserve: allocate on the chosen node;
// Unreserve: release) and KEP-5729 (PodGroup-level claims, spec/was-v1.37.md §7).
//
// Claims a pod uses (claim instances, resolved once at construction):
//  * `resourceClaimName: c` → the ResourceClaim ns/c, shared by every pod naming it; when it is
//    already allocated in the input (status.allocation) its devices are held from the start.
//  * `resourceClaimTemplateName: t` → a claim made for the pod from template t. The claim the
//    pod already owns (controller ownerReference to it and annotation
//    resource.kubernetes.io/pod-claim-name = the entry, upstream findPodResourceClaim), else a
//    new one named as the resourceclaim controller's generateName `<pod>-<entry>-` (both cut in
//    proportion above 57 bytes) plus 5 characters derived from namespace, pod and entry
//    (util/name_generation.h GenerateName; upstream's are random), derived again while another
//    claim holds the name: two owners never share a generated claim, and a claim the pod does
//    not own (a user's ResourceClaim of the same name) is never taken over (issue 20 E.21);
//  * ... unless the pod's PodGroup has the identical entry {name, resourceClaimTemplateName}
//    (gate DRAWorkloadResourceClaims): then every such member shares the group's one claim (the
//    one the PodGroup owns, else `<podgroup>-<entry>-` + 5 derived characters, as above),
//    allocated once for the group (by its first member placed); every other member must reach
//    its devices. With the gate off such a pod gets no claim (1.37): PreFilter rejects it,
//    "waiting for dynamic resource controller to create the resourceclaim".
//
// State changes (Reserve) go to an undo log; Mark / RevertTo release the allocations of a failed
// group cycle (the gang's Unreserve). Not thread-safe: the scheduling loop owns it.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "api/object_set.h"
#include "dra/allocator/allocator.h"
#include "sched/cache/node_table.h"
#include "sched/framework/status.h"
#include "sched/schedule_result.h"
#include "util/feature_gates.h"

namespace wasched::sched {

// ClaimAllocationResult: the result shape (sched/schedule_result.h).
using ClaimAllocationResult = ClaimAllocation;

class DynamicResources {
 public:
  enum class Verdict { kFits, kProblem, kNotAvailable, kCannotAllocate };
  static constexpr std::string_view kName = "DynamicResources";
  // Upstream reasons (dynamicresources.go).
  static constexpr std::string_view kCannotAllocate = "cannot allocate all claims";
  static constexpr std::string_view kNotAvailable = "resourceclaim not available on the node";

  // DynamicResources: resolves every pod's claims and builds the device inventory. `nodes` are
  // the scheduler's nodes in NodeIndex order (they and `objects` must outlive the plugin).
  // O(pods × claims + devices × distinct claim specs × selectors + selector slices × nodes).
  DynamicResources(const api::ObjectSet& objects, std::span<const api::Node* const> nodes,
                   const FeatureGates& gates);

  DynamicResources(const DynamicResources&) = delete;
  DynamicResources& operator=(const DynamicResources&) = delete;

  // HasClaims: the pod uses at least one claim (else every other method is a no-op success).
  [[nodiscard]] bool HasClaims(const api::Pod& pod) const;

  // PreFilter: Success, or UnschedulableAndUnresolvable when a claim can never be allocated (a
  // selector's CEL runtime error, an unsupported feature) or does not exist (gate off). O(claims).
  [[nodiscard]] Status PreFilter(const api::Pod& pod) const;

  // Filter: the pod's claims can be used from `node` now (see the header). O(claims) on the
  // common shape, else a bounded search. Success or UnschedulableAndUnresolvable.
  [[nodiscard]] Status Filter(const api::Pod& pod, NodeIndex node);
  // FilterNodes: keeps the nodes of `nodes` where Filter succeeds (order kept). O(|nodes| ×
  // Filter).
  void FilterNodes(const api::Pod& pod, std::vector<NodeIndex>* nodes);

  // Reserve: allocates the pod's unallocated claims on `node` (which must pass Filter) and holds
  // them. False (nothing changed) when they no longer fit.
  [[nodiscard]] bool Reserve(const api::Pod& pod, NodeIndex node);

  // HasAlternatives: one of the pod's claims not yet allocated has a `firstAvailable` request
  // with two or more subrequests (KEP-4816), so Reserve could choose differently. O(claims).
  [[nodiscard]] bool HasAlternatives(const api::Pod& pod) const;
  // set_later_alternatives_first: Reserve for `pod` (nullptr: none) tries each firstAvailable
  // request's later subrequests first (dra::Allocator::set_later_alternatives_first); every
  // other pod allocates as upstream. Used by the complete placement search of a gang
  // (PodGroupAlgorithm, kubernetes/kubernetes#138765); `pod` must outlive the setting. O(1).
  void set_later_alternatives_first(const api::Pod* pod) { later_alternatives_first_ = pod; }

  // Mark / RevertTo: undo every Reserve after the mark (Unreserve of a failed cycle).
  struct Checkpoint {
    size_t allocator = 0;
    size_t instances = 0;
  };
  [[nodiscard]] Checkpoint Mark() const { return {allocator_.Mark(), undo_.size()}; }
  void RevertTo(Checkpoint mark);

  // PodClaims: a pod's resolved claims (opaque to callers): look it up once per pod with
  // ClaimsOf, then call Fits per node without further lookups.
  struct PodClaims;
  // ClaimsOf: the pod's claims, or nullptr when it uses none. O(1) average.
  [[nodiscard]] const PodClaims* ClaimsOf(const api::Pod& pod) const;
  // Fits: Filter's verdict without a Status (allocation-free). O(claims) on the common shape.
  [[nodiscard]] bool Fits(const PodClaims& claims, NodeIndex node) {
    return Check(claims, node) == Verdict::kFits;
  }
  // Problem: the PreFilter rejection of `claims` ("" when none).
  [[nodiscard]] static const std::string& Problem(const PodClaims& claims);
  // FilterReason: the reason Filter gives on `node` ("" when the pod fits there).
  [[nodiscard]] std::string_view FilterReason(const PodClaims& claims, NodeIndex node);

  // Assume / Unassume / CommitAssumed: the Snapshot's hooks. Assume reserves the pod's claims on
  // `node` and remembers a checkpoint; Unassume (newest first, as the Snapshot reverts) releases
  // it; CommitAssumed forgets the checkpoints (the assumptions became bindings).
  void Assume(const api::Pod& pod, NodeIndex node);
  void Unassume(const api::Pod& pod);
  void CommitAssumed() { assumed_.clear(); }

  // Allocations: the claims allocated in this run (not those allocated in the input), sorted by
  // claim. O(claims log claims).
  [[nodiscard]] std::vector<ClaimAllocationResult> Allocations() const;

  // Verify: the allocator's incremental per-node counts equal a recomputation (verify mode).
  [[nodiscard]] bool Verify() const { return allocator_.VerifyCounts(); }

 private:
  struct Instance {
    std::string claim;  // "ns/name"
    std::string owner;  // "Pod ns/p", "PodGroup ns/g", or "" for an existing ResourceClaim
    int32_t spec = -1;
    std::optional<dra::Allocation> allocation;
    bool allocated_in_input = false;
  };
  // Check: Filter's decision without building a Status (no allocation).
  Verdict Check(const PodClaims& pc, NodeIndex node);
  int32_t InstanceFor(const std::string& ns, const std::string& name, int32_t spec,
                      std::string owner);

  static dra::Inventory BuildInventory(const api::ObjectSet& objects,
                                       std::span<const api::Node* const> nodes);

  dra::Allocator allocator_;
  std::vector<Instance> instances_;
  std::unordered_map<std::string, int32_t> instance_ids_;  // claim → instance
  std::unordered_map<const api::Pod*, PodClaims> pods_;
  std::vector<int32_t> undo_;  // instances allocated by Reserve, in order
  std::vector<std::pair<const api::Pod*, Checkpoint>> assumed_;  // Assume checkpoints
  std::vector<int32_t> specs_scratch_;
  std::vector<int32_t> unallocated_scratch_;
  std::vector<dra::Allocation> allocations_scratch_;
  const api::Pod* later_alternatives_first_ = nullptr;
};

struct DynamicResources::PodClaims {
  std::vector<int32_t> instances;
  std::string problem;  // PreFilter rejection, or empty
};

}  // namespace wasched::sched
