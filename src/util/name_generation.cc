// File: util/name_generation.cc
#include "util/name_generation.h"

#include <fmt/format.h>

namespace wasched {
namespace {

// k8s.io/apimachinery/pkg/util/rand alphanums (no vowels, no confusable characters).
constexpr std::string_view kAlphanums = "bcdfghjklmnpqrstvwxz2456789";

uint64_t Fnv64a(std::string_view data, uint64_t hash) {
  for (unsigned char c : data) {
    hash ^= c;
    hash *= 1099511628211ull;
  }
  return hash;
}

}  // namespace

std::string SafeEncodeString(std::string_view s) {
  // Go ranges over runes; the input here is always the decimal digits of a hash (ASCII).
  std::string out(s.size(), ' ');
  for (size_t i = 0; i < s.size(); ++i) {
    out[i] = kAlphanums[static_cast<unsigned char>(s[i]) % kAlphanums.size()];
  }
  return out;
}

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

uint32_t Fnv32a(std::string_view data, uint32_t hash) {
  for (unsigned char c : data) {
    hash ^= c;
    hash *= 16777619u;
  }
  return hash;
}

std::string DerivedNameSuffix(std::string_view seed) {
  uint32_t h = Fnv32a(seed);
  std::string out(kGeneratedSuffixLength, ' ');
  for (char& c : out) {
    c = kAlphanums[h % kAlphanums.size()];
    h /= kAlphanums.size();
  }
  return out;
}

std::string GenerateName(std::string_view base, std::string_view seed) {
  std::string out(base.substr(0, kMaxGeneratedNameBase));
  out += DerivedNameSuffix(seed);
  return out;
}

}  // namespace wasched
