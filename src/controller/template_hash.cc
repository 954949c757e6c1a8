// File: controller/template_hash.cc
#include "controller/template_hash.h"

#include <fmt/format.h>

#include "util/name_generation.h"

namespace wasched::controller {
namespace {

// Writer: a length-prefixed canonical text of the fields, so that different templates cannot
// write the same bytes.
struct Writer {
  std::string out;
  void Add(std::string_view s) { fmt::format_to(std::back_inserter(out), "{}:{};", s.size(), s); }
  void Add(int64_t v) { fmt::format_to(std::back_inserter(out), "i{};", v); }
  void Add(const std::map<std::string, std::string>& m) {
    Add(static_cast<int64_t>(m.size()));
    for (const auto& [k, v] : m) {
      Add(k);
      Add(v);
    }
  }
  void Add(const api::ResourceList& list) {
    Add(static_cast<int64_t>(list.size()));
    for (const auto& [k, v] : list) {
      Add(k);
      Add(v);
    }
  }
  void Add(const std::vector<api::Container>& containers) {
    Add(static_cast<int64_t>(containers.size()));
    for (const api::Container& c : containers) {
      Add(c.name);
      Add(c.requests);
      Add(c.limits);
      Add(c.restart_policy_always ? 1 : 0);
    }
  }
};

}  // namespace

std::string PodTemplateHash(const api::Pod& t, std::string_view salt) {
  Writer w;
  w.Add(t.meta.labels);
  w.Add(t.meta.annotations);
  w.Add(t.containers);
  w.Add(t.init_containers);
  w.Add(t.overhead);
  w.Add(t.node_selector);
  w.Add(static_cast<int64_t>(t.tolerations.size()));
  for (const api::Toleration& tol : t.tolerations) {
    w.Add(tol.key);
    w.Add(tol.value);
    w.Add(static_cast<int64_t>(tol.op));
    w.Add(tol.effect ? static_cast<int64_t>(*tol.effect) : -1);
  }
  w.Add(t.priority_class_name);
  w.Add(t.scheduler_name);
  w.Add(t.pod_group_name.value_or(""));
  w.Add(t.pod_level_requests);
  w.Add(static_cast<int64_t>(t.resource_claims.size()));
  for (const api::PodResourceClaim& c : t.resource_claims) {
    w.Add(c.name);
    w.Add(c.resource_claim_name.value_or(""));
    w.Add(c.resource_claim_template_name.value_or(""));
  }
  w.Add(salt);
  return SafeEncodeString(std::to_string(Fnv32a(w.out)));
}

}  // namespace wasched::controller
