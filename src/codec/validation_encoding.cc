#include "codec/validation_encoding.h"

#include <nlohmann/json.hpp>

#include "util/field_value.h"

namespace wasched::codec {
namespace {

// ContractType: design.md fixes `type` to Required, Invalid, NotSupported, Forbidden, TooMany,
// Duplicate, InternalError. Upstream's other types (and wasched's TypeInvalid for a wrong YAML
// type, and an unknown field under --validate=strict) are all kinds of invalid value: they become
// Invalid, with ContractDetail saying which.
const char* ContractType(FieldErrorType type) {
  switch (type) {
    case FieldErrorType::kNotFound:
    case FieldErrorType::kTypeInvalid:
    case FieldErrorType::kTooLong:
    case FieldErrorType::kUnknownField:
      return FieldErrorTypeName(FieldErrorType::kInvalid);
    default:
      return FieldErrorTypeName(type);
  }
}

// ContractDetail: the detail, made to stand on its own where the type no longer says it:
// NotFound becomes `not found: "ghost"` (the value; then upstream's detail, if any), an empty
// TooLong detail `too long`, an unknown field kubectl's `unknown field "spec.x"`.
std::string ContractDetail(const FieldError& e) {
  if (e.type == FieldErrorType::kNotFound) {
    std::string detail = "not found";
    if (!e.bad_value.empty()) detail += ": " + RenderValue(e.bad_value);
    if (!e.detail.empty()) detail += ": " + e.detail;
    return detail;
  }
  if (e.type == FieldErrorType::kTooLong && e.detail.empty()) return "too long";
  if (e.type == FieldErrorType::kUnknownField) {
    return "unknown field " + QuoteString(e.field) + (e.detail.empty() ? "" : ": " + e.detail);
  }
  return e.detail;
}

}  // namespace

std::string EncodeValidationReportJson(const InputErrors& errors,
                                       const std::vector<std::string>& warnings) {
  using Json = nlohmann::ordered_json;
  Json list = Json::array();
  for (const InputError& e : errors) {
    Json item{{"object", e.object},
              {"type", ContractType(e.error.type)},
              {"field", e.error.field},
              {"origin", e.error.origin},
              {"detail", ContractDetail(e.error)}};
    // Beyond the contract's five keys, where the error was found (as the table's prefix says):
    // the file, the 1-based document (when known) and the rendered value (when upstream prints
    // one). Readers of the contract ignore them.
    if (!e.source.file.empty()) item["file"] = e.source.file;
    if (e.source.document > 0) item["document"] = e.source.document;
    if (!e.error.bad_value.empty()) item["value"] = e.error.bad_value;
    list.push_back(std::move(item));
  }
  Json doc = Json::object();
  doc["errors"] = std::move(list);
  doc["warnings"] = warnings;
  return doc.dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
}

}  // namespace wasched::codec
