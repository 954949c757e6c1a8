// File: sched/plugins/dynamic_resources/dynamic_resources.cc
//
// The DynamicResources plugin (see dynamic_resources.h).
#include "sched/plugins/dynamic_resources/dynamic_resources.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <tuple>

#include "sched/plugins/node_affinity/node_affinity.h"
#include "util/name_generation.h"

namespace wasched::sched {
namespace {

std::string Key(const std::string& ns, const std::string& name) { return ns + "/" + name; }

// kPodClaimNameAnnotation: resource.kubernetes.io/pod-claim-name (resourceapi
// PodResourceClaimAnnotation), the entry a generated claim was made for.
constexpr std::string_view kPodClaimNameAnnotation = "resource.kubernetes.io/pod-claim-name";

// ClaimNameBase: the generateName the resourceclaim controller gives a claim made from a template
// for `owner`'s entry `entry` (pkg/controller/resourceclaim/controller.go handleClaim /
// handlePodGroupClaim): "<owner>-<entry>-", or, above 57 bytes, both parts cut in proportion to
// their lengths and joined by "-".
std::string ClaimNameBase(const std::string& owner, const std::string& entry) {
  std::string base = owner + "-" + entry + "-";
  constexpr size_t kMaxBaseLen = 57;
  if (base.size() > kMaxBaseLen) {
    const size_t total = base.size();
    base = owner.substr(0, owner.size() * kMaxBaseLen / total) + "-" +
           entry.substr(0, entry.size() * kMaxBaseLen / total);
  }
  return base;
}

// OwnedClaimKey: (namespace, owner kind, owner name, entry name) of a claim generated for an
// owner's entry.
using OwnedClaimKey = std::tuple<std::string, std::string, std::string, std::string>;
struct OwnedClaim {
  const api::ResourceClaim* claim = nullptr;
  std::string owner_uid;
};

// OwnerMatches: the ownerReference's uid is the owner's (metav1.IsControlledBy compares uids);
// names already matched, and an input without uids is taken at its word.
bool OwnerMatches(const OwnedClaim& c, const api::ObjectMeta& owner) {
  return c.owner_uid.empty() || owner.uid.empty() || c.owner_uid == owner.uid;
}

}  // namespace

dra::Inventory DynamicResources::BuildInventory(const api::ObjectSet& objects,
                                                std::span<const api::Node* const> nodes) {
  std::vector<std::string> names;
  names.reserve(nodes.size());
  for (const api::Node* n : nodes) names.push_back(n->meta.name);
  return dra::Inventory::Build(
      objects.resource_slices, names,
      [&](size_t node, const std::vector<api::NodeSelectorTerm>& terms) {
        for (const api::NodeSelectorTerm& t : terms) {
          if (plugins::MatchesNodeSelectorTerm(t, *nodes[node])) return true;
        }
        return false;
      });
}

DynamicResources::DynamicResources(const api::ObjectSet& objects,
                                   std::span<const api::Node* const> nodes,
                                   const FeatureGates& gates)
    : allocator_(BuildInventory(objects, nodes), objects.device_classes) {
  // Every ResourceClaim of the input; allocated ones hold their devices from the start.
  for (const api::ResourceClaim& c : objects.resource_claims) {
    const int32_t id = InstanceFor(c.meta.namespace_, c.meta.name, allocator_.CompileSpec(c.spec),
                                   "");
    if (!c.allocation) continue;
    Instance& inst = instances_[static_cast<size_t>(id)];
    dra::Allocation& a = inst.allocation.emplace();
    inst.allocated_in_input = true;
    for (const api::DeviceRequestAllocationResult& r : *c.allocation) {
      const int32_t device = allocator_.inventory().Find(r.driver, r.pool, r.device);
      if (device < 0) continue;  // not published by any slice of the input (validation warns)
      a.devices.push_back(dra::AllocatedDevice{r.request, device});
      allocator_.MarkInUse(device);
    }
  }
  std::map<std::pair<std::string, std::string>, const api::ResourceClaimTemplate*> templates;
  for (const api::ResourceClaimTemplate& t : objects.resource_claim_templates) {
    templates.emplace(std::make_pair(t.meta.namespace_, t.meta.name), &t);
  }
  // Claims the resourceclaim controller made earlier (findPodResourceClaim /
  // findPodGroupResourceClaim): controlled by the pod or PodGroup and annotated with the entry.
  // Only such a claim is ever taken for a template entry; any other claim, whatever its name, is
  // not the owner's.
  // A PodGroup's status.resourceClaimStatuses also names the claims made for it (upstream
  // resourceclaim.Name reads the owner's status first and checks the owner).
  std::map<std::pair<std::string, std::string>, const api::PodGroup*> groups;
  for (const api::PodGroup& g : objects.pod_groups) {
    groups.emplace(std::make_pair(g.meta.namespace_, g.meta.name), &g);
  }
  std::map<OwnedClaimKey, OwnedClaim> owned;
  for (const api::ResourceClaim& c : objects.resource_claims) {
    auto entry = c.meta.annotations.find(std::string(kPodClaimNameAnnotation));
    for (const api::OwnerReference& ref : c.meta.owner_references) {
      if (!ref.controller || (ref.kind != "Pod" && ref.kind != "PodGroup")) continue;
      if (entry != c.meta.annotations.end()) {
        owned.emplace(OwnedClaimKey{c.meta.namespace_, ref.kind, ref.name, entry->second},
                      OwnedClaim{&c, ref.uid});
      }
      if (ref.kind != "PodGroup") continue;
      auto g = groups.find({c.meta.namespace_, ref.name});
      if (g == groups.end()) continue;
      for (const api::PodGroupResourceClaimStatus& st : g->second->resource_claim_statuses) {
        if (st.resource_claim_name == c.meta.name) {
          owned.emplace(OwnedClaimKey{c.meta.namespace_, ref.kind, ref.name, st.name},
                        OwnedClaim{&c, ref.uid});
        }
      }
    }
  }
  // TemplateClaim: the claim instance of `owner`'s template entry: the one it already owns, else
  // a new one with a generated name no other claim holds (upstream generateName; the 5
  // characters derived from the owner and entry, util/name_generation.h, re-derived on a clash).
  auto template_claim = [&](const std::string& kind, const api::ObjectMeta& owner,
                            const std::string& entry, int32_t spec) {
    const std::string& ns = owner.namespace_;
    const std::string owner_label = kind + " " + Key(ns, owner.name);
    auto it = owned.find(OwnedClaimKey{ns, kind, owner.name, entry});
    if (it != owned.end() && OwnerMatches(it->second, owner)) {
      const int32_t id = instance_ids_.at(Key(ns, it->second.claim->meta.name));
      if (instances_[static_cast<size_t>(id)].owner.empty()) {
        instances_[static_cast<size_t>(id)].owner = owner_label;
      }
      return id;
    }
    const std::string base = ClaimNameBase(owner.name, entry);
    const std::string seed = fmt::format("ResourceClaim/{}/{}/{}/{}", ns, kind, owner.name, entry);
    std::string name = GenerateName(base, seed);
    for (int attempt = 1; instance_ids_.count(Key(ns, name)) > 0; ++attempt) {
      name = GenerateName(base, fmt::format("{}#{}", seed, attempt));
    }
    return InstanceFor(ns, name, spec, owner_label);
  };
  std::map<std::pair<const api::PodGroup*, std::string>, int32_t> group_claims;
  for (const api::Pod& pod : objects.pods) {
    if (pod.resource_claims.empty() || !pod.node_name.empty()) continue;  // running: holds its own
    PodClaims& pc = pods_[&pod];
    const std::string& ns = pod.meta.namespace_;
    const api::PodGroup* group = nullptr;
    if (pod.pod_group_name) {
      auto it = groups.find({ns, *pod.pod_group_name});
      if (it != groups.end()) group = it->second;
    }
    for (const api::PodResourceClaim& entry : pod.resource_claims) {
      int32_t id = -1;
      if (entry.resource_claim_name) {
        auto it = instance_ids_.find(Key(ns, *entry.resource_claim_name));
        if (it != instance_ids_.end()) id = it->second;
      } else if (entry.resource_claim_template_name) {
        auto t = templates.find({ns, *entry.resource_claim_template_name});
        if (t == templates.end()) continue;  // validation reports it
        const api::PodGroupResourceClaim as_group_entry{entry.name, std::nullopt,
                                                        entry.resource_claim_template_name};
        const bool group_entry =
            group != nullptr &&
            std::find(group->resource_claims.begin(), group->resource_claims.end(),
                      as_group_entry) != group->resource_claims.end();
        if (group_entry && !gates.dra_workload_resource_claims) {
          // 1.37: the claim would be the PodGroup's, which is not made with the gate off.
          if (pc.problem.empty()) {
            pc.problem = fmt::format(
                "waiting for dynamic resource controller to create the resourceclaim \"{}\"",
                pod.meta.name + "-" + entry.name);
          }
          continue;
        }
        const int32_t spec = allocator_.CompileSpec(t->second->spec);
        if (group_entry) {
          auto [g, fresh] = group_claims.try_emplace({group, entry.name}, -1);
          if (fresh) g->second = template_claim("PodGroup", group->meta, entry.name, spec);
          id = g->second;
        } else {
          id = template_claim("Pod", pod.meta, entry.name, spec);
        }
      }
      if (id < 0) continue;
      if (std::find(pc.instances.begin(), pc.instances.end(), id) == pc.instances.end()) {
        pc.instances.push_back(id);
      }
      const Instance& inst = instances_[static_cast<size_t>(id)];
      const std::string& problem = allocator_.SpecProblem(inst.spec);
      if (pc.problem.empty() && !problem.empty() && !inst.allocation) {
        pc.problem = fmt::format("claim {}: {}", instances_[static_cast<size_t>(id)].claim,
                                 problem);
      }
    }
  }
}

int32_t DynamicResources::InstanceFor(const std::string& ns, const std::string& name,
                                      int32_t spec, std::string owner) {
  const std::string key = Key(ns, name);
  auto it = instance_ids_.find(key);
  if (it != instance_ids_.end()) return it->second;
  const int32_t id = static_cast<int32_t>(instances_.size());
  Instance inst;
  inst.claim = key;
  inst.owner = std::move(owner);
  inst.spec = spec;
  instances_.push_back(std::move(inst));
  instance_ids_.emplace(key, id);
  return id;
}

const DynamicResources::PodClaims* DynamicResources::ClaimsOf(const api::Pod& pod) const {
  auto it = pods_.find(&pod);
  return it == pods_.end() ? nullptr : &it->second;
}

bool DynamicResources::HasClaims(const api::Pod& pod) const { return ClaimsOf(pod) != nullptr; }

Status DynamicResources::PreFilter(const api::Pod& pod) const {
  const PodClaims* pc = ClaimsOf(pod);
  if (pc == nullptr || pc->problem.empty()) return Status::Success();
  return Status::UnschedulableAndUnresolvable(pc->problem, std::string(kName));
}

DynamicResources::Verdict DynamicResources::Check(const PodClaims& pc, NodeIndex node) {
  if (!pc.problem.empty()) return Verdict::kProblem;
  specs_scratch_.clear();
  for (int32_t id : pc.instances) {
    const Instance& inst = instances_[static_cast<size_t>(id)];
    if (inst.allocation) {
      if (!allocator_.Reaches(*inst.allocation, static_cast<size_t>(node))) {
        return Verdict::kNotAvailable;
      }
    } else {
      specs_scratch_.push_back(inst.spec);
    }
  }
  if (!specs_scratch_.empty() &&
      !allocator_.CanAllocate(specs_scratch_, static_cast<size_t>(node))) {
    return Verdict::kCannotAllocate;
  }
  return Verdict::kFits;
}

Status DynamicResources::Filter(const api::Pod& pod, NodeIndex node) {
  const PodClaims* pc = ClaimsOf(pod);
  if (pc == nullptr) return Status::Success();
  switch (Check(*pc, node)) {
    case Verdict::kFits: return Status::Success();
    case Verdict::kProblem:
      return Status::UnschedulableAndUnresolvable(pc->problem, std::string(kName));
    case Verdict::kNotAvailable:
      return Status::UnschedulableAndUnresolvable(std::string(kNotAvailable), std::string(kName));
    case Verdict::kCannotAllocate:
      return Status::UnschedulableAndUnresolvable(std::string(kCannotAllocate),
                                                  std::string(kName));
  }
  return Status::Success();
}

void DynamicResources::FilterNodes(const api::Pod& pod, std::vector<NodeIndex>* nodes) {
  const PodClaims* pc = ClaimsOf(pod);  // one lookup; the per-node loop is allocation-free
  if (pc == nullptr) return;
  size_t kept = 0;
  for (NodeIndex n : *nodes) {
    if (Check(*pc, n) == Verdict::kFits) (*nodes)[kept++] = n;
  }
  nodes->resize(kept);
}

bool DynamicResources::Reserve(const api::Pod& pod, NodeIndex node) {
  const PodClaims* pc = ClaimsOf(pod);
  if (pc == nullptr) return true;
  if (!pc->problem.empty()) return false;
  specs_scratch_.clear();
  unallocated_scratch_.clear();
  for (int32_t id : pc->instances) {
    const Instance& inst = instances_[static_cast<size_t>(id)];
    if (inst.allocation) {
      if (!allocator_.Reaches(*inst.allocation, static_cast<size_t>(node))) return false;
    } else {
      specs_scratch_.push_back(inst.spec);
      unallocated_scratch_.push_back(id);
    }
  }
  if (specs_scratch_.empty()) return true;
  allocator_.set_later_alternatives_first(&pod == later_alternatives_first_);
  const bool allocated =
      allocator_.Allocate(specs_scratch_, static_cast<size_t>(node), &allocations_scratch_);
  allocator_.set_later_alternatives_first(false);
  if (!allocated) return false;
  for (size_t i = 0; i < unallocated_scratch_.size(); ++i) {
    const int32_t id = unallocated_scratch_[i];
    allocator_.Commit(allocations_scratch_[i]);
    instances_[static_cast<size_t>(id)].allocation = std::move(allocations_scratch_[i]);
    undo_.push_back(id);
  }
  return true;
}

bool DynamicResources::HasAlternatives(const api::Pod& pod) const {
  const PodClaims* pc = ClaimsOf(pod);
  if (pc == nullptr || !pc->problem.empty()) return false;
  for (int32_t id : pc->instances) {
    const Instance& inst = instances_[static_cast<size_t>(id)];
    if (!inst.allocation && allocator_.HasAlternatives(inst.spec)) return true;
  }
  return false;
}

const std::string& DynamicResources::Problem(const PodClaims& claims) { return claims.problem; }

std::string_view DynamicResources::FilterReason(const PodClaims& claims, NodeIndex node) {
  switch (Check(claims, node)) {
    case Verdict::kFits: return {};
    case Verdict::kProblem: return claims.problem;
    case Verdict::kNotAvailable: return kNotAvailable;
    case Verdict::kCannotAllocate: return kCannotAllocate;
  }
  return {};
}

void DynamicResources::Assume(const api::Pod& pod, NodeIndex node) {
  if (ClaimsOf(pod) == nullptr) return;
  const Checkpoint mark = Mark();
  (void)Reserve(pod, node);  // callers filtered the node; a miss leaves the claims unallocated
  assumed_.emplace_back(&pod, mark);
}

void DynamicResources::Unassume(const api::Pod& pod) {
  if (assumed_.empty() || assumed_.back().first != &pod) return;
  RevertTo(assumed_.back().second);
  assumed_.pop_back();
}

void DynamicResources::RevertTo(Checkpoint mark) {
  allocator_.RevertTo(mark.allocator);
  while (undo_.size() > mark.instances) {
    instances_[static_cast<size_t>(undo_.back())].allocation.reset();
    undo_.pop_back();
  }
}

std::vector<ClaimAllocationResult> DynamicResources::Allocations() const {
  std::vector<ClaimAllocationResult> out;
  for (const Instance& inst : instances_) {
    if (!inst.allocation || inst.allocated_in_input) continue;
    ClaimAllocationResult& r = out.emplace_back();
    r.claim = inst.claim;
    r.owner = inst.owner;
    for (const dra::AllocatedDevice& d : inst.allocation->devices) {
      const dra::InventoryDevice& dev =
          allocator_.inventory().devices()[static_cast<size_t>(d.device)];
      r.devices.push_back({d.request, std::string(dev.driver), std::string(dev.pool),
                           std::string(dev.name)});
    }
  }
  std::sort(out.begin(), out.end(),
            [](const ClaimAllocationResult& a, const ClaimAllocationResult& b) {
              return a.claim < b.claim;
            });
  return out;
}

}  // namespace wasched::sched
