#include "util/field_error.h"

#include <fmt/format.h>

#include "util/field_value.h"

namespace wasched {

const char* FieldErrorTypeName(FieldErrorType t) {
  switch (t) {
    case FieldErrorType::kNotFound: return "NotFound";
    case FieldErrorType::kRequired: return "Required";
    case FieldErrorType::kDuplicate: return "Duplicate";
    case FieldErrorType::kInvalid: return "Invalid";
    case FieldErrorType::kNotSupported: return "NotSupported";
    case FieldErrorType::kForbidden: return "Forbidden";
    case FieldErrorType::kTooLong: return "TooLong";
    case FieldErrorType::kTooMany: return "TooMany";
    case FieldErrorType::kInternal: return "InternalError";
    case FieldErrorType::kTypeInvalid: return "TypeInvalid";
  }
  return "Invalid";
}

const char* FieldErrorTypeText(FieldErrorType t) {
  switch (t) {
    case FieldErrorType::kNotFound: return "Not found";
    case FieldErrorType::kRequired: return "Required value";
    case FieldErrorType::kDuplicate: return "Duplicate value";
    case FieldErrorType::kInvalid: return "Invalid value";
    case FieldErrorType::kNotSupported: return "Unsupported value";
    case FieldErrorType::kForbidden: return "Forbidden";
    case FieldErrorType::kTooLong: return "Too long";
    case FieldErrorType::kTooMany: return "Too many";
    case FieldErrorType::kInternal: return "Internal error";
    case FieldErrorType::kTypeInvalid: return "Invalid value";
  }
  return "Invalid value";
}

std::string RenderValue(std::string_view value) {
  if (value.size() <= kMaxRenderedValueBytes) return std::string(value);
  size_t cut = kTruncatedValueBytes;
  // Never split a UTF-8 sequence: back up over continuation bytes (10xxxxxx).
  while (cut > 0 && (static_cast<unsigned char>(value[cut]) & 0xC0) == 0x80) --cut;
  std::string out(value.substr(0, cut));
  out += "\u2026";
  if (value.front() == '"' && value.back() == '"') out += '"';
  return out;
}

std::string FieldError::ToString() const {
  std::string out = field.empty() ? std::string() : field + ": ";
  out += FieldErrorTypeText(type);
  if (!bad_value.empty()) out += ": " + RenderValue(bad_value);
  if (!detail.empty()) out += ": " + detail;
  return out;
}

std::string InputError::ToString() const {
  std::string out;
  if (!source.file.empty()) out += source.file + ": ";
  if (source.document > 0) out += fmt::format("document {}: ", source.document);
  if (!object.empty()) out += object + ": ";
  return out + error.ToString();
}

}  // namespace wasched
