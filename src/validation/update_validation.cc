// File: validation/update_validation.cc
#include "validation/update_validation.h"

namespace wasched::validation {

bool CheckNoSetNoUnset(bool set, const bool* old_set, const std::string& path, ErrorList* errs) {
  if (old_set == nullptr || *old_set == set) return false;
  errs->push_back(set ? NoSetError(path) : NoUnsetError(path));
  return true;
}

}  // namespace wasched::validation
