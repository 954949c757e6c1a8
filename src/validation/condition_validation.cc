// File: validation/condition_validation.cc
#include "validation/condition_validation.h"

#include <fmt/format.h>

#include <set>
#include <utility>

#include "validation/names.h"

namespace wasched::validation {
namespace {

constexpr const char* kConditionReasonFmt = "[A-Za-z]([A-Za-z0-9_,:]*[A-Za-z0-9_])?";
constexpr const char* kConditionReasonErrMsg =
    "a condition reason must start with alphabetic character, optionally followed by a string of "
    "alphanumeric characters or '_,:', and must end with an alphanumeric character or '_'";

bool IsAlpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool IsAlnumUnderscore(char c) { return IsAlpha(c) || (c >= '0' && c <= '9') || c == '_'; }

bool IsConditionReason(std::string_view s) {
  if (s.empty() || !IsAlpha(s.front()) || !IsAlnumUnderscore(s.back())) return false;
  for (char c : s) {
    if (!IsAlnumUnderscore(c) && c != ',' && c != ':') return false;
  }
  return true;
}

FieldError TooLong(std::string path, std::size_t max) {
  return FieldError{FieldErrorType::kTooLong, std::move(path), "",
                    fmt::format("may not be more than {} bytes", max), ""};
}

}  // namespace

ErrorList ValidateConditions(const std::vector<api::Condition>& conditions,
                             const std::string& path) {
  ErrorList errs;
  std::set<std::string> seen;
  for (std::size_t i = 0; i < conditions.size(); ++i) {
    const api::Condition& c = conditions[i];
    const std::string item = Index(path, i);
    if (!seen.insert(c.type).second) {
      errs.push_back(Duplicate(Child(item, "type"), Quote(c.type)));
    }
    for (std::string& msg : QualifiedNameErrors(c.type)) {
      errs.push_back(Invalid(Child(item, "type"), Quote(c.type), std::move(msg)));
    }
    if (c.status != "True" && c.status != "False" && c.status != "Unknown") {
      errs.push_back(NotSupported(Child(item, "status"), Quote(c.status),
                                  {"False", "True", "Unknown"}));
    }
    if (c.observed_generation < 0) {
      errs.push_back(Invalid(Child(item, "observedGeneration"),
                             std::to_string(c.observed_generation),
                             "must be greater than or equal to zero"));
    }
    if (c.last_transition_time == 0) {
      errs.push_back(Required(Child(item, "lastTransitionTime"), "must be set"));
    }
    if (c.reason.empty()) {
      errs.push_back(Required(Child(item, "reason"), "must be set"));
    } else {
      if (!IsConditionReason(c.reason)) {
        errs.push_back(Invalid(Child(item, "reason"), Quote(c.reason),
                               RegexError(kConditionReasonErrMsg, kConditionReasonFmt,
                                          {"my_name", "MY_NAME", "MyName", "ReasonA,ReasonB",
                                           "ReasonA:ReasonB"})));
      }
      if (c.reason.size() > kConditionMaxReasonLength) {
        errs.push_back(TooLong(Child(item, "reason"), kConditionMaxReasonLength));
      }
    }
    if (c.message.size() > kConditionMaxMessageLength) {
      errs.push_back(TooLong(Child(item, "message"), kConditionMaxMessageLength));
    }
  }
  return errs;
}

}  // namespace wasched::validation
