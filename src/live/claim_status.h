// File: live/claim_status.h
//
// What `wasched run` writes to a ResourceClaim before it binds a pod that uses it (issue 17): the
// DynamicResources plugin's PreBind of kube-scheduler v1.37.2
// (pkg/scheduler/framework/plugins/dynamicresources/dynamicresources.go bindClaim; the
// allocation result as k8s.io/dynamic-resource-allocation v0.37.2 structured/internal/stable
// builds it; the consumer as its resourceclaim.BindTo chooses it):
//   - a claim the engine allocated gets the finalizer resource.kubernetes.io/delete-protection
//     (a normal update of the claim, before anything else), then status.allocation
//     {devices: {results: [{request, driver, pool, device}], config: [...]}, nodeSelector,
//     allocationTimestamp} and its consumer appended to status.reservedFor, in one update of the
//     resourceclaims/status subresource;
//   - a claim already allocated only gets the consumer appended to status.reservedFor;
//   - the consumer is the pod ({resource: pods, name, uid}), or, when the pod's entry is one of
//     its PodGroup's spec.resourceClaims (KEP-5729, gate DRAWorkloadResourceClaims), the PodGroup
//     ({apiGroup: scheduling.k8s.io, resource: podgroups, name, uid}); a claim already reserved
//     for the consumer (a pod by uid, a PodGroup by its name) is left alone.
// The functions here build and apply those payloads on the claim's JSON (unknown fields kept);
// live/api_writer.h sends them with resourceVersion conflict handling. Not modelled (the engine
// does not allocate them): admin access, device tolerations and binding conditions of the
// results, devices of slices with perDeviceNodeSelection.
//
//   ClaimDevices devices = ClaimDevices::Build(slice_jsons, class_jsons);
//   auto allocation = AllocationJson(engine_allocation, claim_json, devices, now_micros);
//   ClaimWrite w{"ns", "claim", *allocation, PodConsumer(pod)};
//   auto step = PrepareClaimStatus(w, &claim_json);  // then PUT .../resourceclaims/claim/status
//
// Thread-safety: pure functions and an immutable index after Build.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include <nlohmann/json.hpp>
#include <tl/expected.hpp>

#include "api/dra/resource_claim.h"
#include "api/pod.h"
#include "api/pod_group.h"
#include "sched/schedule_result.h"

namespace wasched::live {

// kDeleteProtectionFinalizer: resourceapi.Finalizer, which the scheduler puts on every claim it
// allocates (the resourceclaim controller removes it once the claim is deallocated).
inline constexpr const char* kDeleteProtectionFinalizer = "resource.kubernetes.io/delete-protection";

// ClaimConsumer: one status.reservedFor[] entry (ResourceClaimConsumerReference).
struct ClaimConsumer {
  std::string api_group;  // "" (core) for pods, "scheduling.k8s.io" for PodGroups
  std::string resource;   // "pods" or "podgroups"
  std::string name;
  std::string uid;
  friend bool operator==(const ClaimConsumer&, const ClaimConsumer&) = default;
};

// ConsumerFor: resourceclaim.BindTo: the PodGroup when `group` (the pod's PodGroup; pass nullptr
// with the gate DRAWorkloadResourceClaims off) lists an entry with the same name, claim name and
// template name as the pod's `entry`, else the pod.
[[nodiscard]] ClaimConsumer ConsumerFor(const api::Pod& pod, const api::PodGroup* group,
                                        const api::PodResourceClaim& entry);

// ClaimWrite: what one pod's PreBind writes to one claim: `allocation` (status.allocation, from
// AllocationJson) when the engine allocated the claim in this cycle, nullopt when the claim must
// already be allocated and only needs the reservation.
struct ClaimWrite {
  std::string namespace_;
  std::string name;
  std::optional<nlohmann::json> allocation;
  ClaimConsumer consumer;
};

// ClaimDevices: where each published device comes from: the ResourceSlices (only the newest
// generation of each pool counts, as the allocator reads them) and the DeviceClasses' spec.config.
// Build is O(slices' devices + classes); lookups O(log n).
class ClaimDevices {
 public:
  // `slices` / `classes`: the objects' JSON texts as the informers hold them; texts that do not
  // parse are skipped.
  static ClaimDevices Build(const std::vector<std::shared_ptr<const std::string>>& slices,
                            const std::vector<std::shared_ptr<const std::string>>& classes);
  // SliceSpec: spec of the slice publishing driver/pool/device; nullptr when none does.
  [[nodiscard]] const nlohmann::json* SliceSpec(const std::string& driver, const std::string& pool,
                                                const std::string& device) const;
  // ClassConfig: spec.config of DeviceClass `name`; nullptr when it has none or does not exist.
  [[nodiscard]] const nlohmann::json* ClassConfig(const std::string& name) const;

 private:
  std::vector<nlohmann::json> slices_;  // spec of each slice
  std::vector<nlohmann::json> class_configs_;
  // (driver, pool, device) → (generation, index in slices_)
  std::map<std::tuple<std::string, std::string, std::string>, std::pair<int64_t, size_t>> devices_;
  std::map<std::string, size_t> classes_;
};

// AllocationJson: the status.allocation upstream records for `allocation` (the engine's devices
// for the claim, in its order) of the claim `claim` (its JSON: spec.devices.requests and
// .config are read): devices.results, devices.config (each DeviceClass's config once, source
// FromClass, then the claim's own configs that name an allocated request or none, source
// FromClaim; `requests` dropped when a config covers every request), nodeSelector (one node by
// metadata.name when a device is node-local; else the slices' single-term selectors merged;
// absent when every device is reachable from all nodes) and allocationTimestamp (`now_micros`,
// gates DRADeviceBindingConditions and DRAResourceClaimDeviceStatus, both on in v1.37). An error
// names a device no slice publishes or a slice selector with several terms.
[[nodiscard]] tl::expected<nlohmann::json, std::string> AllocationJson(
    const sched::ClaimAllocation& allocation, const nlohmann::json& claim,
    const ClaimDevices& devices, int64_t now_micros);

// ClaimStep: what PrepareClaimStatus found.
enum class ClaimStep {
  kWrite,       // `claim` now holds the status to PUT
  kNothingToDo  // already allocated as wanted and reserved for the consumer
};

// PrepareClaimStatus: changes `claim` (the object as last read) to what the status update sends:
// status.allocation set (when w.allocation), w.consumer appended to status.reservedFor. An error
// (nothing changed then) when the claim is being deleted, was allocated differently in the
// meantime, or is not allocated while w has no allocation. O(claim size).
[[nodiscard]] tl::expected<ClaimStep, std::string> PrepareClaimStatus(const ClaimWrite& w,
                                                                      nlohmann::json* claim);

// AddDeleteProtection: adds kDeleteProtectionFinalizer to metadata.finalizers; false when it was
// there already (no update needed).
bool AddDeleteProtection(nlohmann::json* claim);

// UnreservePatch: the strategic-merge patch of resourceclaims/status that removes the pod
// `pod_uid` from status.reservedFor of the claim `claim_uid` (upstream's Unreserve).
[[nodiscard]] std::string UnreservePatch(const std::string& claim_uid, const std::string& pod_uid);

// AllocationResults: the devices of an AllocationJson result as the decoder reads
// status.allocation (for the loop's overlay of claims it allocated, live/object_store.h).
[[nodiscard]] std::vector<api::DeviceRequestAllocationResult> AllocationResults(
    const sched::ClaimAllocation& allocation);

}  // namespace wasched::live
