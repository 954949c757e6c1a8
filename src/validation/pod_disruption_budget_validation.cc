#include "validation/pod_disruption_budget_validation.h"

#include <string>

#include "validation/label_selector_validation.h"
#include "validation/object_meta_validation.h"

namespace wasched::validation {
namespace {

std::string Render(const api::IntOrString& v) {
  return v.is_string ? Quote(v.str_value) : std::to_string(v.int_value);
}

// IsPercent: upstream IsValidPercent's regex `[0-9]+%`.
bool IsPercent(const std::string& s) {
  if (s.size() < 2 || s.back() != '%') return false;
  for (size_t i = 0; i + 1 < s.size(); ++i) {
    if (s[i] < '0' || s[i] > '9') return false;
  }
  return true;
}

void ValidateIntOrPercent(const api::IntOrString& v, const std::string& path, ErrorList* errs) {
  if (v.is_string) {
    if (!IsPercent(v.str_value)) {
      errs->push_back(Invalid(path, Render(v),
                              "a valid percent string must be a numeric string followed by an "
                              "ending '%' (e.g. '1%',  or '93%', regex used for validation is "
                              "'[0-9]+%')"));
      return;
    }
    if (std::stoll(v.str_value.substr(0, std::min<size_t>(v.str_value.size() - 1, 12))) > 100) {
      errs->push_back(Invalid(path, Render(v), "must not be greater than 100%"));
    }
    return;
  }
  if (v.int_value < 0) {
    errs->push_back(Invalid(path, Render(v), "must be greater than or equal to 0"));
  }
}

}  // namespace

ErrorList ValidatePodDisruptionBudget(const api::PodDisruptionBudget& pdb) {
  ErrorList errs = ValidateObjectMeta(pdb.meta);
  if (pdb.min_available && pdb.max_unavailable) {
    errs.push_back(Invalid("spec", "{...}", "minAvailable and maxUnavailable cannot be both set"));
  }
  if (pdb.min_available) ValidateIntOrPercent(*pdb.min_available, "spec.minAvailable", &errs);
  if (pdb.max_unavailable) {
    ValidateIntOrPercent(*pdb.max_unavailable, "spec.maxUnavailable", &errs);
  }
  if (pdb.selector) {
    for (FieldError& e : ValidateLabelSelector(*pdb.selector, "spec.selector")) {
      errs.push_back(std::move(e));
    }
  }
  return errs;
}

}  // namespace wasched::validation
