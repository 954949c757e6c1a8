// File: validation/object_meta_validation.cc
#include "validation/object_meta_validation.h"

#include <utility>

#include "validation/names.h"

namespace wasched::validation {

ErrorList ValidateObjectMeta(const api::ObjectMeta& meta) {
  ErrorList errs;
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
  return errs;
}

}  // namespace wasched::validation
