// File: validation/field_errors.cc
#include "validation/field_errors.h"

#include <fmt/format.h>

#include <utility>

#include "util/field_value.h"

namespace wasched::validation {

std::string Child(std::string_view path, std::string_view field) {
  if (path.empty()) return std::string(field);
  std::string out(path);
  out += '.';
  out += field;
  return out;
}

std::string Index(std::string_view path, std::size_t i) { return fmt::format("{}[{}]", path, i); }

std::string Quote(std::string_view value) { return QuoteString(value); }

FieldError Required(std::string path, std::string detail) {
  return FieldError{FieldErrorType::kRequired, std::move(path), "", std::move(detail), ""};
}

FieldError Invalid(std::string path, std::string value, std::string detail, std::string origin) {
  return FieldError{FieldErrorType::kInvalid, std::move(path), std::move(value), std::move(detail),
                    std::move(origin)};
}

FieldError Forbidden(std::string path, std::string detail, std::string origin) {
  return FieldError{FieldErrorType::kForbidden, std::move(path), "", std::move(detail),
                    std::move(origin)};
}

FieldError TooMany(std::string path, std::size_t actual, std::size_t max) {
  return FieldError{FieldErrorType::kTooMany, std::move(path), std::to_string(actual),
                    fmt::format("must have at most {} {}", max, max == 1 ? "item" : "items"),
                    kOriginMaxItems};
}

FieldError Duplicate(std::string path, std::string value) {
  return FieldError{FieldErrorType::kDuplicate, std::move(path), std::move(value), "", ""};
}

FieldError NotSupported(std::string path, std::string value,
                        const std::vector<std::string>& supported) {
  std::string detail;
  for (const std::string& s : supported) {
    detail += detail.empty() ? "supported values: " : ", ";
    detail += Quote(s);
  }
  return FieldError{FieldErrorType::kNotSupported, std::move(path), std::move(value),
                    std::move(detail), ""};
}

FieldError Minimum(std::string path, int64_t value, int64_t min) {
  return Invalid(std::move(path), std::to_string(value),
                 fmt::format("must be greater than or equal to {}", min), kOriginMinimum);
}

FieldError Maximum(std::string path, int64_t value, int64_t max) {
  return Invalid(std::move(path), std::to_string(value),
                 fmt::format("must be less than or equal to {}", max), kOriginMaximum);
}

FieldError Immutable(std::string path) {
  return Invalid(std::move(path), kNullValue, "field is immutable", kOriginImmutable);
}

FieldError NoSetError(std::string path) {
  return Invalid(std::move(path), kNullValue, "field cannot be set once created", kOriginUpdate);
}

FieldError NoUnsetError(std::string path) {
  return Invalid(std::move(path), kNullValue, "field cannot be cleared once set", kOriginUpdate);
}

FieldError ItemAddedError(std::string item_path) {
  return Forbidden(std::move(item_path), "item may not be added", kOriginUpdate);
}

FieldError ItemRemovedError(std::string list_path) {
  return Forbidden(std::move(list_path), "item may not be removed", kOriginUpdate);
}

}  // namespace wasched::validation
