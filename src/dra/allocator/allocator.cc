// File: dra/allocator/allocator.cc
//
// The structured allocator (see allocator.h).
#include "dra/allocator/allocator.h"

#include <fmt/format.h>

namespace wasched::dra {
namespace {

constexpr char kSep = '\x1f';

void AppendExact(const api::ExactDeviceRequest& r, std::string* key) {
  key->append(r.name).push_back(kSep);
  key->append(r.device_class_name).push_back(kSep);
  for (const api::DeviceSelector& s : r.selectors) key->append(s.cel_expression).push_back(kSep);
  key->append(fmt::format("{}{}{}{}", static_cast<int>(r.allocation_mode), kSep, r.count, kSep));
  key->append(r.admin_access ? "A" : "-").push_back(kSep);
}

// CanonicalKey: a text equal for equal specs.
std::string CanonicalKey(const api::ResourceClaimSpec& spec) {
  std::string key;
  for (const api::DeviceRequest& r : spec.requests) {
    key.append("R").append(r.name).push_back(kSep);
    if (r.exactly) AppendExact(*r.exactly, &key);
    for (const api::ExactDeviceRequest& s : r.first_available) {
      key.append("S");
      AppendExact(s, &key);
    }
  }
  for (const api::DeviceConstraint& c : spec.constraints) {
    key.append("C").append(c.match_attribute).push_back(kSep);
    key.append(c.distinct_attribute).push_back(kSep);
    for (const std::string& r : c.requests) key.append(r).push_back(kSep);
  }
  return key;
}

}  // namespace

std::string DeviceText(const Inventory& inventory, int32_t id) {
  const InventoryDevice& d = inventory.devices()[static_cast<size_t>(id)];
  return fmt::format("{}/{}/{}", d.driver, d.pool, d.name);
}

Allocator::Allocator(Inventory inventory, std::span<const api::DeviceClass> classes)
    : inventory_(std::move(inventory)) {
  for (const api::DeviceClass& c : classes) classes_.emplace(c.meta.name, &c);
  const size_t n = inventory_.devices().size();
  device_subs_.resize(n);
  in_use_.assign(n, 0);
  chosen_.assign(n, 0);
}

const Allocator::CompiledClass* Allocator::Class(const std::string& name) {
  auto it = compiled_classes_.find(name);
  if (it != compiled_classes_.end()) return &it->second;
  auto cls = classes_.find(name);
  if (cls == classes_.end()) return nullptr;
  CompiledClass& out = compiled_classes_[name];
  for (size_t i = 0; i < cls->second->selectors.size(); ++i) {
    auto program = cel::Program::Compile(cls->second->selectors[i].cel_expression);
    if (!program) {
      out.problem = fmt::format("device class {}: selector #{}: {}", name, i,
                                program.error().message);
      break;
    }
    out.selectors.push_back(std::move(*program));
  }
  return &out;
}

bool Allocator::Selectable(const CompiledClass& cls, const std::vector<cel::Program>& selectors,
                           int32_t id, std::string* error) const {
  const InventoryDevice& d = inventory_.devices()[static_cast<size_t>(id)];
  const cel::DeviceView view{d.driver, d.device};
  for (size_t i = 0; i < cls.selectors.size(); ++i) {
    std::string e;
    if (!cls.selectors[i].Matches(view, &e)) {
      if (!e.empty()) *error = fmt::format("class selector #{}: CEL runtime error: {}", i, e);
      return false;
    }
  }
  for (size_t i = 0; i < selectors.size(); ++i) {
    std::string e;
    if (!selectors[i].Matches(view, &e)) {
      if (!e.empty()) *error = fmt::format("selector #{}: CEL runtime error: {}", i, e);
      return false;
    }
  }
  return true;
}

int32_t Allocator::BuildSub(const api::ExactDeviceRequest& r, const std::string& request_name,
                            std::string* problem) {
  Sub sub;
  sub.result_name = request_name;
  sub.mode = r.allocation_mode;
  sub.count = r.count;
  const size_t nodes = inventory_.node_count();
  sub.local_begin.assign(nodes + 1, 0);
  sub.free_local.assign(nodes, 0);
  const int32_t sub_id = static_cast<int32_t>(subs_.size());
  const CompiledClass* cls = Class(r.device_class_name);
  if (!cls) {
    *problem = fmt::format("request {}: device class {} does not exist", request_name,
                           r.device_class_name);
  } else if (!cls->problem.empty()) {
    *problem = fmt::format("request {}: {}", request_name, cls->problem);
  } else if (r.admin_access) {
    *problem = fmt::format("request {}: adminAccess is not supported by wasched", request_name);
  }
  std::vector<cel::Program> selectors;
  if (problem->empty()) {
    for (size_t i = 0; i < r.selectors.size(); ++i) {
      auto program = cel::Program::Compile(r.selectors[i].cel_expression);
      if (!program) {
        *problem = fmt::format("request {}: selector #{}: {}", request_name, i,
                               program.error().message);
        break;
      }
      selectors.push_back(std::move(*program));
    }
  }
  if (problem->empty()) {
    std::vector<uint32_t> local_count(nodes, 0);
    std::vector<int32_t> local_all;
    for (int32_t id = 0; id < static_cast<int32_t>(inventory_.devices().size()); ++id) {
      std::string error;
      const bool ok = Selectable(*cls, selectors, id, &error);
      if (!error.empty()) {
        *problem = fmt::format("request {}: {}", request_name, error);
        break;
      }
      if (!ok) continue;
      const int32_t node = inventory_.devices()[static_cast<size_t>(id)].node;
      if (node >= 0) {
        ++local_count[static_cast<size_t>(node)];
        local_all.push_back(id);
      } else {
        sub.network_ids.push_back(id);
      }
    }
    for (size_t n = 0; n < nodes; ++n) sub.local_begin[n + 1] = sub.local_begin[n] + local_count[n];
    sub.local_ids.assign(local_all.size(), 0);
    std::vector<uint32_t> fill(sub.local_begin.begin(), sub.local_begin.end() - 1);
    for (int32_t id : local_all) {
      const size_t node = static_cast<size_t>(inventory_.devices()[static_cast<size_t>(id)].node);
      sub.local_ids[fill[node]++] = id;
      device_subs_[static_cast<size_t>(id)].push_back(sub_id);
      if (!in_use_[static_cast<size_t>(id)]) ++sub.free_local[node];
    }
    for (int32_t id : sub.network_ids) {
      device_subs_[static_cast<size_t>(id)].push_back(sub_id);
      if (!in_use_[static_cast<size_t>(id)]) ++sub.free_network;
    }
  }
  subs_.push_back(std::move(sub));
  return sub_id;
}

int32_t Allocator::CompileSpec(const api::ResourceClaimSpec& spec) {
  std::string key = CanonicalKey(spec);
  auto it = spec_ids_.find(key);
  if (it != spec_ids_.end()) return it->second;
  Spec out;
  if (!spec.constraints.empty()) {
    out.problem = "spec.devices.constraints are not supported by wasched";
  }
  for (const api::DeviceRequest& r : spec.requests) {
    if (!out.problem.empty()) break;
    Request& request = out.requests.emplace_back();
    if (r.exactly) request.subs.push_back(BuildSub(*r.exactly, r.name, &out.problem));
    for (const api::ExactDeviceRequest& s : r.first_available) {
      if (!out.problem.empty()) break;
      request.subs.push_back(BuildSub(s, r.name + "/" + s.name, &out.problem));
    }
  }
  out.simple = out.problem.empty() && out.requests.size() == 1;
  for (const Request& r : out.requests) {
    for (int32_t s : r.subs) {
      const Sub& sub = subs_[static_cast<size_t>(s)];
      if (sub.mode != api::DeviceAllocationMode::kExactCount || !sub.network_ids.empty()) {
        out.simple = false;
      }
    }
  }
  const int32_t id = static_cast<int32_t>(specs_.size());
  specs_.push_back(std::move(out));
  spec_ids_.emplace(std::move(key), id);
  return id;
}

bool Allocator::HasAlternatives(int32_t id) const {
  for (const Request& r : specs_[static_cast<size_t>(id)].requests) {
    if (r.subs.size() > 1) return true;
  }
  return false;
}

const std::string& Allocator::SpecProblem(int32_t id) const {
  return specs_[static_cast<size_t>(id)].problem;
}

bool Allocator::CanAllocate(std::span<const int32_t> specs, size_t node) {
  if (specs.size() == 1) {
    const Spec& spec = specs_[static_cast<size_t>(specs[0])];
    if (!spec.problem.empty()) return false;
    if (spec.simple) {
      for (int32_t s : spec.requests[0].subs) {
        const Sub& sub = subs_[static_cast<size_t>(s)];
        if (sub.free_local[node] >= sub.count) return true;
      }
      return false;
    }
  }
  std::vector<Allocation> scratch;
  return Allocate(specs, node, &scratch);
}

bool Allocator::Allocate(std::span<const int32_t> specs, size_t node,
                         std::vector<Allocation>* out) {
  out->assign(specs.size(), Allocation{});
  for (int32_t s : specs) {
    if (!specs_[static_cast<size_t>(s)].problem.empty()) return false;
  }
  int64_t budget = kSearchBudget;
  const bool ok = Search(specs, 0, 0, node, out, &budget);
  for (Allocation& a : *out) {
    for (const AllocatedDevice& d : a.devices) chosen_[static_cast<size_t>(d.device)] = 0;
  }
  if (!ok) out->assign(specs.size(), Allocation{});
  return ok;
}

bool Allocator::Search(std::span<const int32_t> specs, size_t spec_i, size_t req_i, size_t node,
                       std::vector<Allocation>* out, int64_t* budget) {
  while (spec_i < specs.size() &&
         req_i >= specs_[static_cast<size_t>(specs[spec_i])].requests.size()) {
    ++spec_i;
    req_i = 0;
  }
  if (spec_i == specs.size()) return true;
  const Request& request = specs_[static_cast<size_t>(specs[spec_i])].requests[req_i];
  Allocation& a = (*out)[spec_i];
  const size_t alternatives = request.subs.size();
  const size_t rotation = later_alternatives_first_ && alternatives > 1 ? 1 : 0;
  for (size_t k = 0; k < alternatives; ++k) {
    const int32_t s = request.subs[(k + rotation) % alternatives];
    const Sub& sub = subs_[static_cast<size_t>(s)];
    if (sub.mode == api::DeviceAllocationMode::kAll) {
      // Every matching device reachable from the node, all free; an incomplete pool fails.
      const size_t before = a.devices.size();
      bool ok = true;
      auto take = [&](int32_t id) {
        const InventoryDevice& d = inventory_.devices()[static_cast<size_t>(id)];
        if (inventory_.pools()[static_cast<size_t>(d.pool_index)].incomplete ||
            in_use_[static_cast<size_t>(id)] || chosen_[static_cast<size_t>(id)]) {
          ok = false;
          return;
        }
        chosen_[static_cast<size_t>(id)] = 1;
        a.devices.push_back(AllocatedDevice{sub.result_name, id});
      };
      for (uint32_t i = sub.local_begin[node]; ok && i < sub.local_begin[node + 1]; ++i) {
        take(sub.local_ids[i]);
      }
      for (size_t i = 0; ok && i < sub.network_ids.size(); ++i) {
        if (inventory_.Reaches(sub.network_ids[i], node)) take(sub.network_ids[i]);
      }
      if (ok && a.devices.size() > before &&
          Search(specs, spec_i, req_i + 1, node, out, budget)) {
        return true;
      }
      for (size_t i = before; i < a.devices.size(); ++i) {
        chosen_[static_cast<size_t>(a.devices[i].device)] = 0;
      }
      a.devices.resize(before);
      continue;
    }
    if (sub.free_local[node] + sub.free_network < sub.count) continue;  // cannot fit
    if (Choose(sub, node, sub.count, sub.local_begin[node], 0, specs, spec_i, req_i, out,
               budget)) {
      return true;
    }
    if (*budget <= 0) return false;
  }
  return false;
}

bool Allocator::Choose(const Sub& sub, size_t node, int64_t remaining, size_t local_from,
                       size_t network_from, std::span<const int32_t> specs, size_t spec_i,
                       size_t req_i, std::vector<Allocation>* out, int64_t* budget) {
  if (remaining == 0) return Search(specs, spec_i, req_i + 1, node, out, budget);
  Allocation& a = (*out)[spec_i];
  size_t li = local_from;
  size_t ni = network_from;
  const size_t lend = sub.local_begin[node + 1];
  while (li < lend || ni < sub.network_ids.size()) {
    if (--*budget <= 0) return false;
    // Merge the node's local candidates and the network candidates in device (pool) order.
    const bool use_local = ni >= sub.network_ids.size() ||
                           (li < lend && sub.local_ids[li] < sub.network_ids[ni]);
    const int32_t id = use_local ? sub.local_ids[li++] : sub.network_ids[ni++];
    if (in_use_[static_cast<size_t>(id)] || chosen_[static_cast<size_t>(id)]) continue;
    if (!use_local && !inventory_.Reaches(id, node)) continue;
    chosen_[static_cast<size_t>(id)] = 1;
    a.devices.push_back(AllocatedDevice{sub.result_name, id});
    if (Choose(sub, node, remaining - 1, li, ni, specs, spec_i, req_i, out, budget)) return true;
    a.devices.pop_back();
    chosen_[static_cast<size_t>(id)] = 0;
    if (*budget <= 0) return false;
  }
  return false;
}

void Allocator::Take(int32_t id, int delta) {
  const int32_t node = inventory_.devices()[static_cast<size_t>(id)].node;
  for (int32_t s : device_subs_[static_cast<size_t>(id)]) {
    Sub& sub = subs_[static_cast<size_t>(s)];
    if (node >= 0) {
      sub.free_local[static_cast<size_t>(node)] += delta;
    } else {
      sub.free_network += delta;
    }
  }
}

void Allocator::Commit(const Allocation& a) {
  for (const AllocatedDevice& d : a.devices) MarkInUse(d.device);
}

void Allocator::MarkInUse(int32_t id) {
  if (in_use_[static_cast<size_t>(id)]) return;
  in_use_[static_cast<size_t>(id)] = 1;
  Take(id, -1);
  undo_.push_back(id);
}

void Allocator::RevertTo(size_t mark) {
  while (undo_.size() > mark) {
    const int32_t id = undo_.back();
    undo_.pop_back();
    in_use_[static_cast<size_t>(id)] = 0;
    Take(id, +1);
  }
}

bool Allocator::Reaches(const Allocation& a, size_t node) const {
  for (const AllocatedDevice& d : a.devices) {
    if (!inventory_.Reaches(d.device, node)) return false;
  }
  return true;
}

bool Allocator::VerifyCounts() const {
  for (const Sub& sub : subs_) {
    for (size_t n = 0; n + 1 < sub.local_begin.size(); ++n) {
      int32_t free = 0;
      for (uint32_t i = sub.local_begin[n]; i < sub.local_begin[n + 1]; ++i) {
        if (!in_use_[static_cast<size_t>(sub.local_ids[i])]) ++free;
      }
      if (free != sub.free_local[n]) return false;
    }
    int32_t free = 0;
    for (int32_t id : sub.network_ids) {
      if (!in_use_[static_cast<size_t>(id)]) ++free;
    }
    if (free != sub.free_network) return false;
  }
  return true;
}

}  // namespace wasched::dra
