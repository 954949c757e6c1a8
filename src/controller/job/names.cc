// File: controller/job/names.cc
#include "controller/job/names.h"

#include <fmt/format.h>

namespace wasched::controller::job {
std::string UidHash(std::string_view uid) {
  const uint32_t h = Fnv32a(uid, Fnv32a("(types.UID)"));
  return SafeEncodeString(std::to_string(h));
}

std::string ComputeWorkloadName(const api::Job& job) {
  const std::string hash = UidHash(job.meta.uid);
  const size_t max_prefix = kDNS1123SubdomainMaxLength - hash.size() - 1;
  std::string prefix = job.meta.name.substr(0, max_prefix);
  return prefix + "-" + hash;
}

std::string ComputePodGroupName(std::string_view workload_name, std::string_view template_name) {
  const uint32_t h = Fnv32a(template_name, Fnv32a(workload_name));
  const std::string hash = SafeEncodeString(std::to_string(h));
  const size_t max_available = kDNS1123SubdomainMaxLength - hash.size() - 2;
  std::string_view wl = workload_name;
  std::string_view tpl = template_name;
  if (wl.size() + tpl.size() > max_available) {
    const size_t half = max_available / 2;
    if (wl.size() <= half) {
      tpl = tpl.substr(0, max_available - wl.size());
    } else if (tpl.size() <= half) {
      wl = wl.substr(0, max_available - tpl.size());
    } else {
      wl = wl.substr(0, max_available - half);
      tpl = tpl.substr(0, half);
    }
  }
  return fmt::format("{}-{}-{}", wl, tpl, hash);
}

std::string PodGroupTemplateName(const api::Job& job) { return job.meta.name + "-pgt-0"; }

std::string NameSuffix(std::string_view seed) { return DerivedNameSuffix(seed); }

}  // namespace wasched::controller::job
