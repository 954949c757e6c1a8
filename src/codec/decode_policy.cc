#include "codec/decode_policy.h"

#include "codec/decode_common.h"

namespace wasched::codec::internal {

void DecodeLabelSelector(const Reader& r, api::LabelSelector* out) {
  r.ForEachField([&](std::string_view key, const Reader& f) {
    if (key == "matchLabels") {
      f.Read(&out->match_labels);
    } else if (key == "matchExpressions") {
      f.ForEachItem([&](size_t, const Reader& item) {
        api::LabelSelectorRequirement& req = out->match_expressions.emplace_back();
        item.ForEachField([&](std::string_view k, const Reader& v) {
          if (k == "key") {
            v.Read(&req.key);
          } else if (k == "operator") {
            v.Read(&req.op_text);
          } else if (k == "values") {
            v.Read(&req.values);
          } else {
            return false;
          }
          return true;
        });
        if (req.op_text == "In") req.op = api::LabelSelectorOperator::kIn;
        else if (req.op_text == "NotIn") req.op = api::LabelSelectorOperator::kNotIn;
        else if (req.op_text == "Exists") req.op = api::LabelSelectorOperator::kExists;
        else if (req.op_text == "DoesNotExist") req.op = api::LabelSelectorOperator::kDoesNotExist;
        else req.op = api::LabelSelectorOperator::kUnknown;
      });
    } else {
      return false;
    }
    return true;
  });
}

void DecodeIntOrString(const Reader& r, std::optional<api::IntOrString>* out) {
  switch (r.Kind()) {
    case ValueKind::kNull:
      return;
    case ValueKind::kInteger: {
      int32_t v = 0;
      r.Read(&v);
      *out = api::IntOrString{false, v, ""};
      return;
    }
    case ValueKind::kString: {
      api::IntOrString s{true, 0, ""};
      r.Read(&s.str_value);
      *out = std::move(s);
      return;
    }
    default:
      r.TypeError("integer or string");
  }
}

void DecodePodDisruptionBudget(const Reader& root, api::PodDisruptionBudget* pdb) {
  DecodeTopLevel(root, /*namespaced=*/true, &pdb->meta, [&](std::string_view key,
                                                          const Reader& f) {
    if (key == "status") return true;  // server-maintained; recomputed by wasched
    if (key != "spec") return false;
    f.ForEachField([&](std::string_view k, const Reader& v) {
      if (k == "minAvailable") {
        DecodeIntOrString(v, &pdb->min_available);
      } else if (k == "maxUnavailable") {
        DecodeIntOrString(v, &pdb->max_unavailable);
      } else if (k == "selector") {
        if (v.IsNull()) return true;
        pdb->selector.emplace();
        DecodeLabelSelector(v, &*pdb->selector);
      } else if (k == "unhealthyPodEvictionPolicy") {
        std::string policy;
        v.Read(&policy);  // eviction API only: preemption ignores it
      } else {
        return false;
      }
      return true;
    });
    return true;
  });
}

}  // namespace wasched::codec::internal
