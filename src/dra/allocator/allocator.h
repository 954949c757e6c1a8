// File: dra/allocator/allocator.h
//
// The structured allocator: which devices of the Inventory satisfy a ResourceClaim's requests
// on a given node, with every device allocated at most once across the cluster. Upstream:
// kubernetes/kubernetes staging/src/k8s.io/dynamic-resource-allocation/structured/
// (allocator.go: requests in order, `firstAvailable` subrequests in order, devices in pool order,
// backtracking depth-first; a device is selectable when its DeviceClass's selectors and then the
// request's selectors evaluate to true; allocationMode All takes every matching device and fails
// on an incomplete pool).
//
// Claim specs are compiled once (`CompileSpec`; identical specs share one id, so claims made from
// one template cost one compilation). For each (spec, subrequest) the allocator keeps the number
// of free candidate devices per node, updated incrementally on Commit / RevertTo, so a Filter
// call for a node is O(requests) on the common shape (one node-local ExactCount request) and a
// bounded search otherwise — never a scan of all devices per node per pod.
//
//   Allocator a(Inventory::Build(slices, node_names, matcher), classes);
//   int32_t spec = a.CompileSpec(claim.spec);
//   if (a.CanAllocate({&spec, 1}, node)) { a.Allocate({&spec, 1}, node, &out); a.Commit(out[0]); }
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "api/dra/device_class.h"
#include "api/dra/resource_claim.h"
#include "dra/allocator/inventory.h"
#include "dra/cel/program.h"

namespace wasched::dra {

// AllocatedDevice: one result: the request ("gpu" or "gpu/older-gpu") and the device id.
struct AllocatedDevice {
  std::string request;
  int32_t device = -1;
  friend bool operator==(const AllocatedDevice&, const AllocatedDevice&) = default;
};

// Allocation: the devices of one claim, in request order.
struct Allocation {
  std::vector<AllocatedDevice> devices;
};

class Allocator {
 public:
  // kSearchBudget: device trials per exact allocation before giving up (upstream has no bound
  // but a timeout; the bound keeps a pathological claim from stalling a run).
  static constexpr int64_t kSearchBudget = 200000;

  // Allocator: owns the inventory; `classes` must outlive it. O(classes × selectors).
  Allocator(Inventory inventory, std::span<const api::DeviceClass> classes);

  Allocator(const Allocator&) = delete;
  Allocator& operator=(const Allocator&) = delete;

  [[nodiscard]] const Inventory& inventory() const { return inventory_; }

  // CompileSpec: the id of `spec` (identical specs get the same id). Selectors are evaluated on
  // every device here, class selectors first. A spec that can never be allocated keeps its id and
  // a reason (SpecProblem): a missing DeviceClass ("request gpu: device class x does not exist",
  // upstream's PreFilter message), a selector that does not compile, a CEL runtime error
  // ("request gpu: selector #0: CEL runtime error: no such key: model"), adminAccess or
  // constraints (not modelled). O(devices × selectors) for a new spec, O(spec size) otherwise.
  [[nodiscard]] int32_t CompileSpec(const api::ResourceClaimSpec& spec);
  // SpecProblem: why spec `id` can never be allocated; empty when it can be.
  [[nodiscard]] const std::string& SpecProblem(int32_t id) const;

  // CanAllocate: all `specs` (distinct claims) can be allocated together on `node` now. No state
  // changes. O(requests) when every spec is one node-local ExactCount request, else a search.
  [[nodiscard]] bool CanAllocate(std::span<const int32_t> specs, size_t node);
  // Allocate: CanAllocate, and the devices chosen (one Allocation per spec, in order, upstream's
  // first solution). No state changes: Commit each result.
  [[nodiscard]] bool Allocate(std::span<const int32_t> specs, size_t node,
                              std::vector<Allocation>* out);

  // HasAlternatives: spec `id` has a request with `firstAvailable` subrequests to choose from
  // (two or more). O(requests).
  [[nodiscard]] bool HasAlternatives(int32_t id) const;
  // set_later_alternatives_first: while true, Allocate tries each `firstAvailable` request's
  // subrequests from its second one, the first one last (a rotation: every alternative is still
  // tried). Upstream always starts from the first (KEP-4816); the scheduler's complete placement
  // search sets it for one gang member at a time (kubernetes/kubernetes#138765). CanAllocate's
  // answer does not depend on it. O(1).
  void set_later_alternatives_first(bool on) { later_alternatives_first_ = on; }

  // Commit: marks the devices of `a` in use (they must be free). O(devices × specs using them).
  void Commit(const Allocation& a);
  // MarkInUse: device `id` is held by a claim allocated before this run (free to hold it once).
  void MarkInUse(int32_t id);
  [[nodiscard]] bool InUse(int32_t id) const { return in_use_[static_cast<size_t>(id)] != 0; }

  // Mark / RevertTo: undo every Commit / MarkInUse after the mark (a failed group cycle).
  [[nodiscard]] size_t Mark() const { return undo_.size(); }
  void RevertTo(size_t mark);

  // Reaches: every device of `a` is usable from `node`. O(devices of a).
  [[nodiscard]] bool Reaches(const Allocation& a, size_t node) const;

  // VerifyCounts: the incremental free counts equal a recomputation (tests, verify mode).
  [[nodiscard]] bool VerifyCounts() const;

 private:
  struct Sub {
    std::string result_name;  // "gpu" or "gpu/older-gpu"
    api::DeviceAllocationMode mode = api::DeviceAllocationMode::kExactCount;
    int64_t count = 1;
    std::vector<uint32_t> local_begin;  // node_count + 1 offsets into local_ids
    std::vector<int32_t> local_ids;     // candidates local to each node, ascending
    std::vector<int32_t> network_ids;   // candidates not node-local, ascending
    std::vector<int32_t> free_local;    // per node: free local candidates
    int32_t free_network = 0;
  };
  struct Request {
    std::vector<int32_t> subs;  // alternatives, in order
  };
  struct Spec {
    std::vector<Request> requests;
    std::string problem;
    bool simple = false;  // one request, alternatives all ExactCount and node-local only
  };
  struct CompiledClass {
    std::vector<cel::Program> selectors;
    std::string problem;
  };

  const CompiledClass* Class(const std::string& name);
  // Selectable: class then request selectors on device `id`; runtime errors go to *error.
  bool Selectable(const CompiledClass& cls, const std::vector<cel::Program>& selectors,
                  int32_t id, std::string* error) const;
  int32_t BuildSub(const api::ExactDeviceRequest& r, const std::string& request_name,
                   std::string* problem);
  bool Search(std::span<const int32_t> specs, size_t spec_i, size_t req_i, size_t node,
              std::vector<Allocation>* out, int64_t* budget);
  bool Choose(const Sub& sub, size_t node, int64_t remaining, size_t local_from,
              size_t network_from, std::span<const int32_t> specs, size_t spec_i, size_t req_i,
              std::vector<Allocation>* out, int64_t* budget);
  void Take(int32_t id, int delta);

  Inventory inventory_;
  std::unordered_map<std::string, const api::DeviceClass*> classes_;
  std::unordered_map<std::string, CompiledClass> compiled_classes_;
  std::vector<Spec> specs_;
  std::unordered_map<std::string, int32_t> spec_ids_;  // canonical text → id
  std::vector<Sub> subs_;
  std::vector<std::vector<int32_t>> device_subs_;  // device → subs listing it
  std::vector<uint8_t> in_use_;
  std::vector<uint8_t> chosen_;  // scratch of the running search
  std::vector<int32_t> undo_;    // devices taken, in order
  bool later_alternatives_first_ = false;
};

// AllocationText: "driver/pool/device" of device `id`.
[[nodiscard]] std::string DeviceText(const Inventory& inventory, int32_t id);

}  // namespace wasched::dra
