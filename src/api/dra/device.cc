// File: api/dra/device.cc
//
// Semantic versions for DRA version attributes (see device.h).
#include "api/dra/device.h"

#include <charconv>

namespace wasched::api {
namespace {

// ParseNumber: a semver numeric identifier: digits, no leading zero (except "0"). O(length).
bool ParseNumber(std::string_view text, uint64_t* out) {
  if (text.empty() || (text.size() > 1 && text[0] == '0')) return false;
  for (char c : text) {
    if (c < '0' || c > '9') return false;
  }
  const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), *out);
  return ec == std::errc() && ptr == text.data() + text.size();
}

// ValidIdentifiers: dot-separated non-empty [0-9A-Za-z-] identifiers; `numeric_no_zero`: numeric
// identifiers must not have leading zeros (pre-release, not build metadata).
bool ValidIdentifiers(std::string_view text, bool numeric_no_zero) {
  size_t start = 0;
  while (true) {
    const size_t dot = text.find('.', start);
    const std::string_view id =
        text.substr(start, dot == std::string_view::npos ? std::string_view::npos : dot - start);
    if (id.empty()) return false;
    bool numeric = true;
    for (char c : id) {
      const bool alnum = (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') ||
                         (c >= 'A' && c <= 'Z') || c == '-';
      if (!alnum) return false;
      if (c < '0' || c > '9') numeric = false;
    }
    if (numeric_no_zero && numeric && id.size() > 1 && id[0] == '0') return false;
    if (dot == std::string_view::npos) return true;
    start = dot + 1;
  }
}

bool IsNumeric(std::string_view id) {
  for (char c : id) {
    if (c < '0' || c > '9') return false;
  }
  return !id.empty();
}

}  // namespace

std::optional<SemVer> ParseSemVer(std::string_view text) {
  SemVer v;
  const size_t plus = text.find('+');
  if (plus != std::string_view::npos) {
    if (!ValidIdentifiers(text.substr(plus + 1), false)) return std::nullopt;
    text = text.substr(0, plus);
  }
  const size_t dash = text.find('-');
  if (dash != std::string_view::npos) {
    const std::string_view pre = text.substr(dash + 1);
    if (!ValidIdentifiers(pre, true)) return std::nullopt;
    v.pre_release = std::string(pre);
    text = text.substr(0, dash);
  }
  const size_t d1 = text.find('.');
  if (d1 == std::string_view::npos) return std::nullopt;
  const size_t d2 = text.find('.', d1 + 1);
  if (d2 == std::string_view::npos) return std::nullopt;
  if (!ParseNumber(text.substr(0, d1), &v.major) ||
      !ParseNumber(text.substr(d1 + 1, d2 - d1 - 1), &v.minor) ||
      !ParseNumber(text.substr(d2 + 1), &v.patch)) {
    return std::nullopt;
  }
  return v;
}

int CompareSemVer(const SemVer& a, const SemVer& b) {
  if (a.major != b.major) return a.major < b.major ? -1 : 1;
  if (a.minor != b.minor) return a.minor < b.minor ? -1 : 1;
  if (a.patch != b.patch) return a.patch < b.patch ? -1 : 1;
  if (a.pre_release == b.pre_release) return 0;
  if (a.pre_release.empty()) return 1;  // a release ranks above its pre-releases
  if (b.pre_release.empty()) return -1;
  std::string_view x = a.pre_release;
  std::string_view y = b.pre_release;
  while (true) {
    const size_t dx = x.find('.');
    const size_t dy = y.find('.');
    const std::string_view ix = x.substr(0, dx);
    const std::string_view iy = y.substr(0, dy);
    if (ix != iy) {
      const bool nx = IsNumeric(ix);
      const bool ny = IsNumeric(iy);
      if (nx && ny) {
        if (ix.size() != iy.size()) return ix.size() < iy.size() ? -1 : 1;
        return ix < iy ? -1 : 1;
      }
      if (nx != ny) return nx ? -1 : 1;  // numeric identifiers rank lower
      return ix < iy ? -1 : 1;
    }
    if (dx == std::string_view::npos || dy == std::string_view::npos) {
      if (dx == dy) return 0;
      return dx == std::string_view::npos ? -1 : 1;  // fewer identifiers rank lower
    }
    x = x.substr(dx + 1);
    y = y.substr(dy + 1);
  }
}

}  // namespace wasched::api
