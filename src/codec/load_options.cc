// File: codec/load_options.cc
#include "codec/load_options.h"

#include <fmt/format.h>

namespace wasched::codec {

tl::expected<FieldValidation, std::string> ParseFieldValidation(std::string_view text) {
  if (text == "strict" || text == "true") return FieldValidation::kStrict;
  if (text == "warn") return FieldValidation::kWarn;
  if (text == "ignore" || text == "false") return FieldValidation::kIgnore;
  return tl::unexpected(fmt::format(
      "invalid --validate value \"{}\": must be one of strict (or true), warn, ignore (or false)",
      text));
}

}  // namespace wasched::codec
