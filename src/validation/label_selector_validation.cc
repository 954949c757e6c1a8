// File: validation/label_selector_validation.cc
//
// Upstream: k8s.io/apimachinery pkg/apis/meta/v1/validation/validation.go (ValidateLabelSelector,
// ValidateLabelSelectorRequirement).
#include "validation/label_selector_validation.h"

#include <utility>

#include "validation/names.h"
#include "validation/object_meta_validation.h"

namespace wasched::validation {

ErrorList ValidateLabelSelector(const api::LabelSelector& selector, const std::string& path) {
  ErrorList errs = ValidateLabels(selector.match_labels, Child(path, "matchLabels"));
  for (size_t i = 0; i < selector.match_expressions.size(); ++i) {
    const api::LabelSelectorRequirement& req = selector.match_expressions[i];
    const std::string item = Index(Child(path, "matchExpressions"), i);
    switch (req.op) {
      case api::LabelSelectorOperator::kIn:
      case api::LabelSelectorOperator::kNotIn:
        if (req.values.empty()) {
          errs.push_back(Required(Child(item, "values"),
                                  "must be specified when `operator` is 'In' or 'NotIn'"));
        }
        break;
      case api::LabelSelectorOperator::kExists:
      case api::LabelSelectorOperator::kDoesNotExist:
        if (!req.values.empty()) {
          errs.push_back(Forbidden(Child(item, "values"),
                                   "may not be specified when `operator` is 'Exists' or "
                                   "'DoesNotExist'"));
        }
        break;
      case api::LabelSelectorOperator::kUnknown:
        errs.push_back(
            Invalid(Child(item, "operator"), Quote(req.op_text), "not a valid selector operator"));
        break;
    }
    for (FieldError& e : LabelKey(Child(item, "key"), req.key)) errs.push_back(std::move(e));
    for (size_t j = 0; j < req.values.size(); ++j) {
      for (std::string& msg : LabelValueErrors(req.values[j])) {
        errs.push_back(
            Invalid(Index(Child(item, "values"), j), Quote(req.values[j]), std::move(msg)));
      }
    }
  }
  return errs;
}

}  // namespace wasched::validation
