// File: api/label_selector.cc
#include "api/label_selector.h"

#include <algorithm>

namespace wasched::api {

bool Matches(const LabelSelector& selector, const std::map<std::string, std::string>& labels) {
  for (const auto& [key, value] : selector.match_labels) {
    auto it = labels.find(key);
    if (it == labels.end() || it->second != value) return false;
  }
  for (const auto& req : selector.match_expressions) {
    auto it = labels.find(req.key);
    const bool has = it != labels.end();
    const bool in_values =
        has && std::find(req.values.begin(), req.values.end(), it->second) != req.values.end();
    switch (req.op) {
      case LabelSelectorOperator::kIn:
        if (!in_values) return false;
        break;
      case LabelSelectorOperator::kNotIn:
        if (in_values) return false;
        break;
      case LabelSelectorOperator::kExists:
        if (!has) return false;
        break;
      case LabelSelectorOperator::kDoesNotExist:
        if (has) return false;
        break;
      case LabelSelectorOperator::kUnknown:
        return false;
    }
  }
  return true;
}

}  // namespace wasched::api
