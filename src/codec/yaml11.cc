// File: codec/yaml11.cc
//
// YAML 1.1 plain-scalar resolution (see yaml11.h). Follows go.yaml.in/yaml/v2 v2.4.4 resolve.go
// (`resolve`, the table built in `init`), Go's strconv.ParseInt / ParseUint with base 0, and
// the JSON texts sigs.k8s.io/yaml v1.6.0 (yaml.go) and encoding/json produce.
#include "codec/yaml11.h"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <optional>
#include <string>

#include <fmt/format.h>

namespace wasched::codec::internal {
namespace {

bool IsDigit(char c) { return c >= '0' && c <= '9'; }

bool OneOf(std::string_view s, std::initializer_list<std::string_view> words) {
  for (std::string_view w : words) {
    if (s == w) return true;
  }
  return false;
}

// GoUint: strconv.ParseUint(s, 0, 64) on a text without `_` and without a sign: a `0x` / `0o` /
// `0b` prefix (either case, at least one digit after it) or a leading `0` (octal), else
// decimal; nullopt on a syntax error or above 2^64-1.
std::optional<uint64_t> GoUint(std::string_view s) {
  if (s.empty()) return std::nullopt;
  int base = 10;
  if (s[0] == '0') {
    const char p = s.size() >= 3 ? static_cast<char>(s[1] | 0x20) : '\0';
    if (p == 'b' || p == 'o' || p == 'x') {
      base = p == 'b' ? 2 : p == 'o' ? 8 : 16;
      s.remove_prefix(2);
    } else {
      base = 8;
      s.remove_prefix(1);
    }
  }
  unsigned __int128 v = 0;
  for (char c : s) {
    int d = 0;
    if (IsDigit(c)) {
      d = c - '0';
    } else if ((c | 0x20) >= 'a' && (c | 0x20) <= 'f') {
      d = (c | 0x20) - 'a' + 10;
    } else {
      return std::nullopt;
    }
    if (d >= base) return std::nullopt;
    v = v * static_cast<unsigned>(base) + static_cast<unsigned>(d);
    if (v > UINT64_MAX) return std::nullopt;
  }
  return static_cast<uint64_t>(v);
}

// GoInteger: the decimal text of ParseInt(s, 0, 64), else of ParseUint(s, 0, 64) (no sign);
// nullopt when neither accepts `s`.
std::optional<std::string> GoInteger(std::string_view s) {
  bool negative = false;
  std::string_view magnitude_text = s;
  if (!s.empty() && (s[0] == '+' || s[0] == '-')) {
    negative = s[0] == '-';
    magnitude_text.remove_prefix(1);
  }
  const std::optional<uint64_t> m = GoUint(magnitude_text);
  if (!m) return std::nullopt;
  const uint64_t kMaxNegative = uint64_t{1} << 63;
  if (negative) {
    if (*m > kMaxNegative) return std::nullopt;
    if (*m == 0) return std::string("0");
    return fmt::format("-{}", *m);
  }
  if (magnitude_text.size() != s.size() && *m >= kMaxNegative) {
    return std::nullopt;  // `+` is ParseInt only, whose range ends at 2^63-1
  }
  return fmt::format("{}", *m);
}

// IsYamlStyleFloat: resolve.go's yamlStyleFloat,
// `^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$`.
bool IsYamlStyleFloat(std::string_view s) {
  if (!s.empty() && (s[0] == '+' || s[0] == '-')) s.remove_prefix(1);
  size_t i = 0;
  size_t int_digits = 0;
  while (i < s.size() && IsDigit(s[i])) ++i, ++int_digits;
  if (int_digits == 0) {
    if (i >= s.size() || s[i] != '.') return false;
    ++i;
    size_t frac = 0;
    while (i < s.size() && IsDigit(s[i])) ++i, ++frac;
    if (frac == 0) return false;
  } else if (i < s.size() && s[i] == '.') {
    ++i;
    while (i < s.size() && IsDigit(s[i])) ++i;
  }
  if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
    ++i;
    if (i < s.size() && (s[i] == '+' || s[i] == '-')) ++i;
    size_t exp_digits = 0;
    while (i < s.size() && IsDigit(s[i])) ++i, ++exp_digits;
    if (exp_digits == 0) return false;
  }
  return i == s.size();
}

// ParseFloat64: strconv.ParseFloat(s, 64) for a text IsYamlStyleFloat accepts; nullopt when it
// is beyond the float64 range (Go's ErrRange; an underflow is 0, not an error).
std::optional<double> ParseFloat64(std::string_view s) {
  const std::string copy(s);
  const double v = std::strtod(copy.c_str(), nullptr);  // the text is plain ASCII decimal
  if (std::isinf(v)) return std::nullopt;
  return v;
}

// ShortestFloat: Go's strconv.FormatFloat(v, 'e' or 'f', -1, bits): the shortest digits that
// read back as `v` (std::to_chars'), written in scientific form, or in fixed form padded with
// zeros past them (Go prints 1.8446744073709552e19 as "18446744073709552000", where a fixed
// std::to_chars would print every digit of the exact binary value).
template <typename T>
std::string ShortestFloat(T v, std::chars_format format) {
  char buf[64];
  const auto r = std::to_chars(buf, buf + sizeof buf, v, std::chars_format::scientific);
  const std::string sci(buf, r.ptr);
  if (format == std::chars_format::scientific) return sci;
  // d[.ddd]e±XX → digits and decimal exponent.
  std::string out;
  size_t i = 0;
  if (sci[0] == '-') {
    out.push_back('-');
    i = 1;
  }
  const size_t e = sci.find('e');
  std::string digits;
  for (size_t k = i; k < e; ++k) {
    if (sci[k] != '.') digits.push_back(sci[k]);
  }
  const int exponent = std::atoi(sci.c_str() + e + 1);
  const int point = exponent + 1;  // digits before the decimal point
  if (point <= 0) {
    out += "0." + std::string(static_cast<size_t>(-point), '0') + digits;
  } else if (static_cast<size_t>(point) >= digits.size()) {
    out += digits + std::string(static_cast<size_t>(point) - digits.size(), '0');
  } else {
    out += digits.substr(0, static_cast<size_t>(point)) + "." +
           digits.substr(static_cast<size_t>(point));
  }
  return out;
}

// JsonFloat: encoding/json's text of a float64 (encode.go floatEncoder): 'f' between 1e-6 and
// 1e21, else 'e' with a negative exponent's leading zero removed (`1e-07` → `1e-7`).
std::string JsonFloat(double v) {
  const double abs = std::fabs(v);
  if (abs == 0 || (abs >= 1e-6 && abs < 1e21)) return ShortestFloat(v, std::chars_format::fixed);
  std::string s = ShortestFloat(v, std::chars_format::scientific);
  const size_t n = s.size();
  if (n >= 4 && s[n - 4] == 'e' && s[n - 3] == '-' && s[n - 2] == '0') s.erase(n - 2, 1);
  return s;
}

// GoFloat32G: strconv.FormatFloat(v, 'g', -1, 32): %e when the decimal exponent is below -4 or
// at least 6 (the rule for the shortest precision), else %f; exponents with at least 2 digits.
std::string GoFloat32G(double v) {
  const auto f = static_cast<float>(v);
  if (std::isinf(f)) return f > 0 ? ".inf" : "-.inf";
  if (std::isnan(f)) return ".nan";
  if (f == 0) return std::signbit(f) ? "-0" : "0";
  const std::string sci = ShortestFloat(f, std::chars_format::scientific);
  const size_t e = sci.find('e');
  const int exponent = std::atoi(sci.c_str() + e + 1);
  if (exponent < -4 || exponent >= 6) return sci;
  return ShortestFloat(f, std::chars_format::fixed);
}

bool IsSpecialFloat(std::string_view s) {
  return OneOf(s, {".nan", ".NaN", ".NAN", ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF",
                   "-.inf", "-.Inf", "-.INF"});
}

// ResolveNumber: the `D` / `S` / `.` branches of resolve(): an integer, else a float, else
// nullopt (a string). `text` has not had its `_` removed.
std::optional<Yaml11Scalar> ResolveNumber(std::string_view text) {
  if (text.empty()) return std::nullopt;
  const char hint = text[0];
  if (hint == '.') {
    // resolve() hands the text unchanged to ParseFloat, which accepts `_` between two digits
    // (strconv's underscoreOK); of its other forms only the yamlStyleFloat shapes start with
    // `.`.
    std::string digits;
    for (size_t i = 0; i < text.size(); ++i) {
      if (text[i] != '_') {
        digits.push_back(text[i]);
      } else if (i == 0 || i + 1 == text.size() || !IsDigit(text[i - 1]) ||
                 !IsDigit(text[i + 1])) {
        return std::nullopt;
      }
    }
    if (!IsYamlStyleFloat(digits)) return std::nullopt;
    const std::optional<double> v = ParseFloat64(digits);
    if (!v) return std::nullopt;
    return Yaml11Scalar{ValueKind::kFloat, JsonFloat(*v)};
  }
  if (!IsDigit(hint) && hint != '+' && hint != '-') return std::nullopt;
  std::string plain;
  plain.reserve(text.size());
  for (char c : text) {
    if (c != '_') plain.push_back(c);
  }
  if (std::optional<std::string> i = GoInteger(plain)) {
    return Yaml11Scalar{ValueKind::kInteger, std::move(*i)};
  }
  if (IsYamlStyleFloat(plain)) {
    if (const std::optional<double> v = ParseFloat64(plain)) {
      return Yaml11Scalar{ValueKind::kFloat, JsonFloat(*v)};
    }
  }
  return std::nullopt;
}

}  // namespace

Yaml11Scalar ResolveYaml11Plain(std::string_view text) {
  if (OneOf(text, {"", "~", "null", "Null", "NULL"})) return {ValueKind::kNull, ""};
  if (OneOf(text, {"y", "Y", "yes", "Yes", "YES", "true", "True", "TRUE", "on", "On", "ON"})) {
    return {ValueKind::kBool, "true"};
  }
  if (OneOf(text, {"n", "N", "no", "No", "NO", "false", "False", "FALSE", "off", "Off", "OFF"})) {
    return {ValueKind::kBool, "false"};
  }
  if (IsSpecialFloat(text)) return {ValueKind::kFloat, std::string(text)};
  if (std::optional<Yaml11Scalar> n = ResolveNumber(text)) return std::move(*n);
  return {ValueKind::kString, std::string(text)};
}

std::string Yaml11KeyText(std::string_view text) {
  if (IsSpecialFloat(text)) {
    if (text[1] == 'n' || text[1] == 'N') return ".nan";
    return text[0] == '-' ? "-.inf" : ".inf";
  }
  const Yaml11Scalar v = ResolveYaml11Plain(text);
  switch (v.kind) {
    case ValueKind::kBool:
    case ValueKind::kInteger:
      return v.text;
    case ValueKind::kFloat:
      return GoFloat32G(std::strtod(v.text.c_str(), nullptr));
    default:
      return std::string(text);
  }
}

}  // namespace wasched::codec::internal
