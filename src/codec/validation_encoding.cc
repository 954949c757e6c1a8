#include "codec/validation_encoding.h"

#include <nlohmann/json.hpp>

namespace wasched::codec {

std::string EncodeValidationReportJson(const InputErrors& errors) {
  using Json = nlohmann::ordered_json;
  Json list = Json::array();
  for (const InputError& e : errors) {
    list.push_back(Json{{"object", e.object},
                        {"type", FieldErrorTypeName(e.error.type)},
                        {"field", e.error.field},
                        {"origin", e.error.origin},
                        {"detail", e.error.detail}});
  }
  Json doc{{"errors", std::move(list)}};
  return doc.dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
}

}  // namespace wasched::codec
