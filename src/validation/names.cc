// File: validation/names.cc
//
// Messages as k8s.io/apimachinery/pkg/util/validation (IsDNS1123Label, IsDNS1123Subdomain,
// IsQualifiedName, IsValidLabelValue, RegexError, MaxLenError, EmptyError) and
// k8s.io/apimachinery/pkg/api/validation/path (IsValidPathSegmentName).
#include "validation/names.h"

#include <fmt/format.h>

#include <algorithm>

namespace wasched::validation {
namespace {

constexpr const char* kDns1123LabelFmt = "[a-z0-9]([-a-z0-9]*[a-z0-9])?";
constexpr const char* kDns1123LabelErrMsg =
    "a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and "
    "must start and end with an alphanumeric character";
constexpr const char* kDns1123SubdomainFmt =
    "[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*";
constexpr const char* kDns1123SubdomainErrMsg =
    "a lowercase RFC 1123 subdomain must consist of lower case alphanumeric characters, '-' or "
    "'.', and must start and end with an alphanumeric character";
constexpr const char* kQualifiedNameFmt = "([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]";
constexpr const char* kLabelValueFmt = "(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])?";
constexpr const char* kLabelValueErrMsg =
    "a valid label must be an empty string or consist of alphanumeric characters, '-', '_' or "
    "'.', and must start and end with an alphanumeric character";
constexpr const char* kQualifiedNameErrMsg =
    "must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an "
    "alphanumeric character";

std::string MaxLenError(std::size_t length) {
  return fmt::format("must be no more than {} characters", length);
}

bool IsLowerAlnum(char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); }
bool IsAlnum(char c) { return IsLowerAlnum(c) || (c >= 'A' && c <= 'Z'); }

// IsLabelShape: `[a-z0-9]([-a-z0-9]*[a-z0-9])?`.
bool IsLabelShape(std::string_view s) {
  if (s.empty() || !IsLowerAlnum(s.front()) || !IsLowerAlnum(s.back())) return false;
  return std::all_of(s.begin(), s.end(), [](char c) { return IsLowerAlnum(c) || c == '-'; });
}

// IsSubdomainShape: dot-separated labels.
bool IsSubdomainShape(std::string_view s) {
  if (s.empty()) return false;
  std::size_t start = 0;
  while (true) {
    const std::size_t dot = s.find('.', start);
    const std::string_view label =
        s.substr(start, dot == std::string_view::npos ? std::string_view::npos : dot - start);
    if (!IsLabelShape(label)) return false;
    if (dot == std::string_view::npos) return true;
    start = dot + 1;
  }
}

// IsQualifiedNameShape: `([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]`.
bool IsQualifiedNameShape(std::string_view s) {
  if (s.empty() || !IsAlnum(s.front()) || !IsAlnum(s.back())) return false;
  return std::all_of(s.begin(), s.end(),
                     [](char c) { return IsAlnum(c) || c == '-' || c == '_' || c == '.'; });
}

ErrorList ToErrors(const std::string& path, std::string_view value,
                   const std::vector<std::string>& messages, const char* origin) {
  ErrorList out;
  for (const std::string& m : messages) out.push_back(Invalid(path, Quote(value), m, origin));
  return out;
}

}  // namespace

std::string RegexError(std::string_view msg, std::string_view fmt_text,
                       std::initializer_list<std::string_view> examples) {
  std::string out(msg);
  if (examples.size() == 0) {
    out.append(" (regex used for validation is '").append(fmt_text).append("')");
    return out;
  }
  out.append(" (e.g. ");
  bool first = true;
  for (std::string_view e : examples) {
    if (!first) out.append(" or ");
    first = false;
    out.append("'").append(e).append("', ");
  }
  out.append("regex used for validation is '").append(fmt_text).append("')");
  return out;
}

std::vector<std::string> Dns1123LabelErrors(std::string_view value) {
  std::vector<std::string> out;
  if (value.size() > kDns1123LabelMaxLength) out.push_back(MaxLenError(kDns1123LabelMaxLength));
  if (!IsLabelShape(value)) {
    if (IsSubdomainShape(value)) {
      out.push_back("must not contain dots");
    } else {
      out.push_back(RegexError(kDns1123LabelErrMsg, kDns1123LabelFmt, {"my-name", "123-abc"}));
    }
  }
  return out;
}

std::vector<std::string> Dns1123SubdomainErrors(std::string_view value) {
  std::vector<std::string> out;
  if (value.size() > kDns1123SubdomainMaxLength) {
    out.push_back(MaxLenError(kDns1123SubdomainMaxLength));
  }
  if (!IsSubdomainShape(value)) {
    out.push_back(RegexError(kDns1123SubdomainErrMsg, kDns1123SubdomainFmt, {"example.com"}));
  }
  return out;
}

std::vector<std::string> PathSegmentNameErrors(std::string_view value) {
  for (std::string_view bad : {".", ".."}) {
    if (value == bad) return {fmt::format("may not be '{}'", bad)};
  }
  std::vector<std::string> out;
  for (std::string_view bad : {"/", "%"}) {
    if (value.find(bad) != std::string_view::npos) {
      out.push_back(fmt::format("may not contain '{}'", bad));
    }
  }
  return out;
}

std::vector<std::string> QualifiedNameErrors(std::string_view value) {
  std::vector<std::string> out;
  std::string_view name = value;
  const std::size_t slashes = static_cast<std::size_t>(std::count(value.begin(), value.end(), '/'));
  if (slashes > 1) {
    out.push_back(fmt::format(
        "a qualified name {} with an optional DNS subdomain prefix and '/' (e.g. "
        "'example.com/MyName')",
        RegexError(kQualifiedNameErrMsg, kQualifiedNameFmt, {"MyName", "my.name", "123-abc"})));
    return out;
  }
  if (slashes == 1) {
    const std::size_t slash = value.find('/');
    const std::string_view prefix = value.substr(0, slash);
    name = value.substr(slash + 1);
    if (prefix.empty()) {
      out.push_back("prefix part must be non-empty");
    } else {
      for (const std::string& m : Dns1123SubdomainErrors(prefix)) {
        out.push_back(fmt::format("prefix part {}", m));
      }
    }
  }
  if (name.empty()) {
    out.push_back("name part must be non-empty");
  } else if (name.size() > kQualifiedNameMaxLength) {
    out.push_back(fmt::format("name part {}", MaxLenError(kQualifiedNameMaxLength)));
  }
  if (!IsQualifiedNameShape(name)) {
    out.push_back(fmt::format("name part {}", RegexError(kQualifiedNameErrMsg, kQualifiedNameFmt,
                                                         {"MyName", "my.name", "123-abc"})));
  }
  return out;
}

std::vector<std::string> LabelValueErrors(std::string_view value) {
  std::vector<std::string> out;
  if (value.size() > kLabelValueMaxLength) out.push_back(MaxLenError(kLabelValueMaxLength));
  if (!value.empty() && !IsQualifiedNameShape(value)) {
    out.push_back(RegexError(kLabelValueErrMsg, kLabelValueFmt, {"MyValue", "my_value", "12345"}));
  }
  return out;
}

ErrorList ShortName(const std::string& path, std::string_view value) {
  return ToErrors(path, value, Dns1123LabelErrors(value), kOriginShortName);
}

ErrorList LongName(const std::string& path, std::string_view value) {
  return ToErrors(path, value, Dns1123SubdomainErrors(value), kOriginLongName);
}

ErrorList PathSegmentName(const std::string& path, std::string_view value) {
  return ToErrors(path, value, PathSegmentNameErrors(value), kOriginPathSegmentName);
}

ErrorList LabelKey(const std::string& path, std::string_view value) {
  return ToErrors(path, value, QualifiedNameErrors(value), kOriginLabelKey);
}

}  // namespace wasched::validation
