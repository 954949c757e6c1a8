// File: api/quantity.cc
//
// Kubernetes resource quantities: a port of `resource.ParseQuantity`'s scanner and suffix
// interpretation (k8s.io/apimachinery/pkg/api/resource/quantity.go, suffix.go), with the value
// held exactly as a signed 128-bit count of nano-units instead of upstream's int64Amount /
// inf.Dec pair. See api/quantity.h for the contract.
#include "api/quantity.h"

#include <algorithm>
#include <array>
#include <limits>
#include <optional>
#include <string>
#include <utility>

#include <fmt/format.h>

namespace wasched::api {
namespace {

// Upstream's error values (quantity.go: ErrFormatWrong, ErrNumeric, ErrSuffix).
constexpr const char* kErrFormatWrong =
    "quantities must match the regular expression "
    "'^([+-]?[0-9.]+)([eEinumkKMGTP]*[-+]?[0-9]*)$'";
constexpr const char* kErrNumeric = "unable to parse numeric part of quantity";
constexpr const char* kErrSuffix = "unable to parse quantity's suffix";
constexpr const char* kErrTooLarge = "quantity too large";

constexpr __int128 kInt128Max = static_cast<__int128>(~static_cast<unsigned __int128>(0) >> 1);
constexpr int64_t kNanoPerUnit = 1000000000;
constexpr int64_t kNanoPerMilli = 1000000;
// ParseQuantity's maxAllowed (quantity.go): 2^63-1 units, in nano-units.
constexpr __int128 kMaxAllowedNano =
    static_cast<__int128>(std::numeric_limits<int64_t>::max()) * kNanoPerUnit;

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

bool IsSuffixChar(char c) {
  switch (c) {
    case 'e': case 'E': case 'i': case 'n': case 'u': case 'm':
    case 'k': case 'K': case 'M': case 'G': case 'T': case 'P':
      return true;
    default:
      return false;
  }
}

// QuantityParts: what upstream's parseQuantityString returns. `value` is the numeric prefix
// including sign (used only to reproduce upstream's ErrNumeric); `num` has no leading zeros and
// is "0" when empty; `denom` holds the digits after the decimal point.
struct QuantityParts {
  bool positive = true;
  std::string_view value;
  std::string_view num;
  std::string_view denom;
  std::string_view suffix;
};

// SplitQuantity: upstream parseQuantityString, statement for statement. O(length).
tl::expected<QuantityParts, std::string> SplitQuantity(std::string_view str) {
  QuantityParts parts;
  size_t pos = 0;
  const size_t end = str.size();
  if (pos < end) {
    if (str[0] == '-') {
      parts.positive = false;
      ++pos;
    } else if (str[0] == '+') {
      ++pos;
    }
  }
  // Strip leading zeros; a string of only sign and zeros is zero.
  while (true) {
    if (pos >= end) {
      parts.num = "0";
      parts.value = "0";
      return parts;
    }
    if (str[pos] != '0') break;
    ++pos;
  }
  // Numerator.
  size_t i = pos;
  while (i < end && IsDigit(str[i])) ++i;
  if (i >= end) {
    parts.num = str.substr(pos);
    parts.value = str;
    return parts;
  }
  parts.num = str.substr(pos, i - pos);
  pos = i;
  if (parts.num.empty()) parts.num = "0";
  // Denominator (upstream accepts "1." and "1.G").
  if (pos < end && str[pos] == '.') {
    ++pos;
    i = pos;
    while (i < end && IsDigit(str[i])) ++i;
    if (i >= end) {
      parts.denom = str.substr(pos);
      parts.value = str;
      return parts;
    }
    parts.denom = str.substr(pos, i - pos);
    pos = i;
  }
  parts.value = str.substr(0, pos);
  // Suffix: letters from the suffix alphabet, an optional sign, digits; nothing may follow.
  const size_t suffix_start = pos;
  i = pos;
  while (i < end && IsSuffixChar(str[i])) ++i;
  if (i >= end) {
    parts.suffix = str.substr(suffix_start);
    return parts;
  }
  pos = i;
  if (str[pos] == '-' || str[pos] == '+') ++pos;
  i = pos;
  while (i < end && IsDigit(str[i])) ++i;
  if (i >= end) {
    parts.suffix = str.substr(suffix_start);
    return parts;
  }
  return tl::make_unexpected(std::string(kErrFormatWrong));
}

// Suffix: a decoded suffix; the value is multiplied by base^exponent.
struct Suffix {
  int base = 10;
  int32_t exponent = 0;
};

// ParseGoInt64: strconv.ParseInt(s, 10, 64): optional sign, at least one digit, no overflow.
std::optional<int64_t> ParseGoInt64(std::string_view s) {
  bool negative = false;
  if (!s.empty() && (s[0] == '+' || s[0] == '-')) {
    negative = s[0] == '-';
    s.remove_prefix(1);
  }
  if (s.empty()) return std::nullopt;
  unsigned __int128 magnitude = 0;
  for (char c : s) {
    if (!IsDigit(c)) return std::nullopt;
    magnitude = magnitude * 10 + static_cast<unsigned>(c - '0');
    if (magnitude > static_cast<unsigned __int128>(std::numeric_limits<int64_t>::max()) + 1) {
      return std::nullopt;
    }
  }
  if (!negative && magnitude > static_cast<unsigned __int128>(std::numeric_limits<int64_t>::max())) {
    return std::nullopt;
  }
  return negative ? static_cast<int64_t>(-static_cast<__int128>(magnitude))
                  : static_cast<int64_t>(magnitude);
}

// InterpretSuffix: upstream suffixHandler.interpret (suffix.go). Decimal SI first, then binary
// SI, then `e<int>` / `E<int>` (the exponent is parsed as int64 and truncated to int32, as
// upstream does).
std::optional<Suffix> InterpretSuffix(std::string_view s) {
  struct Entry {
    std::string_view name;
    int base;
    int32_t exponent;
  };
  static constexpr std::array<Entry, 16> kTable = {{
      {"", 10, 0},   {"n", 10, -9}, {"u", 10, -6}, {"m", 10, -3}, {"k", 10, 3},  {"M", 10, 6},
      {"G", 10, 9},  {"T", 10, 12}, {"P", 10, 15}, {"E", 10, 18}, {"Ki", 2, 10}, {"Mi", 2, 20},
      {"Gi", 2, 30}, {"Ti", 2, 40}, {"Pi", 2, 50}, {"Ei", 2, 60},
  }};
  for (const Entry& e : kTable) {
    if (e.name == s) return Suffix{e.base, e.exponent};
  }
  if (s.size() > 1 && (s[0] == 'e' || s[0] == 'E')) {
    std::optional<int64_t> parsed = ParseGoInt64(s.substr(1));
    if (!parsed) return std::nullopt;
    return Suffix{10, static_cast<int32_t>(*parsed)};
  }
  return std::nullopt;
}

// MultiplyDecimal: digits (most significant first) *= factor, factor <= 2^30. O(length).
void MultiplyDecimal(std::string* digits, uint64_t factor) {
  uint64_t carry = 0;
  for (auto it = digits->rbegin(); it != digits->rend(); ++it) {
    const uint64_t v = static_cast<uint64_t>(*it - '0') * factor + carry;
    *it = static_cast<char>('0' + v % 10);
    carry = v / 10;
  }
  std::string prefix;
  while (carry > 0) {
    prefix.push_back(static_cast<char>('0' + carry % 10));
    carry /= 10;
  }
  digits->insert(digits->begin(), prefix.rbegin(), prefix.rend());
}

// DecimalToMagnitude: parses a digit string; nullopt when it exceeds the int128 range.
std::optional<unsigned __int128> DecimalToMagnitude(std::string_view digits) {
  unsigned __int128 v = 0;
  for (char c : digits) {
    v = v * 10 + static_cast<unsigned>(c - '0');
    if (v > static_cast<unsigned __int128>(kInt128Max)) return std::nullopt;
  }
  return v;
}

// CeilDiv: ceil(n / d) for d > 0 (rounds toward +infinity).
__int128 CeilDiv(__int128 n, int64_t d) {
  __int128 q = n / d;
  if (n % d != 0 && n > 0) ++q;
  return q;
}

tl::expected<int64_t, std::string> ToInt64(__int128 v) {
  if (v > std::numeric_limits<int64_t>::max() || v < std::numeric_limits<int64_t>::min()) {
    return tl::make_unexpected(std::string(kErrTooLarge));
  }
  return static_cast<int64_t>(v);
}

std::string_view LastPathSegment(std::string_view name) {
  const size_t slash = name.rfind('/');
  return slash == std::string_view::npos ? name : name.substr(slash + 1);
}

bool IsByteResource(std::string_view name) {
  const std::string_view base = LastPathSegment(name);
  return base == "memory" || base == "storage" || base == "ephemeral-storage" ||
         base.starts_with("hugepages-");
}

}  // namespace

tl::expected<Quantity, std::string> Quantity::Parse(std::string_view text) {
  if (text.empty()) return tl::make_unexpected(std::string(kErrFormatWrong));
  if (text == "0") return Quantity();
  auto parts = SplitQuantity(text);
  if (!parts) return tl::make_unexpected(parts.error());
  const std::optional<Suffix> suffix = InterpretSuffix(parts->suffix);
  if (!suffix) return tl::make_unexpected(std::string(kErrSuffix));

  // Upstream parses `value` with inf.Dec only when its int64 fast path does not apply; a value
  // without any digit ("", ".", "-") then fails with ErrNumeric. The fast path applies to such a
  // zero value for decimal exponents >= -9 and binary exponents <= 40.
  bool value_has_digit = false;
  for (char c : parts->value) value_has_digit = value_has_digit || IsDigit(c);
  if (!value_has_digit &&
      ((suffix->base == 10 && suffix->exponent < -9) || (suffix->base == 2 && suffix->exponent > 40))) {
    return tl::make_unexpected(std::string(kErrNumeric));
  }

  // magnitude = int(num denom) * 2^binary * 10^power nano-units, rounded up to a whole nano.
  std::string digits;
  digits.reserve(parts->num.size() + parts->denom.size() + 20);
  digits.append(parts->num);
  digits.append(parts->denom);
  int64_t power = 9 - static_cast<int64_t>(parts->denom.size()) +
                  (suffix->base == 10 ? static_cast<int64_t>(suffix->exponent) : 0);
  const size_t first = digits.find_first_not_of('0');
  if (first == std::string::npos) return Quantity();
  digits.erase(0, first);
  if (suffix->base == 2) {
    for (int32_t remaining = suffix->exponent; remaining > 0; remaining -= 30) {
      MultiplyDecimal(&digits, uint64_t{1} << std::min<int32_t>(remaining, 30));
    }
  }
  // Move trailing zeros into the power, so that below a dropped tail is always non-zero.
  const size_t last = digits.find_last_not_of('0');
  power += static_cast<int64_t>(digits.size() - 1 - last);
  digits.resize(last + 1);

  // Beyond the int128 nano range (~1.7e29 units) the API server still accepts the value (an
  // inf.Dec): a binary-suffix one is capped at 2^63-1 units as upstream caps it, a decimal one
  // is held saturated at the int128 bound, where Value() / MilliValue() fail ("quantity too
  // large"; upstream's are not meaningful there either: apimachinery pkg/api/resource
  // amount.go, infDecAmount and scaledValue, "the result is undefined" on overflow).
  const auto capped = [&]() { return Quantity(parts->positive ? kMaxAllowedNano : -kMaxAllowedNano); };
  const auto beyond = [&]() -> tl::expected<Quantity, std::string> {
    if (suffix->base == 2) return capped();
    return Quantity(parts->positive ? kInt128Max : -kInt128Max);
  };
  unsigned __int128 magnitude = 0;
  if (power >= 0) {
    if (static_cast<int64_t>(digits.size()) + power > 39) {
      return beyond();
    }
    std::optional<unsigned __int128> v = DecimalToMagnitude(digits);
    if (!v) return beyond();
    magnitude = *v;
    for (int64_t k = 0; k < power; ++k) {
      if (magnitude > static_cast<unsigned __int128>(kInt128Max) / 10) {
        return beyond();
      }
      magnitude *= 10;
    }
  } else {
    const int64_t drop = -power;
    if (drop >= static_cast<int64_t>(digits.size())) {
      magnitude = 1;  // a non-zero value finer than 1n rounds up to 1n
    } else {
      const size_t keep = digits.size() - static_cast<size_t>(drop);
      std::optional<unsigned __int128> v =
          DecimalToMagnitude(std::string_view(digits).substr(0, keep));
      if (!v) return beyond();
      magnitude = *v;
      // The dropped tail is non-zero (trailing zeros were stripped): round the magnitude up.
      if (magnitude == static_cast<unsigned __int128>(kInt128Max)) {
        return beyond();
      }
      ++magnitude;
    }
  }
  // ParseQuantity: "The max is just a simple cap" for BinarySI values above 2^63-1 units.
  if (suffix->base == 2 && magnitude > static_cast<unsigned __int128>(kMaxAllowedNano)) {
    return capped();
  }
  const __int128 nano = static_cast<__int128>(magnitude);
  return Quantity(parts->positive ? nano : -nano);
}


Quantity Quantity::FromInt(int64_t units) {
  return Quantity(static_cast<__int128>(units) * kNanoPerUnit);
}

Quantity Quantity::FromMilli(int64_t milli) {
  return Quantity(static_cast<__int128>(milli) * kNanoPerMilli);
}

tl::expected<int64_t, std::string> Quantity::MilliValue() const {
  return ToInt64(CeilDiv(nano_, kNanoPerMilli));
}

tl::expected<int64_t, std::string> Quantity::Value() const {
  return ToInt64(CeilDiv(nano_, kNanoPerUnit));
}

bool IsMilliResource(std::string_view resource_name) {
  return resource_name == "cpu" || resource_name == "requests.cpu" ||
         resource_name == "limits.cpu";
}

tl::expected<int64_t, std::string> CanonicalAmount(std::string_view resource_name,
                                                   const Quantity& q) {
  return IsMilliResource(resource_name) ? q.MilliValue() : q.Value();
}

std::string FormatAmount(std::string_view resource_name, int64_t amount) {
  if (IsMilliResource(resource_name)) {
    if (amount % 1000 == 0) return fmt::format("{}", amount / 1000);
    return fmt::format("{}m", amount);
  }
  if (IsByteResource(resource_name) && amount != 0) {
    static constexpr std::array<std::pair<int, const char*>, 6> kBinary = {{
        {60, "Ei"}, {50, "Pi"}, {40, "Ti"}, {30, "Gi"}, {20, "Mi"}, {10, "Ki"},
    }};
    for (const auto& [shift, name] : kBinary) {
      const int64_t unit = int64_t{1} << shift;
      if (amount % unit == 0) return fmt::format("{}{}", amount / unit, name);
    }
  }
  return fmt::format("{}", amount);
}

}  // namespace wasched::api
