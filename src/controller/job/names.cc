// File: controller/job/names.cc
#include "controller/job/names.h"

#include <fmt/format.h>

namespace wasched::controller::job {
namespace {

constexpr std::string_view kAlphanums = "bcdfghjklmnpqrstvwxz2456789";

uint64_t Fnv64a(std::string_view data, uint64_t hash) {
  for (unsigned char c : data) {
    hash ^= c;
    hash *= 1099511628211ull;
  }
  return hash;
}

}  // namespace

uint32_t Fnv32a(std::string_view data, uint32_t hash) {
  for (unsigned char c : data) {
    hash ^= c;
    hash *= 16777619u;
  }
  return hash;
}

std::string SafeEncodeString(std::string_view s) {
  // Go ranges over runes; the input here is always the decimal digits of a hash (ASCII).
  std::string out(s.size(), ' ');
  for (size_t i = 0; i < s.size(); ++i) {
    out[i] = kAlphanums[static_cast<unsigned char>(s[i]) % kAlphanums.size()];
  }
  return out;
}

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

std::string DerivedUid(std::string_view kind, std::string_view namespace_, std::string_view name) {
  std::string key = fmt::format("wasched.io/{}/{}/{}", kind, namespace_, name);
  const uint64_t hi = Fnv64a(key, 14695981039346656037ull);
  const uint64_t lo = Fnv64a(key, Fnv64a("uid", 14695981039346656037ull));
  // RFC 9562: version 8 in the high nibble of byte 6, variant 10 in byte 8.
  const uint64_t hi_v = (hi & 0xffffffffffff0fffull) | 0x0000000000008000ull;
  const uint64_t lo_v = (lo & 0x3fffffffffffffffull) | 0x8000000000000000ull;
  return fmt::format("{:08x}-{:04x}-{:04x}-{:04x}-{:012x}", hi_v >> 32, (hi_v >> 16) & 0xffff,
                     hi_v & 0xffff, lo_v >> 48, lo_v & 0xffffffffffffull);
}

std::string NameSuffix(std::string_view seed) {
  uint32_t h = Fnv32a(seed);
  std::string out(5, ' ');
  for (char& c : out) {
    c = kAlphanums[h % kAlphanums.size()];
    h /= kAlphanums.size();
  }
  return out;
}

}  // namespace wasched::controller::job
