// File: validation/object_meta_validation.cc
//
// Upstream: k8s.io/apimachinery/pkg/api/validation/objectmeta.go (ValidateObjectMeta,
// ValidateAnnotations) and pkg/apis/meta/v1/validation/validation.go (ValidateLabels).
#include "validation/object_meta_validation.h"

#include <algorithm>
#include <cctype>
#include <utility>

#include "validation/names.h"

namespace wasched::validation {

ErrorList ValidateLabels(const std::map<std::string, std::string>& labels,
                         const std::string& path) {
  ErrorList errs;
  for (const auto& [key, value] : labels) {
    for (std::string& msg : QualifiedNameErrors(key)) {
      errs.push_back(Invalid(path, Quote(key), std::move(msg), kOriginLabelKey));
    }
    for (std::string& msg : LabelValueErrors(value)) {
      errs.push_back(Invalid(path, Quote(value), std::move(msg), kOriginLabelValue));
    }
  }
  return errs;
}

ErrorList ValidateAnnotations(const std::map<std::string, std::string>& annotations,
                              const std::string& path) {
  ErrorList errs;
  std::size_t total = 0;
  for (const auto& [key, value] : annotations) {
    std::string lower = key;
    std::transform(lower.begin(), lower.end(), lower.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    for (std::string& msg : QualifiedNameErrors(lower)) {
      errs.push_back(Invalid(path, Quote(key), std::move(msg)));
    }
    total += key.size() + value.size();
  }
  if (total > kTotalAnnotationSizeLimit) {
    errs.push_back(FieldError{FieldErrorType::kTooLong, path, "",
                              "may not be more than " + std::to_string(kTotalAnnotationSizeLimit) +
                                  " bytes",
                              ""});
  }
  return errs;
}

ErrorList ValidateObjectMeta(const api::ObjectMeta& meta) {
  ErrorList errs;
  if (!meta.generate_name.empty()) {
    // NameIsDNSSubdomain(generateName, prefix=true): a trailing '-' is masked (maskTrailingDash:
    // the last two characters become "a").
    std::string masked = meta.generate_name;
    if (masked.size() > 1 && masked.back() == '-') masked = masked.substr(0, masked.size() - 2) + "a";
    for (std::string& msg : Dns1123SubdomainErrors(masked)) {
      errs.push_back(Invalid("metadata.generateName", Quote(meta.generate_name), std::move(msg)));
    }
  }
  if (meta.name.empty()) {
    errs.push_back(Required("metadata.name", "name or generateName is required"));
  } else {
    for (std::string& msg : Dns1123SubdomainErrors(meta.name)) {
      errs.push_back(Invalid("metadata.name", Quote(meta.name), std::move(msg)));
    }
  }
  if (!meta.namespace_.empty()) {
    for (std::string& msg : Dns1123LabelErrors(meta.namespace_)) {
      errs.push_back(Invalid("metadata.namespace", Quote(meta.namespace_), std::move(msg)));
    }
  }
  for (FieldError& e : ValidateLabels(meta.labels, "metadata.labels")) errs.push_back(std::move(e));
  for (FieldError& e : ValidateAnnotations(meta.annotations, "metadata.annotations")) {
    errs.push_back(std::move(e));
  }
  return errs;
}

}  // namespace wasched::validation
